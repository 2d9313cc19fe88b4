import {type CommissionState, PLAN_CURRENCY} from '../../../src/config';
import type {CommissionTotals} from '../../../src/config/api';

/** The share of the purchase still paid (its refunds taken off), applied to a figure of `c`. */
const stillPaid = (figure: string) =>
  `CASE WHEN COALESCE(p.amount_total, 0) > 0
     THEN CAST(ROUND(${figure} * 1.0 * MAX(0, p.amount_total - p.amount_refunded) / p.amount_total) AS INTEGER)
     ELSE ${figure} END`;

/**
 * What a paid commission is worth now that its purchase was refunded or disputed since the payout:
 * the commission on what is still paid, never more than was paid; nothing once the purchase is no
 * longer paid. Unpaid commissions are not read through it.
 */
const WORTH_NOW = `MIN(c.paid_amount, CASE WHEN p.status IS 'paid' THEN ${stillPaid('c.commission')} ELSE 0 END)`;

/**
 * Whether the commission's payout was made: marked, or its transfer made. A transfer Stripe has not
 * answered about may yet be undone, and nothing is owed back on money not sent.
 */
const PAYOUT_MADE = `EXISTS (SELECT 1 FROM affiliate_payouts o WHERE o.id = c.payout_id AND o.state = 'made')`;
/** Whether its payout is a transfer Stripe has not answered about yet. */
const PAYOUT_SENDING = `EXISTS (SELECT 1 FROM affiliate_payouts o WHERE o.id = c.payout_id AND o.state = 'sending')`;

/**
 * Due back: what a payout paid for the commission beyond what it is worth now (0 for a commission
 * not paid, or whose purchase still stands). The affiliate was paid for a sale refunded since.
 */
const DUE_BACK = `CASE WHEN ${PAYOUT_MADE} THEN c.paid_amount - ${WORTH_NOW} ELSE 0 END`;

/** What later payouts have taken off for the commission already (migration 0049). */
const TAKEN_BACK = `COALESCE((SELECT SUM(t.amount) FROM commission_takebacks t WHERE t.session_id = c.session_id), 0)`;

/**
 * Owed back: what is due back and no payout has taken off yet. Below zero when a dispute the seller
 * won gave a purchase back after a payout took its commission off: it is owed to the affiliate again.
 */
export const COMMISSION_OWED_SQL = `(${DUE_BACK}) - ${TAKEN_BACK}`;

/**
 * A commission's figures as of `now`, derived each time from its purchase (one truth, nothing to
 * drift): `c` a commission joined to its purchase `p`. The SQL reads `now` from parameter `?1`.
 *
 * - sending: in a payout through Stripe that Stripe has not answered about yet;
 * - refundedAfterPayout: paid, and its purchase refunded or disputed since: the refunded share of
 *   what was paid is taken off a payout (COMMISSION_OWED_SQL), and it is worth what is left;
 * - paid: the seller paid it (a payout), and its purchase stands as it was then;
 * - cancelled: its purchase is no longer paid (`revoked`: refunded in full, or disputed);
 * - payable: held long enough (`payable_at`), not paid;
 * - pending: still held.
 * Its amount is the commission less the share of its purchase refunded since (a partial refund
 * lowers it in proportion), or, once paid, what was paid less what is due back.
 */
export const COMMISSION_STATE_SQL = `CASE
    WHEN c.payout_id IS NOT NULL AND ${PAYOUT_SENDING} THEN 'sending'
    WHEN c.payout_id IS NOT NULL AND ${DUE_BACK} > 0 THEN 'refundedAfterPayout'
    WHEN c.payout_id IS NOT NULL THEN 'paid'
    WHEN p.status IS NOT 'paid' THEN 'cancelled'
    WHEN c.payable_at <= ?1 THEN 'payable'
    ELSE 'pending' END`;

/** The commission now: once paid, what was paid less what is due back; else the commission less the purchase's refunds. */
export const COMMISSION_AMOUNT_SQL = `CASE WHEN c.payout_id IS NOT NULL THEN ${WORTH_NOW} ELSE ${stillPaid('c.commission')} END`;
/** What the buyer paid, after discounts and refunds, before tax. */
export const COMMISSION_BASE_SQL = stillPaid('c.base');

/** The commissions with their state and amounts now (`?1`), each joined to its purchase. */
export const SHOWN_COMMISSIONS = `SELECT c.session_id, c.affiliate_id, c.currency, c.paid_at, c.payable_at, c.payout_id,
    ${COMMISSION_STATE_SQL} AS state, ${COMMISSION_AMOUNT_SQL} AS amount, ${COMMISSION_BASE_SQL} AS base_now,
    ${COMMISSION_OWED_SQL} AS owed
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
  owed: number;
}

/** Sales (commissions that still stand) and amounts by state, per affiliate. */
export interface AffiliateFigures {
  sales: number;
  totals: CommissionTotals;
}

export const noTotals = (): CommissionTotals => ({
  currency: PLAN_CURRENCY,
  pending: 0,
  payable: 0,
  paid: 0,
  owedBack: 0,
});

/**
 * Each affiliate's sales and totals (of one affiliate when `affiliateId` is given), in the plans'
 * currency: a commission is credited in what the seller's prices are in (Stripe's source currency
 * under Adaptive Pricing), which is that one. What is owed back (commission paid on purchases
 * refunded since) is taken off what is payable: `payable` is what the next payout pays, and
 * `owedBack` what is left owed beyond it.
 */
export async function figuresByAffiliate(
  db: D1Database,
  now: number,
  affiliateId?: string,
): Promise<Map<string, AffiliateFigures>> {
  const {results} = await db
    .prepare(
      `SELECT affiliate_id, state, SUM(state IS NOT 'refundedAfterPayout' OR amount > 0) AS standing, SUM(amount) AS amount,
         SUM(CASE WHEN payout_id IS NOT NULL THEN owed ELSE 0 END) AS owed
       FROM (${SHOWN_COMMISSIONS} WHERE c.currency = ?2 AND (?3 IS NULL OR c.affiliate_id = ?3))
       GROUP BY affiliate_id, state`,
    )
    .bind(now, PLAN_CURRENCY, affiliateId ?? null)
    .all<{affiliate_id: string; state: CommissionState; standing: number; amount: number; owed: number}>();
  const gathered = new Map<string, {sales: number; totals: CommissionTotals; owed: number}>();
  for (const row of results) {
    const each = gathered.get(row.affiliate_id) ?? {sales: 0, totals: noTotals(), owed: 0};
    each.owed += row.owed;
    if (row.state !== 'cancelled') {
      // A sale refunded in full after its payout is worth nothing, and is no sale.
      each.sales += row.standing;
      // Sent (or being sent) is paid: it left what is payable.
      each.totals[row.state === 'refundedAfterPayout' || row.state === 'sending' ? 'paid' : row.state] += row.amount;
    }
    gathered.set(row.affiliate_id, each);
  }
  const figures = new Map<string, AffiliateFigures>();
  for (const [id, {sales, totals, owed}] of gathered) {
    const payable = totals.payable - owed;
    figures.set(id, {sales, totals: {...totals, payable: Math.max(0, payable), owedBack: Math.max(0, -payable)}});
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
    sum.owedBack += totals.owedBack;
  }
  return sum;
}
