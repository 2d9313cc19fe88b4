/**
 * @jest-environment node
 *
 * `npm run preflight`'s Cloudflare lines, on worker/wrangler.jsonc's `site` environment as
 * wrangler reads it, with the secret list passed in (the real run asks `wrangler secret list`).
 */
import path from 'node:path';
import {appConfig} from '../../../src/config';
import {checkCloudflare, type WorkerConfig} from '../../../scripts/preflight/cloudflare';
import {readWorkerConfig} from '../../../scripts/preflight/settings';
import {migrationFiles} from '../../../scripts/support/migrations';
import {linesOf, readyWorkerConfig, SECRET_NAMES} from './readyDeploy';

const check = (
  config: WorkerConfig,
  secrets: string[] = SECRET_NAMES,
  pendingMigrations = async (): Promise<string[]> => [],
) =>
  checkCloudflare({config, env: 'site', secretNames: async () => secrets, pendingMigrations, authProvider: 'firebase'});

it('passes a filled-in site environment with every secret set', async () => {
  const lines = await check(readyWorkerConfig());
  expect(linesOf(lines, 'fail')).toEqual([]);
  expect(linesOf(lines, 'warn')).toEqual([]);
  expect(lines).toContainEqual({
    status: 'ok',
    label: `Cloudflare: SITE_URL is https://${appConfig.domainName}, the config's domain`,
  });
  expect(lines).toContainEqual({status: 'ok', label: 'Cloudflare: every D1 migration is applied in env site'});
});

it('warns of migrations not applied yet, naming them and the command that applies them', async () => {
  const lines = await check(readyWorkerConfig(), SECRET_NAMES, async () => ['0014_releases.sql']);
  expect(linesOf(lines, 'fail')).toEqual([]);
  expect(linesOf(lines, 'warn')).toEqual([
    {
      status: 'warn',
      label: 'Cloudflare: 1 D1 migration is not applied yet: 0014_releases.sql',
      fix: 'cd worker && npx wrangler d1 migrations apply DB --remote --env site (npm run deploy does it before uploading the worker)',
    },
  ]);
});

it('warns again of a pending migration that moves data, on a database in use: what moves, and how to go back', async () => {
  const moving = '0027_seller_revocation_on_purchase.sql';
  const lines = await check(readyWorkerConfig(), SECRET_NAMES, async () => [moving]);
  expect(linesOf(lines, 'warn')).toEqual([
    expect.objectContaining({label: `Cloudflare: 1 D1 migration is not applied yet: ${moving}`}),
    {
      status: 'warn',
      label: `Cloudflare: ${moving} moves data in env site (the seller's revocations are copied from access_grants.revoked_by_seller to purchases.revoked_by_seller_at.): going back past it takes the database back too, not only the worker`,
      fix: 'npm run deploy prints the time to restore to before it applies it; if it goes wrong: cd worker && npx wrangler d1 time-travel restore DB --env site --timestamp=<that time>, then npx wrangler rollback --env site (docs: Deployment, "Migrations, and going back")',
    },
  ]);
});

it('says nothing of moved data on a new database, whose every migration is pending', async () => {
  const lines = await check(readyWorkerConfig(), SECRET_NAMES, async () => migrationFiles());
  expect(linesOf(lines, 'warn')).toEqual([
    expect.objectContaining({label: expect.stringMatching(/^Cloudflare: \d+ D1 migrations are not applied yet: /)}),
  ]);
});

it("fails a database_id Cloudflare does not know, with the command that lists the account's databases", async () => {
  const lines = await check(readyWorkerConfig(), SECRET_NAMES, () =>
    Promise.reject(new Error("Couldn't find DB with name 'DB'")),
  );
  expect(linesOf(lines, 'fail')).toEqual([
    expect.objectContaining({
      label: expect.stringContaining("could not read the D1 database's migrations in env site: Couldn't find DB"),
      fix: expect.stringContaining('npx wrangler d1 list'),
    }),
  ]);
});

it("fails the committed wrangler.jsonc's placeholder D1 id and local SITE_URL, as a fresh clone has them", async () => {
  const committed = readWorkerConfig(path.join(__dirname, '..', '..', '..', 'worker', 'wrangler.jsonc'), 'site');
  const failures = linesOf(await check(committed), 'fail');
  expect(failures).toEqual([
    expect.objectContaining({
      label: expect.stringContaining('the D1 database_id in worker/wrangler.jsonc (env.site) is the placeholder'),
      fix: expect.stringContaining('npx wrangler d1 create'),
    }),
    expect.objectContaining({label: expect.stringContaining(`the site is served on https://${appConfig.domainName}`)}),
  ]);
});

it('fails a secret that is not set, with the command that sets it', async () => {
  expect(
    linesOf(
      await check(
        readyWorkerConfig(),
        SECRET_NAMES.filter((name) => name !== 'STRIPE_WEBHOOK_SECRET'),
      ),
      'fail',
    ),
  ).toEqual([
    {
      status: 'fail',
      label: 'Cloudflare: the secret STRIPE_WEBHOOK_SECRET is not set in env site',
      fix: 'cd worker && npx wrangler secret put STRIPE_WEBHOOK_SECRET --env site',
    },
  ]);
});

it('fails a secret committed among the vars', async () => {
  const config = readyWorkerConfig();
  config.vars.STRIPE_SECRET_KEY = 'sk_live_committed';
  expect(linesOf(await check(config), 'fail')).toEqual([
    expect.objectContaining({
      label: expect.stringContaining(
        'STRIPE_SECRET_KEY is in the vars of worker/wrangler.jsonc (env.site): committed in plain text',
      ),
    }),
  ]);
});

it('fails a setting that is both a secret and a var', async () => {
  const config = readyWorkerConfig();
  config.vars.GITHUB_REPO = 'owner/name';
  expect(linesOf(await check(config), 'fail')).toEqual([
    expect.objectContaining({label: expect.stringContaining('GITHUB_REPO is both a secret and in the vars')}),
  ]);
});

it('fails a stand-in address left on the deployed worker', async () => {
  expect(linesOf(await check(readyWorkerConfig(), [...SECRET_NAMES, 'STRIPE_API_URL']), 'fail')).toEqual([
    expect.objectContaining({
      label: expect.stringContaining('STRIPE_API_URL is set in env site: it is for development and tests only'),
    }),
  ]);
});

it("fails a SITE_URL on another domain than the config's", async () => {
  const config = readyWorkerConfig();
  config.vars.SITE_URL = 'https://example.com';
  expect(linesOf(await check(config), 'fail')).toEqual([
    expect.objectContaining({label: expect.stringContaining('SITE_URL is https://example.com')}),
  ]);
});

it('fails when Cloudflare cannot be asked (not logged in), saying how to log in', async () => {
  const lines = await checkCloudflare({
    config: readyWorkerConfig(),
    env: 'site',
    secretNames: () => Promise.reject(new Error('not authenticated')),
    pendingMigrations: async () => [],
    authProvider: 'firebase',
  });
  expect(linesOf(lines, 'fail')).toEqual([
    expect.objectContaining({
      label: expect.stringContaining('not authenticated'),
      fix: expect.stringContaining('wrangler login'),
    }),
  ]);
});

it('fails before the first deploy, when the Worker does not exist yet, saying to set the secrets first', async () => {
  const lines = await checkCloudflare({
    config: readyWorkerConfig(),
    env: 'site',
    // What `wrangler secret list` prints for a Worker Cloudflare does not have.
    secretNames: () => Promise.reject(new Error('This Worker does not exist on your account. [code: 10007]')),
    pendingMigrations: async () => [],
    authProvider: 'firebase',
  });
  expect(linesOf(lines, 'fail')).toEqual([
    expect.objectContaining({
      label: expect.stringContaining('10007'),
      fix: expect.stringContaining('npm run secrets -- ~/production-secrets.env, and answer Yes'),
    }),
  ]);
});
