import {appConfig, maxSeatsOf, soldInTiers, teamTiersOf} from '../../../src/config';
import {effectivePlan, effectiveSeats, paidAndKept} from '../purchases';
import {movePaid} from './movePaid';
/**
 * Refunds and disputes of an upgrade's own payment, beside a purchase's (payments/revocations.ts):
 * they take back only what the upgrade added. The upgrade is no longer paid, so its purchase gives
 * the plan it had before (purchases.ts `effectivePlan`), or the seats it had before
 * (`effectiveSeats`: the members on the seats it loses lose them, team/removeMember.ts); the
 * purchase and its other seats' access stay. A refused upgrade (a duplicate, refunded by the
 * worker) stays refused. Seats given back by a dispute won come back empty: the owner gives them again.
 */

/**
 * The statements, for the batch that revokes payment ?1, that revoke the paid upgrade it bought (a
 * final reason replaces `disputed`); then, once it is taken back for good (refunded, or its dispute
 * lost), refuse every later paid upgrade whose credit counted it and is no longer covered
 * (`creditedAfter`, not `creditKept`; a row from before 0042, by its shape alone): each was credited
 * money the buyer no longer paid (1 to 5 seats lost while 5 to 10 stood would leave 6 seats, bought
 * for what 5 cost). A later one priced while this one was disputed was not credited it, and stands.
 * Both return what they changed; the refused, for their payments to be refunded
 * (upgrades/fulfilment.ts `refundRefused`). An open dispute refuses nothing: it may yet be won.
 */
export function revokeUpgradeStatements(
  db: D1Database,
  paymentIntentId: string,
  reason: string,
  now: number,
): [revoke: D1PreparedStatement, refuseCredited: D1PreparedStatement] {
  return [
    db
      .prepare(
        `UPDATE upgrades SET status = 'revoked', updated_at = ?3,
           revoke_reason = CASE WHEN revoke_reason IS NULL OR revoke_reason = 'disputed' THEN ?2 ELSE revoke_reason END
         WHERE payment_intent_id = ?1 AND status IN ('paid', 'revoked')
         RETURNING session_id, payment_intent_id, purchase_session_id, seats_added`,
      )
      .bind(paymentIntentId, reason, now),
    db
      .prepare(
        `UPDATE upgrades SET status = 'refused', refused_reason = 'credited a payment taken back', updated_at = ?3
         WHERE ?2 != 'disputed' AND EXISTS (SELECT 1 FROM upgrades earlier
           WHERE earlier.payment_intent_id = ?1 AND earlier.status = 'revoked' AND ${creditedAfter('upgrades', 'earlier')})
           AND (upgrades.credit IS NULL OR NOT ${creditKept('upgrades')})
         RETURNING session_id, payment_intent_id, purchase_session_id, seats_added`,
      )
      .bind(paymentIntentId, reason, now),
  ];
}

const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** SQL for a stored plan (`expr`: an id, or a name stored before ids were) as the config's id (ids first, as findStoredPlan). */
function planIdOf(expr: string): string {
  const ids = appConfig.plans.map((plan) => `WHEN ${quoted(plan.id)} THEN ${quoted(plan.id)}`);
  const names = appConfig.plans.map((plan) => `WHEN ${quoted(plan.name)} THEN ${quoted(plan.id)}`);
  return `(CASE ${expr} ${[...ids, ...names].join(' ')} ELSE ${expr} END)`;
}

/** SQL for the most seats the plan `expr` (an id) sells (`maxSeatsOf`): 1 for one no longer in the config. */
function maxSeatsSql(expr: string): string {
  return `(CASE ${expr} ${appConfig.plans.map((plan) => `WHEN ${quoted(plan.id)} THEN ${maxSeatsOf(plan)}`).join(' ')} ELSE 1 END)`;
}

/** SQL for whether the plan `expr` (an id) is sold in fixed team tiers (`teamTiersOf`): 1 or 0. */
function tieredSql(expr: string): string {
  const tiered = appConfig.plans.filter((plan) => soldInTiers(plan));
  return tiered.length === 0
    ? '0'
    : `(CASE WHEN ${expr} IN (${tiered.map((plan) => quoted(plan.id)).join(', ')}) THEN 1 ELSE 0 END)`;
}

/** SQL for whether `seats` is the size of one of the plan `expr`'s tiers (`team.tiers`): 1 or 0. */
function tierSizeSql(expr: string, seats: string): string {
  const sizes = appConfig.plans.flatMap((plan) =>
    teamTiersOf(plan).map((tier) => `(${expr} = ${quoted(plan.id)} AND ${seats} = ${tier.seats})`),
  );
  return sizes.length === 0 ? '0' : `(CASE WHEN ${sizes.join(' OR ')} THEN 1 ELSE 0 END)`;
}

/**
 * SQL for whether the upgrade `alias` was priced with a credit for what its purchase had paid (a
 * move up, or a move to a larger team tier: `upgradeAmountFor`), as its row records (0042); a row
 * from before says so by its shape. Seats added by the seat are priced on their own.
 */
function credited(alias: string): string {
  return `(${alias}.credit > 0 OR (${alias}.credit IS NULL AND (${alias}.seats_added = 0 OR ${tieredSql(`${alias}.to_plan`)} = 1)))`;
}

/**
 * SQL for whether the upgrade `alias` keeps what its credit counted: what its purchase paid before
 * it, and keeps, covers the credit its row records. A row from before 0042 records none.
 */
function creditKept(alias: string): string {
  return `(${alias}.credit IS NULL OR ${alias}.credit <= COALESCE((SELECT ${paidAndKept('cp', `${alias}.paid_at`)}
    FROM purchases cp WHERE cp.session_id = ${alias}.purchase_session_id), ${alias}.credit))`;
}

/** SQL for whether `later` is a paid upgrade of `earlier`'s purchase, paid after it and credited what was paid. */
function creditedAfter(later: string, earlier: string): string {
  return `(${later}.purchase_session_id = ${earlier}.purchase_session_id AND ${later}.status = 'paid'
    AND ${later}.paid_at > ${earlier}.paid_at AND ${credited(later)})`;
}

/**
 * SQL for whether the paid upgrade `alias` has a later one credited what was paid (`creditedAfter`),
 * whose credit a refund of `alias` could leave uncovered: the console refunds the later one first.
 */
export function creditedToLater(alias: string): string {
  return `(${alias}.status = 'paid' AND EXISTS (SELECT 1 FROM upgrades later WHERE ${creditedAfter('later', alias)}))`;
}

/** SQL for whether another payment has bought the move `alias` makes since (a seat upgrade has none). */
const MOVE_BOUGHT_AGAIN = (alias: string) =>
  `(${alias}.seats_added = 0 AND ${movePaid(`${alias}.purchase_session_id`, `${alias}.to_plan`)})`;

/**
 * SQL for whether the upgrade `alias` may stand on its paid purchase as the purchase is now, as
 * fulfilment decides a payment: its credit still covered (`creditKept`); on the plan it was priced
 * from; a move up with the seats it was priced for and no other payment for the same move since;
 * seats added by the seat within the plan's most; a move to a larger team tier when its seats make
 * a tier again (a later move stood on it meanwhile: 1 to 5 disputed while 5 to 10 was paid is 6
 * seats, and 10 once it is back).
 */
function standsNow(alias: string): string {
  const after = `${effectiveSeats('p')} + ${alias}.seats_added`;
  return `${creditKept(alias)} AND EXISTS (SELECT 1 FROM purchases p WHERE p.session_id = ${alias}.purchase_session_id AND p.status = 'paid'
      AND ${planIdOf(effectivePlan('p'))} = ${alias}.from_plan
      AND CASE WHEN ${alias}.seats_added = 0 THEN ${effectiveSeats('p')} = ${alias}.from_seats
               WHEN ${tieredSql(`${alias}.to_plan`)} = 1 THEN ${tierSizeSql(`${alias}.to_plan`, after)} = 1
               ELSE ${after} <= ${maxSeatsSql(`${alias}.to_plan`)} END)
    AND NOT ${MOVE_BOUGHT_AGAIN(alias)}`;
}

/** SQL for whether the purchase of upgrade `alias` is itself disputed, the dispute not settled: its upgrades wait for it. */
const PURCHASE_DISPUTED = (alias: string) =>
  `EXISTS (SELECT 1 FROM purchases p WHERE p.session_id = ${alias}.purchase_session_id AND p.status = 'revoked' AND p.revoke_reason = 'disputed')`;

/**
 * The statements, for one batch after the dispute of payment ?1 is won and its revocation gone,
 * that settle each upgrade back from a dispute: ?1's own, or, when ?1 is a purchase's, its upgrades
 * whose own disputes were won while it was disputed. An upgrade whose dispute is settled has no
 * revocation left (payments/revocations.ts). Each is applied again when it still stands on its
 * purchase (`standsNow`); waits while its purchase is disputed; else is refused, as fulfilment
 * refuses a payment that would not apply (`duplicate` when another payment bought the move,
 * `purchase not paid` when the purchase was refunded or lost, else `stale`: a team that added
 * seats or moved up meanwhile has not paid for it as it is now), returning it for its payment to
 * be refunded (upgrades/fulfilment.ts `refundRefused`), since it buys nothing.
 */
export function backFromDisputeStatements(
  db: D1Database,
  paymentIntentId: string,
  now: number,
): [restore: D1PreparedStatement, refuse: D1PreparedStatement] {
  const backFromDispute = `(payment_intent_id = ?1 OR purchase_session_id IN (SELECT session_id FROM purchases WHERE payment_intent_id = ?1))
    AND status = 'revoked' AND revoke_reason = 'disputed'
    AND NOT EXISTS (SELECT 1 FROM payment_revocations r WHERE r.payment_intent_id = upgrades.payment_intent_id)`;
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
           refused_reason = CASE
             WHEN ${MOVE_BOUGHT_AGAIN('upgrades')} THEN 'duplicate'
             WHEN NOT EXISTS (SELECT 1 FROM purchases p WHERE p.session_id = upgrades.purchase_session_id AND p.status = 'paid')
               THEN 'purchase not paid'
             ELSE 'stale' END
         WHERE ${backFromDispute} AND NOT ${PURCHASE_DISPUTED('upgrades')}
         RETURNING session_id, payment_intent_id, refused_reason`,
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
