/**
 * ID-token verification as a caller meets it: real emulator tokens in development, RS256 tokens
 * against a published key set otherwise, and a catalogue of bad tokens that must all be refused
 * with the right code. Supabase access tokens are checked with their own algorithm allow-list.
 */
import http from 'node:http';
import {exportJWK, generateKeyPair, type JWK, SignJWT} from 'jose';
import {EMULATOR_PROJECT} from '../../scripts/local/authEmulator';
import {listen, type RunningServer} from '../../scripts/support/listen';
import {productionFirebase, settleAccount, startStack, type Stack} from './stack';

const ISSUER = `https://securetoken.google.com/${EMULATOR_PROJECT}`;
const KID = 'key-1';

let keyServer: RunningServer;
let keyFetches = 0;
let signingKey: CryptoKey;
let otherKey: CryptoKey;
let production: Stack; // no emulator: only Google-style RS256 tokens
let emulated: Stack;

beforeAll(async () => {
  const pair = await generateKeyPair('RS256', {extractable: true});
  signingKey = pair.privateKey as CryptoKey;
  otherKey = (await generateKeyPair('RS256')).privateKey as CryptoKey;
  const jwk: JWK = {...(await exportJWK(pair.publicKey)), kid: KID, alg: 'RS256', use: 'sig'};
  keyServer = await listen(
    http.createServer((_request, response) => {
      keyFetches += 1;
      response.writeHead(200, {
        'content-type': 'application/json',
        'cache-control': 'public, max-age=19800, must-revalidate',
      });
      response.end(JSON.stringify({keys: [jwk]}));
    }),
  );
  [production, emulated] = await Promise.all([
    startStack({...(await productionFirebase()), FIREBASE_JWKS_URL: `${keyServer.url}/jwks`}),
    startStack(),
  ]);
  // Token verification is what this file tests: the account is past its first verified sign-in.
  await settleAccount(production, 'user-ada');
});
afterAll(async () => {
  await Promise.all([production.stop(), emulated.stop(), keyServer.close()]);
});

const now = () => Math.floor(Date.now() / 1000);

function token(
  claims: Record<string, unknown> = {},
  {
    key = signingKey,
    header = {alg: 'RS256', kid: KID},
  }: {key?: CryptoKey | Uint8Array; header?: Record<string, unknown>} = {},
) {
  return new SignJWT({email: 'ada@example.com', email_verified: true, ...claims})
    .setProtectedHeader(header as {alg: string})
    .setIssuer((claims.iss as string) ?? ISSUER)
    .setAudience((claims.aud as string) ?? EMULATOR_PROJECT)
    .setSubject((claims.sub as string) ?? 'user-ada')
    .setIssuedAt((claims.iat as number) ?? now() - 60)
    .setExpirationTime((claims.exp as number) ?? now() + 3600)
    .sign(key);
}

const hasPaid = (stack: Stack, bearer: string, userId = 'user-ada') =>
  stack.call(`/userHasPaid?userId=${encodeURIComponent(userId)}`, {headers: {authorization: bearer}});

test('a well-signed RS256 token is accepted, and the key set is fetched once while its Cache-Control allows', async () => {
  const before = keyFetches;
  for (let i = 0; i < 3; i++) {
    const response = await hasPaid(production, `Bearer ${await token()}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({hasPaid: false});
  }
  expect(keyFetches - before).toBeLessThanOrEqual(1);
});

const badTokens: [string, () => Promise<string>, string?][] = [
  [
    'alg none outside emulator mode',
    async () => {
      const header = Buffer.from(JSON.stringify({alg: 'none', typ: 'JWT'})).toString('base64url');
      const payload = Buffer.from(
        JSON.stringify({iss: ISSUER, aud: EMULATOR_PROJECT, sub: 'user-ada', iat: now() - 5, exp: now() + 3600}),
      ).toString('base64url');
      return `${header}.${payload}.`;
    },
  ],
  [
    'HS256 for Firebase',
    () =>
      token({}, {key: new TextEncoder().encode('a-shared-secret-of-enough-length!'), header: {alg: 'HS256', kid: KID}}),
  ],
  ['an unknown kid', () => token({}, {key: otherKey, header: {alg: 'RS256', kid: 'unknown-key'}})],
  ['no kid', () => token({}, {header: {alg: 'RS256'}})],
  ['a forged signature under the known kid', () => token({}, {key: otherKey})],
  ['the wrong audience', () => token({aud: 'another-project'})],
  ['the wrong issuer', () => token({iss: 'https://securetoken.google.com/another-project'})],
  ['an expired token', () => token({iat: now() - 7200, exp: now() - 3600}), 'TOKEN_EXPIRED'],
  ['issued ten minutes in the future', () => token({iat: now() + 600})],
  ['an empty sub', () => token({sub: ''})],
  ['an overlong sub', () => token({sub: 'x'.repeat(129)})],
  ['an unsigned token', async () => (await token()).split('.').slice(0, 2).join('.') + '.'],
  ['garbage', async () => 'not-a-token'],
  [
    'a tampered payload',
    async () => {
      const [header, , signature] = (await token()).split('.');
      const payload = Buffer.from(
        JSON.stringify({iss: ISSUER, aud: EMULATOR_PROJECT, sub: 'user-ada', iat: now() - 5, exp: now() + 99999}),
      ).toString('base64url');
      return `${header}.${payload}.${signature}`;
    },
  ],
];

// The table's labels only: jest's each hangs formatting rows that hold these async closures.
test.each(badTokens.map(([label]) => label))('%s is refused with 401', async (label) => {
  const [, make, code] = badTokens.find(([candidate]) => candidate === label)!;
  const response = await hasPaid(production, `Bearer ${await make()}`);
  expect(response.status).toBe(401);
  expect(await response.json()).toEqual(code ? {error: 'Token expired', code} : {error: 'Unauthorized'});
});

test('a token issued up to 60 s ahead of our clock is accepted (clock skew); further ahead it is refused', async () => {
  expect((await hasPaid(production, `Bearer ${await token({iat: now() + 30})}`)).status).toBe(200);
  expect((await hasPaid(production, `Bearer ${await token({iat: now() + 90})}`)).status).toBe(401);
});

test('signing keys that cannot be fetched answer 503 with a code, not 500', async () => {
  let status = 500;
  const failing = await listen(
    http.createServer((_request, response) => {
      response.writeHead(status, {'content-type': 'text/plain'}).end('Backend Error');
    }),
  );
  const stack = await startStack({...(await productionFirebase()), FIREBASE_JWKS_URL: `${failing.url}/jwks`});
  try {
    const expected = {
      error: 'Sign-in cannot be checked right now. Please try again in a minute.',
      code: 'AUTH_UNAVAILABLE',
    };
    const answer = await hasPaid(stack, `Bearer ${await token()}`);
    expect(answer.status).toBe(503);
    expect(await answer.json()).toEqual(expected);
    status = 200; // a body that is not a key set
    expect((await hasPaid(stack, `Bearer ${await token()}`)).status).toBe(503);
    await failing.close(); // nothing listens any more
    const unreachable = await hasPaid(stack, `Bearer ${await token()}`);
    expect(unreachable.status).toBe(503);
    expect(await unreachable.json()).toEqual(expected);
  } finally {
    await stack.stop();
  }
});

test('a missing or malformed Authorization header is 401 Unauthorized', async () => {
  for (const header of ['', 'Bearer', 'Basic dXNlcjpwYXNz', `Token ${await token()}`]) {
    const response = await hasPaid(production, header);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({error: 'Unauthorized'});
  }
});

test("another user's id is 403, even with a valid token", async () => {
  const response = await hasPaid(production, `Bearer ${await token()}`, 'user-grace');
  expect(response.status).toBe(403);
  expect(await response.json()).toEqual({error: 'You may only ask about your own account'});
});

test('emulator tokens are accepted only where the emulator is configured', async () => {
  const user = await emulated.signUp();
  const accepted = await emulated.call(`/userHasPaid?userId=${user.uid}`, {token: user.idToken});
  expect(accepted.status).toBe(200);
  const refused = await production.call(`/userHasPaid?userId=${user.uid}`, {token: user.idToken});
  expect(refused.status).toBe(401);
});

test('Supabase access tokens: HS256 with the project secret only', async () => {
  const secret = 'super-secret-jwt-token-with-at-least-32-characters';
  const supabase = await startStack({
    AUTH_PROVIDER: 'supabase',
    SUPABASE_URL: 'http://127.0.0.1:54321',
    SUPABASE_JWT_SECRET: secret,
  });
  try {
    const sign = (key: CryptoKey | Uint8Array, alg: string, claims: Record<string, unknown> = {}) =>
      new SignJWT({role: 'authenticated', email: 'ada@example.com', ...claims})
        .setProtectedHeader({alg})
        .setIssuer('http://127.0.0.1:54321/auth/v1')
        .setAudience('authenticated')
        .setSubject('2b3f4c1e-8f1d-4c55-a0d5-3b0c2a9e7d11')
        .setIssuedAt(now() - 10)
        .setExpirationTime((claims.exp as number) ?? now() + 3600)
        .sign(key);
    const uid = '2b3f4c1e-8f1d-4c55-a0d5-3b0c2a9e7d11';
    const good = await hasPaid(supabase, `Bearer ${await sign(new TextEncoder().encode(secret), 'HS256')}`, uid);
    expect(good.status).toBe(200);
    const wrongSecret = await hasPaid(
      supabase,
      `Bearer ${await sign(new TextEncoder().encode('x'.repeat(40)), 'HS256')}`,
      uid,
    );
    expect(wrongSecret.status).toBe(401);
    const rs256 = await hasPaid(supabase, `Bearer ${await sign(signingKey, 'RS256')}`, uid);
    expect(rs256.status).toBe(401);
    const expired = await hasPaid(
      supabase,
      `Bearer ${await sign(new TextEncoder().encode(secret), 'HS256', {exp: now() - 5})}`,
      uid,
    );
    expect(await expired.json()).toEqual({error: 'Token expired', code: 'TOKEN_EXPIRED'});
  } finally {
    await supabase.stop();
  }
});
