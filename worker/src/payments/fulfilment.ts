import type Stripe from 'stripe';
import {findPlanPrice, type Plan} from '../../../src/config';
import {takeBackEvery} from '../access/grants/removal';
import {contextOf} from '../context';
import {enqueueClaimedStatement, type Job} from '../jobs';
import {log} from '../log';
import {saleMail, welcomeMail} from '../mail';
import {runClaimed} from '../outbox';
import {settingsOf} from '../settings';
import type {PurchaseStatus} from '../purchases';
import {checkCardCountry} from './cardCountry';
import {queueCommission} from '../affiliates/credit';
import {CONSENT_METADATA_KEY} from './checkoutOptions';
import {idOf, stripeFor} from './stripe';
import {fulfillUpgrade} from '../upgrades/fulfilment';
import {isUpgradeSession} from '../upgrades/metadata';

/**
 * Fulfilment is one function of the Checkout Session id (Stripe's fulfilment guide): it reads the
 * session's current state from Stripe and records it, so it is safe to run any number of times,
 * concurrently, from the webhook or the success path, and in any order of events. Each step is
 * one SQL statement or one D1 batch (a transaction), which is what makes the races harmless.
 */
export async function fulfillCheckout(
  env: Env,
  sessionId: string,
  options: {paymentFailed?: boolean} = {},
): Promise<{status: PurchaseStatus | 'ignored'; session: Stripe.Checkout.Session; email: string | null}> {
  const settings = settingsOf(env);
  const session = await stripeFor(settings).checkout.sessions.retrieve(sessionId, {expand: ['line_items']});
  // An upgrade buys the higher plan's price too, but adds to a purchase rather than being one (and
  // earns an affiliate no commission: affiliates/credit.ts).
  if (isUpgradeSession(session)) return fulfillUpgrade(env, session, options);
  // The Stripe account may sell other things too (a Payment Link, another product): only a
  // session that bought one of this config's prices is a purchase. Metadata is not proof.
  const bought = ourPlan(session);
  if (!bought) {
    log.warn('checkout.ignored', {sessionId, reason: 'no configured price in its line items'});
    return {status: 'ignored', session, email: null};
  }
  const {priceId, plan, seats} = bought;
  const paid =
    session.status === 'complete' &&
    (session.payment_status === 'paid' || session.payment_status === 'no_payment_required');
  const observed: PurchaseStatus = paid ? 'paid' : options.paymentFailed ? 'failed' : 'open';
  const customerId = idOf(session.customer);
  const paymentIntentId = idOf(session.payment_intent);
  const email = (session.customer_details?.email ?? session.customer_email ?? null)?.toLowerCase() ?? null;
  const userId = session.client_reference_id ?? null;
  const now = Date.now();
  const consent = deliveryConsentOf(session);
  // The consent's time is when the worker first saw it (kept once): a later run, the payment of an
  // async method say, confirms that time, not its own.
  const consentAt =
    consent === null
      ? null
      : ((
          await env.DB.prepare('SELECT delivery_consent_at AS at FROM purchases WHERE session_id = ?1')
            .bind(sessionId)
            .first<{at: number | null}>()
        )?.at ?? now);

  const statements = [
    env.DB.prepare(
      `INSERT INTO purchases (session_id, customer_id, user_id, email, price_id, plan, payment_intent_id,
         status, revoke_reason, created_at, updated_at, amount_total, currency, amount_refunded,
         delivery_consent_version, delivery_consent_at, paid_at, seats, promotion_code_id, recovered_from)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7,
         CASE WHEN ?8 = 'paid' AND EXISTS (SELECT 1 FROM payment_revocations WHERE payment_intent_id = ?7)
              THEN 'revoked' ELSE ?8 END,
         (SELECT reason FROM payment_revocations WHERE payment_intent_id = ?7), ?9, ?10, ?11, ?12,
         -- A refund Stripe delivered before this completion (webhooks/stripe.ts refund).
         COALESCE((SELECT amount_refunded FROM payment_refunds WHERE payment_intent_id = ?7), 0),
         ?13, CASE WHEN ?13 IS NULL THEN NULL ELSE ?10 END, CASE WHEN ?8 = 'paid' THEN ?10 END, ?14, ?15, ?16)
       ON CONFLICT (session_id) DO UPDATE SET
         customer_id = COALESCE(excluded.customer_id, purchases.customer_id),
         user_id = COALESCE(purchases.user_id, excluded.user_id),
         email = COALESCE(excluded.email, purchases.email),
         price_id = COALESCE(excluded.price_id, purchases.price_id),
         plan = COALESCE(excluded.plan, purchases.plan),
         payment_intent_id = COALESCE(excluded.payment_intent_id, purchases.payment_intent_id),
         status = CASE
           WHEN purchases.status = 'revoked' OR excluded.status = 'revoked' THEN 'revoked'
           WHEN purchases.status = 'paid' THEN 'paid'
           -- Stripe's session still reads complete and unpaid after its async payment failed: a
           -- later read from the success path must not make the failure a payment in progress.
           WHEN purchases.status = 'failed' AND excluded.status = 'open' THEN 'failed'
           ELSE excluded.status END,
         revoke_reason = COALESCE(purchases.revoke_reason, excluded.revoke_reason),
         amount_total = COALESCE(excluded.amount_total, purchases.amount_total),
         currency = COALESCE(excluded.currency, purchases.currency),
         amount_refunded = MAX(purchases.amount_refunded, excluded.amount_refunded),
         -- The first record of the request stands: its time is when it was first seen.
         delivery_consent_version = COALESCE(purchases.delivery_consent_version, excluded.delivery_consent_version),
         delivery_consent_at = COALESCE(purchases.delivery_consent_at, excluded.delivery_consent_at),
         -- When the worker first saw it paid: the day the buyer's own refunds run from.
         paid_at = COALESCE(purchases.paid_at, excluded.paid_at),
         -- The seats Stripe sold: a session's line items never change, so any run records the same.
         seats = excluded.seats,
         -- The code Stripe applied (a launch code's uses and revenue): kept once recorded.
         promotion_code_id = COALESCE(purchases.promotion_code_id, excluded.promotion_code_id),
         -- The expired checkout this one was recovered from (a reminder's link): the console's checkouts won back.
         recovered_from = COALESCE(purchases.recovered_from, excluded.recovered_from),
         updated_at = excluded.updated_at`,
    ).bind(
      sessionId,
      customerId,
      userId,
      email,
      priceId,
      // The plan's id, never its name: the name may change, the purchases must still find their plan.
      plan.id,
      paymentIntentId,
      observed,
      session.created * 1000,
      now,
      session.amount_total ?? null,
      session.currency ?? null,
      consent,
      seats,
      promotionCodeOf(session),
      session.recovered_from ?? null,
    ),
    env.DB.prepare('SELECT status FROM purchases WHERE session_id = ?1').bind(sessionId),
  ];
  if (customerId) {
    statements.unshift(
      env.DB.prepare(
        `INSERT INTO customers (id, email, user_id, created_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (id) DO UPDATE SET email = COALESCE(excluded.email, customers.email),
           user_id = COALESCE(customers.user_id, excluded.user_id)`,
      ).bind(customerId, email, userId, now),
    );
  }
  // The keys make each e-mail unique per purchase, whoever gets here first: the buyer's welcome,
  // and the seller's news of the sale. They are queued in the same batch as the purchase, each
  // only if the purchase reads paid once recorded: stored together, in one round trip.
  const mails = [
    ...(email
      ? [
          {
            key: `welcome:${sessionId}`,
            message: welcomeMail(
              settings,
              email,
              plan.name,
              consent === null || consentAt === null ? null : {version: consent, at: consentAt},
            ),
          },
        ]
      : []),
    {
      key: `sale:${sessionId}`,
      message: saleMail(settings, {
        plan: plan.name,
        seats,
        email,
        amount: session.amount_total,
        currency: session.currency,
      }),
    },
  ];
  const paidNow = {sql: `(SELECT status FROM purchases WHERE session_id = ?7) = 'paid'`, param: sessionId};
  const statusAt = statements.length - 1;
  statements.push(
    ...mails.map(({key, message}) =>
      enqueueClaimedStatement(env.DB, {key, kind: 'mail', payload: message, sessionId}, paidNow, now),
    ),
  );
  const results = await env.DB.batch<Record<string, unknown>>(statements);
  const status = results[statusAt]!.results[0]!.status as PurchaseStatus;
  // The jobs added here are this request's to run; a repeat of the event added none.
  const context = contextOf(env);
  for (const {results: queued} of results.slice(statusAt + 1)) {
    for (const job of queued as unknown as Job[]) await runClaimed(context, job);
  }
  if (status === 'revoked') await takeBackEvery(context, sessionId, 'payment refunded or disputed');
  if (status === 'paid') await checkCardCountry(context, session);
  if (status === 'paid') await queueCommission(context, session);
  log.info('checkout.recorded', {sessionId, status, paymentStatus: session.payment_status});
  return {status, session, email};
}

/**
 * The words of the immediate-delivery request the buyer accepted in Checkout's terms box, or null:
 * the version the worker put in the session's metadata when it made it (the words shown then). A
 * session the worker did not make (a Payment Link, say) may tick a terms box too, but its words are
 * not known to be ours: no consent is recorded for it.
 */
function deliveryConsentOf(session: Stripe.Checkout.Session): string | null {
  if (session.consent?.terms_of_service !== 'accepted') return null;
  const version = session.metadata?.[CONSENT_METADATA_KEY];
  if (!version) log.warn('checkout.consent_unversioned', {sessionId: session.id});
  return version || null;
}

/**
 * The plan the session bought and how many seats of it: its line item's quantity times the seats
 * one of its price buys (a team tier's size, else 1), Stripe's record of what was paid for.
 */
function ourPlan(session: Stripe.Checkout.Session): {priceId: string; plan: Plan; seats: number} | null {
  for (const item of session.line_items?.data ?? []) {
    const priceId = item.price?.id;
    const sold = priceId ? findPlanPrice(priceId) : undefined;
    if (priceId && sold) return {priceId, plan: sold.plan, seats: Math.max(1, item.quantity ?? 1) * sold.price.seats};
  }
  return null;
}

/** The promotion code Stripe applied to the session (a launch code a buyer typed), or null. */
function promotionCodeOf(session: Stripe.Checkout.Session): string | null {
  for (const discount of session.discounts ?? []) {
    const id = idOf(discount.promotion_code);
    if (id) return id;
  }
  return null;
}
