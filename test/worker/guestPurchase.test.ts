/**
 * The guest purchase, end to end: checkout without an account, the webhook, the session
 * exchanged for a custom token, sign-in at the Auth emulator with it, and `userHasPaid`.
 * The e-mail typed at checkout is never verified by Stripe, so it must never open (or count for)
 * an account it does not own; the session id travels in URLs, so it signs someone in once.
 */
import {createHash} from 'node:crypto';
import {appConfig} from '../../src/config';
import {EMULATOR_PROJECT} from '../../scripts/local/authEmulator';
import {INVITEE} from '../../scripts/local/githubApi';
import {claimsOf, completedEvent, PRICE_ADVANCED, startStack, type Stack, uniqueEmail} from './stack';
import {kitGrant, kitGrantsOf} from './grantRows';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.stop());

/**
 * The exchange as the payer's browser makes it, with the claim Stripe's redirect brought (a
 * well-formed stranger's for sessions the stand-in made without a success URL).
 */
const exchange = (sessionId: string, ip?: string) =>
  stack.exchange(sessionId, {
    claim: stack.stripe.sessions.get(sessionId)?.success_url ? stack.claimOf(sessionId) : 'x'.repeat(43),
    ...(ip && {ip}),
  });

async function guestPurchase(email: string) {
  const sessionId = await stack.paidCheckout({email});
  expect((await stack.deliver(completedEvent(stack, sessionId))).status).toBe(200);
  return sessionId;
}

async function tokenFor(sessionId: string): Promise<string> {
  const answer = await exchange(sessionId);
  expect(answer.status).toBe(200);
  return ((await answer.json()) as {token: string}).token;
}

const identity = (path: string) => `http://${stack.emulatorHost}/identitytoolkit.googleapis.com/v1/${path}`;

/** The account as Firebase's admin API sees it. */
async function account(uid: string): Promise<{validSince?: string; emailVerified?: boolean}> {
  const response = await fetch(identity(`projects/${EMULATOR_PROJECT}/accounts:lookup`), {
    method: 'POST',
    headers: {'content-type': 'application/json', authorization: 'Bearer owner'},
    body: JSON.stringify({localId: [uid]}),
  });
  return ((await response.json()) as {users: {validSince?: string}[]}).users[0]!;
}

/** Whether Firebase still honours an ID token (it refuses tokens older than the account's validSince). */
async function firebaseAccepts(idToken: string): Promise<boolean> {
  const response = await fetch(identity('accounts:lookup?key=fake-api-key'), {
    method: 'POST',
    headers: {'content-type': 'application/json'},
    body: JSON.stringify({idToken}),
  });
  return response.ok;
}

const hasPaid = async (user: {uid: string; idToken: string}) =>
  (await (await stack.call(`/userHasPaid?userId=${user.uid}`, {token: user.idToken})).json()) as {
    hasPaid: boolean;
    plan?: string;
  };

test('checkout as a guest, webhook, custom token, sign-in, paid, and access', async () => {
  const email = uniqueEmail('guest');
  const checkout = await stack.call('/createCheckoutSession', {
    body: {
      priceId: PRICE_ADVANCED,
      successUrl: 'http://localhost:4200/success',
      cancelUrl: 'http://localhost:4200/',
      email,
    },
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
    success_url: expect.stringMatching(
      /^http:\/\/localhost:4200\/success\?claim=[\w-]{43}&sessionId=\{CHECKOUT_SESSION_ID\}$/,
    ),
    cancel_url: 'http://localhost:4200/',
  });
  expect(sent).not.toHaveProperty('client_reference_id');

  const {url} = (await checkout.json()) as {url: string};
  const sessionId = /cs_test_\w+/.exec(url)![0];
  stack.stripe.complete(sessionId, {email, paid: true});
  expect((await stack.deliver(completedEvent(stack, sessionId))).status).toBe(200);

  const user = await stack.signInWithCustomToken(await tokenFor(sessionId));
  expect(user.claims.email).toBe(email);
  expect(await hasPaid(user)).toEqual({hasPaid: true, plan: 'Advanced'});
  expect(
    (await stack.call('/addUserToRepo', {token: user.idToken, body: {username: INVITEE, userId: user.uid}})).status,
  ).toBe(200);
});

test('the success path alone fulfils the purchase when the webhook is late', async () => {
  const email = uniqueEmail('early');
  const sessionId = await stack.paidCheckout({email});
  const user = await stack.signInWithCustomToken(await tokenFor(sessionId));
  expect(await hasPaid(user)).toMatchObject({hasPaid: true});
  // The late webhook changes nothing and sends no second e-mail.
  await stack.deliver(completedEvent(stack, sessionId));
  expect(stack.mailgun.sent.filter((mail) => mail.fields.to === email)).toHaveLength(1);
});

describe('a Checkout Session id signs someone in once', () => {
  test('the second exchange answers 410 and says to sign in with the purchase e-mail', async () => {
    const sessionId = await guestPurchase(uniqueEmail('once'));
    await tokenFor(sessionId);
    const again = await exchange(sessionId);
    expect(again.status).toBe(410);
    expect(await again.json()).toEqual({
      error: 'This checkout sign-in was already used. Sign in with the e-mail you paid with to reach your purchase.',
      code: 'SESSION_USED',
    });
  });

  test('ten exchanges at once hand out one token', async () => {
    const sessionId = await guestPurchase(uniqueEmail('race'));
    const answers = await Promise.all(Array.from({length: 10}, () => exchange(sessionId)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, ...Array(9).fill(410)]);
  });

  test('the worker logs only a masked session id', async () => {
    const sessionId = await guestPurchase(uniqueEmail('logged'));
    await tokenFor(sessionId);
    expect(stack.worker.logs.some((line) => line.includes(`cs_test_…${sessionId.slice(-6)}`))).toBe(true);
    expect(stack.worker.logs.filter((line) => line.includes(sessionId))).toEqual([]);
  });

  test('the exchange is rate-limited per address like the other public routes', async () => {
    const ip = '127.0.113.99';
    for (let i = 0; i < 10; i++) expect((await exchange('cs_test_doesnotexist1234', ip)).status).toBe(400);
    const limited = await exchange('cs_test_doesnotexist1234', ip);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await limited.json()).toMatchObject({code: 'RATE_LIMITED'});
  });
});

describe('paying with someone else’s e-mail gives the payer nothing of theirs', () => {
  test('a checkout paid with the e-mail of an existing account never yields a token, and the answer does not name the e-mail', async () => {
    const owner = await stack.signUp({verified: true});
    const sessionId = await guestPurchase(owner.email);
    const answer = await exchange(sessionId);
    expect(answer.status).toBe(409);
    const body = await answer.json();
    expect(body).toEqual({
      error:
        'An account already uses the e-mail of this purchase. Sign in with that e-mail (magic link or Google) to reach your purchase.',
      code: 'SIGN_IN_REQUIRED',
    });
    expect(JSON.stringify(body)).not.toContain(owner.email);
    // The owner, signed in the normal way with the verified e-mail, has the purchase.
    expect(await hasPaid(owner)).toMatchObject({hasPaid: true});
  });

  test('the exchange never marks the e-mail verified: the account stays unverified and the token says so', async () => {
    const email = uniqueEmail('unproved');
    const sessionId = await guestPurchase(email);
    const payer = await stack.signInWithCustomToken(await tokenFor(sessionId));
    expect(payer.claims).toMatchObject({email, email_verified: false, checkout: true});
    expect((await account(payer.uid)).emailVerified).toBe(false);
  });

  test("a checkout session's token never counts as a verified e-mail, even once the owner has verified it", async () => {
    const email = uniqueEmail('victim');
    // The owner bought as a guest earlier and never used the exchange.
    const ownersPurchase = await guestPurchase(email);
    // Someone pays again with the same address and signs in through the exchange.
    const payersPurchase = await guestPurchase(email);
    const payer = await stack.signInWithCustomToken(await tokenFor(payersPurchase));
    // The owner proves the address, but has not called the worker yet.
    await stack.signInWithEmailLink(email);
    const refreshed = await stack.refresh(payer);
    expect(claimsOf(refreshed.idToken!)).toMatchObject({email_verified: true, checkout: true});

    const seat = await stack.call('/addUserToRepo', {
      token: refreshed.idToken,
      body: {username: stack.github.addUser(`payer-${Date.now().toString(36)}`).login, userId: payer.uid},
    });
    expect(seat.status).toBe(200);
    // The seat moved is the payer's own purchase, never the owner's.
    expect(await kitGrantsOf(stack.worker.db, [ownersPurchase, payersPurchase], 'session_id')).toEqual([
      {session_id: payersPurchase},
    ]);
  });

  test("the owner's first verified sign-in ends the payer's session at Firebase and at the worker", async () => {
    const email = uniqueEmail('owner');
    const sessionId = await guestPurchase(email);
    const payer = await stack.signInWithCustomToken(await tokenFor(sessionId));
    expect(await hasPaid(payer)).toMatchObject({hasPaid: true});

    // Token times are in seconds: the owner comes along in a later one.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const owner = await stack.signInWithEmailLink(email);
    expect(owner.uid).toBe(payer.uid);
    expect(owner.claims.email_verified).toBe(true);
    // The owner's first call to the worker ends every other session of the account.
    expect(await hasPaid(owner)).toMatchObject({hasPaid: true});

    // Firebase: the account's tokens are revoked from the owner's sign-in on (revokeRefreshTokens),
    // so Firebase refuses the payer's ID token. (The emulator does not check refresh tokens against
    // it; production Firebase does.)
    expect(Number((await account(payer.uid)).validSince)).toBeGreaterThan(payer.claims.iat as number);
    expect(await firebaseAccepts(payer.idToken)).toBe(false);

    // The worker: the payer's token, or any refresh of it, is refused.
    const refused = await stack.call(`/userHasPaid?userId=${payer.uid}`, {token: payer.idToken});
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({
      error: 'This sign-in from the checkout has ended. Sign in with the e-mail you paid with.',
      code: 'SESSION_ENDED',
    });
    const refreshed = await stack.refresh(payer);
    if (refreshed.ok) {
      expect((await stack.call(`/userHasPaid?userId=${payer.uid}`, {token: refreshed.idToken})).status).toBe(401);
    }
    // The owner's own session goes on.
    const ownersNext = await stack.refresh(owner);
    expect(await hasPaid({uid: owner.uid, idToken: ownersNext.idToken!})).toMatchObject({hasPaid: true});
  });

  test('once the owner has signed in, an unused session id no longer signs anyone in', async () => {
    const email = uniqueEmail('first');
    const sessionId = await guestPurchase(email);
    // The account exists (the exchange made it on an earlier attempt that failed to hand over).
    const answer = await exchange(sessionId);
    const {token} = (await answer.json()) as {token: string};
    expect(claimsOf(token).uid).toBeDefined();
    await stack.worker.db.run('UPDATE checkout_accounts SET consumed_at = NULL WHERE session_id = ?', sessionId);
    await stack.signInWithEmailLink(email);
    expect((await exchange(sessionId)).status).toBe(409);
  });

  test('an unverified account with the purchase e-mail does not match; verified, it does', async () => {
    const squatter = await stack.signUp();
    const sessionId = await guestPurchase(squatter.email);
    expect(await hasPaid(squatter)).toEqual({hasPaid: false});
    expect((await exchange(sessionId)).status).toBe(409);
    expect(
      (await stack.call('/addUserToRepo', {token: squatter.idToken, body: {username: INVITEE, userId: squatter.uid}}))
        .status,
    ).toBe(402);

    // Once the owner proves the address (a magic link, say), the guest purchase is theirs.
    const verified = await stack.verify(squatter);
    expect(await hasPaid(verified)).toMatchObject({hasPaid: true});
  });
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

describe('the seat follows whoever paid, not whoever started the checkout', () => {
  test("the checkout's creator knows the session id but not the claim, and signs no one in; the payer does", async () => {
    // Started signed out, and its link sent to someone else, who pays.
    const created = await stack.call('/createCheckoutSession', {
      headers: {'cf-connecting-ip': '127.0.2.201'},
      body: {priceId: PRICE_ADVANCED, successUrl: 'http://localhost:4200/success', cancelUrl: 'http://localhost:4200/'},
    });
    const answer = (await created.json()) as Record<string, string>;
    expect(Object.keys(answer)).toEqual(['url']);
    const sessionId = /cs_test_\w+/.exec(answer.url!)![0];
    const claim = stack.claimOf(sessionId);
    expect(answer.url).not.toContain(claim);
    const email = uniqueEmail('paid-by-another');
    stack.stripe.complete(sessionId, {email, paid: true});
    await stack.deliver(completedEvent(stack, sessionId));

    const withoutClaim = await stack.exchange(sessionId, {claim: null});
    expect(withoutClaim.status).toBe(400);
    expect(await withoutClaim.json()).toEqual({
      error: 'claim is required: open the link your browser came back from the payment with',
    });
    const guessed = await stack.exchange(sessionId, {claim: `${claim.slice(0, 42)}${claim.endsWith('A') ? 'B' : 'A'}`});
    expect(guessed.status).toBe(409);
    expect(await guessed.json()).toEqual({
      error:
        'This link does not sign anyone in. Sign in with the e-mail you paid with (a magic link) to reach your purchase.',
      code: 'SIGN_IN_REQUIRED',
    });
    expect(
      await stack.worker.db.all('SELECT session_id FROM checkout_accounts WHERE session_id = ?', sessionId),
    ).toEqual([]);

    const payer = await stack.signInWithCustomToken(await tokenFor(sessionId));
    expect(payer.claims.email).toBe(email);
  });

  test('the verified owner of the paid e-mail takes the seat back from whoever held the purchase, whatever its moves, and hears of every seat', async () => {
    const email = uniqueEmail('takes-back');
    const sessionId = await guestPurchase(email);
    // Whoever held the purchase before its owner proved the e-mail: here, its checkout sign-in.
    const holder = await stack.signInWithCustomToken(await tokenFor(sessionId));
    const account = (label: string) =>
      stack.github.addUser(`${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`).login;
    const ask = (session: {uid: string; idToken: string}, username: string) =>
      stack.call('/addUserToRepo', {token: session.idToken, body: {username, userId: session.uid}});
    const max = appConfig.repository.maxUsernameChanges;
    const taken = Array.from({length: max + 1}, () => account('taken'));
    for (const login of taken) expect((await ask(holder, login)).status).toBe(200);
    expect((await ask(holder, account('one-too-many'))).status).toBe(429);

    const seatMails = () =>
      stack.mailgun.sent.filter(
        (mail) => mail.fields.to === email && /repository seat is with/.test(mail.fields.subject ?? ''),
      );
    expect(seatMails().map((mail) => mail.fields.subject)).toEqual(
      taken.map((login) => `Your ${appConfig.appName} repository seat is with @${login}`),
    );
    expect(seatMails()[0]!.fields.text).toContain('Not your account? Sign in with this e-mail address');

    const owner = await stack.signInWithEmailLink(email);
    const mine = account('owners-own');
    expect((await ask(owner, mine)).status).toBe(200);
    expect(await kitGrant(stack.worker.db, sessionId, 'github_username, username_changes, chosen_by_owner')).toEqual({
      github_username: mine,
      username_changes: max,
      chosen_by_owner: 1,
    });
    expect(
      [...stack.github.invitations.values()].filter((invitation) => taken.includes(invitation.invitee.login)),
    ).toEqual([]);
    expect(seatMails().at(-1)!.fields.subject).toBe(`Your ${appConfig.appName} repository seat is with @${mine}`);
    expect((await ask(holder, account('back-again'))).status).toBe(401);
    // The owner's own seat moves as anyone's: the limit counts again.
    expect((await ask(owner, account('owner-moves'))).status).toBe(429);
  });

  test("Stripe's metadata keeps only the claim's hash", async () => {
    const sessionId = await stack.paidCheckout({email: uniqueEmail('hashed')});
    const claim = stack.claimOf(sessionId);
    const {metadata} = stack.stripe.created.at(-1) as {metadata: Record<string, string>};
    expect(metadata.claim_sha256).toBe(createHash('sha256').update(claim).digest('hex'));
    expect(JSON.stringify(metadata)).not.toContain(claim);
  });

  test.each([
    ['another page of the site', 'http://localhost:4200/dashboard'],
    ['another site', 'https://example.com/success'],
  ])('a success URL on %s is refused with 400, and no session is made', async (_label, successUrl) => {
    const before = stack.stripe.created.length;
    const response = await stack.call('/createCheckoutSession', {
      headers: {'cf-connecting-ip': '127.0.2.202'},
      body: {priceId: PRICE_ADVANCED, successUrl, cancelUrl: 'http://localhost:4200/'},
    });
    expect(response.status).toBe(400);
    expect(stack.stripe.created).toHaveLength(before);
  });
});
