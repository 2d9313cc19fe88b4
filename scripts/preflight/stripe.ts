/**
 * Stripe: the key's mode, each plan's prices as the site shows them (a team's own price for each
 * seat too), a live account's activation, the webhook endpoint at the deployed worker and the
 * customer portal. Asks Stripe with the client the worker itself builds (so a local stand-in is
 * reached the same way, through STRIPE_API_URL).
 */
import Stripe from 'stripe';
import {
  appConfig,
  PLAN_CURRENCY,
  type Plan,
  type PlanPrice,
  planPrices,
  type StripeMode,
  teamProblems,
  affiliateProblems,
} from '../../src/config';
import {formatMoney} from '../../src/config/money';
import {API_PATHS} from '../../src/config/api';
import {isLiveKey, stripeClient} from '../../worker/src/payments/stripeClient';
import {requiredStripeEvents} from '../../worker/src/webhooks/stripeEvents';
import {type CheckLine, fail, messageOf, ok, secretPut, warn} from './lines';

export interface StripeCheckInput {
  secretKey: string | undefined;
  webhookSecret: string | undefined;
  /** The worker's SITE_URL: on one Worker, the webhook is on the site's own origin. */
  siteUrl: string;
  /** Stripe's API, or a stand-in (STRIPE_API_URL). */
  apiUrl?: string;
  /** The wrangler environment the deploy uses, for the fix commands. */
  env: string;
  plans?: readonly Plan[];
}

const DASHBOARD = 'https://dashboard.stripe.com';

export async function checkStripe(input: StripeCheckInput): Promise<CheckLine[]> {
  const {secretKey, env} = input;
  if (!secretKey)
    return [
      fail(
        'Stripe: STRIPE_SECRET_KEY is not set',
        `Copy the secret key from ${DASHBOARD}/apikeys, then ${secretPut('STRIPE_SECRET_KEY', env)}`,
      ),
    ];
  if (!/^(sk|rk)_(test|live)_/.test(secretKey)) {
    return [
      fail(
        'Stripe: STRIPE_SECRET_KEY is not a secret key (sk_… or rk_…)',
        `Use the secret key from ${DASHBOARD}/apikeys, not the publishable one: ${secretPut('STRIPE_SECRET_KEY', env)}`,
      ),
    ];
  }
  const mode: StripeMode = isLiveKey(secretKey) ? 'production' : 'test';
  const stripe = stripeClient(secretKey, input.apiUrl);
  const lines = [modeLine(mode, input.siteUrl, env)];
  const plans = input.plans ?? appConfig.plans;
  for (const plan of plans) {
    // A team sold wrongly in the config (tiers out of order, say) would be priced wrongly too.
    for (const problem of teamProblems(plan))
      lines.push(fail(`Config: ${problem}`, 'Fix the plan in src/config/app.ts'));
    for (const sold of planPrices(plan)) lines.push(await priceLine(stripe, sold, mode));
  }
  // Commissions are shares of Stripe's sales: a figure out of bounds turns the programme off.
  for (const problem of affiliateProblems())
    lines.push(fail(`Config: ${problem}, so the affiliate programme is off`, 'Fix affiliates in src/config/app.ts'));
  if (mode === 'production') lines.push(...(await accountLines(stripe)));
  if (appConfig.checkout.recoverAbandoned) lines.push(await recoveryLine(stripe));
  lines.push(...(await webhookLines(stripe, input, mode)));
  lines.push(await portalLine(stripe, mode));
  return lines;
}

const modeName = (mode: StripeMode) => (mode === 'production' ? 'live' : 'test');
const dashboardOf = (mode: StripeMode) => (mode === 'production' ? DASHBOARD : `${DASHBOARD}/test`);

/**
 * The key decides which price ids the worker charges (live: `production`, else `test`). A test
 * key on the site's real domain sells nothing real: worth a warning, not a stop (a rehearsal).
 */
function modeLine(mode: StripeMode, siteUrl: string, env: string): CheckLine {
  const onDomain = hostOf(siteUrl) === appConfig.domainName;
  if (mode === 'test' && onDomain) {
    return warn(
      `Stripe: a test key on ${appConfig.domainName}: buyers can only pay with test cards, and the plans' test price ids are charged`,
      `When you go live: ${DASHBOARD}/apikeys (live mode), then ${secretPut('STRIPE_SECRET_KEY', env)}`,
    );
  }
  if (mode === 'production' && !onDomain) {
    return warn(
      `Stripe: a live key while SITE_URL (${siteUrl}) is not ${appConfig.domainName}: real money, on another address`,
    );
  }
  return ok(`Stripe: a ${modeName(mode)} key: the plans' ${mode} price ids are charged`);
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return undefined;
  }
}

/** A price the worker charges for the plan, held to what the site shows. */
async function priceLine(stripe: Stripe, sold: PlanPrice, mode: StripeMode): Promise<CheckLine> {
  const id = sold.priceId[mode];
  const expected = sold.amount;
  // Where src/config/app.ts sets it: the plan's own `price` and `priceId`, or its team's.
  const {at} = sold;
  const shown = formatMoney(expected, PLAN_CURRENCY);
  const label = `Stripe: plan ${sold.name}, price ${id}`;
  const create = `In ${dashboardOf(mode)}/products create a one-time price of ${shown} (${PLAN_CURRENCY.toUpperCase()}) for ${sold.name}, then put its id in src/config/app.ts (the plan's ${at}priceId.${mode})`;
  let price: Stripe.Price;
  try {
    price = await stripe.prices.retrieve(id);
  } catch (error) {
    return fail(`${label}: ${messageOf(error)}`, create);
  }
  const problems: string[] = [];
  if (price.livemode !== (mode === 'production'))
    problems.push(`is a ${price.livemode ? 'live' : 'test'}-mode price but the key is ${modeName(mode)}`);
  if (!price.active) problems.push('is archived (inactive)');
  if (price.type !== 'one_time') problems.push(`is ${price.type}, not one-time: checkout is a single payment`);
  if (price.currency !== PLAN_CURRENCY)
    problems.push(`is in ${price.currency.toUpperCase()}, not ${PLAN_CURRENCY.toUpperCase()}`);
  else if (price.unit_amount !== expected) {
    problems.push(`charges ${formatMoney(price.unit_amount, price.currency)} but the site shows ${shown}`);
  }
  if (problems.length === 0) return ok(`${label}: one-time, active, ${shown} as the site shows`);
  return fail(
    `${label} ${problems.join('; ')}`,
    `${create}. A price's amount cannot be changed, so make a new one (or set the plan's ${at}price in src/config/app.ts to what Stripe charges)`,
  );
}

/**
 * Stripe's go-live checklist: a live key sells only once the account is activated. Test payments
 * work before that, so a test key is not asked. A key that may not read the account only warns.
 */
async function accountLines(stripe: Stripe): Promise<CheckLine[]> {
  const activate = `${DASHBOARD}: activate payments (business details, bank account, statement descriptor), as the dashboard's banner asks`;
  let account: Stripe.Account;
  try {
    account = await stripe.accounts.retrieveCurrent();
  } catch (error) {
    return [
      warn(
        `Stripe: could not read the account (${messageOf(error)}), so whether it may take live payments is not checked`,
        activate,
      ),
    ];
  }
  if (!account.charges_enabled)
    return [
      fail(
        'Stripe: the account cannot take live payments yet (charges are not enabled): every checkout would fail',
        activate,
      ),
    ];
  const lines = [ok('Stripe: the account takes live payments')];
  if (!account.payouts_enabled)
    lines.push(
      warn(
        'Stripe: payouts are not enabled: sales are held in Stripe until you add a bank account',
        `${DASHBOARD}/settings/payouts`,
      ),
    );
  const supportEmail = account.business_profile?.support_email;
  if (supportEmail !== appConfig.support.email) {
    lines.push(
      warn(
        `Stripe: the account's support e-mail, shown on receipts, is ${supportEmail ?? 'not set'}, not ${appConfig.support.email} (src/config)`,
        `${DASHBOARD}/settings/public: set the support e-mail to ${appConfig.support.email}`,
      ),
    );
  }
  return lines;
}

/**
 * `checkout.recoverAbandoned` asks Checkout for consent to offers (`consent_collection.promotions`),
 * which Stripe offers to accounts in the United States only: elsewhere every checkout would fail.
 */
export async function recoveryLine(stripe: Stripe): Promise<CheckLine> {
  const off = 'Set checkout.recoverAbandoned to false in src/config/app.ts';
  let country: string | undefined;
  try {
    country = (await stripe.accounts.retrieveCurrent()).country;
  } catch (error) {
    return warn(`Stripe: could not read the account (${messageOf(error)}), so its country is not checked`);
  }
  if (country !== 'US')
    return fail(
      `Stripe: checkout.recoverAbandoned is on, but the account is in ${country ?? 'no country'}: Stripe asks for consent to offers for US accounts only, so every checkout would be refused`,
      off,
    );
  return ok('Stripe: the account is in the US: Checkout may ask for consent to offers (checkout.recoverAbandoned)');
}

/** Where Stripe must deliver events: on one Worker, the site's own origin. */
export function stripeWebhookUrl(siteUrl: string): string {
  return new URL(API_PATHS.stripeWebhook, siteUrl).href;
}

async function webhookLines(stripe: Stripe, input: StripeCheckInput, mode: StripeMode): Promise<CheckLine[]> {
  const url = stripeWebhookUrl(input.siteUrl);
  const events = requiredStripeEvents().join(', ');
  const add = `In ${dashboardOf(mode)}/webhooks add an endpoint ${url} listening to ${events}; then put its signing secret: ${secretPut('STRIPE_WEBHOOK_SECRET', input.env)}`;
  const lines: CheckLine[] = [];
  if (!input.webhookSecret?.startsWith('whsec_')) {
    lines.push(
      fail(
        `Stripe: STRIPE_WEBHOOK_SECRET is ${input.webhookSecret ? 'not a signing secret (whsec_…)' : 'not set'}: the worker refuses every webhook`,
        add,
      ),
    );
  }
  let endpoints: Stripe.WebhookEndpoint[];
  try {
    endpoints = await stripe.webhookEndpoints.list({limit: 100}).autoPagingToArray({limit: 1000});
  } catch (error) {
    return [
      ...lines,
      fail(
        `Stripe: could not list webhook endpoints: ${messageOf(error)}`,
        `Use a key that may read webhook endpoints (${DASHBOARD}/apikeys)`,
      ),
    ];
  }
  const endpoint = endpoints.find((candidate) => sameUrl(candidate.url, url));
  if (!endpoint) {
    const others = endpoints.map((other) => other.url).join(', ');
    return [
      ...lines,
      fail(
        `Stripe: no ${modeName(mode)}-mode webhook endpoint at ${url}${others ? ` (there are: ${others})` : ''}`,
        add,
      ),
    ];
  }
  const where = `${dashboardOf(mode)}/webhooks/${endpoint.id}`;
  if (endpoint.status !== 'enabled')
    return [...lines, fail(`Stripe: the webhook endpoint ${url} is ${endpoint.status}`, `Enable it at ${where}`)];
  const listened = new Set(endpoint.enabled_events);
  const missing = requiredStripeEvents().filter((event) => !listened.has('*') && !listened.has(event));
  if (missing.length > 0) {
    return [
      ...lines,
      fail(
        `Stripe: the webhook endpoint ${url} does not listen to ${missing.join(', ')}`,
        `At ${where}, Update details, Select events: add ${missing.join(', ')}`,
      ),
    ];
  }
  return [
    ...lines,
    ok(`Stripe: webhook endpoint ${url} is enabled and listens to every event the worker handles`),
    ...apiVersionLines(endpoint, mode, input.env),
  ];
}

/**
 * Stripe's go-live checklist: events are shaped by the endpoint's API version, or by the account's
 * default when it has none, while the worker reads them with the version its `stripe` package is
 * pinned to. A mismatch may work, so it warns. An endpoint's version is chosen when it is made.
 */
function apiVersionLines(endpoint: Stripe.WebhookEndpoint, mode: StripeMode, env: string): CheckLine[] {
  if (endpoint.api_version === Stripe.API_VERSION) return [];
  const shaped = endpoint.api_version ? `API version ${endpoint.api_version}` : "the account's default API version";
  return [
    warn(
      `Stripe: the webhook endpoint ${endpoint.url} sends events in ${shaped}, not ${Stripe.API_VERSION}, the version the worker reads them with`,
      `In ${dashboardOf(mode)}/webhooks add the endpoint again with API version ${Stripe.API_VERSION}, then delete the old one and ${secretPut('STRIPE_WEBHOOK_SECRET', env)} (the new endpoint's signing secret)`,
    ),
  ];
}

const sameUrl = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/** The worker opens the customer portal with the account's default configuration. */
async function portalLine(stripe: Stripe, mode: StripeMode): Promise<CheckLine> {
  const save = `Open ${dashboardOf(mode)}/settings/billing/portal and Save (in ${modeName(mode)} mode)`;
  let configurations: Stripe.BillingPortal.Configuration[];
  try {
    configurations = (await stripe.billingPortal.configurations.list({limit: 100})).data;
  } catch (error) {
    return fail(`Stripe: could not read the customer portal's configuration: ${messageOf(error)}`, save);
  }
  if (!configurations.some((configuration) => configuration.is_default && configuration.active)) {
    return fail(
      `Stripe: no ${modeName(mode)}-mode customer portal configuration: the dashboard's billing button would fail`,
      save,
    );
  }
  return ok(`Stripe: the customer portal is configured (${modeName(mode)} mode)`);
}
