/**
 * The money-back guarantee, kept by the product, and the EU consumer's withdrawal (issue 42): a paid
 * buyer refunds their own purchase (POST /refundPurchase) in workerd with a real D1, against the
 * Stripe, GitHub and Mailgun stand-ins. Stripe refunds all of it once however often it is asked,
 * access ends at once, a receipt (a withdrawal's acknowledgement) is e-mailed; the window, a dispute
 * and a second purchase of the same buyer send the buyer to support instead, and nothing is
 * refunded. A buyer who asked for the code at once at checkout has that request stored and
 * confirmed, and loses the right of withdrawal once the code is delivered.
 */
import {
  appConfig,
  immediateDeliveryRequest,
  immediateDeliveryVersion,
  PLAN_CURRENCY,
  planAmount,
} from '../../src/config';
import {
  ADMIN_PATHS,
  adminPath,
  API_PATHS,
  type AccessStatus,
  type AdminSelfRefund,
  type Page,
} from '../../src/config/api';
import type {PaidWith} from '../../scripts/local/stripeApi';
import {DAY_MS, formatDay, periodEnd} from '../../src/config/dates';
import {completedEvent, disputeEvent, type SignedInUser, uniqueEmail, useSellerStack} from './stack';
import {ageKitReading, kitGrant} from './grantRows';

const seller = useSellerStack();
/** The one row a query answers. */
const one = async <T = Record<string, unknown>>(sql: string, ...params: unknown[]) =>
  (await stack().worker.db.all<T>(sql, ...params))[0];
const stack = () => seller.stack;
const ADVANCED_CENTS = planAmount(appConfig.plans[1]!);

let accounts = 0;

/** A verified buyer who paid (the featured plan) and was invited to the kit's repository. */
async function paidBuyer(
  options: {user?: SignedInUser; cardFingerprint?: string; paidWith?: PaidWith; termsAccepted?: boolean} = {},
) {
  const user = options.user ?? (await stack().signUp({verified: true}));
  const sessionId = await stack().paidCheckout({
    email: user.email,
    user,
    ...(options.cardFingerprint && {cardFingerprint: options.cardFingerprint}),
    ...(options.paidWith && {paidWith: options.paidWith}),
    ...(options.termsAccepted && {termsAccepted: true}),
  });
  expect((await stack().deliver(completedEvent(stack(), sessionId))).status).toBe(200);
  const login = stack().github.addUser(`refunded-${Date.now().toString(36)}-${accounts++}`).login;
  const asked = await stack().call(API_PATHS.addUserToRepo, {
    token: user.idToken,
    body: {username: login, userId: user.uid},
  });
  expect(asked.status).toBe(200);
  const {payment_intent_id: paymentIntentId} = (await one<{payment_intent_id: string}>(
    'SELECT payment_intent_id FROM purchases WHERE session_id = ?',
    sessionId,
  ))!;
  return {user, sessionId, login, paymentIntentId};
}

const refundMine = (user: SignedInUser, body: Record<string, unknown> = {}) =>
  stack().call(API_PATHS.refundPurchase, {token: user.idToken, body});
const refundsOf = (paymentIntentId: string) =>
  stack().stripe.refundsCreated.filter((refund) => refund.payment_intent === paymentIntentId);
/** The buyer is sent to support (409 REFUND_BY_SUPPORT, saying why), and Stripe refunded nothing of the payment. */
async function sentToSupport(buyer: {user: SignedInUser; paymentIntentId: string}, why: string) {
  const response = await refundMine(buyer.user);
  expect(response.status).toBe(409);
  expect(await response.json()).toMatchObject({code: 'REFUND_BY_SUPPORT', error: expect.stringContaining(why)});
  expect(refundsOf(buyer.paymentIntentId)).toEqual([]);
}
/** Moves a purchase's payment back, so that a right of `days` ended yesterday (periodEnd: whole UTC days). */
const paidLongAgo = (sessionId: string, days: number) =>
  stack().worker.db.run(
    'UPDATE purchases SET paid_at = ? WHERE session_id = ?',
    Date.now() - (days + 2) * DAY_MS,
    sessionId,
  );
/** When the worker recorded the purchase paid: the day its rights run from. */
const paidAtOf = async (sessionId: string) =>
  (await one<{paid_at: number}>('SELECT paid_at FROM purchases WHERE session_id = ?', sessionId))!.paid_at;
const invitedLogins = () => [...stack().github.invitations.values()].map((invitation) => invitation.invitee.login);

test('a buyer within the guarantee refunds their own purchase: Stripe refunds all of it, once, access ends at once, and a receipt says so', async () => {
  const {user, sessionId, login, paymentIntentId} = await paidBuyer();
  expect(invitedLogins()).toContain(login);

  const response = await refundMine(user, {reason: '  Not what I needed  '});
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({status: 'refunded', amount: ADVANCED_CENTS, currency: PLAN_CURRENCY});
  expect(refundsOf(paymentIntentId)).toEqual([
    expect.objectContaining({
      amount: String(ADVANCED_CENTS),
      reason: 'requested_by_customer',
      metadata: expect.objectContaining({session_id: sessionId, refunded_by: `buyer ${user.uid}`}),
    }),
  ]);

  // Access ended in the same request, before Stripe's webhook: the seat taken back, its invitation withdrawn.
  expect(await one('SELECT status, revoke_reason FROM purchases WHERE session_id = ?', sessionId)).toEqual({
    status: 'revoked',
    revoke_reason: 'refunded',
  });
  expect(await kitGrant<{status: string}>(stack().worker.db, sessionId, 'status')).toEqual({status: 'revoked'});
  expect(invitedLogins()).not.toContain(login);
  const status = (await (await stack().call(API_PATHS.accessStatus, {token: user.idToken})).json()) as AccessStatus;
  expect(status).toMatchObject({hasPaid: false});
  expect((await stack().call(API_PATHS.downloadLink, {token: user.idToken, body: {}})).status).toBe(402);

  const receipts = stack().mailgun.sent.filter(
    (mail) => mail.fields.to === user.email && /refund of/.test(mail.fields.subject ?? ''),
  );
  expect(receipts).toHaveLength(1);
  expect(receipts[0]!.fields.text).toContain('Your access to the code has ended');
  expect(
    await one('SELECT reason, amount, refund_id IS NOT NULL AS made FROM self_refunds WHERE session_id = ?', sessionId),
  ).toEqual({
    reason: 'Not what I needed',
    amount: ADVANCED_CENTS,
    made: 1,
  });

  // A second click: the same refund is the answer, and Stripe is not asked for another.
  const again = await refundMine(user);
  expect(again.status).toBe(200);
  expect(await again.json()).toEqual({status: 'refunded', amount: ADVANCED_CENTS, currency: PLAN_CURRENCY});
  expect(refundsOf(paymentIntentId)).toHaveLength(1);
  expect(
    stack().mailgun.sent.filter((mail) => mail.fields.to === user.email && /refund of/.test(mail.fields.subject ?? '')),
  ).toHaveLength(1);
});

test('two clicks at once make one refund', async () => {
  const {user, paymentIntentId} = await paidBuyer();
  const answers = await Promise.all([refundMine(user), refundMine(user)]);
  expect(answers.some((answer) => answer.status === 200)).toBe(true);
  for (const answer of answers) expect([200, 409]).toContain(answer.status);
  expect(refundsOf(paymentIntentId)).toHaveLength(1);
});

test(`after ${appConfig.guarantee.days} days the guarantee has ended: the buyer is sent to support, and nothing is refunded or taken`, async () => {
  const {user, sessionId, paymentIntentId} = await paidBuyer();
  await paidLongAgo(sessionId, appConfig.guarantee.days);
  const response = await refundMine(user);
  expect(response.status).toBe(409);
  expect(await response.json()).toEqual({
    error: expect.stringContaining(
      `The ${appConfig.guarantee.days}-day money-back guarantee of this purchase has ended.`,
    ),
    code: 'REFUND_BY_SUPPORT',
  });
  expect(refundsOf(paymentIntentId)).toEqual([]);
  expect(await kitGrant<{status: string}>(stack().worker.db, sessionId, 'status')).toEqual({status: 'pending'});
  expect(await one('SELECT COUNT(*) AS claims FROM self_refunds WHERE session_id = ?', sessionId)).toEqual({claims: 0});
});

test('a payment that was disputed, even a dispute the seller won, is refunded through support only', async () => {
  const buyer = await paidBuyer();
  expect(
    (await stack().deliver(disputeEvent(stack(), buyer.sessionId, 'charge.dispute.created', 'needs_response'))).status,
  ).toBe(200);
  expect((await stack().deliver(disputeEvent(stack(), buyer.sessionId, 'charge.dispute.closed', 'won'))).status).toBe(
    200,
  );
  await sentToSupport(buyer, 'disputed');
});

test('one self-service refund a buyer: a second purchase of the same account, or one paid with the same card, goes through support', async () => {
  const card = `fp_${Date.now().toString(36)}`;
  const first = await paidBuyer({cardFingerprint: card});
  expect((await refundMine(first.user)).status).toBe(200);

  await sentToSupport(await paidBuyer({user: first.user}), 'another purchase');

  // Another account and e-mail, the same card.
  await sentToSupport(await paidBuyer({cardFingerprint: card}), 'another purchase');
  // A buyer of their own card is not held back by anyone else's refund.
  const other = await paidBuyer();
  expect((await refundMine(other.user)).status).toBe(200);
});

test('only a signed-in buyer, for their own paid purchase: 401 without a token, 402 without a purchase, 400 for a reason too long', async () => {
  const {user, paymentIntentId} = await paidBuyer();
  expect((await stack().call(API_PATHS.refundPurchase, {body: {}})).status).toBe(401);
  const visitor = await stack().signUp({email: uniqueEmail('visitor'), verified: true});
  expect((await refundMine(visitor)).status).toBe(402);
  const long = await refundMine(user, {reason: 'x'.repeat(501)});
  expect(long.status).toBe(400);
  expect(await long.json()).toEqual({error: 'The reason is too long: 500 characters at most.'});
  expect(refundsOf(paymentIntentId)).toEqual([]);
});

test('a payment with no card to know the buyer by (Link), and a purchase the seller revoked, are refunded through support', async () => {
  await sentToSupport(await paidBuyer({paidWith: 'link'}), 'other than by card');

  const revoked = await paidBuyer();
  const {admin} = seller;
  expect(
    (
      await stack().call(adminPath(ADMIN_PATHS.revoke, {sessionId: revoked.sessionId}), {
        token: admin.idToken,
        body: {},
      })
    ).status,
  ).toBe(200);
  await sentToSupport(revoked, 'revoked');
});

test('a buyer who keeps another purchase is told so: the receipt does not say their access has ended', async () => {
  const first = await paidBuyer();
  await paidBuyer({user: first.user});
  expect((await refundMine(first.user)).status).toBe(200);
  const [receipt] = stack().mailgun.sent.filter(
    (mail) => mail.fields.to === first.user.email && /refund of/.test(mail.fields.subject ?? ''),
  );
  expect(receipt!.fields.text).toContain('your other purchase keeps the access it gives');
  expect(receipt!.fields.text).not.toContain('Your access to the code has ended');
});

test("the dashboard's status offers the refund until the window ends, and never to a buyer the refund would send to support", async () => {
  const statusOf = async (user: SignedInUser) =>
    (await (await stack().call(API_PATHS.accessStatus, {token: user.idToken})).json()) as AccessStatus;
  const days = appConfig.guarantee.days;
  const buyer = await paidBuyer();
  // To the end of the UTC day `days` after the day it was paid, as the refund itself counts.
  const paidAt = await paidAtOf(buyer.sessionId);
  expect(paidAt).toBeGreaterThan(Date.now() - 60_000);
  expect((await statusOf(buyer.user)).refundableUntil).toBe(periodEnd(paidAt, days));
  expect(new Date(periodEnd(paidAt, days) + 1).getUTCHours()).toBe(0);
  // The window ends: no offer, and the refund itself says why.
  await paidLongAgo(buyer.sessionId, days);
  expect(await statusOf(buyer.user)).toMatchObject({hasPaid: true});
  expect((await statusOf(buyer.user)).refundableUntil).toBeUndefined();

  const disputed = await paidBuyer();
  expect(
    (await stack().deliver(disputeEvent(stack(), disputed.sessionId, 'charge.dispute.created', 'needs_response')))
      .status,
  ).toBe(200);
  expect(
    (await stack().deliver(disputeEvent(stack(), disputed.sessionId, 'charge.dispute.closed', 'won'))).status,
  ).toBe(200);
  expect(await statusOf(disputed.user)).toMatchObject({hasPaid: true});
  expect((await statusOf(disputed.user)).refundableUntil).toBeUndefined();

  // A buyer who had their refund, and bought again.
  const refunded = await paidBuyer();
  expect((await refundMine(refunded.user)).status).toBe(200);
  await paidBuyer({user: refunded.user});
  expect(await statusOf(refunded.user)).toMatchObject({hasPaid: true});
  expect((await statusOf(refunded.user)).refundableUntil).toBeUndefined();
});

describe('the withdrawal from the contract', () => {
  const withdraw = (user: SignedInUser) => refundMine(user, {kind: 'withdrawal'});
  const statusOf = async (user: SignedInUser) =>
    (await (await stack().call(API_PATHS.accessStatus, {token: user.idToken})).json()) as AccessStatus;
  const mailsTo = (email: string, subject: RegExp) =>
    stack().mailgun.sent.filter((mail) => mail.fields.to === email && subject.test(mail.fields.subject ?? ''));
  /** The buyer accepts the invitation on GitHub, and the worker has seen it (it reads GitHub at most once a minute). */
  async function accept(buyer: {user: SignedInUser; sessionId: string; login: string}) {
    const invitation = [...stack().github.invitations.values()].find((each) => each.invitee.login === buyer.login);
    stack().github.accept(invitation!.id);
    await ageKitReading(stack().worker.db, buyer.sessionId, 60_000);
    expect(await statusOf(buyer.user)).toMatchObject({status: 'active'});
  }

  test('a buyer who did not ask for the code at once withdraws even after it was delivered: refunded once, access ended, and acknowledged by e-mail', async () => {
    const buyer = await paidBuyer();
    expect(await one('SELECT delivery_consent_version FROM purchases WHERE session_id = ?', buyer.sessionId)).toEqual({
      delivery_consent_version: null,
    });
    await accept(buyer);
    const offered = await statusOf(buyer.user);
    expect(offered.withdrawableUntil).toBe(periodEnd(await paidAtOf(buyer.sessionId), appConfig.withdrawal.days));
    expect(offered.withdrawalEndsOnDelivery).toBeUndefined();

    const before = Date.now();
    const response = await withdraw(buyer.user);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({status: 'refunded', amount: ADVANCED_CENTS, currency: PLAN_CURRENCY});
    expect(refundsOf(buyer.paymentIntentId)).toEqual([
      expect.objectContaining({amount: String(ADVANCED_CENTS), reason: 'requested_by_customer'}),
    ]);
    expect(await kitGrant<{status: string}>(stack().worker.db, buyer.sessionId, 'status')).toEqual({status: 'revoked'});
    expect(await one('SELECT kind FROM self_refunds WHERE session_id = ?', buyer.sessionId)).toEqual({
      kind: 'withdrawal',
    });

    // The acknowledgement: what was withdrawn from, and the date and time it was received.
    const [acknowledgement, ...more] = mailsTo(buyer.user.email, /withdrawal/);
    expect(more).toEqual([]);
    expect(acknowledgement!.fields.subject).toBe(`We received your withdrawal from your ${appConfig.appName} purchase`);
    const text = acknowledgement!.fields.text!;
    expect(text).toContain(`We received your withdrawal from the contract for your purchase of ${appConfig.appName}`);
    expect(text).toContain(`made on ${formatDay(await paidAtOf(buyer.sessionId))}`);
    const received = /on (\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT)/.exec(text)![1]!;
    expect(Date.parse(received)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(Date.parse(received)).toBeLessThanOrEqual(Date.now());
    // The refund's own receipt follows, and says access has ended.
    const [receipt, ...others] = mailsTo(buyer.user.email, /refund of/);
    expect(others).toEqual([]);
    expect(receipt!.fields.text).toContain('Your access to the code has ended');

    // Withdrawn twice (a second tab): the same refund is the answer.
    expect((await withdraw(buyer.user)).status).toBe(200);
    expect(refundsOf(buyer.paymentIntentId)).toHaveLength(1);
  });

  test('a buyer who asked for the code at once has that stored and confirmed, may withdraw until it is delivered, and not after', async () => {
    const waiting = await paidBuyer({termsAccepted: true});
    const stored = await one<{delivery_consent_version: string; delivery_consent_at: number}>(
      'SELECT delivery_consent_version, delivery_consent_at FROM purchases WHERE session_id = ?',
      waiting.sessionId,
    );
    expect(stored).toEqual({
      delivery_consent_version: immediateDeliveryVersion,
      delivery_consent_at: expect.any(Number),
    });
    const [welcome] = mailsTo(waiting.user.email, /get the code/);
    expect(welcome!.fields.text).toContain(`you ticked the box that said: "${immediateDeliveryRequest}"`);
    expect(welcome!.fields.text).toContain(new Date(stored!.delivery_consent_at).toUTCString());
    expect(welcome!.fields.text).toContain(immediateDeliveryVersion);

    // Invited, not yet accepted: nothing delivered, so the right stands, and the dashboard says delivery ends it.
    expect(await statusOf(waiting.user)).toMatchObject({
      withdrawableUntil: expect.any(Number),
      withdrawalEndsOnDelivery: true,
    });
    expect((await withdraw(waiting.user)).status).toBe(200);
    expect(refundsOf(waiting.paymentIntentId)).toHaveLength(1);

    // Accepted: delivered, as asked, and the right has ended. The guarantee still stands.
    const delivered = await paidBuyer({termsAccepted: true});
    await accept(delivered);
    const status = await statusOf(delivered.user);
    expect(status.withdrawableUntil).toBeUndefined();
    expect(status.refundableUntil).toEqual(expect.any(Number));
    const refused = await withdraw(delivered.user);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({
      code: 'REFUND_BY_SUPPORT',
      error: expect.stringContaining('the right of withdrawal has ended'),
    });
    expect(refundsOf(delivered.paymentIntentId)).toEqual([]);
    expect(await one('SELECT COUNT(*) AS claims FROM self_refunds WHERE session_id = ?', delivered.sessionId)).toEqual({
      claims: 0,
    });
  });

  test('delivery is for good: an invitation accepted a moment ago ends the right before the dashboard saw it, and a seat moved since does not bring it back', async () => {
    // Accepted on GitHub, and withdrawn at once: the worker asks GitHub itself before it decides.
    const quick = await paidBuyer({termsAccepted: true});
    const invitation = [...stack().github.invitations.values()].find((each) => each.invitee.login === quick.login);
    stack().github.accept(invitation!.id);
    const refused = await withdraw(quick.user);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({error: expect.stringContaining('the right of withdrawal has ended')});
    expect(refundsOf(quick.paymentIntentId)).toEqual([]);

    // Accepted, then the seat moved to an account that never accepts: still delivered.
    const moved = await paidBuyer({termsAccepted: true});
    await accept(moved);
    const other = stack().github.addUser(`moved-${Date.now().toString(36)}-${accounts++}`).login;
    const move = await stack().call(API_PATHS.addUserToRepo, {
      token: moved.user.idToken,
      body: {username: other, userId: moved.user.uid},
    });
    expect(move.status).toBe(200);
    expect(await kitGrant<{status: string}>(stack().worker.db, moved.sessionId, 'status')).toEqual({status: 'pending'});
    expect((await statusOf(moved.user)).withdrawableUntil).toBeUndefined();
    expect((await withdraw(moved.user)).status).toBe(409);
    expect(refundsOf(moved.paymentIntentId)).toEqual([]);
  });

  test('the withdrawal is acknowledged as soon as it is recorded, even when Stripe then refuses the refund', async () => {
    const buyer = await paidBuyer();
    stack().stripe.failNext('POST /v1/refunds', 400, {
      type: 'invalid_request_error',
      message: 'This charge cannot be refunded.',
    });
    expect((await withdraw(buyer.user)).status).toBe(502);
    expect(mailsTo(buyer.user.email, /We received your withdrawal/)).toHaveLength(1);
    expect(mailsTo(buyer.user.email, /refund of/)).toEqual([]);
    expect(await one('SELECT kind, refund_id FROM self_refunds WHERE session_id = ?', buyer.sessionId)).toEqual({
      kind: 'withdrawal',
      refund_id: null,
    });
    // Asked again, Stripe refunds: once, with one acknowledgement and one receipt.
    expect((await withdraw(buyer.user)).status).toBe(200);
    expect(refundsOf(buyer.paymentIntentId)).toHaveLength(1);
    expect(mailsTo(buyer.user.email, /We received your withdrawal/)).toHaveLength(1);
    expect(mailsTo(buyer.user.email, /refund of/)).toHaveLength(1);

    // A guarantee's refund Stripe refused, then a withdrawal: the claim names the right the buyer used in the end.
    const switched = await paidBuyer();
    stack().stripe.failNext('POST /v1/refunds', 400, {
      type: 'invalid_request_error',
      message: 'This charge cannot be refunded.',
    });
    expect((await refundMine(switched.user)).status).toBe(502);
    expect((await withdraw(switched.user)).status).toBe(200);
    expect(await one('SELECT kind FROM self_refunds WHERE session_id = ?', switched.sessionId)).toEqual({
      kind: 'withdrawal',
    });
    expect(mailsTo(switched.user.email, /We received your withdrawal/)).toHaveLength(1);
  });

  test('a download delivers the code too: after one, a buyer who asked for it at once may no longer withdraw', async () => {
    const buyer = await paidBuyer({termsAccepted: true});
    const asked = await stack().call(API_PATHS.downloadLink, {token: buyer.user.idToken, body: {}});
    expect(asked.status).toBe(200);
    expect((await stack().call(((await asked.json()) as {path: string}).path)).status).toBe(200);
    expect((await statusOf(buyer.user)).withdrawableUntil).toBeUndefined();
    expect((await withdraw(buyer.user)).status).toBe(409);
    expect(refundsOf(buyer.paymentIntentId)).toEqual([]);
  });

  test(`after ${appConfig.withdrawal.days} days the period has ended; an earlier refund never bars a withdrawal, and a withdrawal counts as the guarantee's one refund`, async () => {
    const late = await paidBuyer();
    await paidLongAgo(late.sessionId, appConfig.withdrawal.days);
    const ended = await withdraw(late.user);
    expect(ended.status).toBe(409);
    expect(await ended.json()).toMatchObject({
      error: expect.stringContaining(
        `The ${appConfig.withdrawal.days}-day period to withdraw from this purchase has ended.`,
      ),
    });
    expect(refundsOf(late.paymentIntentId)).toEqual([]);

    const card = `fp_${Date.now().toString(36)}w`;
    const first = await paidBuyer({cardFingerprint: card});
    expect((await refundMine(first.user)).status).toBe(200);
    const second = await paidBuyer({user: first.user, cardFingerprint: card});
    expect((await statusOf(first.user)).withdrawableUntil).toEqual(expect.any(Number));
    expect((await withdraw(first.user)).status).toBe(200);
    expect(refundsOf(second.paymentIntentId)).toHaveLength(1);

    const third = await paidBuyer({user: first.user, cardFingerprint: card});
    await sentToSupport(third, 'another purchase');
  });

  test('the kind is checked: anything but the two rights is a 400 that says which', async () => {
    const {user, paymentIntentId} = await paidBuyer();
    const response = await refundMine(user, {kind: 'chargeback'});
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({error: "kind is either 'guarantee' or 'withdrawal'"});
    expect(refundsOf(paymentIntentId)).toEqual([]);
  });
});

test("the seller's console lists the buyers' own refunds, newest first, with the right used, the reason, and a claim Stripe did not refund", async () => {
  const kept = await paidBuyer();
  expect((await refundMine(kept.user, {reason: 'Found another kit'})).status).toBe(200);
  const withdrawn = await paidBuyer();
  expect((await refundMine(withdrawn.user, {kind: 'withdrawal'})).status).toBe(200);
  const failed = await paidBuyer();
  stack().stripe.failNext('POST /v1/refunds', 400, {
    type: 'invalid_request_error',
    message: 'This charge cannot be refunded.',
  });
  // Stripe's refusal is the provider's failure (502), and the claim stands for the seller to settle.
  expect((await refundMine(failed.user, {reason: 'Too hard'})).status).toBe(502);

  const listed = await stack().call(`${ADMIN_PATHS.selfRefunds}?page=1`, {token: seller.admin.idToken});
  expect(listed.status).toBe(200);
  const {items} = (await listed.json()) as Page<AdminSelfRefund>;
  const ours = [failed, withdrawn, kept].map((buyer) => items.find((item) => item.sessionId === buyer.sessionId));
  expect(ours).toEqual([
    expect.objectContaining({
      email: failed.user.email,
      kind: 'guarantee',
      reason: 'Too hard',
      amount: null,
      refundId: null,
    }),
    expect.objectContaining({email: withdrawn.user.email, kind: 'withdrawal', reason: null, amount: ADVANCED_CENTS}),
    expect.objectContaining({
      email: kept.user.email,
      kind: 'guarantee',
      reason: 'Found another kit',
      amount: ADVANCED_CENTS,
      currency: PLAN_CURRENCY,
      refundId: expect.stringMatching(/^re_/),
    }),
  ]);
  // Newest first.
  expect(items.indexOf(ours[0]!)).toBeLessThan(items.indexOf(ours[1]!));
  expect(items.indexOf(ours[1]!)).toBeLessThan(items.indexOf(ours[2]!));
  // A buyer is no seller.
  expect((await stack().call(ADMIN_PATHS.selfRefunds, {token: kept.user.idToken})).status).toBe(403);
});
