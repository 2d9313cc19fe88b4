import {moreSeatsLabel, storedPlanName, upgradeLabel} from '../../../src/config';
import type {SalesDay, SalesSummary} from '../../../src/config/api';

/**
 * Upgrades in the console's figures: each is its own kind of sale ("Upgrade: Starter → Advanced"
 * in a day's `byPlan`, seats added to teams "More seats: Advanced"), and revenue counts what the
 * upgrade's payment brought, the difference or the seats, never the whole plan again. By the day it was paid; refunded ones count among refunds.
 */
export function upgradeSalesStatements(
  db: D1Database,
  since: number,
  bucket: string,
): [D1PreparedStatement, D1PreparedStatement] {
  return [
    db
      .prepare(
        `SELECT strftime('${bucket}', paid_at / 1000, 'unixepoch') AS day, from_plan, to_plan, seats_added > 0 AS seats,
           COUNT(*) AS count, SUM(amount_paid) AS amount
         FROM upgrades WHERE status = 'paid' AND paid_at >= ?1 GROUP BY day, from_plan, to_plan, seats_added > 0`,
      )
      .bind(since),
    db
      .prepare(
        `SELECT COUNT(*) AS count, SUM(amount_paid) AS amount FROM upgrades WHERE status = 'revoked' AND revoke_reason = 'refunded' AND paid_at >= ?1`,
      )
      .bind(since),
  ];
}

/** Adds the upgrades' rows (from upgradeSalesStatements) to a summary's days, revenue and refunds. */
export function addUpgradeSales(
  summary: SalesSummary,
  paid: Record<string, unknown>[],
  refunded: Record<string, unknown>[],
): SalesSummary {
  const days = new Map<string, SalesDay>(summary.days.map((day) => [day.day, day]));
  let revenue = 0;
  for (const row of paid) {
    const amount = Number(row.amount ?? 0);
    revenue += amount;
    const entry = days.get(row.day as string);
    if (!entry) continue;
    const toName = storedPlanName(row.to_plan as string) ?? 'Other';
    const label = row.seats
      ? moreSeatsLabel(toName)
      : upgradeLabel(storedPlanName(row.from_plan as string) ?? 'Other', toName);
    entry.byPlan[label] = (entry.byPlan[label] ?? 0) + amount;
  }
  const refunds = refunded[0] ?? {};
  return {
    ...summary,
    revenue: summary.revenue + revenue,
    refunds: {
      ...summary.refunds,
      count: summary.refunds.count + Number(refunds.count ?? 0),
      amount: summary.refunds.amount + Number(refunds.amount ?? 0),
    },
  };
}
