import {AFFILIATE_WORDS, appConfig, PLAN_CURRENCY, stripeConnectOn} from '../../../src/config';
import type {AdminAffiliate, AdminAffiliates, PayoutMethod, PayoutState} from '../../../src/config/api';
import {
  COMMISSION_AMOUNT_SQL,
  COMMISSION_OWED_SQL,
  COMMISSION_STATE_SQL,
  figuresByAffiliate,
  noTotals,
  SHOWN_COMMISSIONS,
  type ShownCommission,
  sumTotals,
} from '../affiliates/commissionState';
import {AFFILIATE_COLUMNS, type AffiliateRow} from '../affiliates/figures';
import {refreshReadiness, type StripeAccountRow, storedStripeState} from '../affiliates/stripeAccount';
import {
  askForTransfer,
  refusalReason,
  settleTransfer,
  transferJobStatement,
  type TransferOutcome,
} from '../affiliates/transfer';
import type {Context} from '../context';
import {describe, HttpError} from '../errors';
import {log} from '../log';
import {paymentProviderError, stripeFor} from '../payments/stripe';
import {csv} from './csv';

/** The affiliates the console lists, newest first: a seller has dozens or hundreds, not more. */
const LISTED_AFFILIATES = 1000;

/** The affiliates, newest first, each with their clicks, sales, totals and last payout; and the totals of all. */
export async function listAffiliates(db: D1Database, now = Date.now()): Promise<AdminAffiliates> {
  const [affiliates, figures, payouts] = await Promise.all([
    db
      .prepare(
        `SELECT ${AFFILIATE_COLUMNS} FROM affiliates
         ORDER BY created_at DESC, id LIMIT ${LISTED_AFFILIATES}`,
      )
      .all<AffiliateRow>(),
    figuresByAffiliate(db, now),
    // Each affiliate's last payout (SQLite takes the other columns from the row of MAX).
    db
      .prepare(
        `SELECT affiliate_id, amount, reference, method, state, MAX(created_at) AS at FROM affiliate_payouts
         GROUP BY affiliate_id`,
      )
      .all<{
        affiliate_id: string;
        amount: number;
        reference: string;
        method: PayoutMethod;
        state: PayoutState;
        at: number;
      }>(),
  ]);
  const lastPayout = new Map(payouts.results.map((row) => [row.affiliate_id, row]));
  const items = affiliates.results.map((row): AdminAffiliate => {
    const own = figures.get(row.id);
    const payout = lastPayout.get(row.id);
    return {
      id: row.id,
      code: row.code,
      email: row.email,
      joinedAt: row.created_at,
      clicks: row.clicks,
      sales: own?.sales ?? 0,
      totals: own?.totals ?? noTotals(),
      lastPayout: payout
        ? {
            amount: payout.amount,
            reference: payout.reference,
            at: payout.at,
            method: payout.method,
            state: payout.state,
          }
        : null,
      stripe: storedStripeState(row),
    };
  });
  return {
    items,
    totals: sumTotals([...figures.values()].map((each) => each.totals)),
    asOf: now,
    stripeConnect: stripeConnectOn(appConfig),
  };
}

/** Every commission as CSV, newest first: whom, on which purchase, how much, where it stands. */
export async function affiliatesCsv(db: D1Database, now = Date.now()): Promise<string> {
  const {results} = await db
    .prepare(
      `SELECT s.*, a.code, a.email, c.base AS base_credited, c.commission AS commission_credited, o.reference,
         o.method
       FROM (${SHOWN_COMMISSIONS}) s
       JOIN commissions c ON c.session_id = s.session_id
       JOIN affiliates a ON a.id = s.affiliate_id
       LEFT JOIN affiliate_payouts o ON o.id = s.payout_id
       ORDER BY s.paid_at DESC, s.session_id`,
    )
    .bind(now)
    .all<ShownCommission & {code: string; email: string; reference: string | null; method: PayoutMethod | null}>();
  const rows = results.map((row) => [
    row.code,
    row.email,
    row.session_id,
    new Date(row.paid_at).toISOString(),
    String(row.base_now),
    String(row.amount),
    row.currency,
    row.state,
    new Date(row.payable_at).toISOString(),
    row.reference ?? '',
    row.method ?? '',
    // Still to be taken off a payout (below 0: owed to the affiliate again): your payouts add up to
    // the paid commissions plus this column.
    String(row.payout_id ? row.owed : 0),
  ]);
  return csv([
    [
      'affiliate code',
      'affiliate e-mail',
      'purchase session id',
      'paid at',
      'base',
      'commission',
      'currency',
      'state',
      'payable at',
      'payout reference',
      'payout method',
      'owed back',
    ],
    ...rows,
  ]);
}

/** The commissions of the affiliate payable now (`?1`): held long enough, not paid, their purchase still paid. */
const PAYABLE = `c.affiliate_id = ?2 AND c.currency = ?3 AND ${COMMISSION_STATE_SQL} = 'payable'`;

/** The affiliate's paid commissions with something owed back (or owed to them again), in the plans' currency. */
const OWED = `c.affiliate_id = ?2 AND c.currency = ?3 AND c.payout_id IS NOT NULL AND ${COMMISSION_OWED_SQL} <> 0`;

/**
 * What the next payout pays the affiliate now (`?1`), in cents of the plans' currency (`?3`): the
 * commission payable less what is owed back (commission paid on purchases refunded since); never below 0.
 */
const PAYABLE_SUM = `SELECT MAX(0,
    (SELECT COALESCE(SUM(${COMMISSION_AMOUNT_SQL}), 0) FROM commissions c
      JOIN purchases p ON p.session_id = c.session_id WHERE ${PAYABLE})
    - (SELECT COALESCE(SUM(${COMMISSION_OWED_SQL}), 0) FROM commissions c
      JOIN purchases p ON p.session_id = c.session_id WHERE ${OWED})) AS payable`;

async function payableTo(db: D1Database, affiliateId: string, now: number): Promise<number> {
  const row = await db.prepare(PAYABLE_SUM).bind(now, affiliateId, PLAN_CURRENCY).first<{payable: number}>();
  return row?.payable ?? 0;
}

/** How a payout ended: made (marked, or a transfer Stripe made), or sending (Stripe has not answered). */
export interface PayoutOutcome {
  amount: number;
  currency: string;
  code: string;
  method: PayoutMethod;
  state: PayoutState;
  /** The seller's reference, or the transfer's id; '' while sending. */
  reference: string;
}

/**
 * Pays what was payable to the affiliate when the seller looked (`asOf`, the list's moment; now
 * when not given), when it is the amount the seller saw (`amount`): 409 when nothing is payable,
 * or when it has changed since (a refund lowered one). A commission that became payable after the
 * seller looked is left for the next payout: it was not in what they paid. The payout and the
 * commissions it pays are written in one D1 batch, each statement conditional on the amount payable
 * then: two payouts racing (a double click, two admins) pay each commission once, and the second
 * records nothing.
 *
 * `marked`: the seller paid by their own means, with their reference. `stripe` (the programme's
 * `stripeConnect`): the payout is written 'sending', with the job that asks Stripe again, then its
 * transfer is asked of Stripe, to the account the worker made for the affiliate (read from D1):
 * made, the payout is made; refused, it is undone and 409; no answer, it stays 'sending' for the
 * outbox (affiliates/transfer.ts).
 */
export async function payAffiliate(
  context: Context,
  affiliateId: string,
  request: {amount: number; method?: PayoutMethod; reference?: string; asOf?: number},
  by: string,
  now = Date.now(),
): Promise<PayoutOutcome> {
  const {db} = context;
  const method = request.method ?? 'marked';
  // Where each commission stands is read as of this moment (`?1` of the SQL below); never later than now.
  const at = Math.min(request.asOf ?? now, now);
  const affiliate = await db
    .prepare('SELECT id, code, stripe_account_id, stripe_ready_at FROM affiliates WHERE id = ?1')
    .bind(affiliateId)
    .first<StripeAccountRow & {code: string}>();
  if (!affiliate) throw new HttpError(404, 'There is no affiliate with that id.', 'NOT_FOUND');
  const account = method === 'stripe' ? await readyAccount(context, affiliate) : null;
  const reference = account ? '' : (request.reference ?? '');
  const state: PayoutState = account ? 'sending' : 'made';
  const payoutId = `po_${crypto.randomUUID().replace(/-/g, '')}`;
  const payableNow = `(${PAYABLE_SUM})`;
  const [written] = await db.batch([
    db
      .prepare(
        `INSERT INTO affiliate_payouts (id, affiliate_id, amount, currency, reference, created_at, created_by, method, state)
         SELECT ?4, ?2, ?5, ?3, ?6, ?8, ?7, ?9, ?10 WHERE ${payableNow} = ?5`,
      )
      .bind(at, affiliateId, PLAN_CURRENCY, payoutId, request.amount, reference, by, now, method, state),
    // What was owed back is taken off this payout (the INSERT's amount is net of it): recorded
    // before the commissions it pays are marked, which owe nothing back yet.
    db
      .prepare(
        `INSERT INTO commission_takebacks (payout_id, session_id, amount, created_at)
         SELECT ?4, c.session_id, ${COMMISSION_OWED_SQL}, ?5 FROM commissions c
         JOIN purchases p ON p.session_id = c.session_id
         WHERE ${OWED} AND EXISTS (SELECT 1 FROM affiliate_payouts WHERE id = ?4)`,
      )
      .bind(at, affiliateId, PLAN_CURRENCY, payoutId, now),
    db
      .prepare(
        `UPDATE commissions AS u SET payout_id = ?4, paid_amount = (
           SELECT ${COMMISSION_AMOUNT_SQL} FROM commissions c JOIN purchases p ON p.session_id = c.session_id
           WHERE c.session_id = u.session_id)
         WHERE u.session_id IN (SELECT c.session_id FROM commissions c JOIN purchases p ON p.session_id = c.session_id
           WHERE ${PAYABLE})
         AND EXISTS (SELECT 1 FROM affiliate_payouts WHERE id = ?4)`,
      )
      .bind(at, affiliateId, PLAN_CURRENCY, payoutId),
    ...(account ? [transferJobStatement(db, payoutId, now)] : []),
  ]);
  // Decided by the payout's own row: a payout of what is owed to the affiliate again (a dispute won
  // after a payout took its commission off) marks no commission, and is made all the same.
  if ((written!.meta.changes ?? 0) === 0) {
    // Nothing written: what is payable now is not what the seller saw (or another payout took it).
    const left = await payableTo(db, affiliateId, at);
    if (left === 0) throw new HttpError(409, AFFILIATE_WORDS.payoutNothing, 'CONFLICT');
    throw new HttpError(409, AFFILIATE_WORDS.payoutChanged(left, PLAN_CURRENCY), 'CONFLICT');
  }
  const outcome = {amount: request.amount, currency: PLAN_CURRENCY, code: affiliate.code, method};
  if (!account) return {...outcome, state, reference};
  const payout = {id: payoutId, affiliateId, amount: request.amount, currency: PLAN_CURRENCY, account};
  let answer: TransferOutcome;
  try {
    answer = await askForTransfer(context, payout, false);
  } catch (err) {
    // No answer from Stripe: the transfer may or may not be made. The queued job asks again.
    log.warn('affiliate.transfer_unanswered', {payoutId, error: describe(err)});
    return {...outcome, state: 'sending', reference: ''};
  }
  await settleTransfer(db, payoutId, answer);
  if ('refused' in answer) {
    log.warn('affiliate.transfer_refused', {payoutId, code: answer.refused.code, error: describe(answer.refused)});
    throw new HttpError(409, refusalReason(answer.refused), 'CONFLICT');
  }
  return {...outcome, state: 'made', reference: answer.made.id};
}

/**
 * The Stripe account a payout through Stripe goes to: the one the worker made for the affiliate,
 * as D1 holds it, once Stripe takes transfers to it (asked once more when D1 has not seen it
 * ready). 409 when Connect is off or the account is not ready.
 */
async function readyAccount(context: Context, affiliate: StripeAccountRow): Promise<string> {
  if (!stripeConnectOn(appConfig)) throw new HttpError(409, AFFILIATE_WORDS.connectOff, 'CONFLICT');
  // No Stripe key: 503 now, before a payout is written that no transfer could follow.
  stripeFor(context.settings);
  const account = affiliate.stripe_account_id;
  if (!account) throw new HttpError(409, AFFILIATE_WORDS.stripeNotReady, 'CONFLICT');
  let ready: boolean;
  try {
    ready = await refreshReadiness(context, {...affiliate, stripe_account_id: account});
  } catch (err) {
    throw paymentProviderError(err);
  }
  if (!ready) throw new HttpError(409, AFFILIATE_WORDS.stripeNotReady, 'CONFLICT');
  return account;
}
