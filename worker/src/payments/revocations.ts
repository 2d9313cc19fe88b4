import type Stripe from 'stripe';
import {reconcileSoon} from '../access/grants/reconcileSoon';
import {takeBackEvery} from '../access/grants/removal';
import {contextOf} from '../context';
import {log} from '../log';
import {type Refusal, refundRefused} from '../upgrades/fulfilment';
import {backFromDisputeStatements, recordUpgradeRefund, revokeUpgradeStatements} from '../upgrades/revocations';
import {endSeatsPast} from '../team/removeMember';
import {idOf} from './stripe';

/**
 * Refunds and disputes, by payment intent. A full refund and a lost dispute are final; an open
 * dispute takes access away until it closes, and a dispute won gives it back. Stripe may deliver
 * these in any order, and before the purchase's own completion, so each is stored first.
 */
export type RevokeReason = 'refunded' | 'disputed' | 'dispute lost';

/** Dispute statuses that end a dispute in the seller's favour (`warning_closed`: an inquiry dropped). */
const CLOSED_WON = ['won', 'warning_closed'];
const CLOSED = [...CLOSED_WON, 'lost'];

/**
 * How much Stripe has refunded of a payment, as Stripe said (a `charge.refunded` webhook, or the
 * console's own refund as Stripe answered it). Kept by payment intent too, first, for a purchase
 * whose completion has not arrived yet (fulfilment reads it when it records the purchase). A
 * webhook's figure is a copy of the charge at one moment, and copies arrive in any order: it is
 * taken only when it is more than D1 has. `asItStands`: the figure was just read from Stripe's charge
 * (the console's refund reads it, and so does a refund that failed: Stripe then lowers it), so it
 * is taken lower too; D1 kept above Stripe's own figure, the console's page would never match
 * Stripe again, and every refund from it would be refused. Its time is when the amount last grew:
 * the buyer's dashboard dates the refund by it (standing.ts), so a late copy of an event, or the
 * console reading the charge before a refund it then refuses, leaves it. Whether a purchase or an
 * upgrade changed.
 */
export async function recordAmountRefunded(
  db: D1Database,
  paymentIntentId: string,
  amountRefunded: number,
  {asItStands = false} = {},
): Promise<boolean> {
  const now = Date.now();
  const taken = asItStands ? 1 : 0;
  await db
    .prepare(
      `INSERT INTO payment_refunds (payment_intent_id, amount_refunded, updated_at) VALUES (?1, ?2, ?3)
       ON CONFLICT (payment_intent_id) DO UPDATE SET amount_refunded = excluded.amount_refunded,
         updated_at = CASE WHEN excluded.amount_refunded > payment_refunds.amount_refunded THEN excluded.updated_at ELSE payment_refunds.updated_at END
         WHERE excluded.amount_refunded > payment_refunds.amount_refunded OR (?4 = 1 AND excluded.amount_refunded != payment_refunds.amount_refunded)`,
    )
    .bind(paymentIntentId, amountRefunded, now, taken)
    .run();
  const recorded = await db
    .prepare(
      `UPDATE purchases SET amount_refunded = ?2, updated_at = ?3
       WHERE payment_intent_id = ?1 AND (amount_refunded < ?2 OR (?4 = 1 AND amount_refunded != ?2)) RETURNING session_id`,
    )
    .bind(paymentIntentId, amountRefunded, now, taken)
    .first();
  const upgradeRecorded = await recordUpgradeRefund(db, paymentIntentId, amountRefunded, {asItStands});
  return recorded !== null || upgradeRecorded;
}

/**
 * Takes access away for a payment. The revocation is stored by payment intent first, so that a
 * completion arriving later still ends revoked; a final reason replaces `disputed`, never the
 * other way round.
 */
export async function revokePayment(env: Env, paymentIntentId: string, reason: RevokeReason) {
  const now = Date.now();
  const [, updated, upgrades, credited] = await env.DB.batch<{
    session_id: string;
    purchase_session_id: string;
    payment_intent_id: string;
    seats_added: number;
  }>([
    env.DB.prepare(
      `INSERT INTO payment_revocations (payment_intent_id, reason, created_at) VALUES (?1, ?2, ?3)
       ON CONFLICT (payment_intent_id) DO UPDATE SET reason = excluded.reason
         WHERE payment_revocations.reason = 'disputed'`,
    ).bind(paymentIntentId, reason, now),
    env.DB.prepare(
      `UPDATE purchases SET status = 'revoked', updated_at = ?3,
         revoke_reason = CASE WHEN revoke_reason IS NULL OR revoke_reason = 'disputed' THEN ?2 ELSE revoke_reason END
       WHERE payment_intent_id = ?1
       RETURNING session_id`,
    ).bind(paymentIntentId, reason, now),
    // A payment of an upgrade takes back only the upgrade (its purchase has another payment), and,
    // for good, the later upgrades whose price credited it.
    ...revokeUpgradeStatements(env.DB, paymentIntentId, reason, now),
  ]);
  // Each later upgrade refused for it goes back to its payer, as a refused payment does: first, as
  // a retry of this event finds it refused already, and refunding never throws (refundRefused).
  for (const {session_id, payment_intent_id} of credited!.results) {
    log.error('upgrade.refused', {sessionId: session_id, reason: 'credited a payment taken back', after: reason});
    await refundRefused(env, session_id, payment_intent_id, 'credited a payment taken back');
  }
  const context = contextOf(env);
  for (const {session_id} of updated!.results) {
    await takeBackEvery(context, session_id, reason);
  }
  // An upgrade's payment: its purchase is back to the plan before, and what the upgrade added goes:
  // its plan's repositories, or its seats (the members on them first, so the reconcile finds them left).
  for (const {purchase_session_id, seats_added} of [...upgrades!.results, ...credited!.results]) {
    if (seats_added > 0) await endSeatsPast(context, purchase_session_id);
    await reconcileSoon(context, purchase_session_id, `upgrade-revoked:${paymentIntentId}:${reason}:${now}`);
  }
  log.info('payment.revoked', {paymentIntentId, reason, purchases: updated!.results.length});
}

/**
 * A dispute closed in the seller's favour: the payment stands again, unless it was refunded, lost
 * another dispute, or has one still open.
 */
async function restorePayment(env: Env, paymentIntentId: string) {
  const unsettled = `EXISTS (SELECT 1 FROM disputes WHERE payment_intent_id = ?1 AND status NOT IN ('won', 'warning_closed'))`;
  const now = Date.now();
  const [, restored, upgrades, refused] = await env.DB.batch<{
    session_id: string;
    purchase_session_id: string;
    payment_intent_id: string;
    refused_reason: Refusal;
  }>([
    env.DB.prepare(
      `DELETE FROM payment_revocations WHERE payment_intent_id = ?1 AND reason = 'disputed' AND NOT ${unsettled}`,
    ).bind(paymentIntentId),
    env.DB.prepare(
      `UPDATE purchases SET status = 'paid', revoke_reason = NULL, updated_at = ?2
       WHERE payment_intent_id = ?1 AND status = 'revoked' AND revoke_reason = 'disputed' AND NOT ${unsettled}
       RETURNING session_id`,
    ).bind(paymentIntentId, Date.now()),
    // After the purchase's restore: an upgrade that waited for its purchase's dispute settles with it.
    ...backFromDisputeStatements(env.DB, paymentIntentId, Date.now()),
  ]);
  const context = contextOf(env);
  // Its seat and every repository its plan grants come back to its account (reconcile.ts).
  for (const {session_id} of restored!.results) {
    await reconcileSoon(context, session_id, `restored:${paymentIntentId}:${now}`);
  }
  for (const {purchase_session_id} of upgrades!.results) {
    await reconcileSoon(context, purchase_session_id, `upgrade-restored:${paymentIntentId}:${now}`);
  }
  // Won, but no longer what the purchase is (seats added or a move since, or the purchase gone): it
  // buys nothing, so it goes back.
  for (const {session_id, payment_intent_id, refused_reason} of refused!.results) {
    log.error('upgrade.refused', {sessionId: session_id, reason: refused_reason, after: 'dispute won'});
    await refundRefused(env, session_id, payment_intent_id, refused_reason);
  }
  log.info('payment.restored', {paymentIntentId, purchases: restored!.results.length});
}

/**
 * A dispute was opened or closed. Its status is recorded by dispute id; a closed dispute's status
 * is final, so a late event about it (a `created` after its `closed`) changes nothing.
 */
export async function disputeChanged(env: Env, dispute: Stripe.Dispute): Promise<boolean> {
  const paymentIntentId = idOf(dispute.payment_intent);
  if (!paymentIntentId) return false;
  const recorded = await env.DB.prepare(
    `INSERT INTO disputes (id, payment_intent_id, status, updated_at) VALUES (?1, ?2, ?3, ?4)
     ON CONFLICT (id) DO UPDATE SET status = excluded.status, updated_at = excluded.updated_at
       WHERE disputes.status NOT IN (${CLOSED.map((status) => `'${status}'`).join(', ')})
     RETURNING status`,
  )
    .bind(dispute.id, paymentIntentId, dispute.status, Date.now())
    .first<{status: string}>();
  if (!recorded) {
    log.info('dispute.late_event', {disputeId: dispute.id, status: dispute.status});
    return false;
  }
  if (dispute.status === 'lost') await revokePayment(env, paymentIntentId, 'dispute lost');
  else if (CLOSED_WON.includes(dispute.status)) await restorePayment(env, paymentIntentId);
  else await revokePayment(env, paymentIntentId, 'disputed');
  return true;
}
