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

/**
 * The statement that applies the upgrade again once its only dispute is won (`unsettled`: the SQL
 * that is true while a dispute of ?1 is still open or lost), unless another payment has bought the
 * same upgrade since.
 */
export function restoreUpgradeStatement(
  db: D1Database,
  paymentIntentId: string,
  unsettled: string,
  now: number,
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE upgrades SET status = 'paid', revoke_reason = NULL, updated_at = ?2
       WHERE payment_intent_id = ?1 AND status = 'revoked' AND revoke_reason = 'disputed' AND NOT ${unsettled}
         AND (upgrades.seats_added > 0 OR NOT EXISTS (SELECT 1 FROM upgrades o WHERE o.purchase_session_id = upgrades.purchase_session_id
           AND o.to_plan = upgrades.to_plan AND o.status = 'paid' AND o.seats_added = 0))
       RETURNING purchase_session_id`,
    )
    .bind(paymentIntentId, now);
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
