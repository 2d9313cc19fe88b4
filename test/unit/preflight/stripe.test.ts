/**
 * @jest-environment node
 *
 * `npm run preflight`'s Stripe lines, asked of the Stripe stand-in through the client the worker
 * builds: one misconfiguration per test, each named in a failing line with its fix.
 */
import Stripe from 'stripe';
import {appConfig, type Plan, PLAN_CURRENCY, planAmount} from '../../../src/config';
import {TIERED_PLANS} from '../../../scripts/support/tieredPlans';
import {formatMoney} from '../../../src/config/money';
import {newPrice} from '../../../scripts/local/stripeApi';
import {checkStripe, recoveryLine, stripeWebhookUrl} from '../../../scripts/preflight/stripe';
import {stripeClient} from '../../../worker/src/payments/stripeClient';
import {HANDLED_STRIPE_EVENTS, requiredStripeEvents} from '../../../worker/src/webhooks/stripeEvents';
import {LIVE_KEY, linesOf, type Services, SITE_URL, startServices, TEST_KEY} from './readyDeploy';

let services: Services;
beforeEach(async () => {
  services = await startServices();
});
afterEach(() => services.close());

const [starter, advanced] = appConfig.plans;
const check = (key = LIVE_KEY, fields: {webhookSecret?: string; siteUrl?: string; plans?: readonly Plan[]} = {}) =>
  checkStripe({
    secretKey: key,
    webhookSecret: 'whsec_preflight',
    siteUrl: SITE_URL,
    apiUrl: services.stripe.url,
    env: 'site',
    ...fields,
  });

it('passes a live key whose prices, webhook endpoint and portal are as the site needs', async () => {
  const lines = await check();
  expect(linesOf(lines, 'fail')).toEqual([]);
  expect(linesOf(lines, 'warn')).toEqual([]);
  for (const plan of appConfig.plans) {
    expect(lines).toContainEqual({
      status: 'ok',
      label: expect.stringContaining(`plan ${plan.name}, price ${plan.priceId.production}`),
    });
  }
  expect(lines).toContainEqual({status: 'ok', label: expect.stringContaining(stripeWebhookUrl(SITE_URL))});
  expect(lines).toContainEqual({status: 'ok', label: 'Stripe: the account takes live payments'});
});

it('fails a live key on an account not activated yet, and does not ask with a test key (test payments work before)', async () => {
  services.stripe.account.charges_enabled = false;
  expect(linesOf(await check(), 'fail')).toEqual([
    expect.objectContaining({
      label: expect.stringContaining('the account cannot take live payments yet'),
      fix: expect.stringContaining('activate payments'),
    }),
  ]);
  const test = await check(TEST_KEY);
  expect(linesOf(test, 'fail')).toEqual([]);
  expect(test.map((line) => line.label)).not.toContainEqual(expect.stringContaining('the account'));
});

it("warns of an account whose receipts name another support e-mail than the config's, or that holds the payouts", async () => {
  services.stripe.account.business_profile!.support_email = 'old@example.com';
  services.stripe.account.payouts_enabled = false;
  expect(linesOf(await check(), 'warn').map((line) => line.label)).toEqual([
    'Stripe: payouts are not enabled: sales are held in Stripe until you add a bank account',
    `Stripe: the account's support e-mail, shown on receipts, is old@example.com, not ${appConfig.support.email} (src/config)`,
  ]);
});

it("fails a price whose amount differs from the site's, naming the plan, both amounts and the fix", async () => {
  const id = advanced!.priceId.production;
  const charged = planAmount(advanced!) - 1000;
  services.stripe.prices.get(id)!.unit_amount = charged;
  const [line] = linesOf(await check(), 'fail');
  expect(line!.label).toContain(`plan ${advanced!.name}`);
  expect(line!.label).toContain(
    `charges ${formatMoney(charged, PLAN_CURRENCY)} but the site shows ${formatMoney(planAmount(advanced!), PLAN_CURRENCY)}`,
  );
  expect(line!.fix).toContain(`one-time price of ${formatMoney(planAmount(advanced!), PLAN_CURRENCY)}`);
  expect(line!.fix).toContain('priceId.production');
});

it('fails a price that is archived', async () => {
  services.stripe.prices.get(starter!.priceId.production)!.active = false;
  const failures = linesOf(await check(), 'fail');
  expect(failures).toEqual([
    expect.objectContaining({label: expect.stringMatching(new RegExp(`plan ${starter!.name}.*archived`))}),
  ]);
});

it('fails a recurring price: checkout is a single payment', async () => {
  const id = starter!.priceId.production;
  services.stripe.prices.set(
    id,
    newPrice({...services.stripe.prices.get(id)!, type: 'recurring', recurring: {interval: 'month'} as never}),
  );
  expect(linesOf(await check(), 'fail')).toEqual([
    expect.objectContaining({label: expect.stringContaining('is recurring, not one-time')}),
  ]);
});

it('fails a price in another currency', async () => {
  services.stripe.prices.get(starter!.priceId.production)!.currency = 'eur';
  expect(linesOf(await check(), 'fail')).toEqual([
    expect.objectContaining({label: expect.stringContaining(`is in EUR, not ${PLAN_CURRENCY.toUpperCase()}`)}),
  ]);
});

it('fails a plan whose price is not in the account', async () => {
  services.stripe.prices.delete(advanced!.priceId.production);
  const [line] = linesOf(await check(), 'fail');
  expect(line!.label).toContain(`No such price: '${advanced!.priceId.production}'`);
  expect(line!.fix).toContain(`for ${advanced!.name}`);
});

it("checks a team's own price for each seat as its own price, and says where to set it", async () => {
  const seat = advanced!.team!.seatPrice!;
  expect(await check()).toContainEqual({status: 'ok', label: expect.stringContaining(seat.priceId.production)});
  services.stripe.prices.get(seat.priceId.production)!.unit_amount = seat.price * 100 + 1000;
  const [line] = linesOf(await check(), 'fail');
  expect(line!.label).toContain(`plan ${advanced!.name}, each seat of a team, price ${seat.priceId.production}`);
  expect(line!.label).toContain(`but the site shows $${seat.price}.00`);
  expect(line!.fix).toContain("the plan's team.seatPrice.priceId.production");
  expect(line!.fix).toContain("set the plan's team.seatPrice.price in src/config/app.ts");
});

it('checks each team tier as a price of its own, says where to set it, and fails a team the config sells wrongly', async () => {
  const tiered = TIERED_PLANS[1]!;
  const tier = tiered.team!.tiers![0]!;
  const lines = await check(LIVE_KEY, {plans: [{...tiered, team: {...tiered.team!, maxSeats: 30}}]});
  expect(linesOf(lines, 'fail')).toContainEqual({
    status: 'fail',
    label: `Config: ${tiered.name}'s team: its largest tier (20 seats) must be its maxSeats (30)`,
    fix: 'Fix the plan in src/config/app.ts',
  });
  // The local Stripe sells the committed prices: the tier's is not in the account.
  const missing = linesOf(lines, 'fail').find((line) => line.label.includes(tier.priceId.production));
  expect(missing!.label).toContain(`plan ${tiered.name}, a team of ${tier.seats}, price ${tier.priceId.production}`);
  expect(missing!.fix).toContain("the plan's team.tiers[0].priceId.production");
});

it("fails a live key when the config's production price ids are test-mode prices", async () => {
  const id = starter!.priceId.production;
  services.stripe.prices.set(id, {...services.stripe.prices.get(id)!, livemode: false});
  const [line] = linesOf(await check(), 'fail');
  expect(line!.label).toContain('a similar object exists in test mode, but a live mode key was used');
});

it("warns that a test key on the site's own domain sells nothing real, and checks the test price ids", async () => {
  const lines = await check(TEST_KEY);
  expect(linesOf(lines, 'warn')).toEqual([
    expect.objectContaining({label: expect.stringContaining(`a test key on ${appConfig.domainName}`)}),
  ]);
  expect(linesOf(lines, 'fail')).toEqual([]);
  expect(lines).toContainEqual({status: 'ok', label: expect.stringContaining(starter!.priceId.test)});
});

it('fails a publishable key in place of the secret key', async () => {
  expect(linesOf(await check('pk_live_preflight'), 'fail')).toEqual([
    expect.objectContaining({label: expect.stringContaining('not a secret key')}),
  ]);
});

it('fails when no webhook endpoint points at the deployed webhook, naming the URL and the events to add', async () => {
  services.stripe.webhookEndpoints.forEach((endpoint) => (endpoint.url = 'https://old.example.com/api/webhook/stripe'));
  const [line] = linesOf(await check(), 'fail');
  expect(line!.label).toContain(`no live-mode webhook endpoint at ${stripeWebhookUrl(SITE_URL)}`);
  expect(line!.label).toContain('https://old.example.com/api/webhook/stripe');
  for (const event of requiredStripeEvents()) expect(line!.fix).toContain(event);
});

it('asks for checkout.session.expired only with checkout.recoverAbandoned on: it brings the reminders and nothing else', async () => {
  expect(requiredStripeEvents({...appConfig.checkout, recoverAbandoned: false})).not.toContain(
    'checkout.session.expired',
  );
  expect(requiredStripeEvents({...appConfig.checkout, recoverAbandoned: true})).toEqual([...HANDLED_STRIPE_EVENTS]);
  // An endpoint made before the event was handled passes while the switch is off, as committed.
  services.stripe.webhookEndpoints.forEach(
    (endpoint) =>
      (endpoint.enabled_events = endpoint.enabled_events.filter((event) => event !== 'checkout.session.expired')),
  );
  expect(linesOf(await check(), 'fail')).toEqual([]);
});

it('fails a disabled webhook endpoint', async () => {
  services.stripe.webhookEndpoints.forEach((endpoint) => (endpoint.status = 'disabled'));
  expect(linesOf(await check(), 'fail')).toEqual([
    expect.objectContaining({label: expect.stringContaining('is disabled'), fix: expect.stringContaining('Enable it')}),
  ]);
});

it('fails a webhook endpoint that misses an event the worker handles', async () => {
  const dropped = HANDLED_STRIPE_EVENTS.at(-1)!;
  services.stripe.webhookEndpoints.forEach(
    (endpoint) => (endpoint.enabled_events = endpoint.enabled_events.filter((event) => event !== dropped)),
  );
  const [line] = linesOf(await check(), 'fail');
  expect(line!.label).toContain(`does not listen to ${dropped}`);
  expect(line!.fix).toContain(`add ${dropped}`);
});

it.each([
  ["the account's default API version", null],
  ['API version 2024-06-20', '2024-06-20'],
])(
  "warns of a webhook endpoint that sends events in %s, not the worker's, saying to add it again with the worker's",
  async (shaped, version) => {
    services.stripe.webhookEndpoints.forEach((endpoint) => (endpoint.api_version = version));
    const lines = await check();
    expect(linesOf(lines, 'fail')).toEqual([]);
    expect(linesOf(lines, 'warn')).toEqual([
      {
        status: 'warn',
        label: `Stripe: the webhook endpoint ${stripeWebhookUrl(SITE_URL)} sends events in ${shaped}, not ${Stripe.API_VERSION}, the version the worker reads them with`,
        fix: expect.stringContaining(`add the endpoint again with API version ${Stripe.API_VERSION}`),
      },
    ]);
  },
);

it('fails without a webhook signing secret', async () => {
  expect(linesOf(await check(LIVE_KEY, {webhookSecret: ''}), 'fail')).toEqual([
    expect.objectContaining({
      label: expect.stringContaining('STRIPE_WEBHOOK_SECRET is not set'),
      fix: expect.stringContaining('wrangler secret put STRIPE_WEBHOOK_SECRET --env site'),
    }),
  ]);
});

it("fails when the customer portal has no configuration in the key's mode", async () => {
  services.stripe.portalConfigurations.splice(
    0,
    Infinity,
    ...services.stripe.portalConfigurations.filter((configuration) => !configuration.livemode),
  );
  expect(linesOf(await check(), 'fail')).toEqual([
    expect.objectContaining({
      label: expect.stringContaining('no live-mode customer portal configuration'),
      fix: expect.stringContaining('settings/billing/portal'),
    }),
  ]);
});

it('with checkout.recoverAbandoned on, passes a US account and fails one elsewhere, whose every checkout Stripe would refuse', async () => {
  const stripe = stripeClient(LIVE_KEY, services.stripe.url);
  expect(await recoveryLine(stripe)).toMatchObject({status: 'ok'});
  services.stripe.account.country = 'FR';
  expect(await recoveryLine(stripe)).toEqual({
    status: 'fail',
    label: expect.stringContaining('the account is in FR'),
    fix: 'Set checkout.recoverAbandoned to false in src/config/app.ts',
  });
});
