/**
 * A worker set up wrongly fails closed: emulator mode (which accepts unsigned tokens) refuses to
 * run anywhere but a developer's machine, and a restricted live key counts as live.
 */
import {appConfig} from '../../src/config';
import {PRICE_ADVANCED, productionFirebase, SITE_ORIGIN, startStack, type Stack} from './stack';

const checkout = (stack: Stack, priceId: string) =>
  stack.call('/createCheckoutSession', {body: {priceId, successUrl: `${SITE_ORIGIN}/success`, cancelUrl: `${SITE_ORIGIN}/`}});

describe('emulator mode refuses to start outside development', () => {
  test.each([
    ['a live Stripe key', {STRIPE_SECRET_KEY: 'sk_live_51Hworkersuite'}, 'STRIPE_SECRET_KEY must not be a live key'],
    ['a restricted live Stripe key', {STRIPE_SECRET_KEY: 'rk_live_51Hworkersuite'}, 'STRIPE_SECRET_KEY must not be a live key'],
    ['a public SITE_URL', {SITE_URL: 'https://slipway.dev'}, 'SITE_URL must be on loopback (localhost or 127.0.0.1)'],
    ['a real Firebase project', {FIREBASE_PROJECT_ID: 'slipway-prod'}, 'FIREBASE_PROJECT_ID must start with demo-'],
  ])('with %s, every route answers 503 naming the variable, and the cron does nothing', async (_label, vars, reason) => {
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
      await stack.worker.scheduled();
      expect(await stack.worker.db.all("SELECT attempts FROM jobs WHERE key = 'due'")).toEqual([{attempts: 0}]);
      expect(stack.worker.logs.some((line) => line.includes('"level":"error"') && line.includes('settings.refused'))).toBe(true);
    } finally {
      await stack.stop();
    }
  });

  test('on loopback with a demo project and a test key it runs', async () => {
    const stack = await startStack();
    try {
      expect((await stack.call('/')).status).toBe(200);
    } finally {
      await stack.stop();
    }
  });
});

test('an rk_live_ key sells the production prices, like sk_live_', async () => {
  const plan = appConfig.stripe.plans[1]!;
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
  ['no service account', {FIREBASE_SERVICE_ACCOUNT: ''}, "FIREBASE_SERVICE_ACCOUNT must be the service account's JSON key (one line)"],
  ['a service account that is not its JSON key', {FIREBASE_SERVICE_ACCOUNT: '{"type":"service_account"}'}, "FIREBASE_SERVICE_ACCOUNT must be the service account's JSON key (one line)"],
  ['no project', {FIREBASE_PROJECT_ID: ''}, 'FIREBASE_PROJECT_ID must be set'],
])('Firebase without the emulator and with %s refuses every request, naming the variable', async (_label, vars, reason) => {
  const stack = await startStack({...(await productionFirebase()), ...vars});
  try {
    for (const response of [await stack.call('/'), await stack.call('/userHasPaid?userId=anyone', {token: 'x'})]) {
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({error: `AUTH_PROVIDER is firebase, so ${reason}.`, code: 'MISCONFIGURED'});
    }
  } finally {
    await stack.stop();
  }
});
