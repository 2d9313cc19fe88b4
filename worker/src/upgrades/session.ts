import type Stripe from 'stripe';
import {fairPriceCreditName, soldInTiers, upgradeCreditName} from '../../../src/config';
import type {AuthUser} from '../auth/user';
import {checkoutOptions} from '../payments/checkoutOptions';
import {fairPriceMetadata} from '../payments/fairPriceCheckout';
import type {Settings} from '../settings';
import {UPGRADE_KIND, UPGRADE_METADATA} from './metadata';
import {type UpgradeQuote, upgradeLine} from './quote';
import {REUSABLE_FOR_MS} from './upgradeCode';

/** The line an upgrade's session sells: its price in the key's mode and the quantity (`upgradeLine`). */
export interface UpgradeLineItem {
  price: string;
  quantity: number;
}

/** The line item the quote sells now, recorded on the upgrade's row (migrations/0042_upgrade_sale.sql). */
export function upgradeLineItem(quote: UpgradeQuote, settings: Settings): UpgradeLineItem {
  const {price, quantity} = upgradeLine(quote.to, quote.seats);
  return {price: price.priceId[settings.stripeMode], quantity};
}

/**
 * The URL of the upgrade session the worker made for this buyer, purchase, plan, amount and line
 * item, and upgrade code (or none), if Stripe still has it open; else null. Only the worker's own
 * rows are looked at, so a session id from the browser plays no part. A session made before the
 * seller changed the plan's price sells the old line, so it does not serve; one priced with a code
 * never serves a request without it, nor one without a code a request with it.
 */
export async function openUpgradeSession(
  db: D1Database,
  stripe: Stripe,
  request: {quote: UpgradeQuote; user: AuthUser; line: UpgradeLineItem},
): Promise<string | null> {
  const {quote, user, line} = request;
  const row = await db
    .prepare(
      `SELECT session_id FROM upgrades WHERE purchase_session_id = ?1 AND user_id = ?2 AND to_plan = ?3 AND amount = ?4 AND status = 'open' AND created_at > ?5
         AND seats_added = ?6 AND from_seats = ?7 AND price_id = ?8 AND quantity = ?9 AND launch_code_id IS ?10
       ORDER BY created_at DESC LIMIT 1`,
    )
    .bind(
      quote.purchase.session_id,
      user.uid,
      quote.to.id,
      quote.amount,
      Date.now() - REUSABLE_FOR_MS,
      quote.seats.added,
      quote.seats.of,
      line.price,
      line.quantity,
      quote.code?.id ?? null,
    )
    .first<{session_id: string}>();
  if (!row) return null;
  try {
    const session = await stripe.checkout.sessions.retrieve(row.session_id);
    return session.status === 'open' && session.url ? session.url : null;
  } catch {
    // Stripe could not say: a new session does no harm.
    return null;
  }
}

/**
 * The Checkout Session for an upgrade: the higher plan's own price (a team's: its price for each
 * seat, times the seats), less a one-time credit for the plan already bought (an `amount_off` coupon
 * named "Credit for your Starter purchase"), so the buyer's receipt reads what happened. Seats added
 * are the team's price times the seats, with a coupon only for a fair-price purchase's percent.
 * Checkout takes either `discounts` or `allow_promotion_codes`, not both: the worker has priced the
 * upgrade, so promotion codes are off; an upgrade code's discount is in the one coupon, which names
 * it ("Starter credit and code SPRING"). The coupon is the upgrade's alone (one redemption), and the
 * session carries the purchase it upgrades in its metadata, the fair price it was sold at, if any
 * (`quote.fairPrice`), and the upgrade code it was priced with, if any.
 */
export async function createUpgradeCheckout(
  stripe: Stripe,
  settings: Settings,
  request: {quote: UpgradeQuote; user: AuthUser; line: UpgradeLineItem; successUrl: string; cancelUrl: string},
): Promise<{session: Stripe.Checkout.Session; couponId: string | null}> {
  const {quote, user, line} = request;
  // Each seat at the price of the seats the purchase holds after it (a team's own price where the
  // plan has one), or the team tier of that size, as the quote priced it: the line is that price's.
  const {price} = upgradeLine(quote.to, quote.seats);
  // What takes the price of what is sold down to the amount quoted: the credit for what was paid
  // (and, for a fair-price buyer, the percent their purchase was sold at; or the upgrade code's
  // discount, which never stacks with a fair price). Seats at list price need none.
  const credit = price.amount * line.quantity - quote.amount;
  // Seats added by the seat are new, so only a fair price takes from them; a move (up, or to a
  // larger tier) is credited what was paid.
  const bySeat = quote.seats.added > 0 && !soldInTiers(quote.to);
  const coupon =
    credit > 0
      ? await stripe.coupons.create({
          amount_off: credit,
          currency: quote.currency,
          duration: 'once',
          max_redemptions: 1,
          name: bySeat
            ? fairPriceCreditName(quote.fairPrice?.percentOff ?? 0)
            : upgradeCreditName(quote.from, quote.fairPrice?.percentOff ?? null, quote.code?.code ?? null),
          metadata: {[UPGRADE_METADATA.upgradeOf]: quote.purchase.session_id},
          // Unused, it lapses with its session (24 hours) instead of staying in the seller's account.
          redeem_by: Math.floor(Date.now() / 1000) + 25 * 60 * 60,
        })
      : null;
  const session = await stripe.checkout.sessions.create({
    mode: 'payment',
    line_items: [line],
    ...(coupon && {discounts: [{coupon: coupon.id}]}),
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
      [UPGRADE_METADATA.seatsAdded]: String(quote.seats.added),
      // Sold at a fair price: the card that pays is checked against its country, as a purchase's is.
      ...(quote.fairPrice && fairPriceMetadata(quote.fairPrice)),
      ...(quote.code && {[UPGRADE_METADATA.launchCode]: quote.code.id}),
    },
    success_url: request.successUrl,
    cancel_url: request.cancelUrl,
  });
  return {session, couponId: coupon?.id ?? null};
}
