import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The pinned wrangler (4.86: later versions need Node 22), run offline by every script and test. */
export const WRANGLER = path.join(__dirname, '..', 'node_modules', '.bin', 'wrangler');
export const WORKER_DIR = path.join(__dirname, '..', 'worker');

/**
 * Brings a local D1 up to date: wrangler's own apply, as `npm start`, `npm run worker:dev` and
 * `npm run seed:local` run it (add `--persist-to <folder>` for a D1 outside worker/.wrangler).
 * Run with CI=true, which answers its "apply migrations?" prompt: a local D1 needs no confirming.
 */
export const APPLY_LOCAL_MIGRATIONS = ['d1', 'migrations', 'apply', 'DB', '--local'];

/** No Cloudflare lookups and no metrics: this machine reaches only the npm registry. */
export const WRANGLER_ENV = {...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false'};

/**
 * wrangler reads worker/.dev.vars (and jest with wrangler's helpers needs it to exist): made from
 * the documented example when missing. Returns whether it was made now.
 */
export function ensureDevVars(): boolean {
  const devVars = path.join(WORKER_DIR, '.dev.vars');
  if (fs.existsSync(devVars)) return false;
  fs.copyFileSync(path.join(WORKER_DIR, '.dev.vars.example'), devVars);
  return true;
}

/** The worker's compatibility date, read from wrangler.jsonc so nothing repeats it. */
export function workerCompatibilityDate(): string {
  // Loaded here only: importing wrangler installs its own SIGINT handler, which exits at once and
  // would leave `npm start`'s children running.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const {unstable_readConfig} = require('wrangler') as typeof import('wrangler');
  const date = unstable_readConfig({config: path.join(WORKER_DIR, 'wrangler.jsonc')}).compatibility_date;
  if (!date) throw new Error('worker/wrangler.jsonc has no compatibility_date');
  return date;
}

/** Runs a wrangler command to its end; its output only if it fails. */
export function wranglerSync(args: string[], cwd: string, env: Record<string, string> = {}) {
  const result = spawnSync(WRANGLER, args, {cwd, env: {...WRANGLER_ENV, ...env}, encoding: 'utf8'});
  if (result.status !== 0) {
    throw new Error(`wrangler ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  }
}
