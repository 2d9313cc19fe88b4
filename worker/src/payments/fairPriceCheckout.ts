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
  return {discounts: [{coupon}], metadata: fairPriceMetadata({country, percentOff})};
}

/** A discount given for a country: the country (ISO 3166-1 alpha-2, upper-case) and its whole percent off. */
export interface GivenFairPrice {
  country: string;
  percentOff: number;
}

/**
 * What a session sold at a fair price records in its metadata: the country and the percent. After
 * payment, the card that paid is checked against that country (cardCountry.ts), whether the
 * session is a purchase or an upgrade.
 */
export function fairPriceMetadata(given: GivenFairPrice): Record<string, string> {
  return {[FAIR_PRICE_COUNTRY_KEY]: given.country, [FAIR_PRICE_PERCENT_KEY]: String(given.percentOff)};
}

/** What `heldFairPrice` reads of a purchase (purchases.ts `Purchase`; not imported, as the site's stand-ins import this file). */
interface FairPricedPurchase {
  fair_price_country?: string | null;
  fair_price_percent?: number | null;
  country_flagged?: number;
}

/**
 * The discount a purchase's upgrade is sold at: the purchase's own (its country and percent), once
 * its card's country is settled. While the purchase or one of its upgrades is flagged for its
 * card's country (purchases.ts `countryFlagged`), the discount is in doubt, as it was for the
 * purchase until the seller looks: the upgrade is priced without it. The seller's accept settles
 * it, and the discount applies again; a refund ends the purchase, and with it any upgrade.
 */
export function heldFairPrice(purchase: FairPricedPurchase): GivenFairPrice | null {
  const {fair_price_country: country, fair_price_percent: percentOff} = purchase;
  if (!country || !percentOff || purchase.country_flagged) return null;
  return {country, percentOff};
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
