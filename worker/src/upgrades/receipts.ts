import {upgradeRowLabel, type UpgradeRowLabel} from './rowLabel';

/** One paid payment the buyer has a receipt for: the purchase's, or an upgrade's. */
export interface PaidPayment {
  sessionId: string;
  /** What the receipt is for: the plan's name, "Upgrade: Starter → Advanced" or "2 more seats: Advanced". */
  plan: string;
  paidAt: number;
  amount: number | null;
  currency: string | null;
}

/**
 * The upgrades the signed-in account paid for (applied, refunded since, or refused and given back):
 * each has its own Stripe receipt. Found by the account that asked for them, the newest first.
 */
export async function upgradePaymentsOf(db: D1Database, uid: string, limit: number): Promise<PaidPayment[]> {
  const {results} = await db
    .prepare(
      `SELECT session_id, from_plan, to_plan, seats_added, from_seats, paid_at, amount_paid, currency FROM upgrades
       WHERE user_id = ?1 AND paid_at IS NOT NULL ORDER BY paid_at DESC LIMIT ?2`,
    )
    .bind(uid, limit)
    .all<
      UpgradeRowLabel & {
        session_id: string;
        paid_at: number;
        amount_paid: number | null;
        currency: string;
      }
    >();
  return results.map((row) => ({
    sessionId: row.session_id,
    plan: upgradeRowLabel(row),
    paidAt: row.paid_at,
    amount: row.amount_paid,
    currency: row.currency,
  }));
}
