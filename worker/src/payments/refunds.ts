import Stripe from 'stripe';
import type {AdminRefundRequest} from '../../../src/config/api';
import {formatMoney} from '../../../src/config/money';
import {HttpError} from '../errors';
import {isLiveKey} from './stripeClient';
import {recordAmountRefunded} from './revocations';
import {paymentProviderError, stripeFor} from './stripe';
import {settingsOf} from '../settings';
import type {Context} from '../context';

/**
 * A refund through Stripe: the seller's, from the console, or the buyer's own, from the dashboard
 * (the money-back guarantee: selfRefund.ts). What is left to refund is read from Stripe's
 * charge at the moment of the refund, never from D1 or the browser: a refund made in Stripe's
 * dashboard reaches D1 only with its webhook, which may still be on its way (what Stripe says is
 * refunded is recorded in D1 here too). Stripe's `charge.refunded` webhook that follows does
 * the rest, as for a refund made in Stripe's dashboard: a full refund revokes access, a partial one
 * keeps it.
 *
 * Idempotent: a refund is one action, named by the worker from what it was decided on (the
 * payment, and how much of it the seller's page showed refunded: `refundedBefore`), or, for an
 * upgrade refunded with its purchase, by the purchase's own action. The name is Stripe's
 * idempotency key and is written on the refund (metadata `console_action`), so the same action
 * asked again (a double click, a second tab, another admin) makes no second refund: asked while
 * the first is on its way, Stripe answers it the first one's refund; asked after, the worker finds
 * that refund on the charge and answers it. A new refund is made only while Stripe has refunded
 * exactly what the page showed. Stripe keeps a key for 24 hours; the metadata has no such limit.
 */
export interface RefundOutcome {
  refunded: number;
  /** What is left to refund after this one: 0 for a full refund. */
  left: number;
  currency: string;
  refundId: string;
  /** The action's name, for the refunds that are part of it (refundUpgradesOf). */
  action: string;
}

/**
 * What a refund action was decided on: the amount refunded as the seller's page showed it, or the
 * console action (of the purchase) this refund is part of, which refunds all that is left.
 */
export type RefundAction = {refundedBefore: number} | {partOf: string};

export const ALREADY_REFUNDED = 'This payment has already been refunded in full.';
/** The same action still running at Stripe, from another request. */
export const IN_FLIGHT = 'This refund is already on its way from another request: read the purchase again in a moment.';
const RACED = 'Another refund of this payment got there first: read the purchase again and refund what is left.';
/** The refund's metadata key that holds the action's name. */
const ACTION = 'console_action';

/** The refund's metadata key that holds how many seats it gave back. */
const SEATS = 'seats_refunded';

/**
 * A refund that gave seats back, as its metadata says (migration 0040): one row per refund, so the
 * same refund recorded twice counts once. The seats come off the purchase's count at once.
 */
async function recordSeatRefund(db: D1Database, refund: Stripe.Refund, payment: {sessionId: string; by: string}) {
  const seats = Number(refund.metadata?.[SEATS] ?? 0);
  if (!Number.isInteger(seats) || seats < 1) return;
  await db
    .prepare(
      `INSERT INTO seat_refunds (refund_id, session_id, seats, amount, currency, refunded_by, created_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (refund_id) DO NOTHING`,
    )
    .bind(refund.id, payment.sessionId, seats, refund.amount, refund.currency, payment.by, Date.now())
    .run();
}

/**
 * Brings D1's seats refunded of a payment in step with Stripe's refunds of it, before they are
 * counted: a refund whose row was never written (the worker stopped between Stripe's answer and
 * D1) is recorded, and one Stripe did not pay out after all is forgotten, its seats back. Without
 * it a seller reading the page again would be offered, and pay, the same seats twice.
 */
export async function syncSeatRefunds(
  context: Pick<Context, 'db' | 'settings'>,
  payment: {paymentIntentId: string; sessionId: string},
) {
  const charge = await paidCharge(stripeFor(context.settings), payment.paymentIntentId);
  for (const refund of charge.refunds?.data ?? []) {
    if (refund.metadata?.[SEATS] === undefined) continue;
    if (undone(refund)) await forgetSeatRefund(context.db, refund.id);
    else
      await recordSeatRefund(context.db, refund, {
        sessionId: payment.sessionId,
        by: refund.metadata?.refunded_by ?? 'stripe',
      });
  }
}

/** A seat refund Stripe did not pay out after all (failed or canceled): its seats come back, empty. */
export async function forgetSeatRefund(db: D1Database, refundId: string): Promise<boolean> {
  const forgotten = await db
    .prepare('DELETE FROM seat_refunds WHERE refund_id = ?1 RETURNING refund_id')
    .bind(refundId)
    .first();
  return forgotten !== null;
}

/** A refund Stripe will not pay out after all: it is not the answer to any action. */
const undone = (refund: Stripe.Refund) => refund.status === 'failed' || refund.status === 'canceled';

export async function refundPayment(
  env: Env,
  payment: {
    paymentIntentId: string;
    sessionId: string;
    by: string;
    /** Seats of a team purchase this refund gives back (the console's seat refund): recorded with it. */
    seats?: number;
  },
  request: Pick<AdminRefundRequest, 'amount' | 'reason'>,
  action: RefundAction,
): Promise<RefundOutcome> {
  const stripe = stripeFor(settingsOf(env));
  const charge = await paidCharge(stripe, payment.paymentIntentId);
  // What Stripe says is refunded is what the console shows next, without waiting for the webhook:
  // as it stands, lower too (a refund that failed since), so the page read again matches Stripe.
  await recordAmountRefunded(env.DB, payment.paymentIntentId, charge.amount_refunded, {asItStands: true});
  const currency = charge.currency;
  // The newest ten, as Stripe lists a charge's refunds: the one an action made on the same view is
  // among them, or so much has been refunded since that the amount no longer matches the view.
  const refunds = charge.refunds?.data ?? [];
  // A refund that failed leaves the amount as it was: the same action may be asked again, so the
  // name counts them, and such a retry is an action of its own.
  const failed = refunds.filter(undone).length;
  const key =
    'partOf' in action
      ? `${action.partOf}+${payment.paymentIntentId}:${failed}`
      : `console-refund:${payment.paymentIntentId}:${action.refundedBefore}:${failed}${
          // A refund of seats is an action of its own: never answered by a refund of an amount.
          payment.seats === undefined ? '' : `:seats-${payment.seats}`
        }`;
  const done = refunds.find((refund) => refund.metadata?.[ACTION] === key && !undone(refund));
  if (done) {
    // The same action, asked again: the refund it made is the answer, if it is the one asked for
    // ("all that is left" on the page's view, or on the purchase's action's, which is the same refund).
    const asked = request.amount ?? ('refundedBefore' in action ? charge.amount - action.refundedBefore : done.amount);
    const same = done.amount === asked && done.reason === request.reason;
    if (!same) throw new HttpError(409, RACED, 'CONFLICT');
    // Recorded again, should the first answer have stopped before it was (one row per refund).
    await recordSeatRefund(env.DB, done, payment);
    return {
      refunded: done.amount,
      left: charge.amount - charge.amount_refunded,
      currency,
      refundId: done.id,
      action: key,
    };
  }
  if ('refundedBefore' in action && charge.amount_refunded !== action.refundedBefore) {
    throw new HttpError(
      409,
      `This payment changed since the page was read: Stripe has refunded ${formatMoney(charge.amount_refunded, currency)} of it, not ${formatMoney(action.refundedBefore, currency)}. Read the purchase again.`,
      'CONFLICT',
    );
  }
  const left = charge.amount - charge.amount_refunded;
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
    refund = await stripe.refunds.create(
      {
        payment_intent: payment.paymentIntentId,
        amount,
        reason: request.reason,
        // Found again from Stripe's dashboard: which purchase, who asked, and the action.
        metadata: {
          session_id: payment.sessionId,
          refunded_by: payment.by,
          [ACTION]: key,
          ...(payment.seats !== undefined && {[SEATS]: String(payment.seats)}),
        },
      },
      {idempotencyKey: key},
    );
  } catch (err) {
    throw refusal(err);
  }
  if (undone(refund)) {
    throw new HttpError(
      502,
      `Stripe did not refund the payment (${refund.status}). Nothing was refunded.`,
      'PAYMENT_PROVIDER',
    );
  }
  // The seats first: a page read between the two never shows the money back and the seats still held.
  await recordSeatRefund(env.DB, refund, payment);
  await recordAmountRefunded(env.DB, payment.paymentIntentId, charge.amount_refunded + refund.amount);
  return {refunded: refund.amount, left: left - refund.amount, currency, refundId: refund.id, action: key};
}

/**
 * After a purchase is refunded in full from the console: each of its paid upgrades is refunded in
 * full too, so that the buyer is not left paying for an upgrade of a purchase they no longer hold.
 * Returns what to add to the console's line ('' when the purchase had none); an upgrade Stripe
 * would not refund is named there, for the seller to refund from its own row.
 */
export async function refundUpgradesOf(
  env: Env,
  purchaseSessionId: string,
  by: string,
  reason: AdminRefundRequest['reason'],
  partOf: string,
): Promise<string> {
  const {results} = await env.DB.prepare(
    `SELECT session_id, payment_intent_id FROM upgrades WHERE purchase_session_id = ?1 AND status = 'paid' AND payment_intent_id IS NOT NULL`,
  )
    .bind(purchaseSessionId)
    .all<{session_id: string; payment_intent_id: string}>();
  const parts: string[] = [];
  for (const upgrade of results) {
    try {
      const refund = await refundPayment(
        env,
        {paymentIntentId: upgrade.payment_intent_id, sessionId: upgrade.session_id, by},
        {reason},
        {partOf},
      );
      parts.push(`its upgrade's ${formatMoney(refund.refunded, refund.currency)} too (Stripe ${refund.refundId})`);
    } catch (err) {
      // Already refunded in full is what was wanted; anything else is for the seller to see.
      if (err instanceof HttpError && err.message === ALREADY_REFUNDED) continue;
      parts.push(
        `its upgrade ${upgrade.session_id} was NOT refunded (${err instanceof Error ? err.message : String(err)}): refund it from its row`,
      );
    }
  }
  return parts.map((part) => `, ${part}`).join('');
}

/** The payment's charge, which must have gone through: there is nothing to refund before that. */
export async function paidCharge(stripe: Stripe, paymentIntentId: string): Promise<Stripe.Charge> {
  let intent: Stripe.PaymentIntent;
  try {
    // With its refunds, to find the refund an action made (Stripe lists a charge's refunds only when asked).
    intent = await stripe.paymentIntents.retrieve(paymentIntentId, {expand: ['latest_charge.refunds']});
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
  // The same action asked with other parameters (another admin, another reason) while the first
  // was on its way: Stripe refuses the key's reuse, and the first one stands.
  if (err instanceof Stripe.errors.StripeIdempotencyError) return new HttpError(409, RACED, 'CONFLICT');
  // The same action still running at Stripe after the client's retry (a 409): its answer is the one to read.
  if (err instanceof Stripe.errors.StripeError && err.code === 'idempotency_key_in_use') {
    return new HttpError(409, IN_FLIGHT, 'CONFLICT');
  }
  if (err instanceof Stripe.errors.StripeInvalidRequestError) {
    if (err.code === 'charge_already_refunded') {
      return new HttpError(409, ALREADY_REFUNDED, 'CONFLICT');
    }
    if (err.code === 'amount_too_large') return new HttpError(409, RACED, 'CONFLICT');
    if (err.code === 'charge_disputed' || err.code === 'refund_disputed_payment') {
      return new HttpError(
        409,
        'The buyer has disputed this payment: answer the dispute in Stripe instead of refunding.',
        'CONFLICT',
      );
    }
  }
  return paymentProviderError(err);
}

/** The payment's page in Stripe's dashboard, in the mode of the worker's key (test pages sit under /test). */
export function stripePaymentUrl(secretKey: string | undefined, paymentIntentId: string | null): string | null {
  if (!paymentIntentId) return null;
  return `https://dashboard.stripe.com/${isLiveKey(secretKey) ? '' : 'test/'}payments/${encodeURIComponent(paymentIntentId)}`;
}
