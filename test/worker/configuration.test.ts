/**
 * A worker set up wrongly fails closed: emulator mode (which accepts unsigned tokens) refuses to
 * run anywhere but a developer's machine, and answers only requests made on it; a restricted live
 * key counts as live.
 */
import {appConfig} from '../../src/config';
import {PRICE_ADVANCED, productionFirebase, SITE_ORIGIN, startStack, type Stack} from './stack';

const checkout = (stack: Stack, priceId: string) =>
  stack.call('/createCheckoutSession', {
    body: {priceId, successUrl: `${SITE_ORIGIN}/success`, cancelUrl: `${SITE_ORIGIN}/`},
  });

describe('emulator mode refuses to start outside development', () => {
  test.each([
    ['a live Stripe key', {STRIPE_SECRET_KEY: 'sk_live_51Hworkersuite'}, 'STRIPE_SECRET_KEY must not be a live key'],
    [
      'a restricted live Stripe key',
      {STRIPE_SECRET_KEY: 'rk_live_51Hworkersuite'},
      'STRIPE_SECRET_KEY must not be a live key',
    ],
    ['a public SITE_URL', {SITE_URL: 'https://slipway.dev'}, 'SITE_URL must be on loopback (localhost or 127.0.0.1)'],
    ['a real Firebase project', {FIREBASE_PROJECT_ID: 'slipway-prod'}, 'FIREBASE_PROJECT_ID must start with demo-'],
  ])(
    'with %s, every route answers 503 naming the variable, and the cron does nothing',
    async (_label, vars, reason) => {
      const stack = await startStack(vars);
      try {
        const user = await stack.signUp();
        for (const response of [
          await stack.call(`/userHasPaid?userId=${user.uid}`, {token: user.idToken}),
          await checkout(stack, PRICE_ADVANCED),
          await stack.call('/api/leads', {body: {email: 'ada@example.com'}}),
          await stack.call('/'),
        ]) {
          expect(response.status).toBe(503);
          expect(await response.json()).toEqual({
            error: `FIREBASE_AUTH_EMULATOR_HOST is set, so ${reason}. Unset FIREBASE_AUTH_EMULATOR_HOST outside development.`,
            code: 'MISCONFIGURED',
          });
        }
        expect(stack.stripe.created).toEqual([]);
        expect(await stack.worker.db.all('SELECT email FROM leads')).toEqual([]);
        await stack.worker.db.run(
          "INSERT INTO jobs (key, kind, payload, run_after, created_at, updated_at) VALUES ('due', 'mail', '{}', 0, 0, 0)",
        );
        expect(await stack.worker.scheduled()).toBe('exception'); // it throws before any work
        expect(await stack.worker.db.all("SELECT attempts FROM jobs WHERE key = 'due'")).toEqual([{attempts: 0}]);
        expect(
          stack.worker.logs.some((line) => line.includes('"level":"error"') && line.includes('settings.refused')),
        ).toBe(true);
      } finally {
        await stack.stop();
      }
    },
  );

  test('on loopback with a demo project and a test key it runs', async () => {
    const stack = await startStack();
    try {
      expect((await stack.call('/')).status).toBe(200);
    } finally {
      await stack.stop();
    }
  });
});

describe('emulator mode answers only requests made on this machine', () => {
  // startStack runs the committed defaults of wrangler.jsonc (a demo- project, a localhost
  // SITE_URL, no live key) with FIREBASE_AUTH_EMULATOR_HOST set: what a deploy that forgot
  // FIREBASE_PROJECT_ID and kept the emulator host would run. Those variables all pass.
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.stop());

  const refusal = {
    error:
      'FIREBASE_AUTH_EMULATOR_HOST is set, so the worker answers only requests made on this machine (loopback), and this one was not. Unset FIREBASE_AUTH_EMULATOR_HOST outside development.',
    code: 'MISCONFIGURED',
  };

  test.each([
    ['on a public host name (the name a deployed worker is reached by)', 'https://slipway.dev', {}],
    ["on this machine's address on its network", 'http://192.0.2.2:8787', {}],
    ['from a caller Cloudflare saw at another address', '', {'cf-connecting-ip': '203.0.113.9'}],
    ['from an IPv6 caller', '', {'cf-connecting-ip': '2001:db8::1'}],
    ['from another address, on a loopback host', 'http://localhost:8787', {'cf-connecting-ip': '192.0.2.2'}],
  ])('a request %s is 503 MISCONFIGURED naming the variable, and changes nothing', async (_label, base, headers) => {
    const user = await stack.signUp();
    const email = `off.loopback.${Date.now()}@example.com`;
    for (const response of [
      await stack.worker.fetch(`${base}/`, {headers}),
      await stack.worker.fetch(`${base}/userHasPaid?userId=${user.uid}`, {
        headers: {...headers, authorization: `Bearer ${user.idToken}`},
      }),
      await stack.worker.fetch(`${base}/api/leads`, {
        method: 'POST',
        headers: {...headers, 'content-type': 'application/json'},
        body: JSON.stringify({email}),
      }),
    ]) {
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual(refusal);
    }
    expect(await stack.worker.db.all('SELECT email FROM leads WHERE email = ?', email)).toEqual([]);
  });

  test.each([
    ['no cf-connecting-ip, on 127.0.0.1', '', {}],
    ['127.0.0.0/8', 'http://127.0.0.1:8787', {'cf-connecting-ip': '127.3.2.1'}],
    ['::1, on localhost', 'http://localhost:8787', {'cf-connecting-ip': '::1'}],
    ['an IPv4-mapped 127.0.0.1, on [::1]', 'http://[::1]:8787', {'cf-connecting-ip': '::ffff:127.0.0.1'}],
  ])('on loopback it answers: %s', async (_label, base, headers) => {
    const user = await stack.signUp();
    const response = await stack.worker.fetch(`${base}/userHasPaid?userId=${user.uid}`, {
      headers: {...headers, authorization: `Bearer ${user.idToken}`},
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({hasPaid: false});
  });
});

test('an rk_live_ key sells the production prices, like sk_live_', async () => {
  const plan = appConfig.plans[1]!;
  const stack = await startStack({STRIPE_SECRET_KEY: 'rk_live_51Hworkersuite', ...(await productionFirebase())});
  try {
    for (const priceId of [plan.priceId.test, plan.priceId.production]) {
      expect((await checkout(stack, priceId)).status).toBe(200);
      expect(stack.stripe.created.at(-1)).toMatchObject({line_items: [{price: plan.priceId.production}]});
    }
  } finally {
    await stack.stop();
  }
});

test.each([
  [
    'no service account',
    {FIREBASE_SERVICE_ACCOUNT: ''},
    "FIREBASE_SERVICE_ACCOUNT must be the service account's JSON key (one line)",
  ],
  [
    'a service account that is not its JSON key',
    {FIREBASE_SERVICE_ACCOUNT: '{"type":"service_account"}'},
    "FIREBASE_SERVICE_ACCOUNT must be the service account's JSON key (one line)",
  ],
  ['no project', {FIREBASE_PROJECT_ID: ''}, 'FIREBASE_PROJECT_ID must be set'],
])(
  'Firebase without the emulator and with %s refuses every request, naming the variable',
  async (_label, vars, reason) => {
    const stack = await startStack({...(await productionFirebase()), ...vars});
    try {
      for (const response of [await stack.call('/'), await stack.call('/userHasPaid?userId=anyone', {token: 'x'})]) {
        expect(response.status).toBe(503);
        expect(await response.json()).toEqual({
          error: `AUTH_PROVIDER is firebase, so ${reason}.`,
          code: 'MISCONFIGURED',
        });
      }
    } finally {
      await stack.stop();
    }
  },
);
