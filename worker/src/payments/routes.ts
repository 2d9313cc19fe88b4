import {Hono} from 'hono';
import type Stripe from 'stripe';
import {
  appConfig,
  findPlanByPriceId,
  ROUTES,
  saleOf,
  seatsRefusal,
  storedPlanName,
  TEAM_WORDS,
} from '../../../src/config';
import {
  API_PATHS,
  type CheckoutSignInResponse,
  type CheckoutStatus,
  type CheckoutStatusResponse,
  type PaidResponse,
  type RefundPurchaseResult,
  type UrlResponse,
} from '../../../src/config/api';
import type {AppEnv} from '../app';
import {currentUser, optionalUser, requireUser} from '../auth/middleware';
import {accountsFor} from '../auth/accountsFor';
import {HttpError} from '../errors';
import {clientIp, pageOfSite, parse, readJson} from '../http';
import {log} from '../log';
import {enforceLimit, limits} from '../rateLimit';
import {
  billingPortalBody,
  checkoutBody,
  checkoutClaim,
  checkoutSessionId,
  checkoutStatusBody,
  refundPurchaseBody,
  userIdQuery,
} from '../../../src/config/apiSchemas';
import {CLAIM_METADATA_KEY, claimHash, claimMatches, newClaim, successUrlWith} from './checkoutClaim';
import {settingsOf} from '../settings';
import {checkoutOptions, consentMetadata} from './checkoutOptions';
import {fairPriceParams} from './fairPriceCheckout';
import {visitorCountry} from './visitorCountry';
import {fulfillCheckout} from './fulfilment';
import {bestPaidPurchaseOf, customerOf, type PurchaseStatus} from '../purchases';
import {accessSeatOf} from '../access/accessSeat';
import {teamPurchaseOf} from '../team/members';
import {idOf, paymentProviderError, stripeFor} from './stripe';
import {refundOwnPurchase} from './selfRefund';
import {DAY_MS} from '../../../src/config/dates';
import {referralMetadata} from '../affiliates/visits';

export const paymentRoutes = new Hono<AppEnv>()
  /** A one-time Checkout Session for one of the config's plans. */
  .post(API_PATHS.createCheckoutSession, optionalUser, async (c) => {
    const settings = settingsOf(c.env);
    const user = c.get('user');
    // A signed-in caller counts against their account and their address: new accounts from one
    // address, or one account from many addresses, are no way around the limit.
    await enforceLimit(
      c.env.DB,
      [`checkout:ip:${clientIp(c)}`, ...(user ? [`checkout:user:${user.uid}`] : [])],
      limits.checkout,
    );
    const body = await readJson(c, checkoutBody);
    const plan = findPlanByPriceId(body.priceId);
    if (!plan) throw new HttpError(400, 'Unknown price ID: it is not one of the plans');
    // Seats are a quantity of one price (Stripe charges it times the seats), or one team tier of
    // their number, and a country's coupon (a percent) takes the same share off the whole. The price
    // is the worker's pick for the seats (`saleOf`), never the id the body named.
    const seats = body.seats ?? 1;
    const refused = seatsRefusal(plan, seats);
    if (refused) throw new HttpError(400, refused);
    // A team's owner grows the team they have: their dashboard manages one team (teamPurchaseOf), so
    // a second one's seats could never be given.
    if (user && seats > 1 && (await teamPurchaseOf(c.env.DB, user)))
      throw new HttpError(409, TEAM_WORDS.secondTeam, 'CONFLICT');
    const sale = saleOf(plan, seats);
    // The key decides the mode: that price in that mode is what Stripe charges.
    const priceId = sale.price.priceId[settings.stripeMode];
    const successUrl = pageOfSite(body.successUrl, settings.siteOrigin, 'The success URL');
    const cancelUrl = pageOfSite(body.cancelUrl, settings.siteOrigin, 'The cancel URL');
    // The payer's browser lands there with the claim: the site's success page, which hands it on
    // to the dashboard and runs no one else's script.
    if (new URL(successUrl).pathname !== ROUTES.success) {
      throw new HttpError(400, `The success URL must be ${settings.siteOrigin}${ROUTES.success}`);
    }
    const claim = newClaim();
    const email = user?.email ?? body.email ?? undefined;
    try {
      const stripe = stripeFor(settings);
      // The visitor's country from Cloudflare decides the price (fairPriceCheckout.ts), never the body.
      const fair = await fairPriceParams(stripe, plan, visitorCountry(c.env, c.req.raw));
      const session = await stripe.checkout.sessions.create({
        mode: 'payment',
        line_items: [{price: priceId, quantity: sale.quantity}],
        customer_creation: 'always',
        ...(user && {client_reference_id: user.uid}),
        ...(email && {customer_email: email}),
        ...checkoutOptions(settings.siteOrigin, appConfig.checkout, {
          promotionCodes: fair.allow_promotion_codes === true,
        }),
        ...(fair.discounts ? {discounts: fair.discounts} : {allow_promotion_codes: fair.allow_promotion_codes}),
        metadata: {
          plan: plan.name,
          priceId,
          [CLAIM_METADATA_KEY]: await claimHash(claim),
          ...fair.metadata,
          ...consentMetadata(),
          // The affiliate whose visit the browser named, when the worker recorded it in the period.
          ...(await referralMetadata(c.env.DB, body.referral)),
        },
        success_url: successUrlWith(successUrl, claim),
        cancel_url: cancelUrl,
      });
      if (!session.url) throw new HttpError(502, 'Stripe returned no checkout URL', 'PAYMENT_PROVIDER');
      await recordCheckoutStart(c.env.DB, session.id);
      log.info('checkout.created', {
        sessionId: session.id,
        plan: plan.name,
        seats,
        signedIn: Boolean(user),
        ...fair.metadata,
      });
      return c.json({url: session.url} satisfies UrlResponse);
    } catch (err) {
      if (err instanceof HttpError) throw err;
      throw paymentProviderError(err);
    }
  })

  /** Only the caller's own status; a guest purchase counts through a verified e-mail. */
  .get(API_PATHS.userHasPaid, requireUser, async (c) => {
    const user = currentUser(c);
    const userId = parse(userIdQuery, c.req.query('userId'));
    if (userId !== user.uid) throw new HttpError(403, 'You may only ask about your own account');
    // A team's member has paid through the team: the site sells them nothing.
    const purchase = (await bestPaidPurchaseOf(c.env.DB, user)) ?? (await accessSeatOf(c.env.DB, user))?.purchase;
    return c.json(
      (purchase
        ? {hasPaid: true, plan: storedPlanName(purchase.plan) ?? undefined}
        : {hasPaid: false}) satisfies PaidResponse,
    );
  })

  /**
   * Exchanges a paid guest session for a sign-in token, once. The id travels in URLs, so it may
   * identify the purchase but never authorize twice: the first exchange consumes it (410 after).
   * It also needs the claim that only the payer's browser brought back from Stripe (checkoutClaim.ts),
   * so whoever started the checkout and sent its link to someone else cannot take the purchase.
   * The token is only for an account that this same session created: the e-mail typed at
   * checkout is unverified, so it must never open an older account, nor one its owner has since
   * signed in to.
   */
  .get(API_PATHS.retrieveUserFromCheckoutSession, async (c) => {
    await enforceLimit(c.env.DB, `exchange:${clientIp(c)}`, limits.checkoutExchange);
    const sessionId = parse(checkoutSessionId, c.req.query('sessionId'));
    const claim = parse(checkoutClaim, c.req.query('claim'));
    const settings = settingsOf(c.env);
    const {session, status, email} = await fulfilledFromSuccessPath(c.env, sessionId);
    if (status === 'ignored') throw notOurs();
    if (status !== 'paid') throw new HttpError(400, 'This checkout session is not paid');
    if (Date.now() - session.created * 1000 > DAY_MS) {
      throw new HttpError(400, 'This checkout session is more than 24 hours old. Please sign in instead.');
    }
    if (!email) throw new HttpError(400, 'This checkout session has no e-mail address');
    if (session.client_reference_id) throw signInInstead();
    await requireClaim(
      session,
      claim,
      'This link does not sign anyone in. Sign in with the e-mail you paid with (a magic link) to reach your purchase.',
    );

    const accounts = accountsFor(settings);
    let account = await checkoutAccount(c.env.DB, sessionId);
    if (!account) {
      const created = await accounts.create(email);
      if (created === 'exists') {
        // A concurrent exchange of the same session may have created it a moment ago, and be
        // about to record it: its row follows the account by one round trip, longer under load.
        account = await checkoutAccountSoon(c.env.DB, sessionId);
        if (!account) throw signInInstead();
      } else {
        await c.env.DB.batch([
          c.env.DB.prepare(
            `INSERT INTO checkout_accounts (session_id, user_id, email, created_at) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (session_id) DO NOTHING`,
          ).bind(sessionId, created.uid, email, Date.now()),
          c.env.DB.prepare(`UPDATE purchases SET user_id = ?2 WHERE session_id = ?1 AND user_id IS NULL`).bind(
            sessionId,
            created.uid,
          ),
          c.env.DB.prepare(`UPDATE customers SET user_id = COALESCE(user_id, ?2) WHERE id = ?1`).bind(
            idOf(session.customer),
            created.uid,
          ),
        ]);
        account = await checkoutAccount(c.env.DB, sessionId);
      }
    }
    if (!account) throw new Error('The checkout account vanished');
    if (account.consumed_at) throw alreadyUsed();
    // The e-mail's owner got there first: the account is theirs now.
    if (account.verified_at || (await accounts.isVerified(account.user_id))) throw signInInstead();

    // Minted first, handed out only by the one request that consumes the session.
    const token = await accounts.signInToken({uid: account.user_id, email: account.email});
    const consumed = await c.env.DB.prepare(
      'UPDATE checkout_accounts SET consumed_at = ?2 WHERE session_id = ?1 AND consumed_at IS NULL RETURNING user_id',
    )
      .bind(sessionId, Date.now())
      .first();
    if (!consumed) throw alreadyUsed();
    log.info('checkout.exchanged', {sessionId, userId: account.user_id});
    return c.json({token} satisfies CheckoutSignInResponse);
  })

  /**
   * What the success page says (issue 38: it thanked anyone who opened it): whether the checkout
   * the payer's browser came back from is paid, read from Stripe now and recorded, as Stripe's
   * fulfilment guide has the success path do too (the webhook may not have arrived, and the page
   * says the welcome e-mail is sent). The claim is needed, as for the exchange, so the id alone
   * tells its holder nothing; nothing is consumed, so the dashboard's exchange still works after.
   */
  .post(API_PATHS.checkoutStatus, async (c) => {
    await enforceLimit(c.env.DB, `checkout-status:${clientIp(c)}`, limits.checkoutStatus);
    const {sessionId, claim} = await readJson(c, checkoutStatusBody);
    const {session, status} = await fulfilledFromSuccessPath(c.env, sessionId);
    await requireClaim(
      session,
      claim,
      'This link does not confirm a purchase. Sign in with the e-mail you paid with to reach yours.',
    );
    if (status === 'ignored') throw notOurs();
    return c.json({status: checkoutStatusOf(status, session)} satisfies CheckoutStatusResponse);
  })

  /**
   * The buyer's own refund (selfRefund.ts), under the money-back guarantee (once per buyer) or as
   * the EU consumer's withdrawal: their purchase, within the right's window; 200 with what Stripe
   * refunded, and access has ended.
   */
  .post(API_PATHS.refundPurchase, requireUser, async (c) => {
    const user = currentUser(c);
    await enforceLimit(c.env.DB, `refund:${user.uid}`, limits.refundPurchase);
    const {kind, reason} = await readJson(c, refundPurchaseBody);
    const refund = await refundOwnPurchase(c.env, user, reason || null, kind);
    return c.json({status: 'refunded', ...refund} satisfies RefundPurchaseResult);
  })

  /** Stripe's billing portal for a buyer with a Stripe customer; the return URL stays on the site. */
  .post(API_PATHS.createBillingPortal, requireUser, async (c) => {
    await enforceLimit(c.env.DB, `portal:${currentUser(c).uid}`, limits.billingPortal);
    const settings = settingsOf(c.env);
    const returnUrl = pageOfSite(
      (await readJson(c, billingPortalBody)).returnUrl,
      settings.siteOrigin,
      'The return URL',
    );
    const customer = await customerOf(c.env.DB, currentUser(c));
    if (!customer) throw new HttpError(404, 'No billing account was found for this user');
    try {
      const portal = await stripeFor(settings).billingPortal.sessions.create({customer, return_url: returnUrl});
      return c.json({url: portal.url} satisfies UrlResponse);
    } catch (err) {
      throw paymentProviderError(err);
    }
  });

/** Fulfilment run from the success path: Stripe's 404 is the caller's unknown id, any other failure Stripe's. */
async function fulfilledFromSuccessPath(env: Env, sessionId: string) {
  try {
    return await fulfillCheckout(env, sessionId);
  } catch (err) {
    if (err instanceof HttpError) throw err;
    if ((err as {statusCode?: number}).statusCode === 404) throw new HttpError(400, 'Unknown checkout session');
    throw paymentProviderError(err);
  }
}

/** The claim Stripe's redirect brought must be the one whose hash the session keeps (checkoutClaim.ts); a wrong one consumes nothing. */
async function requireClaim(session: Stripe.Checkout.Session, claim: string, refusal: string): Promise<void> {
  if (await claimMatches(claim, session.metadata?.[CLAIM_METADATA_KEY])) return;
  log.warn('checkout.claim_refused', {sessionId: session.id});
  throw new HttpError(409, refusal, 'SIGN_IN_REQUIRED');
}

function notOurs() {
  return new HttpError(400, `This checkout session is not a purchase of ${appConfig.appName}`);
}

/** The purchase as recorded, in the success page's terms: a completed checkout not yet paid waits for its payment. */
function checkoutStatusOf(status: PurchaseStatus, session: Stripe.Checkout.Session): CheckoutStatus {
  if (status === 'open') return session.status === 'complete' ? 'processing' : 'unpaid';
  return status;
}

// Neither answer names the e-mail: the caller holds only a session id, which others may have read.
function signInInstead() {
  return new HttpError(
    409,
    'An account already uses the e-mail of this purchase. Sign in with that e-mail (magic link or Google) to reach your purchase.',
    'SIGN_IN_REQUIRED',
  );
}

function alreadyUsed() {
  return new HttpError(
    410,
    'This checkout sign-in was already used. Sign in with the e-mail you paid with to reach your purchase.',
    'SESSION_USED',
  );
}

/**
 * The session's account row, read again for up to ~2 s while a concurrent exchange records it. An
 * older account with that e-mail (no row ever comes) pays those 2 s before its 409: a rare path.
 */
async function checkoutAccountSoon(db: D1Database, sessionId: string) {
  for (let attempt = 0; ; attempt++) {
    const account = await checkoutAccount(db, sessionId);
    if (account || attempt === 5) return account;
    await scheduler.wait(100 * 2 ** Math.min(attempt, 3));
  }
}

function checkoutAccount(db: D1Database, sessionId: string) {
  return db
    .prepare('SELECT user_id, email, consumed_at, verified_at FROM checkout_accounts WHERE session_id = ?1')
    .bind(sessionId)
    .first<{user_id: string; email: string; consumed_at: number | null; verified_at: number | null}>();
}

/**
 * The console's funnel counts the checkouts started (admin/funnel.ts). A record lost costs a
 * figure, never the buyer's checkout: a failure is logged and the buyer goes on to pay.
 */
async function recordCheckoutStart(db: D1Database, sessionId: string): Promise<void> {
  try {
    await db
      .prepare('INSERT INTO checkout_starts (session_id, created_at) VALUES (?1, ?2) ON CONFLICT DO NOTHING')
      .bind(sessionId, Date.now())
      .run();
  } catch (err) {
    log.error('checkout.start_unrecorded', {sessionId, error: err instanceof Error ? err.message : String(err)});
  }
}
