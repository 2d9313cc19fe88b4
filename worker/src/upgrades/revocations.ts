import {appConfig} from '../../../src/config';
import {effectivePlan, effectiveSeats} from '../purchases';
/**
 * Refunds and disputes of an upgrade's own payment, beside a purchase's (payments/revocations.ts):
 * they take back only what the upgrade added. The upgrade is no longer paid, so its purchase gives
 * the plan it had before (purchases.ts `effectivePlan`), or the seats it had before
 * (`effectiveSeats`: the members on the seats it loses lose them, team/removeMember.ts); the
 * purchase and its other seats' access stay. A refused upgrade (a duplicate, refunded by the
 * worker) stays refused. Seats given back by a dispute won come back empty: the owner gives them again.
 */

/** The statement that revokes the paid upgrade this payment bought; a final reason replaces `disputed`. */
export function revokeUpgradeStatement(
  db: D1Database,
  paymentIntentId: string,
  reason: string,
  now: number,
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE upgrades SET status = 'revoked', updated_at = ?3,
         revoke_reason = CASE WHEN revoke_reason IS NULL OR revoke_reason = 'disputed' THEN ?2 ELSE revoke_reason END
       WHERE payment_intent_id = ?1 AND status IN ('paid', 'revoked')
       RETURNING purchase_session_id, seats_added`,
    )
    .bind(paymentIntentId, reason, now);
}

/** SQL for a stored plan (`expr`: an id, or a name stored before ids were) as the config's id. */
function planIdOf(expr: string): string {
  const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`;
  return `(CASE ${expr} ${appConfig.plans.map((plan) => `WHEN ${quoted(plan.name)} THEN ${quoted(plan.id)}`).join(' ')} ELSE ${expr} END)`;
}

/** SQL for whether another payment has bought the move `alias` makes since (a seat upgrade has none). */
const MOVE_BOUGHT_AGAIN = (alias: string) =>
  `(${alias}.seats_added = 0 AND EXISTS (SELECT 1 FROM upgrades o WHERE o.purchase_session_id = ${alias}.purchase_session_id
    AND o.to_plan = ${alias}.to_plan AND o.status = 'paid' AND o.seats_added = 0))`;

/**
 * SQL for whether the upgrade `alias` may stand on its purchase as the purchase is now: the plan
 * and the seats it was priced for (a move up for every seat then, seats added to the plan held
 * then), and no other payment that bought the same move since. What fulfilment holds a payment to,
 * asked again of an upgrade that comes back from a dispute.
 */
function standsNow(alias: string): string {
  return `EXISTS (SELECT 1 FROM purchases p WHERE p.session_id = ${alias}.purchase_session_id AND p.status = 'paid'
      AND ${planIdOf(effectivePlan('p'))} = ${alias}.from_plan AND ${effectiveSeats('p')} = ${alias}.from_seats)
    AND NOT ${MOVE_BOUGHT_AGAIN(alias)}`;
}

/**
 * The statements, for one batch, that settle an upgrade whose only dispute is won (`unsettled`: the
 * SQL that is true while a dispute of ?1 is still open or lost): applied again when it still stands
 * on its purchase (`standsNow`), returning its purchase; else refused, as fulfilment refuses a
 * payment that would not apply (`duplicate` when another payment bought the move, else `stale`: a
 * team that added seats or moved up meanwhile has not paid for it as it is now), returning it for
 * its payment to be refunded (upgrades/fulfilment.ts `refundRefused`), since it buys nothing.
 */
export function backFromDisputeStatements(
  db: D1Database,
  paymentIntentId: string,
  unsettled: string,
  now: number,
): [restore: D1PreparedStatement, refuse: D1PreparedStatement] {
  const backFromDispute = `payment_intent_id = ?1 AND status = 'revoked' AND revoke_reason = 'disputed' AND NOT ${unsettled}`;
  return [
    db
      .prepare(
        `UPDATE upgrades SET status = 'paid', revoke_reason = NULL, updated_at = ?2
         WHERE ${backFromDispute} AND ${standsNow('upgrades')}
         RETURNING purchase_session_id`,
      )
      .bind(paymentIntentId, now),
    db
      .prepare(
        `UPDATE upgrades SET status = 'refused', updated_at = ?2,
           refused_reason = CASE WHEN ${MOVE_BOUGHT_AGAIN('upgrades')} THEN 'duplicate' ELSE 'stale' END
         WHERE ${backFromDispute}
         RETURNING session_id, refused_reason`,
      )
      .bind(paymentIntentId, now),
  ];
}

/**
 * Stripe's amount refunded of an upgrade's payment, as payments/revocations.ts `recordAmountRefunded`
 * takes it (only more, unless `asItStands`); whether it changed.
 */
export async function recordUpgradeRefund(
  db: D1Database,
  paymentIntentId: string,
  amountRefunded: number,
  {asItStands = false} = {},
): Promise<boolean> {
  const recorded = await db
    .prepare(
      `UPDATE upgrades SET amount_refunded = ?2, updated_at = ?3
       WHERE payment_intent_id = ?1 AND (amount_refunded < ?2 OR (?4 = 1 AND amount_refunded != ?2)) RETURNING session_id`,
    )
    .bind(paymentIntentId, amountRefunded, Date.now(), asItStands ? 1 : 0)
    .first();
  return recorded !== null;
}
