import type Stripe from 'stripe';
import {fairPrice, fairPriceCouponId, type Plan} from '../../../src/config';

/** The session's metadata keys: the country and the percent the discount was given for. */
export const FAIR_PRICE_COUNTRY_KEY = 'fairPriceCountry';
export const FAIR_PRICE_PERCENT_KEY = 'fairPricePercent';

export type FairPriceParams = Pick<Stripe.Checkout.SessionCreateParams, 'discounts' | 'allow_promotion_codes'> & {
  metadata: Record<string, string>;
};

/**
 * How the checkout prices the plan for the visitor's country. Stripe takes either `discounts` or
 * `allow_promotion_codes`, never both: with a country discount the session carries its coupon and
 * no promotion-code field (a code on top would stack two discounts); without one, promotion codes
 * work as before. The metadata records what the discount was given for, for the card's country
 * check after payment (cardCountry.ts).
 */
export async function fairPriceParams(stripe: Stripe, plan: Plan, country: string | null): Promise<FairPriceParams> {
  const {percentOff} = fairPrice(plan, country);
  if (percentOff === 0 || !country) return {allow_promotion_codes: true, metadata: {}};
  const coupon = await fairPriceCoupon(stripe, percentOff);
  return {
    discounts: [{coupon}],
    metadata: {[FAIR_PRICE_COUNTRY_KEY]: country, [FAIR_PRICE_PERCENT_KEY]: String(percentOff)},
  };
}

/**
 * The coupon for a percent, made on first use with a stable id (`fair-price-40`), so every
 * checkout at that percent shares one coupon in the seller's Stripe account. Retrieve, else
 * create; two first checkouts at once both try to create it, and the loser finds it made.
 */
export async function fairPriceCoupon(stripe: Stripe, percentOff: number): Promise<string> {
  const id = fairPriceCouponId(percentOff);
  try {
    return (await stripe.coupons.retrieve(id)).id;
  } catch (err) {
    if ((err as {code?: string}).code !== 'resource_missing') throw err;
  }
  try {
    const coupon = await stripe.coupons.create({
      id,
      percent_off: percentOff,
      duration: 'once',
      name: `Fair price: ${percentOff}% off`,
      metadata: {madeBy: 'fair prices worldwide'},
    });
    return coupon.id;
  } catch (err) {
    if ((err as {code?: string}).code === 'resource_already_exists') return id;
    throw err;
  }
}
