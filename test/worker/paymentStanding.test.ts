/**
 * GET /accessStatus says what became of the buyer's payment, and since when, so the dashboard can
 * tell a refunded buyer that, and never that they did not buy: refunds made at the Stripe stand-in
 * (`refundAtStripe`, then Stripe's own `charge.refunded`), disputes as Stripe sends them, and a
 * buyer who bought again after a refund. The receipts stay, the refund with them.
 */
import type Stripe from 'stripe';
import {API_PATHS, appConfig, type AccessStatus, type BuyerReceipts} from '../../src/config';
import {completedEvent, disputeEvent, PRICE_STARTER, refundAtStripe, type SignedInUser, startStack, type Stack, stripeEvent} from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.stop());

const [starter, advanced] = appConfig.plans;

async function paidBuyer(user?: SignedInUser, priceId?: string): Promise<{user: SignedInUser; sessionId: string}> {
  const buyer = user ?? (await stack.signUp({verified: true}));
  const sessionId = await stack.paidCheckout({email: buyer.email, user: buyer, ...(priceId && {priceId})});
  expect((await stack.deliver(completedEvent(stack, sessionId))).status).toBe(200);
  return {user: buyer, sessionId};
}

async function accessStatus(user: SignedInUser): Promise<AccessStatus> {
  const response = await stack.call(API_PATHS.accessStatus, {token: user.idToken});
  expect(response.status).toBe(200);
  return (await response.json()) as AccessStatus;
}

const boughtAt = async (sessionId: string) =>
  (await stack.worker.db.all<{created_at: number}>('SELECT created_at FROM purchases WHERE session_id = ?', sessionId))[0]!.created_at;

test('a buyer refunded in full at Stripe reads "refunded", with when and how much; access is revoked; the receipt stays, the refund on it', async () => {
  const {user, sessionId} = await paidBuyer();
  const login = stack.github.addUser(`refunded-${Date.now().toString(36)}`).login;
  expect((await stack.call(API_PATHS.addUserToRepo, {token: user.idToken, body: {username: login, userId: user.uid}})).status).toBe(200);
  const paid = await accessStatus(user);
  expect(paid).toMatchObject({hasPaid: true, status: 'pending', payment: {state: 'paid', plan: {id: advanced.id, name: advanced.name}, refunded: 0}, plan: {id: advanced.id}});
  expect(paid.payment).not.toHaveProperty('since');

  const before = Date.now();
  await refundAtStripe(stack, sessionId);
  const after = Date.now();
  const answer = await accessStatus(user);
  expect(answer).toMatchObject({
    hasPaid: false,
    status: 'revoked',
    username: login,
    payment: {state: 'refunded', plan: {id: advanced.id, name: advanced.name}, boughtAt: await boughtAt(sessionId), amount: advanced.price * 100, refunded: advanced.price * 100, currency: 'usd'},
  });
  expect(answer.payment!.since).toBeGreaterThanOrEqual(before);
  expect(answer.payment!.since).toBeLessThanOrEqual(after);
  // No paid purchase: no plan held, and nothing else ended beside it.
  expect(answer).not.toHaveProperty('plan');
  expect(answer).not.toHaveProperty('otherEnded');

  const receipts = (await (await stack.call(API_PATHS.receipts, {token: user.idToken})).json()) as BuyerReceipts;
  expect(receipts.receipts).toEqual([expect.objectContaining({plan: advanced.name, amount: advanced.price * 100, refunded: advanced.price * 100})]);
  expect(receipts.receipts[0]!.url).toMatch(/^https?:\/\//);
});

test('a partial refund keeps the purchase paid and its access, and says how much went back and when', async () => {
  const {user, sessionId} = await paidBuyer();
  const before = Date.now();
  await refundAtStripe(stack, sessionId, 1500);
  const answer = await accessStatus(user);
  expect(answer).toMatchObject({hasPaid: true, payment: {state: 'partly_refunded', amount: advanced.price * 100, refunded: 1500}, plan: {id: advanced.id}});
  expect(answer.payment!.since).toBeGreaterThanOrEqual(before);
});

test('a refund is dated when Stripe refunded it: a late copy of its event, or an older one out of order, does not move the date', async () => {
  const {user, sessionId} = await paidBuyer();
  await refundAtStripe(stack, sessionId, 1500);
  const intent = stack.stripe.sessions.get(sessionId)!.payment_intent as string;
  // Refunded a month ago, as far as the worker knows.
  const monthAgo = Date.now() - 30 * 24 * 3600_000;
  await stack.worker.db.run('UPDATE payment_refunds SET updated_at = ?1 WHERE payment_intent_id = ?2', monthAgo, intent);
  const charge = stack.stripe.payments.get(intent)!.charge;
  // Stripe delivers the same charge.refunded again (a new event id), and an older one late.
  expect((await stack.deliver(stack.stripe.refundedEvent(intent))).status).toBe(200);
  expect((await stack.deliver(stripeEvent('charge.refunded', {...charge, amount_refunded: 500} as Stripe.Charge))).status).toBe(200);
  expect(await accessStatus(user)).toMatchObject({payment: {state: 'partly_refunded', refunded: 1500, since: monthAgo}});

  // A refund of more is a new date.
  const before = Date.now();
  await refundAtStripe(stack, sessionId, 1000);
  const answer = await accessStatus(user);
  expect(answer).toMatchObject({payment: {state: 'partly_refunded', refunded: 2500}});
  expect(answer.payment!.since).toBeGreaterThanOrEqual(before);
});

test('an open dispute reads "disputed" since it was opened; lost, "dispute_lost" since it closed; neither is "never bought"', async () => {
  const {user, sessionId} = await paidBuyer();
  const opened = Date.now();
  expect((await stack.deliver(disputeEvent(stack, sessionId, 'charge.dispute.created', 'needs_response'))).status).toBe(200);
  const open = await accessStatus(user);
  expect(open).toMatchObject({hasPaid: false, payment: {state: 'disputed', plan: {id: advanced.id}}});
  expect(open.payment!.since).toBeGreaterThanOrEqual(opened);

  const closed = Date.now();
  expect((await stack.deliver(disputeEvent(stack, sessionId, 'charge.dispute.closed', 'lost'))).status).toBe(200);
  const lost = await accessStatus(user);
  expect(lost).toMatchObject({hasPaid: false, payment: {state: 'dispute_lost'}});
  expect(lost.payment!.since).toBeGreaterThanOrEqual(closed);
});

test('a dispute won makes the purchase paid again', async () => {
  const {user, sessionId} = await paidBuyer();
  await stack.deliver(disputeEvent(stack, sessionId, 'charge.dispute.created', 'needs_response'));
  await stack.deliver(disputeEvent(stack, sessionId, 'charge.dispute.closed', 'won'));
  expect(await accessStatus(user)).toMatchObject({hasPaid: true, payment: {state: 'paid'}});
});

test('a buyer who bought again after a refund holds the new purchase, and is told the other one was refunded', async () => {
  const {user, sessionId: first} = await paidBuyer();
  await refundAtStripe(stack, first);
  const {sessionId: second} = await paidBuyer(user, PRICE_STARTER);
  const answer = await accessStatus(user);
  expect(answer).toMatchObject({
    hasPaid: true,
    payment: {state: 'paid', plan: {id: starter.id, name: starter.name}, boughtAt: await boughtAt(second)},
    otherEnded: {state: 'refunded', plan: {id: advanced.id}, boughtAt: await boughtAt(first)},
    plan: {id: starter.id, name: starter.name},
  });
  // Both receipts stand.
  const receipts = (await (await stack.call(API_PATHS.receipts, {token: user.idToken})).json()) as BuyerReceipts;
  expect(receipts.receipts.map((receipt) => receipt.plan).sort()).toEqual([starter.name, advanced.name].sort());
});

test('an account that never bought reads no payment at all', async () => {
  const user = await stack.signUp({verified: true});
  const answer = await accessStatus(user);
  expect(answer).toMatchObject({hasPaid: false, status: 'none'});
  expect(answer).not.toHaveProperty('payment');
});

test('a purchase revoked for a reason that is not about its payment is never called refunded or disputed', async () => {
  const {user, sessionId} = await paidBuyer();
  await stack.worker.db.run("UPDATE purchases SET status = 'revoked', revoke_reason = 'another reason' WHERE session_id = ?", sessionId);
  const answer = await accessStatus(user);
  expect(answer).toMatchObject({hasPaid: false});
  expect(answer).not.toHaveProperty('payment');
});
