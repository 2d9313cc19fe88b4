/**
 * An affiliate's Stripe Connect account (the programme's `stripeConnect`): the Express account the
 * worker makes for them, once, and where it stands. A payout's transfer goes to this account and no
 * other (./transfer.ts), so its id is only ever written here, from Stripe's answer, never from a
 * request.
 */
import type Stripe from 'stripe';
import {AFFILIATE_WORDS, appConfig, ROUTES, stripeConnectOn} from '../../../src/config';
import type {AffiliateConnectAnswer, AffiliateStripe} from '../../../src/config/api';
import type {Context} from '../context';
import {describe, HttpError} from '../errors';
import {log} from '../log';
import {enforceLimit, limits} from '../rateLimit';
import {paymentProviderError, stripeFor} from '../payments/stripe';

/** What the worker keeps of an affiliate's account. */
export interface StripeAccountRow {
  id: string;
  stripe_account_id: string | null;
  stripe_ready_at: number | null;
}

/** Stripe takes transfers to the account: its `transfers` capability is active. */
export function readyAtStripe(account: Stripe.Account): boolean {
  return account.capabilities?.transfers === 'active';
}

/** Where the affiliate stands as D1 says, with no call to Stripe (the console's list); null when Connect is off. */
export function storedStripeState(row: StripeAccountRow): AffiliateStripe {
  if (!stripeConnectOn(appConfig)) return null;
  if (!row.stripe_account_id) return 'unconnected';
  return row.stripe_ready_at === null ? 'onboarding' : 'ready';
}

/**
 * Whether the account is ready, asking Stripe only while D1 has not seen it ready yet: once ready,
 * `stripe_ready_at` is kept and Stripe is not asked again. A Stripe error is thrown.
 */
export async function refreshReadiness(
  context: Context,
  row: StripeAccountRow & {stripe_account_id: string},
  now = Date.now(),
): Promise<boolean> {
  if (row.stripe_ready_at !== null) return true;
  const account = await stripeFor(context.settings).accounts.retrieve(row.stripe_account_id);
  if (!readyAtStripe(account)) return false;
  await context.db
    .prepare('UPDATE affiliates SET stripe_ready_at = ?2 WHERE id = ?1 AND stripe_ready_at IS NULL')
    .bind(row.id, now)
    .run();
  row.stripe_ready_at = now;
  return true;
}

/**
 * Where the affiliate stands, for their own page (GET /affiliate): asks Stripe while their account
 * is not yet seen ready. A Stripe that cannot answer does not fail the page: the account reads as
 * still being set up, and a warning is logged.
 */
export async function liveStripeState(context: Context, row: StripeAccountRow): Promise<AffiliateStripe> {
  const stored = storedStripeState(row);
  if (stored !== 'onboarding') return stored;
  try {
    await enforceLimit(context.db, `affiliate-stripe-read:${row.id}`, limits.affiliateStripeRead);
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    return 'onboarding'; // asked often enough this minute: reloads do not reach Stripe
  }
  try {
    return (await refreshReadiness(context, {...row, stripe_account_id: row.stripe_account_id!}))
      ? 'ready'
      : 'onboarding';
  } catch (err) {
    log.warn('affiliate.stripe_unread', {affiliateId: row.id, error: describe(err)});
    return 'onboarding';
  }
}

/**
 * POST /affiliateConnect: the caller's own account, made once, and a single-use link into it: to
 * set it up (Stripe's hosted onboarding, back to the affiliates page) or, once Stripe takes
 * transfers to it, to their Express dashboard. Only the caller's account: the affiliate is read by
 * the caller's user id, and the account id from D1. The route answers 404 first when Connect is off.
 */
export async function connectLink(
  context: Context,
  siteOrigin: string,
  userId: string,
  now = Date.now(),
): Promise<AffiliateConnectAnswer> {
  const read = () =>
    context.db
      .prepare('SELECT id, email, stripe_account_id, stripe_ready_at FROM affiliates WHERE user_id = ?1')
      .bind(userId)
      .first<StripeAccountRow & {email: string}>();
  let affiliate = await read();
  if (!affiliate) throw new HttpError(404, AFFILIATE_WORDS.notJoined, 'NOT_FOUND');
  const stripe = stripeFor(context.settings);
  try {
    if (!affiliate.stripe_account_id) {
      // One account per affiliate: Stripe makes it once for the key (within its 24 hours), and D1
      // keeps the first one stored, whichever of two racing calls stores it.
      const made = await stripe.accounts.create(
        {
          type: 'express',
          email: affiliate.email,
          capabilities: {transfers: {requested: true}},
          metadata: {affiliate_id: affiliate.id},
        },
        {idempotencyKey: `affiliate-account-${affiliate.id}`},
      );
      await context.db
        .prepare('UPDATE affiliates SET stripe_account_id = ?2 WHERE id = ?1 AND stripe_account_id IS NULL')
        .bind(affiliate.id, made.id)
        .run();
      affiliate = (await read())!;
      log.info('affiliate.stripe_account', {affiliateId: affiliate.id, account: affiliate.stripe_account_id});
    }
    const account = affiliate.stripe_account_id!;
    if (await refreshReadiness(context, {...affiliate, stripe_account_id: account}, now)) {
      const login = await stripe.accounts.createLoginLink(account);
      return {url: login.url, kind: 'dashboard'};
    }
    const back = `${siteOrigin}${ROUTES.affiliates}`;
    const link = await stripe.accountLinks.create({
      account,
      type: 'account_onboarding',
      refresh_url: back,
      return_url: back,
    });
    return {url: link.url, kind: 'onboarding'};
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw paymentProviderError(err);
  }
}
