/**
 * The checkout exchange with Supabase as the sign-in provider: the same rules as with Firebase,
 * with a one-time magic-link token from Supabase's admin API.
 */
import {SignJWT} from 'jose';
import {startSupabaseStandIn, type SupabaseStandIn} from '../stubs/supabaseAdmin';
import {completedEvent, startStack, type Stack, uniqueEmail} from './stack';

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

async function guestPurchase(email: string) {
  const sessionId = await stack.paidCheckout({email});
  await stack.deliver(completedEvent(stack, sessionId));
  return sessionId;
}
const exchange = (sessionId: string) => stack.call(`/retrieveUserFromCheckoutSession?sessionId=${sessionId}`);

/** The access token Supabase issues once the site verifies the link token. */
function accessToken(user: {id: string; email: string}, verified: boolean) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({email: user.email, role: 'authenticated', user_metadata: {email_verified: verified}})
    .setProtectedHeader({alg: 'HS256'})
    .setIssuer(`${supabase.url}/auth/v1`)
    .setAudience('authenticated')
    .setSubject(user.id)
    .setIssuedAt(now - 5)
    .setExpirationTime(now + 3600)
    .sign(new TextEncoder().encode(JWT_SECRET));
}

test('a guest purchase creates an unconfirmed Supabase user and returns its magic-link token; the user has paid', async () => {
  const email = uniqueEmail('supa');
  const sessionId = await guestPurchase(email);
  const response = await exchange(sessionId);
  expect(response.status).toBe(200);
  const {token} = (await response.json()) as {token: string};
  expect(supabase.links.get(token)).toBe(email);
  const user = supabase.users.get(email)!;
  expect(user.email_confirmed_at).toBeNull();

  const paid = await stack.call(`/userHasPaid?userId=${user.id}`, {token: await accessToken(user, false)});
  expect(await paid.json()).toEqual({hasPaid: true, plan: 'Advanced'});
});

test('an existing Supabase user with the checkout e-mail gets 409 and no token', async () => {
  const email = uniqueEmail('taken');
  supabase.users.set(email, {id: crypto.randomUUID(), email, email_confirmed_at: new Date().toISOString()});
  const before = supabase.links.size;
  const sessionId = await guestPurchase(email);
  const response = await exchange(sessionId);
  expect(response.status).toBe(409);
  expect(await response.json()).toMatchObject({code: 'SIGN_IN_REQUIRED'});
  expect(supabase.links.size).toBe(before);

  // Signed in with the verified address, the owner has the purchase.
  const owner = supabase.users.get(email)!;
  const paid = await stack.call(`/userHasPaid?userId=${owner.id}`, {token: await accessToken(owner, true)});
  expect(await paid.json()).toMatchObject({hasPaid: true});
  const unverified = await stack.call(`/userHasPaid?userId=${owner.id}`, {token: await accessToken(owner, false)});
  expect(await unverified.json()).toEqual({hasPaid: false});
});
