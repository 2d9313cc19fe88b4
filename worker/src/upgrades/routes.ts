import {Hono} from 'hono';
import {API_PATHS, type BuyerPlan, type UrlResponse} from '../../../src/config/api';
import type {AppEnv} from '../app';
import {currentUser, requireUser} from '../auth/middleware';
import {describe, HttpError} from '../errors';
import {pageOfSite, parse, readJson} from '../http';
import {log} from '../log';
import {paymentProviderError, stripeFor} from '../payments/stripe';
import {enforceLimit, limits} from '../rateLimit';
import {settingsOf} from '../settings';
import {UPGRADE_CODE_WORDS} from '../../../src/config';
import {upgradeBody, upgradesQuery} from '../../../src/config/apiSchemas';
import {buyerPlan, quoteUpgrade} from './quote';
import {createUpgradeCheckout, openUpgradeSession, upgradeLineItem} from './session';
import {SESSION_LIFETIME_MS, upgradeCodeFor, upgradeCodeOpen} from './upgradeCode';

/** The buyer's plan now and its upgrades; and the Checkout Session of one, priced by the worker. */
export const upgradeRoutes = new Hono<AppEnv>()
  .get(API_PATHS.upgrades, requireUser, async (c) => {
    const {code} = parse(upgradesQuery, c.req.query());
    const user = currentUser(c);
    if (code !== undefined) await enforceLimit(c.env.DB, `upgrade-code:user:${user.uid}`, limits.upgradeCode);
    return c.json((await buyerPlan(c.env.DB, user, code)) satisfies BuyerPlan);
  })

  .post(API_PATHS.createUpgradeSession, requireUser, async (c) => {
    const settings = settingsOf(c.env);
    const user = currentUser(c);
    await enforceLimit(c.env.DB, `upgrade:user:${user.uid}`, limits.checkout);
    const body = await readJson(c, upgradeBody);
    const successUrl = pageOfSite(body.successUrl, settings.siteOrigin, 'The success URL');
    const cancelUrl = pageOfSite(body.cancelUrl, settings.siteOrigin, 'The cancel URL');
    const quote = await quoteUpgrade(c.env.DB, user, body);
    // Asked again (a second click, a reload): the session still open for the same upgrade serves,
    // rather than one more credit coupon in the seller's Stripe account on every click.
    const line = upgradeLineItem(quote, settings);
    const open = await openUpgradeSession(c.env.DB, stripeFor(settings), {quote, user, line});
    if (open) return c.json({url: open} satisfies UrlResponse);
    let created;
    try {
      created = await createUpgradeCheckout(stripeFor(settings), settings, {
        quote,
        user,
        line,
        successUrl,
        cancelUrl,
      });
    } catch (err) {
      if (err instanceof HttpError) throw err;
      throw paymentProviderError(err);
    }
    const {session, couponId} = created;
    if (!session.url) throw new HttpError(502, 'Stripe returned no checkout URL', 'PAYMENT_PROVIDER');
    const now = Date.now();
    // What fulfilment holds the payment to: this row, not the session's metadata, nor the config
    // when Stripe tells of the payment (the seller may have changed the plan's price since). With
    // an upgrade code, the row is written only while the code still has a use to give: another
    // buyer's session made since the quote may have taken its last.
    const inserted = await c.env.DB.prepare(
      `INSERT INTO upgrades (session_id, purchase_session_id, user_id, email, from_plan, to_plan, amount, currency, coupon_id, created_at, updated_at,
         seats_added, from_seats, price_id, quantity, credit, launch_code_id)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10, ?11, ?12, ?13, ?14, ?15, ?16
       WHERE ?16 IS NULL OR EXISTS (SELECT 1 FROM launch_codes c WHERE c.id = ?16 AND ${upgradeCodeOpen('c', '?2', '?10', '?17')})`,
    )
      .bind(
        session.id,
        quote.purchase.session_id,
        user.uid,
        user.emailVerified && user.email ? user.email.toLowerCase() : null,
        quote.from.id,
        quote.to.id,
        quote.amount,
        quote.currency,
        couponId,
        now,
        quote.seats.added,
        quote.seats.of,
        line.price,
        line.quantity,
        quote.credit,
        quote.code?.id ?? null,
        now - SESSION_LIFETIME_MS,
      )
      .run();
    if (inserted.meta.changes === 0) {
      // The code's last use went to another buyer meanwhile: this session must not be paid (no row
      // would hold its payment), so Stripe closes it, and the buyer is told why, as the quote would.
      await stripeFor(settings)
        .checkout.sessions.expire(session.id)
        .catch((err: unknown) =>
          log.error('upgrade.code_session_left_open', {sessionId: session.id, error: describe(err)}),
        );
      const {standing} = await upgradeCodeFor(c.env.DB, quote.code!.code, {
        purchase: quote.purchase,
        toPlans: [quote.to.id],
      });
      throw new HttpError(409, standing.refused ?? UPGRADE_CODE_WORDS.usedUp, 'CONFLICT');
    }
    log.info('upgrade.created', {
      sessionId: session.id,
      upgradeOf: quote.purchase.session_id,
      from: quote.from.id,
      to: quote.to.id,
      amount: quote.amount,
      seatsAdded: quote.seats.added,
      code: quote.code?.id ?? null,
    });
    return c.json({url: session.url} satisfies UrlResponse);
  });
