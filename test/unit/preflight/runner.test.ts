/**
 * @jest-environment node
 *
 * The whole `npm run preflight` run against local mode's stand-ins: a ready deploy passes with
 * exit code 0; one broken setting fails it with 1, named in the printed checklist with its fix.
 */
import {appConfig, extraRepositoryKeys, PLAN_CURRENCY, planAmount} from '../../../src/config';
import {formatMoney} from '../../../src/config/money';
import {exitCodeOf, formatChecklist, runChecks} from '../../../scripts/preflight/runner';
import {readySettings, SECRET_NAMES, type Services, startServices} from './readyDeploy';

let services: Services;
beforeEach(async () => {
  services = await startServices();
});
afterEach(() => services.close());

const secretNames = async () => SECRET_NAMES;
const pendingMigrations = async (): Promise<string[]> => [];

it('passes a deploy where every service is ready: no failure, no warning, exit code 0', async () => {
  const lines = await runChecks({settings: await readySettings(services), secretNames, pendingMigrations});
  const printed = formatChecklist(lines);
  expect(printed).not.toContain('FAIL');
  expect(printed).toContain('Preflight: ready to deploy (0 warnings).');
  expect(exitCodeOf(lines)).toBe(0);
  // Every service was asked.
  for (const section of ['Cloudflare', 'Sign-in', 'Stripe', 'GitHub', 'Mail'])
    expect(printed).toContain(`] ${section}: `);
});

it('fails the run on one wrong price, printing the plan, both amounts and the fix', async () => {
  const plan = appConfig.plans[0]!;
  services.stripe.prices.get(plan.priceId.production)!.unit_amount = planAmount(plan) + 100;
  const lines = await runChecks({settings: await readySettings(services), secretNames, pendingMigrations});
  const printed = formatChecklist(lines);
  expect(printed).toContain(
    `[ FAIL ] Stripe: plan ${plan.name}, price ${plan.priceId.production} charges ${formatMoney(planAmount(plan) + 100, PLAN_CURRENCY)} but the site shows ${formatMoney(planAmount(plan), PLAN_CURRENCY)}`,
  );
  expect(printed).toMatch(/\n {9}fix: In https:\/\/dashboard\.stripe\.com\/products create a one-time price/);
  expect(printed).toContain('Preflight: 1 failure, 0 warnings.');
  expect(exitCodeOf(lines)).toBe(1);
});

it('fails the run, not crashes, when a service cannot be reached', async () => {
  const settings = await readySettings(services);
  await services.mailgun.close();
  const lines = await runChecks({settings, secretNames, pendingMigrations});
  expect(lines).toContainEqual(
    expect.objectContaining({status: 'fail', label: expect.stringContaining('Mail: could not reach Mailgun')}),
  );
  expect(exitCodeOf(lines)).toBe(1);
});

it('fails the run when a plan grants an extra repository that GITHUB_EXTRA_REPOS does not name: buyers would get nothing for it', async () => {
  const settings = await readySettings(services);
  delete settings.worker.GITHUB_EXTRA_REPOS;
  const lines = await runChecks({settings, secretNames, pendingMigrations});
  const granting = appConfig.plans
    .filter((plan) => extraRepositoryKeys(plan).includes('prompts'))
    .map((plan) => plan.name);
  expect(lines).toContainEqual(
    expect.objectContaining({
      status: 'fail',
      label: expect.stringContaining(
        `${granting.join(', ')} grants "prompts" (${appConfig.extraRepositories.prompts.name}), but GITHUB_EXTRA_REPOS names no repository for it`,
      ),
    }),
  );
  expect(exitCodeOf(lines)).toBe(1);
});

it.each([
  ["the kit's own repository", (kit: string) => `prompts=${kit.toUpperCase()}`, 'each repository may be granted once'],
  ['the key kit', () => 'prompts=you/prompts, kit=you/other', 'may not use the key kit'],
])(
  'fails the run when GITHUB_EXTRA_REPOS names %s, which the worker would refuse to start with',
  async (_what, extraRepos, reason) => {
    const settings = await readySettings(services);
    settings.worker.GITHUB_EXTRA_REPOS = extraRepos(settings.worker.GITHUB_REPO!);
    const lines = await runChecks({settings, secretNames, pendingMigrations});
    expect(lines).toContainEqual(
      expect.objectContaining({
        status: 'fail',
        label: expect.stringMatching(new RegExp(`^GitHub: GITHUB_EXTRA_REPOS .*${reason}.* The worker would refuse`)),
      }),
    );
    expect(exitCodeOf(lines)).toBe(1);
  },
);

it('fails a GITHUB_EXTRA_REPOS the worker would not read, naming the pair, as the worker reads it', async () => {
  const settings = await readySettings(services);
  settings.worker.GITHUB_EXTRA_REPOS = 'pro mpts=you/prompts';
  const lines = await runChecks({settings, secretNames, pendingMigrations});
  expect(lines).toContainEqual(
    expect.objectContaining({
      status: 'fail',
      label: 'GitHub: GITHUB_EXTRA_REPOS has "pro mpts=you/prompts", not key=owner/name',
    }),
  );
  expect(exitCodeOf(lines)).toBe(1);
});

it('passes a redeploy whose secret values are on Cloudflare only (the file deleted), warning for each service it could not ask', async () => {
  const settings = await readySettings(services);
  for (const name of SECRET_NAMES) delete settings.worker[name];
  const lines = await runChecks({settings, secretNames, pendingMigrations});
  const printed = formatChecklist(lines);
  expect(printed).not.toContain('FAIL');
  for (const [service, secret] of [
    ['Stripe', 'STRIPE_SECRET_KEY'],
    ['GitHub', 'GITHUB_TOKEN'],
    ['Mail', 'MAILGUN_API_KEY'],
    ['Sign-in', 'FIREBASE_SERVICE_ACCOUNT'],
  ]) {
    expect(lines).toContainEqual(
      expect.objectContaining({
        status: 'warn',
        label: `${service}: not asked: ${secret} is set on Cloudflare, but its value is not on this machine (Cloudflare never gives one back)`,
      }),
    );
  }
  // Nothing was asked of the services whose key this machine lacks.
  expect(services.github.requests).toEqual([]);
  expect(exitCodeOf(lines)).toBe(0);
});

it('still fails a secret that is neither on this machine nor on Cloudflare', async () => {
  const settings = await readySettings(services);
  delete settings.worker.STRIPE_SECRET_KEY;
  const lines = await runChecks({
    settings,
    secretNames: async () => SECRET_NAMES.filter((name) => name !== 'STRIPE_SECRET_KEY'),
    pendingMigrations,
  });
  expect(lines).toContainEqual(
    expect.objectContaining({status: 'fail', label: 'Stripe: STRIPE_SECRET_KEY is not set'}),
  );
  expect(lines).toContainEqual(
    expect.objectContaining({status: 'fail', label: 'Cloudflare: the secret STRIPE_SECRET_KEY is not set in env site'}),
  );
  expect(exitCodeOf(lines)).toBe(1);
});
