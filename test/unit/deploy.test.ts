/**
 * @jest-environment node
 *
 * `npm run deploy` asks the preflight first and ships nothing when it fails: run on this clone's
 * committed settings (the D1 placeholder, a local SITE_URL, no keys), it must stop before the
 * build, saying why. Offline: the preflight asks no service without keys, and wrangler without a
 * login answers at once.
 */
import {spawnSync} from 'node:child_process';
import path from 'node:path';
import {WRANGLER_ENV} from '../../scripts/wrangler';

const ROOT = path.join(__dirname, '..', '..');

function deploy(...args: string[]) {
  // No Cloudflare credentials and no service keys: what a fresh clone has.
  const env = Object.fromEntries(
    Object.entries(WRANGLER_ENV).filter(
      ([name]) => !/^(CLOUDFLARE_|STRIPE_|GITHUB_|MAILGUN_|FIREBASE_|SUPABASE_)/.test(name),
    ),
  );
  const result = spawnSync(
    process.execPath,
    [require.resolve('tsx/cli'), path.join(ROOT, 'scripts', 'deploy.ts'), ...args],
    {cwd: ROOT, env, encoding: 'utf8', timeout: 120_000},
  );
  return {status: result.status, output: `${result.stdout}\n${result.stderr}`};
}

it("stops before building or uploading when the preflight fails, and prints the preflight's failures", () => {
  const {status, output} = deploy('--dry-run');
  expect(output).toContain(
    '[ FAIL ] Cloudflare: the D1 database_id in worker/wrangler.jsonc (env.site) is the placeholder',
  );
  expect(output).toContain('[deploy] Stopped: Preflight: is every service ready?');
  expect(output).not.toContain('[deploy] Building the site');
  expect(status).toBe(1);
}, 150_000);

it('refuses --secrets without a file, showing how to give one', () => {
  const {status, output} = deploy('--dry-run', '--secrets');
  expect(output).toContain('[deploy] --secrets needs a file: npm run deploy -- --secrets ~/production-secrets.env');
  expect(status).toBe(2);
});
