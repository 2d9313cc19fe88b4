import type {SalesDay, SalesPeriod, SalesSummary} from '../../../src/config/api';
import {PLAN_CURRENCY, storedPlanName} from '../../../src/config';
import {effectiveSeats} from '../purchases';
import {fallbackAmount} from './purchases';
import {addUpgradeSales, upgradeSalesStatements} from './upgradeSales';
import {DAY_MS} from '../../../src/config/dates';

/**
 * The console's figures over a period, for its cards and its chart together: revenue by day (7 or
 * 30 days) or by calendar month (12 months, all time) and plan, and the period's buyers, refunds
 * and disputes. Days are UTC days; the period ends today.
 */

/** A span of time, [from, to) in Unix ms: the funnel's period, or the one before it. */
export interface Span {
  from: number;
  to: number;
}

export interface Window {
  since: number | null;
  interval: SalesSummary['interval'];
  /** The first bucket's key (`YYYY-MM-DD`); for all time, the month of the first purchase. */
  first: (firstPurchase: number | null) => string;
}

const utcDay = (at: number) => Math.floor(at / DAY_MS) * DAY_MS;
export const monthStart = (at: number, back = 0) => {
  const date = new Date(at);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - back, 1);
};
const key = (at: number) => new Date(at).toISOString().slice(0, 10);

export function windowOf(period: SalesPeriod, now: number): Window {
  const today = utcDay(now);
  switch (period) {
    case '7d':
    case '30d': {
      const since = today - ((period === '7d' ? 7 : 30) - 1) * DAY_MS;
      return {since, interval: 'day', first: () => key(since)};
    }
    case '12m': {
      const since = monthStart(now, 11);
      return {since, interval: 'month', first: () => key(since)};
    }
    case 'all':
      return {since: null, interval: 'month', first: (firstPurchase) => key(monthStart(firstPurchase ?? now))};
  }
}

/** Every bucket from `first` to the one holding `now`, oldest first, empty. */
function buckets(first: string, interval: SalesSummary['interval'], now: number): Map<string, SalesDay> {
  const days = new Map<string, SalesDay>();
  const last = interval === 'day' ? utcDay(now) : monthStart(now);
  for (let at = Date.parse(`${first}T00:00:00Z`); at <= last;) {
    days.set(key(at), {day: key(at), byPlan: {}, purchases: 0});
    at = interval === 'day' ? at + DAY_MS : monthStart(at, -1);
  }
  return days;
}

export async function salesSummary(db: D1Database, period: SalesPeriod, now = Date.now()): Promise<SalesSummary> {
  const window = windowOf(period, now);
  // ?1: the period's start (0 for all time), so one set of statements serves every period.
  const since = window.since ?? 0;
  const bucket = window.interval === 'day' ? '%Y-%m-%d' : '%Y-%m-01';
  const [byBucket, totals, buyers, refunds, madeThrough, disputes, currency, first, upgradesPaid, upgradesRefunded] =
    await db.batch<Record<string, unknown>>([
      db
        .prepare(
          `SELECT strftime('${bucket}', created_at / 1000, 'unixepoch') AS day, plan, COUNT(*) AS purchases,
           SUM(amount_total) AS amount, SUM(amount_total IS NULL) AS unpriced
         FROM purchases WHERE status = 'paid' AND created_at >= ?1 GROUP BY day, plan`,
        )
        .bind(since),
      db
        .prepare(
          `SELECT plan, SUM(amount_total) AS amount, SUM(amount_total IS NULL) AS unpriced
         FROM purchases WHERE status = 'paid' AND created_at >= ?1 GROUP BY plan`,
        )
        .bind(since),
      db
        .prepare(
          `SELECT COUNT(DISTINCT COALESCE(user_id, email, session_id)) AS buyers,
             COALESCE(SUM(${effectiveSeats('p')}), 0) AS seats
           FROM purchases p WHERE status = 'paid' AND created_at >= ?1`,
        )
        .bind(since),
      db
        .prepare(
          `SELECT plan, COUNT(*) AS count, SUM(amount_total) AS amount, SUM(amount_total IS NULL) AS unpriced
         FROM purchases WHERE status = 'revoked' AND revoke_reason = 'refunded' AND created_at >= ?1 GROUP BY plan`,
        )
        .bind(since),
      // Every payment of the period that went through, what became of it since: the refund rate's whole.
      db
        .prepare(
          `SELECT (SELECT COUNT(*) FROM purchases WHERE status IN ('paid', 'revoked') AND created_at >= ?1)
           + (SELECT COUNT(*) FROM upgrades WHERE status IN ('paid', 'revoked') AND paid_at >= ?1) AS payments`,
        )
        .bind(since),
      db
        .prepare(
          `SELECT SUM(status NOT IN ('won', 'lost', 'warning_closed')) AS open,
           SUM(status IN ('won', 'warning_closed') AND updated_at >= ?1) AS won, SUM(status = 'lost' AND updated_at >= ?1) AS lost
         FROM disputes`,
        )
        .bind(since),
      db.prepare(
        `SELECT currency FROM purchases WHERE currency IS NOT NULL GROUP BY currency ORDER BY COUNT(*) DESC LIMIT 1`,
      ),
      db.prepare(`SELECT MIN(created_at) AS at FROM purchases WHERE status = 'paid'`),
      ...upgradeSalesStatements(db, since, bucket),
    ]);

  const days = buckets(
    window.first((first!.results[0]?.at as number | null | undefined) ?? null),
    window.interval,
    now,
  );
  for (const row of byBucket!.results) {
    const entry = days.get(row.day as string);
    if (!entry) continue;
    // Purchases recorded by id and, from before ids, by name: one plan, one entry.
    const plan = storedPlanName(row.plan as string | null) ?? 'Other';
    entry.byPlan[plan] = (entry.byPlan[plan] ?? 0) + priced(row);
    entry.purchases += row.purchases as number;
  }
  const sum = (rows: Record<string, unknown>[]) => rows.reduce((total, row) => total + priced(row), 0);
  const dispute = disputes!.results[0] ?? {};
  const summary: SalesSummary = {
    currency: (currency!.results[0]?.currency as string | undefined) ?? PLAN_CURRENCY,
    period,
    since: window.since,
    interval: window.interval,
    days: [...days.values()],
    revenue: sum(totals!.results),
    buyers: Number(buyers!.results[0]?.buyers ?? 0),
    seats: Number(buyers!.results[0]?.seats ?? 0),
    refunds: {
      count: refunds!.results.reduce((total, row) => total + (row.count as number), 0),
      amount: sum(refunds!.results),
      of: Number(madeThrough!.results[0]?.payments ?? 0),
    },
    disputes: {open: Number(dispute.open ?? 0), won: Number(dispute.won ?? 0), lost: Number(dispute.lost ?? 0)},
    recovered: await recoveredSince(db, since),
  };
  return addUpgradeSales(summary, upgradesPaid!.results, upgradesRefunded!.results);
}

/** A group's amount, counting purchases recorded before amounts were at their plan's price. */
function priced(row: Record<string, unknown>): number {
  return Number(row.amount ?? 0) + Number(row.unpriced ?? 0) * (fallbackAmount(row.plan as string | null) ?? 0);
}

/**
 * Checkouts won back (payments/checkoutReminders.ts): the reminders sent since, and the purchases
 * made since through a reminder's link that are still paid, with what they took.
 */
async function recoveredSince(db: D1Database, since: number): Promise<SalesSummary['recovered']> {
  const row = await db
    .prepare(
      `SELECT (SELECT COUNT(*) FROM checkout_reminders WHERE sent_at >= ?1) AS reminders,
         COUNT(*) AS purchases, COALESCE(SUM(amount_total), 0) AS revenue
       FROM purchases WHERE recovered_from IS NOT NULL AND status = 'paid' AND created_at >= ?1`,
    )
    .bind(since)
    .first<SalesSummary['recovered']>();
  return row ?? {reminders: 0, purchases: 0, revenue: 0};
}
