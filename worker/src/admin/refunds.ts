import Stripe from 'stripe';
import type {AdminRefundRequest} from '../../../src/config/api';
import {formatMoney} from '../../../src/config/money';
import {HttpError} from '../errors';
import {isLiveKey} from '../payments/stripeClient';
import {paymentProviderError, stripeFor} from '../payments/stripe';
import {settingsOf} from '../settings';

/**
 * A refund from the seller's console, through Stripe. What is left to refund is read from Stripe's
 * charge at the moment of the refund, never from D1 or the browser: D1 learns of refunds only from
 * webhooks, which may still be on their way. Stripe's `charge.refunded` webhook that follows does
 * the rest, as for a refund made in Stripe's dashboard: a full refund revokes access, a partial one
 * keeps it.
 */
export interface RefundOutcome {
  refunded: number;
  /** What is left to refund after this one: 0 for a full refund. */
  left: number;
  currency: string;
  refundId: string;
}

const ALREADY_REFUNDED = 'This payment has already been refunded in full.';

export async function refundPayment(
  stripe: Stripe,
  payment: {paymentIntentId: string; sessionId: string; admin: string},
  request: AdminRefundRequest,
): Promise<RefundOutcome> {
  const charge = await paidCharge(stripe, payment.paymentIntentId);
  const left = charge.amount - charge.amount_refunded;
  const currency = charge.currency;
  if (left <= 0) throw new HttpError(409, ALREADY_REFUNDED, 'CONFLICT');
  const amount = request.amount ?? left;
  if (amount > left) {
    throw new HttpError(
      400,
      `At most ${formatMoney(left, currency)} is left to refund on this payment (${formatMoney(charge.amount_refunded, currency)} of ${formatMoney(charge.amount, currency)} refunded already).`,
    );
  }
  let refund: Stripe.Refund;
  try {
    refund = await stripe.refunds.create({
      payment_intent: payment.paymentIntentId,
      amount,
      reason: request.reason,
      // Found again from Stripe's dashboard: which purchase, and who asked.
      metadata: {session_id: payment.sessionId, refunded_by: payment.admin},
    });
  } catch (err) {
    throw refusal(err);
  }
  if (refund.status === 'failed' || refund.status === 'canceled') {
    throw new HttpError(502, `Stripe did not refund the payment (${refund.status}). Nothing was refunded.`, 'PAYMENT_PROVIDER');
  }
  return {refunded: refund.amount, left: left - refund.amount, currency, refundId: refund.id};
}

/**
 * After a purchase is refunded in full from the console: each of its paid upgrades is refunded in
 * full too, so that the buyer is not left paying for an upgrade of a purchase they no longer hold.
 * Returns what to add to the console's line ('' when the purchase had none); an upgrade Stripe
 * would not refund is named there, for the seller to refund from its own row.
 */
export async function refundUpgradesOf(env: Env, purchaseSessionId: string, admin: string, reason: AdminRefundRequest['reason']): Promise<string> {
  const {results} = await env.DB.prepare(
    `SELECT session_id, payment_intent_id FROM upgrades WHERE purchase_session_id = ?1 AND status = 'paid' AND payment_intent_id IS NOT NULL`,
  )
    .bind(purchaseSessionId)
    .all<{session_id: string; payment_intent_id: string}>();
  const parts: string[] = [];
  for (const upgrade of results) {
    try {
      const refund = await refundPayment(stripeFor(settingsOf(env)), {paymentIntentId: upgrade.payment_intent_id, sessionId: upgrade.session_id, admin}, {reason});
      parts.push(`its upgrade's ${formatMoney(refund.refunded, refund.currency)} too (Stripe ${refund.refundId})`);
    } catch (err) {
      // Already refunded in full is what was wanted; anything else is for the seller to see.
      if (err instanceof HttpError && err.message === ALREADY_REFUNDED) continue;
      parts.push(`its upgrade ${upgrade.session_id} was NOT refunded (${err instanceof Error ? err.message : String(err)}): refund it from its row`);
    }
  }
  return parts.map((part) => `, ${part}`).join('');
}

/** The payment's charge, which must have gone through: there is nothing to refund before that. */
async function paidCharge(stripe: Stripe, paymentIntentId: string): Promise<Stripe.Charge> {
  let intent: Stripe.PaymentIntent;
  try {
    intent = await stripe.paymentIntents.retrieve(paymentIntentId, {expand: ['latest_charge']});
  } catch (err) {
    throw refusal(err);
  }
  const charge = intent.latest_charge;
  if (intent.status !== 'succeeded' || !charge || typeof charge === 'string') {
    throw new HttpError(409, 'This payment has not gone through, so there is nothing to refund yet.', 'CONFLICT');
  }
  return charge;
}

/**
 * Stripe's refusals that a seller can act on, in our words (another refund got there first);
 * anything else is the payment provider's failure, its text kept for the logs.
 */
function refusal(err: unknown): HttpError {
  if (err instanceof Stripe.errors.StripeInvalidRequestError) {
    if (err.code === 'charge_already_refunded') {
      return new HttpError(409, ALREADY_REFUNDED, 'CONFLICT');
    }
    if (err.code === 'amount_too_large') {
      return new HttpError(409, 'Another refund of this payment got there first: read the purchase again and refund what is left.', 'CONFLICT');
    }
    if (err.code === 'charge_disputed' || err.code === 'refund_disputed_payment') {
      return new HttpError(409, 'The buyer has disputed this payment: answer the dispute in Stripe instead of refunding.', 'CONFLICT');
    }
  }
  return paymentProviderError(err);
}

/** The payment's page in Stripe's dashboard, in the mode of the worker's key (test pages sit under /test). */
export function stripePaymentUrl(secretKey: string | undefined, paymentIntentId: string | null): string | null {
  if (!paymentIntentId) return null;
  return `https://dashboard.stripe.com/${isLiveKey(secretKey) ? '' : 'test/'}payments/${encodeURIComponent(paymentIntentId)}`;
}
