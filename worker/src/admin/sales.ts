import type {SalesDay, SalesSummary} from '../../../src/config/api';
import {fallbackAmount} from './purchases';

/** The last 30 days of sales, for the console's chart, with refunds, disputes and the totals. */
export const SALES_DAYS = 30;
const DAY_MS = 24 * 3600_000;

export async function salesSummary(db: D1Database, now = Date.now()): Promise<SalesSummary> {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const since = today - (SALES_DAYS - 1) * DAY_MS;
  const [byDay, totals, buyers, refunds, disputes, currency] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT strftime('%Y-%m-%d', created_at / 1000, 'unixepoch') AS day, plan, COUNT(*) AS purchases,
           SUM(amount_total) AS amount, SUM(amount_total IS NULL) AS unpriced
         FROM purchases WHERE status = 'paid' AND created_at >= ?1 GROUP BY day, plan`,
      )
      .bind(since),
    db.prepare(
      `SELECT plan, SUM(amount_total) AS amount, SUM(amount_total IS NULL) AS unpriced
       FROM purchases WHERE status = 'paid' GROUP BY plan`,
    ),
    db.prepare(`SELECT COUNT(DISTINCT COALESCE(user_id, email, session_id)) AS buyers FROM purchases WHERE status = 'paid'`),
    db.prepare(
      `SELECT plan, COUNT(*) AS count, SUM(amount_total) AS amount, SUM(amount_total IS NULL) AS unpriced
       FROM purchases WHERE status = 'revoked' AND revoke_reason = 'refunded' GROUP BY plan`,
    ),
    db.prepare(
      `SELECT SUM(status NOT IN ('won', 'lost', 'warning_closed')) AS open, SUM(status IN ('won', 'warning_closed')) AS won,
         SUM(status = 'lost') AS lost FROM disputes`,
    ),
    db.prepare(`SELECT currency FROM purchases WHERE currency IS NOT NULL GROUP BY currency ORDER BY COUNT(*) DESC LIMIT 1`),
  ]);

  const days = new Map<string, SalesDay>();
  for (let at = since; at <= today; at += DAY_MS) {
    const day = new Date(at).toISOString().slice(0, 10);
    days.set(day, {day, byPlan: {}, purchases: 0});
  }
  for (const row of byDay!.results) {
    const entry = days.get(row.day as string);
    if (!entry) continue;
    const plan = (row.plan as string | null) ?? 'Other';
    entry.byPlan[plan] = (entry.byPlan[plan] ?? 0) + priced(row);
    entry.purchases += row.purchases as number;
  }
  const sum = (rows: Record<string, unknown>[]) => rows.reduce((total, row) => total + priced(row), 0);
  const dispute = disputes!.results[0] ?? {};
  return {
    currency: (currency!.results[0]?.currency as string | undefined) ?? 'usd',
    days: [...days.values()],
    revenue: sum(totals!.results),
    buyers: Number(buyers!.results[0]?.buyers ?? 0),
    refunds: {count: refunds!.results.reduce((total, row) => total + (row.count as number), 0), amount: sum(refunds!.results)},
    disputes: {open: Number(dispute.open ?? 0), won: Number(dispute.won ?? 0), lost: Number(dispute.lost ?? 0)},
  };
}

/** A group's amount, counting purchases recorded before amounts were at their plan's price. */
function priced(row: Record<string, unknown>): number {
  return Number(row.amount ?? 0) + Number(row.unpriced ?? 0) * (fallbackAmount(row.plan as string | null) ?? 0);
}
