/**
 * The Firebase auth client against the real Firebase Auth emulator: when Firebase refuses to renew
 * a session because the account was turned off or deleted, the site ends it in plain words (a
 * SessionEndedError, as Supabase's client does), and a call to the worker signs the visitor out
 * and fails as the worker's 401 SESSION_ENDED would, sending nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  EMULATOR_PROJECT,
  leadsTo,
  oobCodes,
  startAuthEmulator,
  stopAuthEmulator,
  type AuthEmulator,
} from '../../scripts/local/authEmulator';
import {appConfig} from '../../src/config';
import {createApiClient} from '../../src/lib/api';
import {createFirebaseAuth, sessionEndedBy} from '../../src/lib/auth/firebase';
import {SESSION_ENDED} from '../../src/lib/auth/sessionEnded';
import {type AuthClient, type AuthUser, SessionEndedError} from '../../src/lib/auth/types';

jest.setTimeout(180_000);

let emulator: AuthEmulator;
let workDir: string;
let auth: AuthClient;
const users: (AuthUser | null)[] = [];

beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'slipway-firebase-auth-'));
  emulator = await startAuthEmulator(workDir);
  // One client for the file: the SDK initialises Auth once per app.
  auth = createFirebaseAuth({
    config: {apiKey: 'fake-api-key', projectId: EMULATOR_PROJECT, authDomain: 'localhost'},
    emulatorHost: emulator.host,
  });
  auth.onUserChanged((user) => users.push(user));
});

afterAll(async () => {
  await auth?.signOut().catch(() => undefined);
  if (emulator) stopAuthEmulator(emulator.process);
  if (workDir) fs.rmSync(workDir, {recursive: true, force: true});
});

/** The emulator's admin API, as the seller's Firebase console or the Admin SDK would call it. */
async function admin(action: 'accounts:update' | 'accounts:delete', body: Record<string, unknown>) {
  const response = await fetch(
    `http://${emulator.host}/identitytoolkit.googleapis.com/v1/projects/${EMULATOR_PROJECT}/${action}`,
    {
      method: 'POST',
      headers: {'content-type': 'application/json', authorization: 'Bearer owner'},
      body: JSON.stringify(body),
    },
  );
  if (!response.ok) throw new Error(`${action}: ${response.status} ${await response.text()}`);
}

async function signedInBuyer(): Promise<string> {
  const email = `buyer.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
  const password = 'correct horse battery staple';
  // Made as any account is, through the emulator's own sign-up API; the page signs in with it.
  const created = await fetch(`http://${emulator.host}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=any`, {
    method: 'POST',
    headers: {'content-type': 'application/json'},
    body: JSON.stringify({email, password}),
  });
  if (!created.ok) throw new Error(`accounts:signUp: ${created.status} ${await created.text()}`);
  await auth.signInWithPassword(email, password);
  expect(await auth.idToken()).toEqual(expect.any(String));
  return users.at(-1)!.uid;
}

test.each([
  [
    'turned off (disabled)',
    (uid: string) => admin('accounts:update', {localId: uid, disableUser: true}),
    SESSION_ENDED.disabled,
    'auth/user-disabled',
  ],
  [
    'deleted',
    (uid: string) => admin('accounts:delete', {localId: uid}),
    SESSION_ENDED.ended,
    'auth/invalid-refresh-token',
  ],
])(
  'an account %s: the next token refresh ends the session in plain words, and a worker call signs out as SESSION_ENDED',
  async (_label, change, message, code) => {
    await change(await signedInBuyer());
    await expect(auth.idToken(true)).rejects.toMatchObject({name: 'SessionEndedError', message, code});

    // A worker call whose token must be renewed (the worker answered TOKEN_EXPIRED after the hour;
    // here every call asks for a fresh one) sends nothing: it signs out and fails as the worker's
    // SESSION_ENDED would, with the same words. Nothing listens on port 9.
    await change(await signedInBuyer());
    const ended: string[] = [];
    const worker = createApiClient({
      baseUrl: 'http://127.0.0.1:9',
      idToken: () => auth.idToken(true),
      onSessionEnded: () => ended.push('ended'),
    });
    await expect(worker.accessStatus()).rejects.toMatchObject({
      name: 'ApiError',
      status: 401,
      code: 'SESSION_ENDED',
      message,
    });
    expect(ended).toEqual(['ended']);
  },
);

test('the disabled message says whom to write to: the support address of the config', () => {
  expect(SESSION_ENDED.disabled).toContain(appConfig.support.email);
});

test.each([
  ['auth/user-disabled', SESSION_ENDED.disabled],
  ['auth/user-token-expired', SESSION_ENDED.ended],
  ['auth/user-not-found', SESSION_ENDED.ended],
  ['auth/invalid-refresh-token', SESSION_ENDED.ended],
])("Firebase's %s ends the session: %s", (code, message) => {
  const ended = sessionEndedBy(Object.assign(new Error('Firebase: Error.'), {code}));
  expect(ended).toBeInstanceOf(SessionEndedError);
  expect(ended).toMatchObject({message, code});
});

test.each(['auth/network-request-failed', 'auth/too-many-requests', 'auth/internal-error', undefined])(
  '%s does not end the session: it is not an answer about the account',
  (code) => {
    expect(sessionEndedBy(Object.assign(new Error('Firebase: Error.'), {code}))).toBeNull();
  },
);

test('an emulator two local sites share: each prints the sign-in links that lead back to it, and only those', async () => {
  // As `npm start` with FIREBASE_AUTH_EMULATOR_HOST filters what it prints (the browser tests' stacks share one).
  const sites = ['http://localhost:4200', 'http://localhost:4300'];
  const email = `shared.${Date.now().toString(36)}@example.com`;
  for (const site of sites) await auth.sendSignInLink(email, `${site}/finish-sign-in`);
  const codes = (await oobCodes(emulator.host)).filter((code) => code.email === email);
  expect(codes.map((code) => sites.map((site) => leadsTo(code, site)))).toEqual([
    [true, false],
    [false, true],
  ]);
});
