/**
 * A payout sent through Stripe Connect (admin/affiliates.ts writes it 'sending', with its
 * commissions marked, in one batch): its transfer, asked of Stripe, and the payout settled by
 * Stripe's answer. Idempotent: one transfer per payout, however many times this runs. Every ask
 * carries the payout's idempotency key, and the outbox's retry first looks for a transfer already
 * made in the payout's transfer group (keys last only 24 hours at Stripe, and Stripe answers a
 * retry with a key the same 500 it answered first).
 */
import Stripe from 'stripe';
import {AFFILIATE_WORDS} from '../../../src/config';
import type {Context} from '../context';
import {describe} from '../errors';
import {enqueueStatement} from '../jobs';
import {log} from '../log';
import {registerJob} from '../outbox';
import {idOf, stripeFor} from '../payments/stripe';

/** A payout on its way: what D1 holds of it, with the account the worker made for its affiliate. */
export interface SendingPayout {
  id: string;
  affiliateId: string;
  amount: number;
  currency: string;
  /** `affiliates.stripe_account_id`, read from D1: the transfer goes nowhere else. */
  account: string;
}

/** How Stripe answered: the transfer made, or refused (nothing sent). Anything unknown is thrown. */
export type TransferOutcome = {made: Stripe.Transfer} | {refused: Stripe.errors.StripeError};

/** How long the outbox waits before asking again about a transfer the request could not settle. */
const RETRY_AFTER_MS = 5 * 60_000;

/**
 * The job that asks again about the payout's transfer, for the batch that writes the payout: it
 * waits a few minutes, so the request's own ask settles it first (the job then finds it settled).
 * Queued with the payout, so a request that dies before Stripe answers still leaves it asked again.
 */
export function transferJobStatement(db: D1Database, payoutId: string, now = Date.now()): D1PreparedStatement {
  return enqueueStatement(
    db,
    {
      key: `affiliate-transfer:${payoutId}`,
      kind: 'affiliate-transfer',
      payload: {payoutId},
      runAfter: now + RETRY_AFTER_MS,
    },
    now,
    {sql: 'EXISTS (SELECT 1 FROM affiliate_payouts WHERE id = ?7)', param: payoutId},
  );
}

/** A refusal Stripe will repeat (a 4xx other than a conflict or a rate limit): nothing was sent. */
function refusal(err: unknown): Stripe.errors.StripeError | null {
  if (!(err instanceof Stripe.errors.StripeError)) return null;
  // An earlier ask with the key exists, and it may have made the transfer: unknown, not refused.
  if (err instanceof Stripe.errors.StripeIdempotencyError) return null;
  const status = err.statusCode ?? 0;
  return status >= 400 && status < 500 && status !== 409 && status !== 429 ? err : null;
}

/**
 * Asks Stripe for the payout's transfer: the payable amount, from the seller's balance to the
 * affiliate's account. `lookFirst` (a retry): a transfer Stripe already made for the payout is
 * adopted rather than asked for again.
 */
export async function askForTransfer(
  context: Context,
  payout: SendingPayout,
  lookFirst: boolean,
): Promise<TransferOutcome> {
  const stripe = stripeFor(context.settings);
  if (lookFirst) {
    const made = await transferMadeFor(stripe, payout);
    if (made) return {made};
  }
  try {
    const made = await stripe.transfers.create(
      {
        amount: payout.amount,
        currency: payout.currency,
        destination: payout.account,
        transfer_group: payout.id,
        metadata: {payout_id: payout.id, affiliate_id: payout.affiliateId},
      },
      {idempotencyKey: `affiliate-payout-${payout.id}`},
    );
    return {made};
  } catch (err) {
    const refused = refusal(err);
    if (refused) return {refused};
    throw err;
  }
}

/** The transfer Stripe made for the payout (its transfer group, to its account), if it made one. */
async function transferMadeFor(stripe: Stripe, payout: SendingPayout): Promise<Stripe.Transfer | undefined> {
  const found = await stripe.transfers.list({transfer_group: payout.id, limit: 10});
  return found.data.find((transfer) => idOf(transfer.destination) === payout.account);
}

/** Stripe's refusal in the seller's words: their balance too low, or Stripe's own message. */
export function refusalReason(refused: Stripe.errors.StripeError): string {
  return AFFILIATE_WORDS.transferRefused(
    refused.code === 'balance_insufficient' ? AFFILIATE_WORDS.balanceInsufficient : refused.message,
  );
}

/**
 * Settles the payout by Stripe's answer, once (only a payout still 'sending' changes). Made: the
 * payout is made, its reference the transfer's id. Refused: undone in one batch, its commissions
 * payable again, what it took off owed back again, and the payout gone, as if never asked.
 */
export async function settleTransfer(db: D1Database, payoutId: string, outcome: TransferOutcome): Promise<void> {
  if ('made' in outcome) {
    const transfer = outcome.made.id;
    await db
      .prepare(
        `UPDATE affiliate_payouts SET state = 'made', transfer_id = ?2, reference = ?2 WHERE id = ?1 AND state = 'sending'`,
      )
      .bind(payoutId, transfer)
      .run();
    log.info('affiliate.transfer_made', {payoutId, transfer});
    return;
  }
  await undoPayout(db, payoutId);
}

/** Undoes a payout still 'sending', in one batch: its commissions payable again, what it took off owed back again. */
async function undoPayout(db: D1Database, payoutId: string): Promise<void> {
  await db.batch([
    db
      .prepare(
        `UPDATE commissions SET payout_id = NULL, paid_amount = NULL
         WHERE payout_id = ?1 AND EXISTS (SELECT 1 FROM affiliate_payouts WHERE id = ?1 AND state = 'sending')`,
      )
      .bind(payoutId),
    // What it took off for refunds after earlier payouts is owed back again.
    db
      .prepare(
        `DELETE FROM commission_takebacks
         WHERE payout_id = ?1 AND EXISTS (SELECT 1 FROM affiliate_payouts WHERE id = ?1 AND state = 'sending')`,
      )
      .bind(payoutId),
    db.prepare(`DELETE FROM affiliate_payouts WHERE id = ?1 AND state = 'sending'`).bind(payoutId),
  ]);
}

/** The payout, if it is still on its way, with its affiliate's account as D1 holds it. */
async function sendingPayout(db: D1Database, payoutId: string): Promise<SendingPayout | null> {
  const row = await db
    .prepare(
      `SELECT p.id, p.affiliate_id, p.amount, p.currency, a.stripe_account_id FROM affiliate_payouts p
       JOIN affiliates a ON a.id = p.affiliate_id
       WHERE p.id = ?1 AND p.state = 'sending' AND a.stripe_account_id IS NOT NULL`,
    )
    .bind(payoutId)
    .first<{id: string; affiliate_id: string; amount: number; currency: string; stripe_account_id: string}>();
  if (!row) return null;
  return {
    id: row.id,
    affiliateId: row.affiliate_id,
    amount: row.amount,
    currency: row.currency,
    account: row.stripe_account_id,
  };
}

registerJob<{payoutId: string}>('affiliate-transfer', {
  async run(context, {payoutId}) {
    const payout = await sendingPayout(context.db, payoutId);
    if (!payout) return; // settled already (by the request, or an earlier run)
    const outcome = await askForTransfer(context, payout, true);
    await settleTransfer(context.db, payoutId, outcome);
    if ('refused' in outcome)
      log.error('affiliate.transfer_refused', {
        payoutId,
        code: outcome.refused.code,
        error: describe(outcome.refused),
      });
  },
  async gaveUp(context, {payoutId}, error) {
    // Asked for a day with no answer (Stripe answers a retry with a key the 500 it saved for it).
    // What the transfer group holds decides: a transfer made settles the payout; none undoes it, and
    // its commissions are payable again (no later ask carries this key, so none can make it now).
    const payout = await sendingPayout(context.db, payoutId);
    if (!payout) return;
    try {
      const made = await transferMadeFor(stripeFor(context.settings), payout);
      if (made) {
        await settleTransfer(context.db, payoutId, {made});
        return;
      }
      await undoPayout(context.db, payoutId);
      log.error('affiliate.transfer_given_up', {payoutId, error, undone: true});
    } catch (err) {
      // Stripe cannot even be read: left 'sending', for the seller to check in Stripe.
      log.error('affiliate.transfer_unknown', {payoutId, error, lookup: describe(err)});
    }
  },
});
