import type Stripe from 'stripe';
import {affiliateProgramme, appConfig, commissionPayableAt, PLAN_CURRENCY} from '../../../src/config';
import {baseOf} from './base';
import type {Context} from '../context';
import {describe} from '../errors';
import {enqueue} from '../jobs';
import {log} from '../log';
import {registerJob, runJob} from '../outbox';
import {stripeFor} from '../payments/stripe';
import {NextRun} from '../subrequests';
import {REFERRAL_METADATA} from './programme';

interface Affiliate {
  id: string;
  user_id: string;
  email: string;
}

interface PaidPurchase {
  session_id: string;
  status: string;
  email: string | null;
  user_id: string | null;
  customer_id: string | null;
  payment_intent_id: string | null;
  card_fingerprint: string | null;
  paid_at: number | null;
}

/** The affiliate's own purchases whose cards are read to compare: a buyer has one or two, not hundreds. */
const OWN_PURCHASES_READ = 5;

/**
 * What the outbox job `affiliate-credit` credits: the paid session, the affiliate and visit the
 * worker put in its metadata, and its base, read from the session when fulfilment saw it paid.
 */
interface CommissionCredit {
  sessionId: string;
  affiliateId: string;
  visitId: string | null;
  base: number;
  currency: string;
}

/**
 * Queues the commission of a paid purchase whose session names an affiliate (the metadata the
 * worker put on it, payments/routes.ts), and runs it at once. Through the outbox, as the card's
 * country is read: the self-referral check reads cards from Stripe, and a Stripe that does not
 * answer is asked again by the cron, never standing between the buyer and their purchase (the
 * success page runs fulfilment too). One job per session (its key), however many runs get here.
 * An upgrade's session never does (fulfillUpgrade handles it): an upgrade earns no commission, as
 * the referral brought the purchase, not what its buyer added later.
 */
export async function queueCommission(context: Context, session: Stripe.Checkout.Session): Promise<void> {
  const affiliateId = session.metadata?.[REFERRAL_METADATA.affiliate];
  if (!affiliateProgramme(appConfig) || !affiliateId) return;
  const {base, currency} = baseOf(session);
  const credit: CommissionCredit = {
    sessionId: session.id,
    affiliateId,
    visitId: session.metadata?.[REFERRAL_METADATA.visit] ?? null,
    base,
    currency,
  };
  const id = await enqueue(context.db, {
    key: `commission:${session.id}`,
    kind: 'affiliate-credit',
    sessionId: session.id,
    payload: credit,
  });
  if (id !== null) await runJob(context, id);
}

/**
 * Credits the affiliate once: `commissionPercent` of what the buyer paid after discounts and
 * before tax, payable after the hold (`commissionPayableAt`). Idempotent and safe under
 * concurrency: one row per session (`ON CONFLICT DO NOTHING`).
 *
 * The affiliate's own purchase earns nothing (AFFILIATE_WORDS.selfReferral): refused, and logged
 * `affiliate.self_referral`, when the buyer is the affiliate by e-mail, account, Stripe customer,
 * or by the card they paid with (one the affiliate paid with before).
 */
export async function creditCommission(context: Context, credit: CommissionCredit, now = Date.now()) {
  const programme = affiliateProgramme(appConfig);
  if (!programme) return;
  const {db} = context;
  const [affiliateRead, purchaseRead, creditedRead] = await db.batch<Record<string, unknown>>([
    db.prepare('SELECT id, user_id, email FROM affiliates WHERE id = ?1').bind(credit.affiliateId),
    db
      .prepare(
        `SELECT session_id, status, email, user_id, customer_id, payment_intent_id, card_fingerprint, paid_at
         FROM purchases WHERE session_id = ?1`,
      )
      .bind(credit.sessionId),
    db.prepare('SELECT 1 AS credited FROM commissions WHERE session_id = ?1').bind(credit.sessionId),
  ]);
  if (creditedRead!.results.length > 0) return;
  const affiliate = affiliateRead!.results[0] as Affiliate | undefined;
  const purchase = purchaseRead!.results[0] as PaidPurchase | undefined;
  const sessionId = credit.sessionId;
  if (!affiliate) {
    log.warn('affiliate.unknown', {sessionId, affiliateId: credit.affiliateId});
    return;
  }
  if (purchase?.status !== 'paid' || purchase.paid_at === null) return;
  const refused = await selfReferral(context, affiliate, purchase);
  if (refused) {
    log.warn('affiliate.self_referral', {sessionId, affiliateId: affiliate.id, by: refused});
    return;
  }
  const {base, currency} = credit;
  if (currency !== PLAN_CURRENCY) log.warn('affiliate.other_currency', {sessionId, currency});
  const commission = Math.round((base * programme.commissionPercent) / 100);
  const credited = await db
    .prepare(
      `INSERT INTO commissions (session_id, affiliate_id, visit_id, base, currency, rate_percent, commission,
         paid_at, payable_at, created_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) ON CONFLICT (session_id) DO NOTHING RETURNING session_id`,
    )
    .bind(
      sessionId,
      affiliate.id,
      credit.visitId,
      base,
      currency,
      programme.commissionPercent,
      commission,
      purchase.paid_at,
      commissionPayableAt(purchase.paid_at, appConfig),
      now,
    )
    .first();
  if (credited) log.info('affiliate.commission_credited', {sessionId, affiliateId: affiliate.id, commission, currency});
}

registerJob<CommissionCredit>('affiliate-credit', {run: (context, credit) => creditCommission(context, credit)});

/** How the buyer is the affiliate themselves, or null when they are not. */
async function selfReferral(context: Context, affiliate: Affiliate, purchase: PaidPurchase): Promise<string | null> {
  if (purchase.email && purchase.email.toLowerCase() === affiliate.email) return 'email';
  if (purchase.user_id && purchase.user_id === affiliate.user_id) return 'account';
  const {db} = context;
  if (purchase.customer_id) {
    // The Stripe customer is the affiliate's: linked to their account or their address, or one
    // that paid for a purchase of theirs.
    const theirs = await db
      .prepare(
        `SELECT 1 AS theirs FROM customers WHERE id = ?1 AND (user_id = ?2 OR lower(email) = ?3)
         UNION ALL SELECT 1 FROM purchases WHERE customer_id = ?1 AND session_id != ?4 AND (user_id = ?2 OR lower(email) = ?3)
         LIMIT 1`,
      )
      .bind(purchase.customer_id, affiliate.user_id, affiliate.email, purchase.session_id)
      .first();
    if (theirs) return 'customer';
  }
  const card = await fingerprintOf(context, purchase);
  if (!card) return null;
  const own = await db
    .prepare(
      `SELECT session_id, status, email, user_id, customer_id, payment_intent_id, card_fingerprint, paid_at FROM purchases
       WHERE session_id != ?1 AND paid_at IS NOT NULL AND (user_id = ?2 OR lower(email) = ?3)
       ORDER BY paid_at DESC LIMIT ${OWN_PURCHASES_READ}`,
    )
    .bind(purchase.session_id, affiliate.user_id, affiliate.email)
    .all<PaidPurchase>();
  for (const theirs of own.results) {
    if ((await fingerprintOf(context, theirs)) === card) return 'card';
  }
  return null;
}

/**
 * The fingerprint of the card that paid the purchase (its payment's latest charge, as
 * payments/cardCountry.ts reads it), read from Stripe once and kept: '' for a payment that was not
 * by card (Link, Cash App), which matches nothing.
 */
async function fingerprintOf(context: Context, purchase: PaidPurchase): Promise<string> {
  if (purchase.card_fingerprint !== null) return purchase.card_fingerprint;
  if (!purchase.payment_intent_id) return '';
  // Stripe's client fetches by itself, past the budget's wrappers: counted here, as cardCountry.ts
  // does, so a cron run that cannot fit the read leaves the job for the next.
  if (!context.subrequests.has(READ_SUBREQUESTS)) throw new NextRun("This run cannot fit reading a card's fingerprint");
  for (let i = 0; i < READ_SUBREQUESTS; i++) context.subrequests.spend();
  let fingerprint: string;
  try {
    const intent = await stripeFor(context.settings).paymentIntents.retrieve(purchase.payment_intent_id, {
      expand: ['latest_charge'],
    });
    const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
    fingerprint = charge?.payment_method_details?.card?.fingerprint ?? '';
  } catch (err) {
    // Stripe refusing the read (a payment this key cannot see: another mode, an imported row) will
    // not change: no card to compare. Anything else is asked again (the outbox's retry).
    const status = (err as {statusCode?: number}).statusCode;
    if (status === undefined || status < 400 || status >= 500 || status === 429) throw err;
    log.warn('affiliate.card_unread', {sessionId: purchase.session_id, error: describe(err)});
    return '';
  }
  await context.db
    .prepare('UPDATE purchases SET card_fingerprint = ?2 WHERE session_id = ?1 AND card_fingerprint IS NULL')
    .bind(purchase.session_id, fingerprint)
    .run();
  return fingerprint;
}

/** The read, and the Stripe client's one retry of it (`maxNetworkRetries`). */
const READ_SUBREQUESTS = 2;
