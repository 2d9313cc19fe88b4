import {type CommissionState, PLAN_CURRENCY} from '../../../src/config';
import type {CommissionTotals} from '../../../src/config/api';

/**
 * A commission's figures as of `now`, derived each time from its purchase (one truth, nothing to
 * drift): `c` a commission joined to its purchase `p`. The SQL reads `now` from parameter `?1`.
 *
 * - cancelled: its purchase is no longer paid (`revoked`: refunded in full, or disputed);
 * - paid: the seller marked it paid (a payout): what was paid stands, whatever happens to the
 *   purchase after (the money has gone to the affiliate; paid is checked before cancelled);
 * - payable: held long enough (`payable_at`), not paid;
 * - pending: still held.
 * Its amount is the commission less the share of its purchase refunded since (a partial refund
 * lowers it in proportion), or what was paid once paid.
 */
export const COMMISSION_STATE_SQL = `CASE
    WHEN c.payout_id IS NOT NULL THEN 'paid'
    WHEN p.status IS NOT 'paid' THEN 'cancelled'
    WHEN c.payable_at <= ?1 THEN 'payable'
    ELSE 'pending' END`;

/** The share of the purchase still paid (its refunds taken off), applied to a figure of `c`. */
const stillPaid = (figure: string) =>
  `CASE WHEN COALESCE(p.amount_total, 0) > 0
     THEN CAST(ROUND(${figure} * 1.0 * MAX(0, p.amount_total - p.amount_refunded) / p.amount_total) AS INTEGER)
     ELSE ${figure} END`;

/** The commission now: what was paid once paid, else the commission less the purchase's refunds. */
export const COMMISSION_AMOUNT_SQL = `COALESCE(c.paid_amount, ${stillPaid('c.commission')})`;
/** What the buyer paid, after discounts and refunds, before tax. */
export const COMMISSION_BASE_SQL = stillPaid('c.base');

/** The commissions with their state and amounts now (`?1`), each joined to its purchase. */
export const SHOWN_COMMISSIONS = `SELECT c.session_id, c.affiliate_id, c.currency, c.paid_at, c.payable_at, c.payout_id,
    ${COMMISSION_STATE_SQL} AS state, ${COMMISSION_AMOUNT_SQL} AS amount, ${COMMISSION_BASE_SQL} AS base_now
  FROM commissions c JOIN purchases p ON p.session_id = c.session_id`;

export interface ShownCommission {
  session_id: string;
  affiliate_id: string;
  currency: string;
  paid_at: number;
  payable_at: number;
  payout_id: string | null;
  state: CommissionState;
  amount: number;
  base_now: number;
}

/** Sales (commissions not cancelled) and amounts by state, per affiliate. */
export interface AffiliateFigures {
  sales: number;
  totals: CommissionTotals;
}

export const noTotals = (): CommissionTotals => ({currency: PLAN_CURRENCY, pending: 0, payable: 0, paid: 0});

/**
 * Each affiliate's sales and totals (of one affiliate when `affiliateId` is given), in the plans'
 * currency: a commission is credited in what the seller's prices are in (Stripe's source currency
 * under Adaptive Pricing), which is that one.
 */
export async function figuresByAffiliate(
  db: D1Database,
  now: number,
  affiliateId?: string,
): Promise<Map<string, AffiliateFigures>> {
  const {results} = await db
    .prepare(
      `SELECT affiliate_id, state, COUNT(*) AS count, SUM(amount) AS amount FROM (${SHOWN_COMMISSIONS}
         WHERE c.currency = ?2 AND (?3 IS NULL OR c.affiliate_id = ?3))
       GROUP BY affiliate_id, state`,
    )
    .bind(now, PLAN_CURRENCY, affiliateId ?? null)
    .all<{affiliate_id: string; state: CommissionState; count: number; amount: number}>();
  const figures = new Map<string, AffiliateFigures>();
  for (const row of results) {
    const each = figures.get(row.affiliate_id) ?? {sales: 0, totals: noTotals()};
    if (row.state !== 'cancelled') {
      each.sales += row.count;
      each.totals[row.state] += row.amount;
    }
    figures.set(row.affiliate_id, each);
  }
  return figures;
}

/** The sum of several affiliates' totals. */
export function sumTotals(all: Iterable<CommissionTotals>): CommissionTotals {
  const sum = noTotals();
  for (const totals of all) {
    sum.pending += totals.pending;
    sum.payable += totals.payable;
    sum.paid += totals.paid;
  }
  return sum;
}
