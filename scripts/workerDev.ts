/**
 * `npm run worker:dev`: the worker on 127.0.0.1:8787 with a local D1 (an embedded SQLite under
 * worker/.wrangler; no Cloudflare account needed). Makes worker/.dev.vars from the example on
 * first run, applies the local migrations, then hands over to `wrangler dev`.
 */
import {spawnSync} from 'node:child_process';
import {
  APPLY_LOCAL_MIGRATIONS,
  ensureDevVars,
  WORKER_DIR as workerDir,
  WRANGLER as wrangler,
  WRANGLER_ENV as env,
} from './wrangler';

if (ensureDevVars()) {
  console.log('Created worker/.dev.vars from worker/.dev.vars.example: fill in the keys you have.');
}

function run(args: string[], extraEnv: Record<string, string> = {}) {
  const result = spawnSync(wrangler, args, {cwd: workerDir, env: {...env, ...extraEnv}, stdio: 'inherit'});
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run(APPLY_LOCAL_MIGRATIONS, {CI: 'true'});
run(['dev', '--ip', '127.0.0.1', '--port', '8787', '--test-scheduled', ...process.argv.slice(2)]);
