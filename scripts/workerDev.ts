/**
 * `npm run worker:dev`: the worker on 127.0.0.1:8787 with a local D1 (an embedded SQLite under
 * worker/.wrangler; no Cloudflare account needed). Makes worker/.dev.vars from the example on
 * first run, applies the local migrations, then hands over to `wrangler dev`.
 */
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const workerDir = path.join(__dirname, '..', 'worker');
const wrangler = path.join(__dirname, '..', 'node_modules', '.bin', 'wrangler');
const env = {...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false'};

const devVars = path.join(workerDir, '.dev.vars');
if (!fs.existsSync(devVars)) {
  fs.copyFileSync(path.join(workerDir, '.dev.vars.example'), devVars);
  console.log('Created worker/.dev.vars from worker/.dev.vars.example: fill in the keys you have.');
}

function run(args: string[], extraEnv: Record<string, string> = {}) {
  const result = spawnSync(wrangler, args, {cwd: workerDir, env: {...env, ...extraEnv}, stdio: 'inherit'});
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// CI=true answers wrangler's "apply migrations?" prompt: local migrations need no confirmation.
run(['d1', 'migrations', 'apply', 'DB', '--local'], {CI: 'true'});
run(['dev', '--ip', '127.0.0.1', '--port', '8787', '--test-scheduled', ...process.argv.slice(2)]);
