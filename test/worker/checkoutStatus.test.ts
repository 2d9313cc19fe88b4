/**
 * The success page's question (issue 38: it thanked anyone who opened it): is the checkout this
 * browser came back from paid? Asked with the id and the claim Stripe's redirect brought, answered
 * from Stripe as it is now, recorded as fulfilment records it, and consuming nothing.
 */
import {API_PATHS, type CheckoutStatusResponse} from '../../src/config/api';
import {completedEvent, PRICE_ADVANCED, refundEvent, startStack, stripeEvent, type Stack, uniqueEmail} from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.stop());

let callers = 0;
/** The success page's call, each from its own address so the per-IP limit bites only where a test wants it. */
const ask = (body: unknown, ip = `127.61.${Math.floor(callers / 250) % 250}.${callers++ % 250}`) =>
  stack.call(API_PATHS.checkoutStatus, {body, headers: {'cf-connecting-ip': ip}});
const statusOf = async (sessionId: string) => {
  const answer = await ask({sessionId, claim: stack.claimOf(sessionId)});
  expect(answer.status).toBe(200);
  return ((await answer.json()) as CheckoutStatusResponse).status;
};
const purchase = (sessionId: string) =>
  stack.worker.db.all<{status: string}>('SELECT status FROM purchases WHERE session_id = ?', sessionId);
const mailsTo = (email: string) => stack.mailgun.sent.filter((mail) => mail.fields.to === email);

test('a paid checkout asked with its claim is paid, and the exchange still signs the payer in after: nothing is consumed', async () => {
  const sessionId = await stack.paidCheckout({email: uniqueEmail('status')});
  await stack.deliver(completedEvent(stack, sessionId));
  expect(await statusOf(sessionId)).toBe('paid');
  expect(await statusOf(sessionId)).toBe('paid');
  expect((await stack.exchange(sessionId)).status).toBe(200);
});

test('the webhook late, the answer is read from Stripe and the purchase recorded: the welcome e-mail the page announces goes, once', async () => {
  const email = uniqueEmail('early');
  const sessionId = await stack.paidCheckout({email});
  expect(await statusOf(sessionId)).toBe('paid');
  expect(await purchase(sessionId)).toEqual([{status: 'paid'}]);
  expect(mailsTo(email)).toHaveLength(1);
  await stack.deliver(completedEvent(stack, sessionId));
  expect(mailsTo(email)).toHaveLength(1);
});

test('never completed: unpaid; completed with a payment still on its way: processing, then paid once Stripe confirms it', async () => {
  const created = await stack.call('/createCheckoutSession', {
    headers: {'cf-connecting-ip': '127.62.0.1'},
    body: {priceId: PRICE_ADVANCED, successUrl: 'http://localhost:4200/success', cancelUrl: 'http://localhost:4200/'},
  });
  const openId = /cs_test_\w+/.exec(((await created.json()) as {url: string}).url)![0];
  expect(await statusOf(openId)).toBe('unpaid');

  const email = uniqueEmail('slow');
  const sessionId = await stack.paidCheckout({email, paid: false});
  expect(await statusOf(sessionId)).toBe('processing');
  expect(mailsTo(email)).toHaveLength(0);
  stack.stripe.settle(sessionId, true);
  expect(await statusOf(sessionId)).toBe('paid');
  expect(mailsTo(email)).toHaveLength(1);
});

test('an async payment that failed stays failed when the page asks after the webhook (Stripe still reads it complete and unpaid)', async () => {
  const sessionId = await stack.paidCheckout({email: uniqueEmail('failed'), paid: false});
  await stack.deliver(completedEvent(stack, sessionId));
  await stack.deliver(stripeEvent('checkout.session.async_payment_failed', stack.stripe.settle(sessionId, false)));
  expect(await statusOf(sessionId)).toBe('failed');
  expect(await purchase(sessionId)).toEqual([{status: 'failed'}]);
});

test('refunded after paying: revoked', async () => {
  const sessionId = await stack.paidCheckout({email: uniqueEmail('refunded')});
  await stack.deliver(completedEvent(stack, sessionId));
  await stack.deliver(refundEvent(stack, sessionId));
  expect(await statusOf(sessionId)).toBe('revoked');
});

describe('the id alone tells nobody anything', () => {
  test("the checkout's creator, who knows the id but not the claim, is refused (409) and learns nothing; the payer's exchange still works", async () => {
    const sessionId = await stack.paidCheckout({email: uniqueEmail('creator')});
    const refused = await ask({sessionId, claim: 'x'.repeat(43)});
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({code: 'SIGN_IN_REQUIRED'});
    expect((await stack.exchange(sessionId)).status).toBe(200);
  });

  test.each([
    ['no claim', (sessionId: string) => ({sessionId}), /claim is required/],
    ['a malformed claim', (sessionId: string) => ({sessionId, claim: '<img src=x>'}), /claim is not a checkout claim/],
    ['no id', () => ({claim: 'x'.repeat(43)}), /sessionId is required/],
    [
      'an unknown id',
      () => ({sessionId: 'cs_test_doesnotexist1234', claim: 'x'.repeat(43)}),
      /Unknown checkout session/,
    ],
  ])('%s: 400 with a message', async (_case, body, message) => {
    const sessionId = await stack.paidCheckout({email: uniqueEmail('bad')});
    const answer = await ask(body(sessionId));
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as {error: string}).error).toMatch(message);
  });

  test('the id travels in the body and the worker logs it masked', async () => {
    const sessionId = await stack.paidCheckout({email: uniqueEmail('logged')});
    await ask({sessionId, claim: 'x'.repeat(43)});
    expect(stack.worker.logs.filter((line) => line.includes(sessionId))).toEqual([]);
    expect(stack.worker.logs.some((line) => line.includes(`cs_test_…${sessionId.slice(-6)}`))).toBe(true);
  });

  test('rate-limited per address: 10 a minute, then 429 with Retry-After', async () => {
    const ip = '127.63.0.99';
    for (let i = 0; i < 10; i++)
      expect((await ask({sessionId: 'cs_test_doesnotexist1234', claim: 'x'.repeat(43)}, ip)).status).toBe(400);
    const limited = await ask({sessionId: 'cs_test_doesnotexist1234', claim: 'x'.repeat(43)}, ip);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
