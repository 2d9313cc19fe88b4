import type Stripe from 'stripe';
import {affiliateProgramme, appConfig, commissionPayableAt, PLAN_CURRENCY} from '../../../src/config';
import {baseOf} from './base';
import type {Context} from '../context';
import {log} from '../log';
import {stripeFor} from '../payments/stripe';
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
 * Credits the affiliate a paid purchase's referral named (the metadata the worker put on its
 * session, payments/routes.ts), once: `commissionPercent` of what the buyer paid after discounts
 * and before tax, payable after the hold (`commissionPayableAt`). Idempotent and safe under
 * concurrency: one row per session (`ON CONFLICT DO NOTHING`), however many runs of fulfilment
 * get here. An upgrade's session never does (fulfillUpgrade handles it): an upgrade earns no
 * commission, as the referral brought the purchase, not what its buyer added later.
 *
 * The affiliate's own purchase earns nothing (AFFILIATE_WORDS.selfReferral): refused, and logged
 * `affiliate.self_referral`, when the buyer is the affiliate by e-mail, account, Stripe customer,
 * or by the card they paid with (one the affiliate paid with before). Reading a card is a call to
 * Stripe; one that fails throws, so the webhook's delivery fails and Stripe delivers it again.
 */
export async function creditCommission(context: Context, session: Stripe.Checkout.Session, now = Date.now()) {
  const programme = affiliateProgramme(appConfig);
  const affiliateId = session.metadata?.[REFERRAL_METADATA.affiliate];
  if (!programme || !affiliateId) return;
  const {db} = context;
  const [affiliateRead, purchaseRead, creditedRead] = await db.batch<Record<string, unknown>>([
    db.prepare('SELECT id, user_id, email FROM affiliates WHERE id = ?1').bind(affiliateId),
    db
      .prepare(
        `SELECT session_id, status, email, user_id, customer_id, payment_intent_id, card_fingerprint, paid_at
         FROM purchases WHERE session_id = ?1`,
      )
      .bind(session.id),
    db.prepare('SELECT 1 AS credited FROM commissions WHERE session_id = ?1').bind(session.id),
  ]);
  if (creditedRead!.results.length > 0) return;
  const affiliate = affiliateRead!.results[0] as Affiliate | undefined;
  const purchase = purchaseRead!.results[0] as PaidPurchase | undefined;
  if (!affiliate) {
    log.warn('affiliate.unknown', {sessionId: session.id, affiliateId});
    return;
  }
  if (purchase?.status !== 'paid' || purchase.paid_at === null) return;
  const refused = await selfReferral(context, affiliate, purchase);
  if (refused) {
    log.warn('affiliate.self_referral', {sessionId: session.id, affiliateId, by: refused});
    return;
  }
  const {base, currency} = baseOf(session);
  if (currency !== PLAN_CURRENCY) log.warn('affiliate.other_currency', {sessionId: session.id, currency});
  const commission = Math.round((base * programme.commissionPercent) / 100);
  const credited = await db
    .prepare(
      `INSERT INTO commissions (session_id, affiliate_id, visit_id, base, currency, rate_percent, commission,
         paid_at, payable_at, created_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) ON CONFLICT (session_id) DO NOTHING RETURNING session_id`,
    )
    .bind(
      session.id,
      affiliate.id,
      session.metadata?.[REFERRAL_METADATA.visit] ?? null,
      base,
      currency,
      programme.commissionPercent,
      commission,
      purchase.paid_at,
      commissionPayableAt(purchase.paid_at, appConfig),
      now,
    )
    .first();
  if (credited) log.info('affiliate.commission_credited', {sessionId: session.id, affiliateId, commission, currency});
}

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
  const intent = await stripeFor(context.settings).paymentIntents.retrieve(purchase.payment_intent_id, {
    expand: ['latest_charge'],
  });
  const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
  const fingerprint = charge?.payment_method_details?.card?.fingerprint ?? '';
  await context.db
    .prepare('UPDATE purchases SET card_fingerprint = ?2 WHERE session_id = ?1 AND card_fingerprint IS NULL')
    .bind(purchase.session_id, fingerprint)
    .run();
  return fingerprint;
}
