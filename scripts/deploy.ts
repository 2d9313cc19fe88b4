/**
 * `npm run deploy`: the whole product as one Worker on one origin, the layout the docs recommend
 * (docs: deployment). It builds the site for a worker on the site's own origin (WORKER_URL=/api,
 * whatever .env says), applies the D1 migrations to Cloudflare, then `wrangler deploy --env site`
 * uploads the worker with `build/` as its static assets. Needs `npx wrangler login` first.
 *
 * First of all it runs `npm run preflight` (scripts/preflight/) and stops on any failure:
 * `--secrets <file>` is passed to it, `--skip-preflight` skips it (and says so loudly). Other
 * extra arguments go to `wrangler deploy` (for example `--dry-run`).
 */
import {spawnSync} from 'node:child_process';
import path from 'node:path';
import {SAME_ORIGIN_PREFIX} from '../src/config/api';
import {beforeMigrationsLine} from './support/migrations';
import {WORKER_DIR, WRANGLER} from './wrangler';

const ROOT = path.join(__dirname, '..');

function run(what: string, command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) {
  console.log(`\n[deploy] ${what}`);
  const result = spawnSync(command, args, {cwd, env, stdio: 'inherit'});
  if (result.status !== 0) {
    console.error(`[deploy] Stopped: ${what} failed (exit ${result.status ?? result.signal}). Nothing after it ran.`);
    process.exit(result.status ?? 1);
  }
}

/** Takes the deploy's own options out of the arguments; the rest are wrangler's. */
function deployOptions(args: string[]) {
  const extra = [...args];
  const take = (flag: string) => {
    const at = extra.indexOf(flag);
    return at >= 0 ? extra.splice(at, 1) : [];
  };
  const skipPreflight = take('--skip-preflight').length > 0;
  const secretsAt = extra.indexOf('--secrets');
  const secrets = secretsAt >= 0 ? extra.splice(secretsAt, 2) : [];
  if (secrets.length === 1) {
    console.error('[deploy] --secrets needs a file: npm run deploy -- --secrets ~/production-secrets.env');
    process.exit(2);
  }
  return {extra, skipPreflight, secrets};
}

const {extra, skipPreflight, secrets} = deployOptions(process.argv.slice(2));
const dryRun = extra.includes('--dry-run');
if (skipPreflight) {
  console.warn(
    `\n${'!'.repeat(78)}\n[deploy] --skip-preflight: NOT checking Stripe, GitHub, Mailgun, sign-in or Cloudflare first.\n[deploy] A wrong price, webhook or secret will reach buyers. Run npm run preflight yourself.\n${'!'.repeat(78)}`,
  );
} else {
  run(
    'Preflight: is every service ready? (npm run preflight; --skip-preflight skips it)',
    process.execPath,
    [require.resolve('tsx/cli'), path.join(ROOT, 'scripts', 'preflight', 'index.ts'), ...secrets],
    ROOT,
  );
}
run(
  `Building the site with WORKER_URL=${SAME_ORIGIN_PREFIX}`,
  process.execPath,
  [require.resolve('@docusaurus/core/bin/docusaurus.mjs'), 'build'],
  ROOT,
  {...process.env, WORKER_URL: SAME_ORIGIN_PREFIX},
);
if (!dryRun) {
  // Time Travel derives a bookmark from a time: this one is the database as the worker now live
  // reads it, to go back to if a migration (one that moves data above all) goes wrong.
  console.log(`\n${beforeMigrationsLine('site', new Date())}`);
  run(
    'Applying the D1 migrations to Cloudflare',
    WRANGLER,
    ['d1', 'migrations', 'apply', 'DB', '--remote', '--env', 'site'],
    WORKER_DIR,
  );
}
run(
  'Deploying the worker and the site (wrangler deploy --env site)',
  WRANGLER,
  ['deploy', '--env', 'site', ...extra],
  WORKER_DIR,
);
