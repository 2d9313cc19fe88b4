/**
 * The checkout exchange and verified e-mails with Supabase as the sign-in provider: the same
 * rules as with Firebase. The token is an access token for the uid recorded for the checkout (a
 * magic link would confirm an e-mail the payer never proved), and "verified" is what Supabase's
 * admin API says, never what a token's user-writable metadata claims.
 */
import {SignJWT} from 'jose';
import {startSupabaseStandIn, type SupabaseStandIn} from '../stubs/supabaseAdmin';
import {claimsOf, completedEvent, startStack, type Stack, uniqueEmail} from './stack';

const JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters';
let supabase: SupabaseStandIn;
let stack: Stack;

beforeAll(async () => {
  supabase = await startSupabaseStandIn();
  stack = await startStack({
    AUTH_PROVIDER: 'supabase',
    SUPABASE_URL: supabase.url,
    SUPABASE_SERVICE_ROLE_KEY: supabase.serviceRoleKey,
    SUPABASE_JWT_SECRET: JWT_SECRET,
  });
});
afterAll(async () => {
  await stack.stop();
  await supabase.close();
});

async function guestPurchase(email: string, on = stack) {
  const sessionId = await on.paidCheckout({email});
  await on.deliver(completedEvent(on, sessionId));
  return sessionId;
}
const exchange = (sessionId: string, on = stack) => on.exchange(sessionId);

/**
 * An access token as Supabase issues one after a sign-in, with what the user wrote in its metadata
 * and how the session signed in (GoTrue's `amr`: `otp` for a magic link, `password`, `oauth`).
 */
function accessToken(
  user: {id: string; email: string},
  metadata: Record<string, unknown> = {},
  method = 'otp',
  issuedAt = Math.floor(Date.now() / 1000) - 5,
) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    email: user.email,
    role: 'authenticated',
    user_metadata: metadata,
    amr: [{method, timestamp: issuedAt}],
  })
    .setProtectedHeader({alg: 'HS256'})
    .setIssuer(`${supabase.url}/auth/v1`)
    .setAudience('authenticated')
    .setSubject(user.id)
    .setIssuedAt(issuedAt)
    .setExpirationTime(now + 3600)
    .sign(new TextEncoder().encode(JWT_SECRET));
}

const hasPaid = async (uid: string, token: string) =>
  (await (await stack.call(`/userHasPaid?userId=${uid}`, {token})).json()) as {hasPaid: boolean; plan?: string};

test('a guest purchase creates an unconfirmed user and returns an access token for exactly that uid, never a magic link', async () => {
  const email = uniqueEmail('supa');
  const sessionId = await guestPurchase(email);
  const response = await exchange(sessionId);
  expect(response.status).toBe(200);
  const {token} = (await response.json()) as {token: string};
  const user = supabase.users.get(email)!;
  expect(claimsOf(token)).toMatchObject({
    sub: user.id,
    email,
    role: 'authenticated',
    aud: 'authenticated',
    checkout: true,
  });
  expect(supabase.links.size).toBe(0);
  expect(user.email_confirmed_at).toBeNull();

  expect(await hasPaid(user.id, token)).toEqual({hasPaid: true, plan: 'Advanced'});
  expect((await exchange(sessionId)).status).toBe(410);
});

test('an existing Supabase user with the checkout e-mail gets 409 and no token', async () => {
  const email = uniqueEmail('taken');
  supabase.users.set(email, {id: crypto.randomUUID(), email, email_confirmed_at: new Date().toISOString()});
  const sessionId = await guestPurchase(email);
  const response = await exchange(sessionId);
  expect(response.status).toBe(409);
  expect(await response.json()).toMatchObject({code: 'SIGN_IN_REQUIRED'});

  // Signed in with the confirmed address, the owner has the purchase.
  const owner = supabase.users.get(email)!;
  expect(await hasPaid(owner.id, await accessToken(owner))).toMatchObject({hasPaid: true});
});

test("user_metadata.email_verified, which the user can write, does not verify an e-mail; Supabase's email_confirmed_at does", async () => {
  const email = uniqueEmail('self-declared');
  const squatter = {id: crypto.randomUUID(), email, email_confirmed_at: null as string | null};
  supabase.users.set(email, squatter);
  await guestPurchase(email);
  // auth.updateUser({data: {email_verified: true}}) puts this in every later token.
  expect(await hasPaid(squatter.id, await accessToken(squatter, {email_verified: true}))).toEqual({hasPaid: false});

  const owner = {
    id: crypto.randomUUID(),
    email: uniqueEmail('confirmed'),
    email_confirmed_at: new Date().toISOString(),
  };
  supabase.users.set(owner.email, owner);
  await guestPurchase(owner.email);
  const lookups = supabase.lookups.length;
  for (let call = 0; call < 3; call++)
    expect(await hasPaid(owner.id, await accessToken(owner))).toMatchObject({hasPaid: true});
  // Asked once, then remembered for a minute.
  expect(supabase.lookups.length - lookups).toBe(1);
});

test("the owner's first confirmed sign-in signs the other sessions out and ends the checkout token", async () => {
  const email = uniqueEmail('owner');
  const sessionId = await guestPurchase(email);
  const {token: payerToken} = (await (await exchange(sessionId)).json()) as {token: string};
  const user = supabase.users.get(email)!;
  expect(await hasPaid(user.id, payerToken)).toMatchObject({hasPaid: true});

  // The owner opens the magic link Supabase sent to the address: it is confirmed now.
  user.email_confirmed_at = new Date().toISOString();
  const ownerToken = await accessToken(user);
  const signedOut = supabase.signOutOthers.length;
  expect(await hasPaid(user.id, ownerToken)).toMatchObject({hasPaid: true});
  expect(supabase.signOutOthers.slice(signedOut)).toEqual([ownerToken]);

  const refused = await stack.call(`/userHasPaid?userId=${user.id}`, {token: payerToken});
  expect(refused.status).toBe(401);
  expect(await refused.json()).toMatchObject({code: 'SESSION_ENDED'});
  // Once is enough: the owner's later calls do not sign anyone out again.
  await hasPaid(user.id, ownerToken);
  expect(supabase.signOutOthers).toHaveLength(signedOut + 1);
});

test('without the JWT secret (a project on asymmetric keys) the buyer is told to sign in by e-mail, and the session id stays unused', async () => {
  const asymmetric = await startStack({
    AUTH_PROVIDER: 'supabase',
    SUPABASE_URL: supabase.url,
    SUPABASE_SERVICE_ROLE_KEY: supabase.serviceRoleKey,
    SUPABASE_JWT_SECRET: '',
  });
  try {
    const sessionId = await guestPurchase(uniqueEmail('asymmetric'), asymmetric);
    const response = await exchange(sessionId, asymmetric);
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({
      error: 'Sign in with the e-mail you paid with (a magic link) to reach your purchase.',
      code: 'SIGN_IN_REQUIRED',
    });
    expect(supabase.links.size).toBe(0);
    expect(
      await asymmetric.worker.db.all('SELECT consumed_at FROM checkout_accounts WHERE session_id = ?', sessionId),
    ).toEqual([{consumed_at: null}]);
  } finally {
    await asymmetric.stop();
  }
});

describe('a password set before the e-mail was confirmed (GoTrue does not say whether there is one)', () => {
  test("the owner's first confirmed sign-in by link replaces any password and signs every other session out; the owner stays", async () => {
    const email = uniqueEmail('supa-owner');
    // Registered with a password by someone else; the owner then confirmed the address by a link.
    const user = {id: crypto.randomUUID(), email, email_confirmed_at: new Date().toISOString()};
    supabase.users.set(email, user);
    const squatterToken = await accessToken(user, {}, 'password', Math.floor(Date.now() / 1000) - 60);
    const ownerToken = await accessToken(user, {}, 'otp');

    expect((await stack.call('/signedIn', {token: ownerToken, body: {}})).status).toBe(200);
    expect(supabase.passwordsSet).toContain(user.id);
    expect(supabase.signOutOthers).toContain(ownerToken);
    // The owner keeps working; the squatter's token from before is refused.
    expect(await hasPaid(user.id, ownerToken)).toMatchObject({hasPaid: false});
    const refused = await stack.call(`/userHasPaid?userId=${user.id}`, {token: squatterToken});
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({code: 'SESSION_ENDED'});
  });

  test('a first confirmed call from a password session replaces the password and signs out everywhere, the caller too', async () => {
    const email = uniqueEmail('supa-squatter');
    const user = {id: crypto.randomUUID(), email, email_confirmed_at: new Date().toISOString()};
    supabase.users.set(email, user);
    const squatterToken = await accessToken(user, {}, 'password');

    const answer = await stack.call(`/userHasPaid?userId=${user.id}`, {token: squatterToken});
    expect(answer.status).toBe(401);
    expect(await answer.json()).toMatchObject({code: 'SESSION_ENDED'});
    expect(supabase.passwordsSet).toContain(user.id);
    expect(supabase.signOutEverywhere).toContain(squatterToken);
    // The owner signs in by link a second or more later, and is in.
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 10));
    const ownerToken = await accessToken(user, {}, 'otp', Math.floor(Date.now() / 1000));
    expect((await stack.call(`/userHasPaid?userId=${user.id}`, {token: ownerToken})).status).toBe(200);
  });
});
