/** @jest-environment node */
/**
 * The Supabase auth client against a local stand-in of Supabase Auth's HTTP API: what a page sees
 * when it sends, opens and finishes sign-in links, chooses a password and signs in with it, resets
 * it, signs in after checkout and signs out.
 */
import crypto from 'node:crypto';
import type {SupportedStorage} from '@supabase/supabase-js';
import {PASSWORD_ERRORS} from '../../src/lib/auth/passwordErrors';
import {CHECKOUT_TOKEN_REFUSED, createSupabaseAuth} from '../../src/lib/auth/supabase';
import {SESSION_ENDED} from '../../src/lib/auth/sessionEnded';
import {type AuthClient, type AuthUser, SessionEndedError} from '../../src/lib/auth/types';
import {createApiClient} from '../../src/lib/api';
import {startSupabaseAuthStandIn, type SupabaseAuthStandIn} from '../stubs/supabaseAuth';

// supabase-js builds its realtime client eagerly and wants a WebSocket, which browsers have and
// Node 20 lacks. Auth never opens one; this stand-in fails loudly if it ever tried.
globalThis.WebSocket = class {
  constructor() {
    throw new Error('The auth client opened a WebSocket.');
  }
} as unknown as typeof WebSocket;

let supabase: SupabaseAuthStandIn;
const cleanups: (() => void)[] = [];

beforeAll(async () => {
  supabase = await startSupabaseAuthStandIn();
});

afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

afterAll(async () => {
  await supabase.close();
});

/** A fresh browser: its own session storage, so tests share nothing. */
function newClient(): AuthClient {
  const items = new Map<string, string>();
  const storage: SupportedStorage = {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
  return createSupabaseAuth({url: supabase.url, anonKey: supabase.anonKey, storage});
}

/** Records what `onUserChanged` reports; `report(n)` waits for the n-th report. */
function watch(auth: AuthClient) {
  const reports: (AuthUser | null)[] = [];
  let wake = () => {};
  cleanups.push(
    auth.onUserChanged((user) => {
      reports.push(user);
      wake();
    }),
  );
  return {
    reports,
    async report(n: number) {
      // Say what did come, rather than let jest's timeout say only that something did not.
      const deadline = Date.now() + 8000;
      while (reports.length < n) {
        if (Date.now() > deadline)
          throw new Error(`Waited 8 s for report ${n}; reports so far: ${JSON.stringify(reports)}`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 250);
        });
      }
      return reports[n - 1];
    },
  };
}

/** Checks an HS256 JWT against the stand-in's secret and returns its claims. */
function verifiedClaims(token: string | null): Record<string, unknown> {
  const [header = '', payload = '', signature = ''] = (token ?? '').split('.');
  expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toMatchObject({alg: 'HS256'});
  const expected = crypto.createHmac('sha256', supabase.jwtSecret).update(`${header}.${payload}`).digest('base64url');
  expect(signature).toBe(expected);
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
  expect(claims.exp).toBeGreaterThan(Date.now() / 1000);
  return claims;
}

const uniqueEmail = () => `reader-${crypto.randomUUID()}@example.com`;
const continueUrl = 'https://slipway.example/login?from=pricing';

async function requestLink(auth: AuthClient, email: string) {
  await auth.sendSignInLink(email, continueUrl);
  return supabase.linkRequests.filter((request) => request.email === email).at(-1)!;
}

/** Signs `auth` in as `email` through a magic link opened in that browser. */
async function signInWithLink(auth: AuthClient, email: string) {
  const {link} = await requestLink(newClient(), email);
  await auth.completeSignInLink(link, null);
}

describe('onUserChanged', () => {
  it('reports nobody first when nobody is signed in', async () => {
    const auth = newClient();
    const watcher = watch(auth);
    expect(await watcher.report(1)).toBeNull();
    await expect(auth.idToken()).resolves.toBeNull();
  });
});

describe('sendSignInLink', () => {
  it('asks Supabase to e-mail a link that returns to the continue URL', async () => {
    const email = uniqueEmail();
    const request = await requestLink(newClient(), email);
    expect(request).toMatchObject({email, redirectTo: continueUrl, codeChallengeMethod: 's256'});
    expect(request.codeChallenge).toEqual(expect.any(String));
  });

  it("rejects with Supabase's message when it refuses to send", async () => {
    supabase.failNext('/otp', 429, 'over_email_send_rate_limit', 'Email rate limit exceeded');
    await expect(newClient().sendSignInLink(uniqueEmail(), continueUrl)).rejects.toThrow('Email rate limit exceeded');
  });
});

describe('completeSignInLink', () => {
  it('signs in from a token-hash link, even in another browser', async () => {
    const email = uniqueEmail();
    const {link} = await requestLink(newClient(), email);
    const auth = newClient();
    const watcher = watch(auth);
    await watcher.report(1);

    await auth.completeSignInLink(link, null);

    const user = await watcher.report(2);
    expect(user).toMatchObject({email, displayName: null, photoURL: null});
    expect(verifiedClaims(await auth.idToken())).toMatchObject({
      sub: user!.uid,
      email,
      aud: 'authenticated',
      role: 'authenticated',
    });
  });

  it('signs in from a PKCE `?code=` link opened in the browser that asked for it', async () => {
    const email = uniqueEmail();
    const auth = newClient();
    const watcher = watch(auth);
    const {codeLink} = await requestLink(auth, email);
    expect(new URL(codeLink!).origin + new URL(codeLink!).pathname).toBe('https://slipway.example/login');

    await auth.completeSignInLink(codeLink!, null);

    const user = await watcher.report(2);
    expect(user).toMatchObject({email});
    expect(verifiedClaims(await auth.idToken())).toMatchObject({sub: user!.uid, email});
  });

  it('rejects a `?code=` link opened in another browser, which holds no code verifier', async () => {
    const {codeLink} = await requestLink(newClient(), uniqueEmail());
    const other = newClient();
    await expect(other.completeSignInLink(codeLink!, null)).rejects.toThrow(/code verifier/i);
    await expect(other.idToken()).resolves.toBeNull();
  });

  it('rejects a link that was already used', async () => {
    const {link} = await requestLink(newClient(), uniqueEmail());
    await newClient().completeSignInLink(link, null);
    const again = newClient();
    await expect(again.completeSignInLink(link, null)).rejects.toThrow('Token has expired or is invalid');
    await expect(again.idToken()).resolves.toBeNull();
  });
});

describe('passwords', () => {
  const resetUrls = {
    signIn: 'https://slipway.example/signin',
    newPassword: 'https://slipway.example/finish-sign-in?next=%2Fnew-password',
  };
  const lastLink = (email: string, kind: string) =>
    supabase.linkRequests.filter((request) => request.email === email && request.kind === kind).at(-1);

  /** A new account as the site makes one: a link proves the e-mail, then the password is chosen. */
  async function register(email: string, password: string): Promise<AuthClient> {
    const auth = newClient();
    await signInWithLink(auth, email);
    await auth.updatePassword(password);
    return auth;
  }

  it('registers by a link first, then the chosen password signs in', async () => {
    const email = uniqueEmail();
    const auth = newClient();
    const watcher = watch(auth);
    await watcher.report(1);

    await signInWithLink(auth, email);
    expect(await watcher.report(2)).toMatchObject({email});
    await auth.updatePassword('a good password');

    await expect(newClient().signInWithPassword(email, 'a good password')).resolves.toBeUndefined();
    expect(lastLink(email, 'signup')).toBeUndefined();
  });

  it('says a password is too weak, or leaked, and keeps none of them', async () => {
    const email = uniqueEmail();
    const auth = newClient();
    await signInWithLink(auth, email);
    await expect(auth.updatePassword('123')).rejects.toThrow(PASSWORD_ERRORS.weakPassword);
    await expect(auth.updatePassword('password123')).rejects.toThrow(PASSWORD_ERRORS.leakedPassword);
    await expect(newClient().signInWithPassword(email, '123')).rejects.toThrow(PASSWORD_ERRORS.wrongPassword);
    await auth.updatePassword('a good password');
    await expect(newClient().signInWithPassword(email, 'a good password')).resolves.toBeUndefined();
  });

  it('signs in with the right password, and says plainly when it is wrong', async () => {
    const email = uniqueEmail();
    await register(email, 'a good password');

    const wrong = newClient();
    await expect(wrong.signInWithPassword(email, 'not it')).rejects.toThrow(PASSWORD_ERRORS.wrongPassword);
    await expect(wrong.signInWithPassword(uniqueEmail(), 'a good password')).rejects.toThrow(
      PASSWORD_ERRORS.wrongPassword,
    );
    await expect(wrong.idToken()).resolves.toBeNull();

    const right = newClient();
    const watcher = watch(right);
    await right.signInWithPassword(email, 'a good password');
    expect(await watcher.report(2)).toMatchObject({email});
  });

  it('resets a password: the link signs in at the new-password page, which saves the new one', async () => {
    const email = uniqueEmail();
    await register(email, 'the old password');
    const auth = newClient();
    const watcher = watch(auth);
    await watcher.report(1);

    await auth.sendPasswordReset(email, resetUrls);
    const {codeLink, redirectTo, codeChallengeMethod} = lastLink(email, 'recovery')!;
    expect(redirectTo).toBe(resetUrls.newPassword);
    expect(codeChallengeMethod).toBe('s256');
    expect(auth.isSignInLink(codeLink!)).toBe(true);
    await auth.completeSignInLink(codeLink!, null);
    expect(await watcher.report(2)).toMatchObject({email});

    await expect(auth.updatePassword('the old password')).rejects.toThrow(PASSWORD_ERRORS.samePassword);
    await auth.updatePassword('the new password');

    await expect(newClient().signInWithPassword(email, 'the old password')).rejects.toThrow(
      PASSWORD_ERRORS.wrongPassword,
    );
    await expect(newClient().signInWithPassword(email, 'the new password')).resolves.toBeUndefined();
  });

  it('opens a token-hash reset link in another browser too', async () => {
    const email = uniqueEmail();
    await register(email, 'the old password');
    await newClient().sendPasswordReset(email, resetUrls);
    const other = newClient();
    await other.completeSignInLink(lastLink(email, 'recovery')!.link, null);
    await other.updatePassword('the new password');
    await expect(newClient().signInWithPassword(email, 'the new password')).resolves.toBeUndefined();
  });

  it('answers a reset for an e-mail without an account as for one with it, and sends nothing', async () => {
    const stranger = uniqueEmail();
    await expect(newClient().sendPasswordReset(stranger, resetUrls)).resolves.toBeUndefined();
    expect(lastLink(stranger, 'recovery')).toBeUndefined();
  });
});

describe('signInWithCheckoutToken', () => {
  it("signs in as the user of the worker's access token, with nothing to refresh it", async () => {
    const email = uniqueEmail();
    const token = supabase.issueCheckoutAccessToken(email, {
      userMetadata: {full_name: 'Ada Lovelace', avatar_url: 'https://example.com/ada.png'},
    });
    const auth = newClient();
    const watcher = watch(auth);
    await watcher.report(1);

    await auth.signInWithCheckoutToken(token);

    const user = await watcher.report(2);
    expect(user).toEqual({
      uid: expect.any(String),
      email,
      displayName: 'Ada Lovelace',
      photoURL: 'https://example.com/ada.png',
    });
    expect(await auth.idToken()).toBe(token);
    expect(verifiedClaims(token)).toMatchObject({sub: user!.uid, email});
    // Nothing can refresh it, and the buyer is told what to do; the token itself stays good until it expires.
    await expect(auth.idToken(true)).rejects.toEqual(
      new SessionEndedError(CHECKOUT_TOKEN_REFUSED, 'checkout_sign_in_over'),
    );
    await expect(auth.idToken()).resolves.toBe(token);
  });

  it('ends the session when the token expires', async () => {
    const token = supabase.issueCheckoutAccessToken(uniqueEmail(), {expiresIn: 2});
    const auth = newClient();
    const watcher = watch(auth);
    // The first report (nobody) must come before signing in: if the sign-in wins the race, the
    // first report is already the buyer, and the same user's sign-in event is never reported again.
    await watcher.report(1);
    await auth.signInWithCheckoutToken(token);
    await watcher.report(2);
    // A read this close to the end (supabase-js's 90 s margin) tries the placeholder refresh token,
    // which Supabase refuses; the token itself is still good, so the page still gets it. Its
    // auto-refresh ticker may do the same on its own: this read makes it happen every run.
    await expect(auth.idToken()).resolves.toBe(token);

    await new Promise((resolve) => setTimeout(resolve, 2100));

    // After expiry, reads get that refused refresh, which supabase-js keeps for 60 s
    // (REFRESH_FAILURE_COOLDOWN_MS) before it asks again and drops the session; the page says the
    // sign-in has ended rather than Supabase's "Invalid Refresh Token".
    await expect(auth.idToken()).rejects.toThrow(SESSION_ENDED.ended);
    expect(watcher.reports).toHaveLength(2);
    // A call to the worker in that minute sends nothing, and ends like the worker's SESSION_ENDED:
    // the buyer reads what to do, and the site signs out.
    const ended: string[] = [];
    const worker = createApiClient({
      baseUrl: 'http://127.0.0.1:9',
      idToken: (refresh) => auth.idToken(refresh),
      onSessionEnded: () => ended.push('ended'),
    });
    await expect(worker.addUserToRepo({username: 'octocat', userId: watcher.reports[1]!.uid})).rejects.toMatchObject({
      message: SESSION_ENDED.ended,
      status: 401,
      code: 'SESSION_ENDED',
    });
    expect(ended).toEqual(['ended']);
    const realNow = Date.now.bind(Date);
    const later = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + 61_000);
    try {
      await expect(auth.idToken()).rejects.toThrow(SESSION_ENDED.ended);
      expect(await watcher.report(3)).toBeNull();
      await expect(auth.idToken()).resolves.toBeNull();
    } finally {
      later.mockRestore();
    }
    // It waits out a real 2 s expiry, more than half of jest's default 5 s on its own.
  }, 15_000);

  it.each([
    ['an expired', () => supabase.issueCheckoutAccessToken(uniqueEmail(), {expiresIn: -60})],
    [
      'a wrongly signed',
      () =>
        supabase
          .issueCheckoutAccessToken(uniqueEmail())
          .replace(/\.[^.]+$/, `.${crypto.randomBytes(32).toString('base64url')}`),
    ],
    ['a malformed', () => 'not-a-token'],
  ])('refuses %s token with a message a buyer can act on, and leaves nobody signed in', async (_kind, tokenFor) => {
    const auth = newClient();
    const watcher = watch(auth);
    await watcher.report(1);

    await expect(auth.signInWithCheckoutToken(tokenFor())).rejects.toThrow(CHECKOUT_TOKEN_REFUSED);

    await expect(auth.idToken()).resolves.toBeNull();
    expect(watcher.reports).toEqual([null]);
  });
});

describe('idToken', () => {
  it('returns a fresh token for the same user when asked to refresh, without reporting a user change', async () => {
    const email = uniqueEmail();
    const auth = newClient();
    const watcher = watch(auth);
    await signInWithLink(auth, email);
    const before = verifiedClaims(await auth.idToken());

    const after = verifiedClaims(await auth.idToken(true));

    expect(after).toMatchObject({sub: before.sub, email});
    expect(watcher.reports).toEqual([null, expect.objectContaining({email})]);
  });

  it('rejects a forced refresh once the session was ended elsewhere', async () => {
    const email = uniqueEmail();
    const here = newClient();
    await signInWithLink(here, email);
    const elsewhere = newClient();
    await signInWithLink(elsewhere, email);
    await elsewhere.signOut(); // scope 'global': every session of this user

    await expect(here.idToken(true)).rejects.toMatchObject({
      name: 'SessionEndedError',
      message: SESSION_ENDED.ended,
      code: 'refresh_token_not_found',
    });
  });
});

describe('signOut', () => {
  it('ends the session at Supabase and reports nobody', async () => {
    const email = uniqueEmail();
    const auth = newClient();
    const watcher = watch(auth);
    await auth.signInWithCheckoutToken(supabase.issueCheckoutAccessToken(email));
    await watcher.report(2);
    const logoutsBefore = supabase.logouts.length;

    await auth.signOut();

    expect(supabase.logouts.slice(logoutsBefore)).toEqual([{scope: 'global', email}]);
    expect(await watcher.report(3)).toBeNull();
    await expect(auth.idToken()).resolves.toBeNull();
  });
});

describe('isSignInLink', () => {
  const auth = createSupabaseAuth({
    url: 'http://127.0.0.1:1',
    anonKey: 'anon',
    storage: {getItem: () => null, setItem: () => {}, removeItem: () => {}},
  });

  it.each([
    ['https://slipway.example/login?code=4b1c5e0e-2f0a-4d7c-9f1b-0d7e6c2a9a11', true],
    ['https://slipway.example/login?token_hash=abc123&type=email', true],
    ['https://slipway.example/login?from=pricing&token_hash=abc123&type=magiclink', true],
    ['https://slipway.example/finish-sign-in?next=%2Fnew-password&token_hash=abc123&type=recovery', true],
    ['https://slipway.example/login?token_hash=abc123', false],
    ['https://slipway.example/login?type=email', false],
    ['https://slipway.example/login?from=pricing', false],
    ['https://slipway.example/login#access_token=abc', false],
  ])('%s → %s', (url, expected) => {
    expect(auth.isSignInLink(url)).toBe(expected);
  });
});
