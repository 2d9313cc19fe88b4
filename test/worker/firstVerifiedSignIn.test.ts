/**
 * A password set before the e-mail was proven never survives the owner's first verified sign-in,
 * against the real Firebase Auth emulator. Anyone may register a buyer's (or the seller's) e-mail
 * with a password before its owner ever signs in, or set one from a guest checkout's session. When
 * the owner then signs in by link, Firebase marks the account verified and keeps that password,
 * which from then on signs in with a verified e-mail. The emulator's link tokens say
 * `sign_in_provider: "password"` too, so the worker cannot tell who calls: it removes the password
 * and ends every session, and the owner signs in by link once more.
 */
import {ADMIN_PATHS} from '../../src/config/api';
import {INVITEE} from '../../scripts/local/githubApi';
import {EMULATOR_PROJECT, oobCodes} from '../../scripts/local/authEmulator';
import {dashboardPlan} from '../../src/config';
import {claimsOf, completedEvent, type EmulatorSession, startStack, type Stack, uniqueEmail} from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.stop());

const plan = dashboardPlan();

async function guestPurchase(email: string, on = stack) {
  const sessionId = await on.paidCheckout({email});
  expect((await on.deliver(completedEvent(on, sessionId))).status).toBe(200);
  return sessionId;
}

const signedIn = (session: {idToken: string}, on = stack) => on.call('/signedIn', {token: session.idToken, body: {}});
const hasPaid = (session: {uid: string; idToken: string}) =>
  stack.call(`/userHasPaid?userId=${session.uid}`, {token: session.idToken});
const requestAccess = (session: {uid: string; idToken: string}) =>
  stack.call('/addUserToRepo', {token: session.idToken, body: {username: INVITEE, userId: session.uid}});

/**
 * The owner signs in by link again, a second or more later in the world: sign-in times count in
 * whole seconds, and a session of the very second the password went is refused with the rest.
 */
async function signInAgain(email: string, on = stack) {
  await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 10));
  return on.signInWithEmailLink(email);
}

async function expectEnded(response: Response) {
  expect(response.status).toBe(401);
  expect(await response.json()).toEqual({
    error:
      'For your safety, the password of this account was removed: it was set before this e-mail address was confirmed. ' +
      'Sign in again with a link sent to your e-mail (or Google); you can then choose a new password.',
    code: 'SESSION_ENDED',
  });
}

describe('a password someone set before the owner proved the e-mail', () => {
  test("the owner's first verified sign-in removes it and ends every session; the owner signs in again and has the purchase", async () => {
    const email = uniqueEmail('victim');
    // Registered by someone who only knows the address, before its owner ever signs in.
    const squatter = await stack.signUp({email});
    const sessionId = await guestPurchase(email);
    expect((await stack.exchange(sessionId)).status).toBe(409);

    const owner = await stack.signInWithEmailLink(email);
    expect(claimsOf(owner.idToken)).toMatchObject({email_verified: true, firebase: {sign_in_provider: 'password'}});
    // What the site's /finish-sign-in sends first.
    await expectEnded(await signedIn(owner));

    expect(await stack.signInWithPassword(email)).toBeNull();
    await expectEnded(await hasPaid(squatter));
    await expectEnded(await hasPaid(owner));

    const again = await signInAgain(email);
    expect((await signedIn(again)).status).toBe(200);
    expect(await (await hasPaid(again)).json()).toEqual({hasPaid: true, plan: plan.name});
    expect((await requestAccess(again)).status).toBe(200);
  });

  test('whoever calls first after the owner verified, the password is gone and its session refused', async () => {
    const email = uniqueEmail('raced');
    await stack.signUp({email});
    await guestPurchase(email);
    await stack.signInWithEmailLink(email);

    const invitations = stack.github.requests.filter((call) => call.startsWith('PUT ')).length;
    // The squatter signs in with the password before the owner's first call: a verified e-mail now.
    const thief = (await stack.signInWithPassword(email))!;
    expect(claimsOf(thief.idToken)).toMatchObject({email_verified: true});
    await expectEnded(await hasPaid(thief));
    await expectEnded(await requestAccess(thief));
    expect(await stack.signInWithPassword(email)).toBeNull();
    expect(stack.github.requests.filter((call) => call.startsWith('PUT '))).toHaveLength(invitations);
  });

  test("a password set from a guest checkout's session goes when the e-mail's owner signs in", async () => {
    const email = uniqueEmail('payer-password');
    const sessionId = await guestPurchase(email);
    const answer = await stack.exchange(sessionId);
    const payer = await stack.signInWithCustomToken(((await answer.json()) as {token: string}).token);
    await stack.setPassword(payer, 'the payer chose this');
    expect(await stack.signInWithPassword(email, 'the payer chose this')).not.toBeNull();

    const owner = await stack.signInWithEmailLink(email);
    await expectEnded(await signedIn(owner));
    expect(await stack.signInWithPassword(email, 'the payer chose this')).toBeNull();
    expect((await hasPaid(payer)).status).toBe(401);

    const again = await signInAgain(email);
    expect(await (await hasPaid(again)).json()).toMatchObject({hasPaid: true});
  });

  test('five calls at once on the first verified sign-in all end, and the password is replaced once', async () => {
    const email = uniqueEmail('burst');
    await stack.signUp({email});
    const owner = await stack.signInWithEmailLink(email);
    const answers = await Promise.all(Array.from({length: 5}, () => hasPaid(owner)));
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, 401, 401]);
    for (const answer of answers) expect(await answer.json()).toMatchObject({code: 'SESSION_ENDED'});
    expect(
      stack.worker.logs.filter((line) => line.includes('auth.unproven_password_removed') && line.includes(owner.uid)),
    ).toHaveLength(1);
  });
});

describe('passwords the owner chose are kept', () => {
  test('a password set after the first verified sign-in signs in, and its calls work', async () => {
    const email = uniqueEmail('chooser');
    const owner = await stack.signInWithEmailLink(email);
    expect(await (await signedIn(owner)).json()).toEqual({emailVerified: true});
    await stack.setPassword(owner, 'my own passphrase');

    const later = (await stack.signInWithPassword(email, 'my own passphrase'))!;
    expect(later).not.toBeNull();
    expect((await hasPaid(later)).status).toBe(200);
    expect((await hasPaid(owner)).status).toBe(200);
  });

  test('an account proven by a password reset keeps the password the reset chose', async () => {
    const email = uniqueEmail('resetter');
    await stack.signUp({email});
    const identity = `http://${stack.emulatorHost}/identitytoolkit.googleapis.com/v1`;
    const post = (path: string, body: unknown) =>
      fetch(`${identity}/${path}?key=fake-api-key`, {
        method: 'POST',
        headers: {'content-type': 'application/json'},
        body: JSON.stringify(body),
      });
    await post('accounts:sendOobCode', {requestType: 'PASSWORD_RESET', email});
    const code = (await oobCodes(stack.emulatorHost))
      .filter((entry) => entry.email === email && entry.requestType === 'PASSWORD_RESET')
      .pop()!;
    expect(
      (await post('accounts:resetPassword', {oobCode: code.oobCode, newPassword: 'chosen by the reset'})).status,
    ).toBe(200);

    const owner = (await stack.signInWithPassword(email, 'chosen by the reset'))!;
    expect(claimsOf(owner.idToken)).toMatchObject({email_verified: true});
    expect((await signedIn(owner)).status).toBe(200);
    expect(await stack.signInWithPassword(email, 'chosen by the reset')).not.toBeNull();
  });
});

test("the seller's console: an ADMIN_EMAILS address registered by someone else never opens it", async () => {
  const sellerEmail = uniqueEmail('seller');
  const console_ = await startStack({ADMIN_EMAILS: sellerEmail});
  try {
    await console_.signUp({email: sellerEmail});
    await console_.signInWithEmailLink(sellerEmail);
    const thief = (await console_.signInWithPassword(sellerEmail))!;
    const sales = (session: EmulatorSession) => console_.call(ADMIN_PATHS.sales, {token: session.idToken});
    await expectEnded(await sales(thief));
    expect(await console_.signInWithPassword(sellerEmail)).toBeNull();

    const seller = await signInAgain(sellerEmail, console_);
    expect((await sales(seller)).status).toBe(200);
  } finally {
    await console_.stop();
  }
});

test('the first verified sign-in fails closed when the provider cannot be asked, and is tried again later', async () => {
  const owner = await stack.signInWithEmailLink(uniqueEmail('unreachable'));
  // The same tokens, but the worker's emulator address leads nowhere.
  const cut = await startStack({FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9', FIREBASE_PROJECT_ID: EMULATOR_PROJECT});
  try {
    const refused = await signedIn(owner, cut);
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({code: 'AUTH_UNAVAILABLE'});
    expect(await cut.worker.db.all('SELECT user_id FROM verified_accounts')).toEqual([]);
  } finally {
    await cut.stop();
  }
  expect((await signedIn(owner)).status).toBe(200);
});
