/**
 * The guest purchase, end to end: checkout without an account, the webhook, the session
 * exchanged for a custom token, sign-in at the Auth emulator with it, and `userHasPaid`.
 * The e-mail typed at checkout is never verified by Stripe, so it must never open (or count for)
 * an account it does not own.
 */
import {INVITEE} from '../stubs/githubApi';
import {completedEvent, PRICE_ADVANCED, startStack, type Stack, uniqueEmail} from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.stop());

async function guestPurchase(email: string) {
  const sessionId = await stack.paidCheckout({email});
  expect((await stack.deliver(completedEvent(stack, sessionId))).status).toBe(200);
  return sessionId;
}

const exchange = (sessionId: string) => stack.call(`/retrieveUserFromCheckoutSession?sessionId=${encodeURIComponent(sessionId)}`);

async function signInWithCustomToken(token: string) {
  const response = await fetch(
    `http://${stack.emulatorHost}/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=fake-api-key`,
    {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({token, returnSecureToken: true})},
  );
  const body = (await response.json()) as {idToken: string; localId?: string};
  if (!response.ok) throw new Error(JSON.stringify(body));
  const payload = JSON.parse(Buffer.from(body.idToken.split('.')[1]!, 'base64url').toString()) as {sub: string; email?: string};
  return {idToken: body.idToken, uid: payload.sub, email: payload.email};
}

const hasPaid = async (user: {uid: string; idToken: string}) =>
  (await (await stack.call(`/userHasPaid?userId=${user.uid}`, {token: user.idToken})).json()) as {hasPaid: boolean; plan?: string};

test('checkout as a guest, webhook, custom token, sign-in, paid, and access', async () => {
  const email = uniqueEmail('guest');
  const checkout = await stack.call('/createCheckoutSession', {
    body: {priceId: PRICE_ADVANCED, successUrl: 'http://localhost:4200/success', cancelUrl: 'http://localhost:4200/', email},
  });
  expect(checkout.status).toBe(200);
  const sent = stack.stripe.created.at(-1)!;
  expect(sent).toMatchObject({
    mode: 'payment',
    line_items: [{price: PRICE_ADVANCED, quantity: '1'}],
    customer_creation: 'always',
    customer_email: email,
    tax_id_collection: {enabled: 'true'},
    allow_promotion_codes: 'true',
    success_url: 'http://localhost:4200/success?sessionId={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://localhost:4200/',
  });
  expect(sent).not.toHaveProperty('client_reference_id');

  const {url} = (await checkout.json()) as {url: string};
  const sessionId = /cs_test_\w+/.exec(url)![0];
  stack.stripe.complete(sessionId, {email, paid: true});
  expect((await stack.deliver(completedEvent(stack, sessionId))).status).toBe(200);

  const answer = await exchange(sessionId);
  expect(answer.status).toBe(200);
  const {token} = (await answer.json()) as {token: string};
  const user = await signInWithCustomToken(token);
  expect(user.email).toBe(email);
  expect(await hasPaid(user)).toEqual({hasPaid: true, plan: 'Advanced'});
  expect((await stack.call('/addUserToRepo', {token: user.idToken, body: {username: INVITEE, userId: user.uid}})).status).toBe(200);

  // The exchange is repeatable (the dashboard may reload) and always names the same account.
  const again = await signInWithCustomToken(((await (await exchange(sessionId)).json()) as {token: string}).token);
  expect(again.uid).toBe(user.uid);
});

test('the success path alone fulfils the purchase when the webhook is late', async () => {
  const email = uniqueEmail('early');
  const sessionId = await stack.paidCheckout({email});
  const answer = await exchange(sessionId);
  expect(answer.status).toBe(200);
  const user = await signInWithCustomToken(((await answer.json()) as {token: string}).token);
  expect(await hasPaid(user)).toMatchObject({hasPaid: true});
  // The late webhook changes nothing and sends no second e-mail.
  await stack.deliver(completedEvent(stack, sessionId));
  expect(stack.mailgun.sent.filter((mail) => mail.fields.to === email)).toHaveLength(1);
});

test('a checkout paid with the e-mail of an existing account never yields a token for that account', async () => {
  const owner = await stack.signUp({verified: true});
  const sessionId = await guestPurchase(owner.email);
  const answer = await exchange(sessionId);
  expect(answer.status).toBe(409);
  expect(await answer.json()).toEqual({
    error: `An account already uses ${owner.email}. Sign in with that e-mail (magic link or Google) to reach your purchase.`,
    code: 'SIGN_IN_REQUIRED',
  });
  // The owner, signed in the normal way with the verified e-mail, has the purchase.
  expect(await hasPaid(owner)).toMatchObject({hasPaid: true});
});

test('an unverified account with the purchase e-mail does not match; verified, it does', async () => {
  const squatter = await stack.signUp();
  const sessionId = await guestPurchase(squatter.email);
  expect(await hasPaid(squatter)).toEqual({hasPaid: false});
  expect((await exchange(sessionId)).status).toBe(409);
  expect(
    (await stack.call('/addUserToRepo', {token: squatter.idToken, body: {username: INVITEE, userId: squatter.uid}})).status,
  ).toBe(402);

  // Once the owner proves the address (a magic link, say), the guest purchase is theirs.
  const verified = await stack.verify(squatter);
  expect(await hasPaid(verified)).toMatchObject({hasPaid: true});
});

test('a session created by a signed-in buyer is never exchanged for a token', async () => {
  const buyer = await stack.signUp();
  const sessionId = await stack.paidCheckout({email: uniqueEmail('typed'), user: buyer});
  await stack.deliver(completedEvent(stack, sessionId));
  expect(stack.stripe.created.at(-1)).toMatchObject({client_reference_id: buyer.uid});
  expect((await exchange(sessionId)).status).toBe(409);
  expect(await hasPaid(buyer)).toMatchObject({hasPaid: true});
});

test.each([
  ['an unknown session', () => 'cs_test_doesnotexist1234'],
  ['a malformed id', () => 'not-a-session'],
  ['no id at all', () => ''],
])('%s is refused with 400', async (_label, id) => {
  const response = await exchange(id());
  expect(response.status).toBe(400);
  expect(await response.json()).toEqual({error: expect.any(String)});
});

test('an unpaid or day-old session is refused with 400', async () => {
  const unpaid = await stack.paidCheckout({email: uniqueEmail(), paid: false});
  expect((await exchange(unpaid)).status).toBe(400);

  const old = stack.stripe.add({
    status: 'complete',
    payment_status: 'paid',
    created: Math.floor(Date.now() / 1000) - 25 * 3600,
    customer: 'cus_old',
    payment_intent: 'pi_old',
    customer_details: {email: uniqueEmail('old')} as never,
    metadata: {priceId: PRICE_ADVANCED},
  });
  const response = await exchange(old.id);
  expect(response.status).toBe(400);
  expect((await response.json()).error).toMatch(/24 hours/);
});
