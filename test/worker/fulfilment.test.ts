/**
 * Fulfilment under Stripe's delivery habits: repeats, bursts, events out of order, async
 * payments, refunds and disputes. Each case is asserted on the store of record and on what the
 * buyer would notice (access, invitations, e-mails).
 */
import {appConfig, findPlanByPriceId} from '../../src/config';
import {
  completedEvent,
  disputeEvent,
  PRICE_ADVANCED,
  refundEvent,
  startStack,
  stripeEvent,
  type Stack,
  uniqueEmail,
} from './stack';
import {kitGrant} from './grantRows';
import type Stripe from 'stripe';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.stop());

const purchase = (sessionId: string) =>
  stack.worker.db.all<{status: string; revoke_reason: string | null}>(
    'SELECT * FROM purchases WHERE session_id = ?',
    sessionId,
  );
const welcomeMailsTo = (email: string) => stack.mailgun.sent.filter((mail) => mail.fields.to === email);

test("a paid checkout is recorded once, by its plan's id, and sends one welcome e-mail naming the plan, with the dashboard link", async () => {
  const email = uniqueEmail();
  const sessionId = await stack.paidCheckout({email});
  const response = await stack.deliver(completedEvent(stack, sessionId));
  expect(response.status).toBe(200);
  // The id, never the name: a plan renamed in the config keeps its purchases.
  const plan = findPlanByPriceId(PRICE_ADVANCED)!;
  expect(await purchase(sessionId)).toEqual([expect.objectContaining({status: 'paid', email, plan: plan.id})]);
  const mails = welcomeMailsTo(email);
  expect(mails).toHaveLength(1);
  expect(mails[0]!.fields.text).toContain('http://localhost:4200/dashboard');
  expect(mails[0]!.fields.text).toContain(`(${plan.name})`);
});

test('one event delivered twice in a row is handled once', async () => {
  const email = uniqueEmail();
  const sessionId = await stack.paidCheckout({email});
  const event = completedEvent(stack, sessionId);
  expect((await stack.deliver(event)).status).toBe(200);
  const again = await stack.deliver(event);
  expect(again.status).toBe(200);
  expect(await again.json()).toMatchObject({duplicate: true});
  expect(await purchase(sessionId)).toHaveLength(1);
  expect(welcomeMailsTo(email)).toHaveLength(1);
  expect(await stack.worker.db.all('SELECT id FROM stripe_events WHERE id = ?', event.id)).toHaveLength(1);
});

test('ten deliveries at once, of one event and of its twins, leave one purchase and one e-mail', async () => {
  const email = uniqueEmail();
  const sessionId = await stack.paidCheckout({email});
  const event = completedEvent(stack, sessionId);
  const twin = completedEvent(stack, sessionId); // same session, another event id
  const answers = await Promise.all([
    ...Array.from({length: 10}, () => stack.deliver(event)),
    ...Array.from({length: 5}, () => stack.deliver(twin)),
  ]);
  expect(answers.map((answer) => answer.status)).toEqual(Array(15).fill(200));
  expect(await purchase(sessionId)).toEqual([expect.objectContaining({status: 'paid'})]);
  expect(welcomeMailsTo(email)).toHaveLength(1);
});

test('a refund that arrives before its completion ends revoked, with no welcome e-mail', async () => {
  const email = uniqueEmail();
  const sessionId = await stack.paidCheckout({email});
  expect((await stack.deliver(refundEvent(stack, sessionId))).status).toBe(200);
  expect((await stack.deliver(completedEvent(stack, sessionId))).status).toBe(200);
  expect(await purchase(sessionId)).toEqual([expect.objectContaining({status: 'revoked', revoke_reason: 'refunded'})]);
  expect(welcomeMailsTo(email)).toHaveLength(0);
});

test('a partial refund keeps access; a full one revokes it', async () => {
  const email = uniqueEmail();
  const sessionId = await stack.paidCheckout({email});
  await stack.deliver(completedEvent(stack, sessionId));
  await stack.deliver(refundEvent(stack, sessionId, false));
  expect(await purchase(sessionId)).toEqual([expect.objectContaining({status: 'paid'})]);
  await stack.deliver(refundEvent(stack, sessionId, true));
  expect(await purchase(sessionId)).toEqual([expect.objectContaining({status: 'revoked'})]);
});

test('a partial refund that arrives before its completion is on the purchase once it is recorded, which keeps access', async () => {
  const email = uniqueEmail();
  const sessionId = await stack.paidCheckout({email});
  expect((await stack.deliver(refundEvent(stack, sessionId, false))).status).toBe(200);
  expect((await stack.deliver(completedEvent(stack, sessionId))).status).toBe(200);
  expect(await purchase(sessionId)).toEqual([expect.objectContaining({status: 'paid', amount_refunded: 1000})]);
  // The completion again (Stripe redelivers) keeps it.
  expect((await stack.deliver(completedEvent(stack, sessionId))).status).toBe(200);
  expect(await purchase(sessionId)).toEqual([expect.objectContaining({status: 'paid', amount_refunded: 1000})]);
});

test('an unpaid (async) session grants nothing until its async success', async () => {
  const email = uniqueEmail();
  const sessionId = await stack.paidCheckout({email, paid: false});
  await stack.deliver(completedEvent(stack, sessionId));
  expect(await purchase(sessionId)).toEqual([expect.objectContaining({status: 'open'})]);
  expect(welcomeMailsTo(email)).toHaveLength(0);

  const settled = stack.stripe.settle(sessionId, true);
  await stack.deliver(stripeEvent('checkout.session.async_payment_succeeded', settled));
  expect(await purchase(sessionId)).toEqual([expect.objectContaining({status: 'paid'})]);
  expect(welcomeMailsTo(email)).toHaveLength(1);
});

test('an async payment that fails grants nothing', async () => {
  const email = uniqueEmail();
  const sessionId = await stack.paidCheckout({email, paid: false});
  await stack.deliver(completedEvent(stack, sessionId));
  await stack.deliver(stripeEvent('checkout.session.async_payment_failed', stack.stripe.sessions.get(sessionId)!));
  expect(await purchase(sessionId)).toEqual([expect.objectContaining({status: 'failed'})]);
  expect(welcomeMailsTo(email)).toHaveLength(0);
});

test('a dispute revokes at once; a lost dispute stays revoked, and a later won event for another dispute does not undo it', async () => {
  const email = uniqueEmail();
  const sessionId = await stack.paidCheckout({email});
  await stack.deliver(completedEvent(stack, sessionId));
  await stack.deliver(disputeEvent(stack, sessionId, 'charge.dispute.created', 'needs_response'));
  expect(await purchase(sessionId)).toEqual([expect.objectContaining({status: 'revoked', revoke_reason: 'disputed'})]);
  await stack.deliver(disputeEvent(stack, sessionId, 'charge.dispute.closed', 'lost'));
  expect(await purchase(sessionId)).toEqual([
    expect.objectContaining({status: 'revoked', revoke_reason: 'dispute lost'}),
  ]);
  // The lost dispute's outcome is final: a late event about it, or a second dispute won, changes nothing.
  await stack.deliver(disputeEvent(stack, sessionId, 'charge.dispute.created', 'needs_response'));
  await stack.deliver(disputeEvent(stack, sessionId, 'charge.dispute.closed', 'won', 'dp_second'));
  expect(await purchase(sessionId)).toEqual([
    expect.objectContaining({status: 'revoked', revoke_reason: 'dispute lost'}),
  ]);
});

describe('a dispute won gives access back', () => {
  const requestAccess = (user: {uid: string; idToken: string}, username: string) =>
    stack.call('/addUserToRepo', {token: user.idToken, body: {username, userId: user.uid}});
  let logins = 0;

  async function buyerWithSeat() {
    const user = await stack.signUp();
    const sessionId = await stack.paidCheckout({email: user.email, user});
    await stack.deliver(completedEvent(stack, sessionId));
    const login = stack.github.addUser(`won-${Date.now().toString(36)}-${logins++}`).login;
    expect((await requestAccess(user, login)).status).toBe(200);
    const invitation = [...stack.github.invitations.values()].find((candidate) => candidate.invitee.login === login)!;
    stack.github.accept(invitation.id);
    return {user, sessionId, login};
  }
  const hasPaid = async (user: {uid: string; idToken: string}) =>
    ((await (await stack.call(`/userHasPaid?userId=${user.uid}`, {token: user.idToken})).json()) as {hasPaid: boolean})
      .hasPaid;
  const invitedAgain = (login: string) =>
    [...stack.github.invitations.values()].some(
      (invitation) => invitation.invitee.login === login && !invitation.expired,
    );

  test('opened then won: the purchase is paid again and the same account is invited again', async () => {
    const {user, sessionId, login} = await buyerWithSeat();
    await stack.deliver(disputeEvent(stack, sessionId, 'charge.dispute.created', 'needs_response'));
    expect(await hasPaid(user)).toBe(false);
    expect(stack.github.collaborators.has(login.toLowerCase())).toBe(false);

    await stack.deliver(disputeEvent(stack, sessionId, 'charge.dispute.closed', 'won'));
    expect(await purchase(sessionId)).toEqual([expect.objectContaining({status: 'paid', revoke_reason: null})]);
    expect(await hasPaid(user)).toBe(true);
    expect(invitedAgain(login)).toBe(true);
    const grant = await kitGrant<{status: string; github_username: string}>(stack.worker.db, sessionId);
    expect(grant).toMatchObject({status: 'pending', github_username: login});
  });

  test('opened while a first request asks GitHub (before its grant exists): the invitation is withdrawn and the grant revoked, not left queued; won, the account is invited again', async () => {
    const user = await stack.signUp();
    const sessionId = await stack.paidCheckout({email: user.email, user});
    await stack.deliver(completedEvent(stack, sessionId));
    const login = stack.github.addUser(`race-${Date.now().toString(36)}-${logins++}`).login;
    // The request has checked the payment; the dispute lands while it looks the account up.
    stack.github.beforeNext(`GET /users/${login}`, () =>
      stack.deliver(disputeEvent(stack, sessionId, 'charge.dispute.created', 'needs_response')),
    );
    await requestAccess(user, login);
    const grant = () => kitGrant<{status: string}>(stack.worker.db, sessionId, 'status');
    expect(await grant()).toMatchObject({status: 'revoked'});
    expect(invitedAgain(login)).toBe(false);

    await stack.deliver(disputeEvent(stack, sessionId, 'charge.dispute.closed', 'won'));
    expect(await grant()).toMatchObject({status: 'pending'});
    expect(invitedAgain(login)).toBe(true);
  });

  test('won before its created event (Stripe delivers out of order): access stays', async () => {
    const {user, sessionId, login} = await buyerWithSeat();
    await stack.deliver(disputeEvent(stack, sessionId, 'charge.dispute.closed', 'won'));
    await stack.deliver(disputeEvent(stack, sessionId, 'charge.dispute.created', 'needs_response'));
    expect(await hasPaid(user)).toBe(true);
    expect(stack.github.collaborators.has(login.toLowerCase())).toBe(true);
  });

  test('a refund during the dispute stays final when the dispute is won', async () => {
    const {user, sessionId} = await buyerWithSeat();
    await stack.deliver(disputeEvent(stack, sessionId, 'charge.dispute.created', 'needs_response'));
    await stack.deliver(refundEvent(stack, sessionId));
    await stack.deliver(disputeEvent(stack, sessionId, 'charge.dispute.closed', 'won'));
    expect(await purchase(sessionId)).toEqual([
      expect.objectContaining({status: 'revoked', revoke_reason: 'refunded'}),
    ]);
    expect(await hasPaid(user)).toBe(false);
  });

  test('with two disputes, winning one keeps access revoked until the other is won too', async () => {
    const {user, sessionId} = await buyerWithSeat();
    await stack.deliver(disputeEvent(stack, sessionId, 'charge.dispute.created', 'needs_response'));
    await stack.deliver(disputeEvent(stack, sessionId, 'charge.dispute.created', 'needs_response', 'dp_other'));
    await stack.deliver(disputeEvent(stack, sessionId, 'charge.dispute.closed', 'won'));
    expect(await hasPaid(user)).toBe(false);
    await stack.deliver(disputeEvent(stack, sessionId, 'charge.dispute.closed', 'won', 'dp_other'));
    expect(await hasPaid(user)).toBe(true);
  });
});

test("a paid session for another product's price (a Payment Link on the same account) records nothing and grants nothing", async () => {
  const email = uniqueEmail('other-product');
  const foreign = stack.stripe.add({
    status: 'complete',
    payment_status: 'paid',
    customer: 'cus_other_product',
    payment_intent: 'pi_other_product',
    customer_details: {email} as Stripe.Checkout.Session.CustomerDetails,
    // Metadata can say anything; the line items are what was bought.
    metadata: {priceId: 'price_someone_elses_ebook', plan: 'Advanced'},
  });
  const response = await stack.deliver(stripeEvent('checkout.session.completed', foreign));
  expect(response.status).toBe(200);
  expect(await response.json()).toMatchObject({received: true, handled: false});
  expect(await purchase(foreign.id)).toEqual([]);
  expect(await stack.worker.db.all('SELECT id FROM customers WHERE id = ?', 'cus_other_product')).toEqual([]);
  expect(welcomeMailsTo(email)).toHaveLength(0);
  const exchange = await stack.exchange(foreign.id, {claim: 'x'.repeat(43)});
  expect(exchange.status).toBe(400);
  expect(await exchange.json()).toEqual({error: `This checkout session is not a purchase of ${appConfig.appName}`});
});

test('event types the worker does not handle are acknowledged with 2xx', async () => {
  const response = await stack.deliver(
    stripeEvent('customer.created', {id: 'cus_x', object: 'customer'} as Stripe.Customer),
  );
  expect(response.status).toBe(200);
  expect(await response.json()).toMatchObject({received: true, handled: false});
});

test('our own failure answers 5xx so Stripe retries, and the retry succeeds', async () => {
  const email = uniqueEmail();
  const sessionId = await stack.paidCheckout({email});
  const event = completedEvent(stack, sessionId);
  // Stripe's API fails twice (the SDK's one retry included): the worker cannot read the session.
  const outage = {type: 'api_error', message: 'An unknown error occurred'};
  stack.stripe.failNext('GET /v1/checkout/sessions/', 500, outage);
  stack.stripe.failNext('GET /v1/checkout/sessions/', 500, outage);
  const failed = await stack.deliver(event);
  expect(failed.status).toBeGreaterThanOrEqual(500);
  expect(await purchase(sessionId)).toEqual([]);
  expect((await stack.deliver(event)).status).toBe(200);
  expect(await purchase(sessionId)).toEqual([expect.objectContaining({status: 'paid'})]);
});

test('a session Stripe does not know (the other mode, another account) is acknowledged and records nothing: no retry would help', async () => {
  const sessionId = await stack.paidCheckout({email: uniqueEmail()});
  const event = completedEvent(stack, sessionId);
  stack.stripe.sessions.delete(sessionId);
  const response = await stack.deliver(event);
  expect(response.status).toBe(200);
  expect(await response.json()).toMatchObject({received: true, handled: false});
  expect(await purchase(sessionId)).toEqual([]);
});
