import {appConfig, storedPlanName} from '../../../src/config';
import {DAY_MS, formatDay, periodEnd} from '../../../src/config/dates';
import type {AuthUser} from '../auth/user';
import {contextOf} from '../context';
import {HttpError} from '../errors';
import {log} from '../log';
import {formatAmount, mailOnce, type MailMessage} from '../mail';
import {observeAcceptances} from '../access/grants/status';
import {accessPurchaseOf, type Purchase} from '../purchases';
import {settingsOf} from '../settings';
import type {OwnRefundKind} from '../../../src/config/api';
import {ALREADY_REFUNDED, IN_FLIGHT, paidCharge, refundPayment, refundUpgradesOf} from './refunds';
import {revokePayment} from './revocations';
import {stripeFor} from './stripe';

/**
 * The buyer's own refund, decided here, never by the browser, for one of two rights:
 *
 * - **The money-back guarantee** (`guarantee`): a paid buyer refunds their own purchase within
 *   `guarantee.days` of paying. The window runs from when Stripe charged the card, a payment that
 *   was ever disputed goes to support, and each buyer has one such refund (known by their account,
 *   the purchase's e-mail, its Stripe customer and its card's fingerprint: a second purchase after
 *   a refund is refunded through support only; a payment with no card fingerprint, or a purchase
 *   the seller revoked, goes to support too).
 * - **The EU consumer's withdrawal** (`withdrawal`, Directive 2011/83/EU): within `withdrawal.days`
 *   of paying, unless the buyer asked at checkout for delivery at once (stored with the purchase)
 *   and the code was delivered since. The law gives it whatever came before, so no earlier refund
 *   bars it; it counts as the buyer's self-service refund for the guarantee's rule.
 *
 * Either way the purchase is the signed-in buyer's own (the one their dashboard shows), and the
 * refund is the console's (refunds.ts `refundPayment`: all that is left, Stripe's idempotency key
 * named by the purchase, so a double click, or both rights used at once, refunds once); access
 * ends at once (revocations.ts `revokePayment`, as the `charge.refunded` webhook that follows
 * would), the purchase's upgrades are refunded with it, and the buyer gets a receipt by e-mail
 * (for a withdrawal, its acknowledgement: what was withdrawn, and when).
 */

const toSupport = (why: string) =>
  new HttpError(
    409,
    `${why} Write to ${appConfig.support.email} and we will sort it out with you.`,
    'REFUND_BY_SUPPORT',
  );

/** Who asks, who the buyer is by their card, and which right they use. */
interface Claim {
  userId: string;
  fingerprint: string | null;
  reason: string | null;
  kind: OwnRefundKind;
}

/**
 * Claims the buyer's own refund of this purchase, in one statement. Under the guarantee, false when
 * another purchase of the same account, e-mail, customer or card had one (two purchases of one
 * buyer asked at once cannot both pass); a withdrawal is never refused for an earlier refund. Asked
 * again for the same purchase (a double click, a retry after Stripe failed, the other right), the
 * claim it has stands, named a withdrawal once the buyer used that right. A claim is never given
 * back, even when Stripe failed: whether Stripe refunded cannot always be told, and a buyer whose
 * refund did not go through asks support, who sees the claim.
 */
async function claimRefund(db: D1Database, purchase: Purchase, claim: Claim): Promise<boolean> {
  await db
    .prepare(
      `INSERT INTO self_refunds (session_id, user_id, email, customer_id, card_fingerprint, reason, kind, created_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8
       WHERE ?7 = 'withdrawal' OR NOT EXISTS (SELECT 1 FROM self_refunds WHERE session_id != ?1
         AND (user_id = ?2 OR email = ?3 OR customer_id = ?4 OR card_fingerprint = ?5))
       ON CONFLICT (session_id) DO UPDATE SET kind = 'withdrawal' WHERE excluded.kind = 'withdrawal'`,
    )
    .bind(
      purchase.session_id,
      claim.userId,
      purchase.email?.toLowerCase() ?? null,
      purchase.customer_id,
      claim.fingerprint,
      claim.reason,
      claim.kind,
      Date.now(),
    )
    .run();
  const held = await db
    .prepare('SELECT 1 AS held FROM self_refunds WHERE session_id = ?1')
    .bind(purchase.session_id)
    .first();
  return held !== null;
}

/**
 * Whether the right of withdrawal has ended for `purchase`: the buyer asked at checkout for the code
 * at once, and it reached them since. Delivery is recorded once and for good (`delivered_at`:
 * an invitation accepted, a download served, 0033's triggers), so a seat moved since to an account
 * that has not accepted does not bring the right back; a download under way counts too, so one
 * asked alongside the withdrawal cannot slip past it.
 */
async function withdrawalEnded(db: D1Database, purchase: Purchase): Promise<boolean> {
  if (!purchase.delivery_consent_at) return false;
  const row = await db
    .prepare(
      `SELECT (SELECT delivered_at FROM purchases WHERE session_id = ?1) IS NOT NULL
         OR EXISTS (SELECT 1 FROM download_links WHERE session_id = ?1 AND used_at IS NOT NULL AND outcome IS NULL)
         AS delivered`,
    )
    .bind(purchase.session_id)
    .first<{delivered: number}>();
  return row?.delivered === 1;
}

/** What each right is called where a refusal names it, whether it is on, and when it ends. */
const RIGHTS: Record<OwnRefundKind, {on: () => boolean; days: () => number; ended: (days: number) => string}> = {
  guarantee: {
    on: () => appConfig.guarantee.selfService,
    days: () => appConfig.guarantee.days,
    ended: (days) => `The ${days}-day money-back guarantee of this purchase has ended.`,
  },
  withdrawal: {
    on: () => appConfig.withdrawal.enabled,
    days: () => appConfig.withdrawal.days,
    ended: (days) => `The ${days}-day period to withdraw from this purchase has ended.`,
  },
};

/**
 * The last moment the buyer may use `kind` on `purchase`: the end of the UTC day `days` after the
 * day it was paid (`periodEnd`), on the dashboard and at the refund alike.
 */
function rightEnds(kind: OwnRefundKind, purchase: Purchase): number {
  return periodEnd(purchase.paid_at ?? purchase.created_at, RIGHTS[kind].days());
}

/** Until when the dashboard offers the buyer each of their own refunds of `purchase`: absent where it does not. */
export interface OwnRefundWindows {
  refundableUntil?: number;
  withdrawableUntil?: number;
  withdrawalEndsOnDelivery?: boolean;
}

/**
 * Until when the dashboard offers the buyer their own refunds of `purchase`: what refundOwnPurchase
 * will check, as far as D1 knows it (the card's fingerprint and Stripe's word on disputes are
 * asked at the refund), with the same ends (`rightEnds`).
 */
export async function ownRefundWindows(
  db: D1Database,
  user: AuthUser,
  purchase: Purchase | null,
  now = Date.now(),
): Promise<OwnRefundWindows> {
  if (!purchase?.payment_intent_id || purchase.revoked_by_seller_at !== null) return {};
  const refundUntil = rightEnds('guarantee', purchase);
  const withdrawUntil = rightEnds('withdrawal', purchase);
  const mayRefund = RIGHTS.guarantee.on() && now <= refundUntil;
  const mayWithdraw = RIGHTS.withdrawal.on() && now <= withdrawUntil;
  if (!mayRefund && !mayWithdraw) return {};
  const barred = await db
    .prepare(
      `SELECT EXISTS (SELECT 1 FROM disputes WHERE payment_intent_id = ?1) AS disputed,
         EXISTS (SELECT 1 FROM self_refunds WHERE session_id != ?2 AND (user_id = ?3 OR email = ?4)) AS refunded_before`,
    )
    .bind(purchase.payment_intent_id, purchase.session_id, user.uid, purchase.email?.toLowerCase() ?? null)
    .first<{disputed: number; refunded_before: number}>();
  if (barred?.disputed) return {};
  return {
    ...(mayRefund && !barred?.refunded_before && {refundableUntil: refundUntil}),
    ...(mayWithdraw &&
      !(await withdrawalEnded(db, purchase)) && {
        withdrawableUntil: withdrawUntil,
        ...(Boolean(purchase.delivery_consent_at) && {withdrawalEndsOnDelivery: true}),
      }),
  };
}

export interface SelfRefund {
  amount: number;
  currency: string;
}

/** Refunds the signed-in buyer's purchase in full, under the guarantee or as a withdrawal, and ends its access. */
export async function refundOwnPurchase(
  env: Env,
  user: AuthUser,
  reason: string | null,
  kind: OwnRefundKind = 'guarantee',
): Promise<SelfRefund> {
  // When the buyer asked: the withdrawal's acknowledgement names this moment.
  const asked = Date.now();
  const right = RIGHTS[kind];
  if (!right.on()) throw toSupport('Refunds are made by our support team.');
  const {DB: db} = env;
  const purchase = await accessPurchaseOf(db, user);
  if (!purchase) {
    // Asked again once it went through (a second click, a second tab): the same refund is the answer.
    const done = await db
      .prepare(
        `SELECT amount, currency FROM self_refunds WHERE user_id = ?1 AND refund_id IS NOT NULL AND created_at > ?2
         ORDER BY created_at DESC LIMIT 1`,
      )
      .bind(user.uid, asked - DAY_MS)
      .first<SelfRefund>();
    if (done) return done;
    throw new HttpError(402, 'No paid purchase was found for this account', 'NOT_PAID');
  }
  if (!purchase.payment_intent_id)
    throw new HttpError(409, 'Nothing was paid for this purchase, so there is nothing to refund.', 'CONFLICT');
  // The seller's revocation (abuse, say) is the seller's to settle, its refund included.
  if (purchase.revoked_by_seller_at !== null) throw toSupport('Access to this purchase was revoked.');
  if (asked > rightEnds(kind, purchase)) throw toSupport(right.ended(right.days()));
  const paymentIntentId = purchase.payment_intent_id;
  const disputed = await db
    .prepare('SELECT 1 AS found FROM disputes WHERE payment_intent_id = ?1 LIMIT 1')
    .bind(paymentIntentId)
    .first();
  // The card's fingerprint, and Stripe's word on disputes (refunds.ts's own read).
  const charge = await paidCharge(stripeFor(settingsOf(env)), paymentIntentId);
  // Stripe's word too: a dispute whose webhook has not arrived yet.
  if (disputed || charge.disputed)
    throw toSupport('This payment was disputed with your bank, so it cannot be refunded from here.');
  const fingerprint = charge.payment_method_details?.card?.fingerprint ?? null;
  if (kind === 'withdrawal') {
    // An invitation accepted a moment ago is delivery too: GitHub is asked now, not in a minute.
    if (purchase.delivery_consent_at) await observeAcceptances(contextOf(env), purchase.session_id);
    if (await withdrawalEnded(db, purchase))
      throw toSupport(
        'You asked at checkout for the code at once, and it was delivered since, so the right of withdrawal has ended.',
      );
    if (!(await claimRefund(db, purchase, {userId: user.uid, fingerprint, reason, kind})))
      throw new Error(`The withdrawal of ${purchase.session_id} was not recorded`);
    // Acknowledged as soon as it is recorded, whatever befalls the refund that follows.
    await followUp(purchase.session_id, 'acknowledgement', () => acknowledge(env, purchase, user, asked));
  } else {
    // Without a card's fingerprint (Link, Cash App) a buyer cannot be told from a new one: fail closed.
    if (!fingerprint) throw toSupport('Payments made other than by card are refunded by our support team.');
    if (!(await claimRefund(db, purchase, {userId: user.uid, fingerprint, reason, kind})))
      throw toSupport('You have had a refund of another purchase already, so this one goes through support.');
  }

  let refund;
  try {
    refund = await refundPayment(
      env,
      {paymentIntentId, sessionId: purchase.session_id, by: `buyer ${user.uid}`},
      {reason: 'requested_by_customer'},
      {partOf: `self-refund:${purchase.session_id}`},
    );
  } catch (err) {
    throw inBuyersWords(err);
  }
  await db
    .prepare('UPDATE self_refunds SET refund_id = ?2, amount = ?3, currency = ?4 WHERE session_id = ?1')
    .bind(purchase.session_id, refund.refundId, refund.refunded, refund.currency)
    .run();
  log.info('payments.self_refund', {
    sessionId: purchase.session_id,
    kind,
    refundId: refund.refundId,
    amount: refund.refunded,
  });
  // The money has moved: the buyer hears so whatever befalls what follows, and a step that fails is logged.
  const {session_id: sessionId} = purchase;
  await followUp(sessionId, 'revoke', () =>
    // Access ends now; the charge.refunded webhook that follows (Stripe retries it) ends it too.
    revokePayment(env, paymentIntentId, 'refunded'),
  );
  await followUp(sessionId, 'upgrades', async () => {
    const upgrades = await refundUpgradesOf(
      env,
      sessionId,
      `buyer ${user.uid}`,
      'requested_by_customer',
      refund.action,
    );
    // An upgrade Stripe would not refund is named for the seller, who refunds it from its row.
    if (upgrades.includes('NOT refunded')) log.warn('payments.self_refund_upgrade_left', {sessionId, upgrades});
  });
  await followUp(sessionId, 'receipt', async () =>
    sendReceipt(env, purchase, refund, (await accessPurchaseOf(db, user)) !== null),
  );
  return {amount: refund.refunded, currency: refund.currency};
}

/**
 * A step beside the refund (its e-mails, the take-back): its failure is logged, never answered to a
 * buyer whose money has moved or whose withdrawal is recorded.
 */
async function followUp(sessionId: string, step: string, run: () => Promise<unknown>) {
  try {
    await run();
  } catch (err) {
    log.error('payments.self_refund_step_failed', {
      sessionId,
      step,
      error: err instanceof Error ? err.message : String(err),
    });
  }
}

/** refunds.ts's refusals are in the seller's words: the buyer hears theirs. */
function inBuyersWords(err: unknown): unknown {
  if (!(err instanceof HttpError) || err.status !== 409) return err;
  if (err.message === IN_FLIGHT)
    return new HttpError(409, 'Your refund is already on its way: this page shows it in a moment.', 'CONFLICT');
  if (err.message === ALREADY_REFUNDED) return new HttpError(409, ALREADY_REFUNDED, 'CONFLICT');
  return toSupport('This payment cannot be refunded from here.');
}

/** The refund's receipt, by e-mail to the purchase's address: once a refund. */
async function sendReceipt(
  env: Env,
  purchase: Purchase,
  refund: {refunded: number; currency: string; refundId: string},
  keepsAccess: boolean,
) {
  if (!purchase.email) return;
  const message = refundReceiptMail(purchase.email, storedPlanName(purchase.plan), refund, keepsAccess);
  await mailOnce(contextOf(env), `refund-receipt:${refund.refundId}`, message, purchase.session_id);
}

/** The withdrawal's acknowledgement, once a purchase: to its e-mail, else the account's. */
async function acknowledge(env: Env, purchase: Purchase, user: AuthUser, at: number) {
  const to = purchase.email ?? user.email;
  if (!to) return;
  const message = withdrawalAcknowledgementMail(to, storedPlanName(purchase.plan), {
    at,
    paidAt: purchase.paid_at ?? purchase.created_at,
  });
  await mailOnce(contextOf(env), `withdrawal-ack:${purchase.session_id}`, message, purchase.session_id);
}

/**
 * What the buyer is told of their refund: how much, where it goes, when it shows, and what became
 * of their access (`keepsAccess`: another purchase of theirs still gives it).
 */
export function refundReceiptMail(
  to: string,
  plan: string | null,
  refund: {refunded: number; currency: string; refundId: string},
  keepsAccess: boolean,
): MailMessage {
  const {appName, mail} = appConfig;
  const amount = formatAmount(refund.refunded, refund.currency);
  return {
    from: mail.fromNoReply,
    to,
    replyTo: appConfig.support.email,
    subject: `Your ${appName} refund of ${amount}`,
    text: [
      `As you asked, we refunded your purchase of ${appName}${plan ? ` (${plan})` : ''}: ${amount}, on ${new Date().toUTCString()}.`,
      `Stripe returns it to the card you paid with (its reference: ${refund.refundId}). Your bank may take 5 to 10 business days to show it.`,
      '',
      ...(keepsAccess
        ? ['This purchase no longer gives access to the code; your other purchase keeps the access it gives.']
        : [
            'Your access to the code has ended: the invitation to the private repository is withdrawn, or your account removed',
            'from it, and download links no longer work. The licence ends with the refund, as the terms say.',
          ]),
      '',
      `Questions? Reply to this e-mail or write to ${appConfig.support.email}.`,
    ].join('\n'),
  };
}

/**
 * The acknowledgement of a withdrawal on a durable medium (Directive 2011/83/EU, Art. 11a): what
 * was withdrawn from, and the date and time the worker received it, sent as soon as it is
 * recorded. The refund's receipt follows on its own once Stripe has made it.
 */
export function withdrawalAcknowledgementMail(
  to: string,
  plan: string | null,
  {at, paidAt}: {at: number; paidAt: number},
): MailMessage {
  const {appName, mail} = appConfig;
  return {
    from: mail.fromNoReply,
    to,
    replyTo: appConfig.support.email,
    subject: `We received your withdrawal from your ${appName} purchase`,
    text: [
      `We received your withdrawal from the contract for your purchase of ${appName}${plan ? ` (${plan})` : ''}, made on ${formatDay(paidAt)},`,
      `on ${new Date(at).toUTCString()}, from your dashboard. This e-mail is our acknowledgement of it.`,
      '',
      'We refund all you paid for it to the card you paid with, within 14 days at the latest; a receipt follows once',
      'Stripe has made the refund. Your access to the code ends when the refund is made.',
      '',
      `Questions? Reply to this e-mail or write to ${appConfig.support.email}.`,
    ].join('\n'),
  };
}
