import type Stripe from 'stripe';
import {planAmount, upgradeCreditName} from '../../../src/config';
import type {AuthUser} from '../auth/user';
import {checkoutOptions} from '../payments/checkoutOptions';
import type {Settings} from '../settings';
import {UPGRADE_KIND, UPGRADE_METADATA} from './metadata';
import type {UpgradeQuote} from './quote';

/**
 * The Checkout Session for an upgrade: the higher plan's own price, less a one-time credit for the
 * plan already bought (an `amount_off` coupon named "Credit for your Starter purchase"), so the
 * buyer's receipt reads what happened. Checkout takes either `discounts` or
 * `allow_promotion_codes`, not both: the worker has priced the upgrade, so promotion codes are off.
 * The coupon is the upgrade's alone (one redemption), and the session carries the purchase it
 * upgrades in its metadata.
 */
export async function createUpgradeCheckout(
  stripe: Stripe,
  settings: Settings,
  request: {quote: UpgradeQuote; user: AuthUser; successUrl: string; cancelUrl: string},
): Promise<{session: Stripe.Checkout.Session; couponId: string}> {
  const {quote, user} = request;
  const coupon = await stripe.coupons.create({
    amount_off: planAmount(quote.from),
    currency: quote.currency,
    duration: 'once',
    max_redemptions: 1,
    name: upgradeCreditName(quote.from),
    metadata: {[UPGRADE_METADATA.upgradeOf]: quote.purchase.session_id},
  });
  const session = await stripe.checkout.sessions.create({
    mode: 'payment',
    line_items: [{price: quote.to.priceId[settings.stripeMode], quantity: 1}],
    discounts: [{coupon: coupon.id}],
    client_reference_id: user.uid,
    // The purchase's own Stripe customer, so both receipts are in one billing portal. Checkout then
    // needs leave to save the name and address it collects for tax (Stripe refuses otherwise).
    ...(quote.purchase.customer_id
      ? {customer: quote.purchase.customer_id, customer_update: {name: 'auto', address: 'auto'}}
      : {customer_creation: 'always', ...(user.email && {customer_email: user.email})}),
    ...checkoutOptions(settings.siteOrigin),
    metadata: {
      [UPGRADE_METADATA.kind]: UPGRADE_KIND,
      [UPGRADE_METADATA.upgradeOf]: quote.purchase.session_id,
      [UPGRADE_METADATA.fromPlan]: quote.from.id,
      [UPGRADE_METADATA.toPlan]: quote.to.id,
      [UPGRADE_METADATA.amount]: String(quote.amount),
    },
    success_url: request.successUrl,
    cancel_url: request.cancelUrl,
  });
  return {session, couponId: coupon.id};
}
