/**
 * `npm run secrets -- <file> [--env site] [--dry-run]`: uploads the secrets of one environment of
 * the worker in one go, with Wrangler's own `wrangler secret bulk`, once the file passes the checks
 * a mistake there would otherwise fail only at the next deploy or the first buyer:
 * - an empty value (it would replace a good secret with nothing);
 * - a name that is a var of that environment in worker/wrangler.jsonc (Cloudflare refuses a
 *   secret and a var of one name, and the deploy then fails);
 * - a development-only setting (the emulator's host, a stand-in's URL), which on a deployed worker
 *   points sign-in or payments at nothing.
 * A name the worker does not read (not in worker/.dev.vars.example) is a warning: a typo, most
 * likely. Nothing is uploaded when anything is refused. `--dry-run` checks and uploads nothing.
 */
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {parse as parseEnv} from 'dotenv';
import {DEVELOPMENT_ONLY} from './preflight/cloudflare';
import {readWorkerConfig} from './preflight/settings';
import {WORKER_DIR, WRANGLER} from './wrangler';

export interface SecretsReview {
  refused: string[];
  warnings: string[];
}

export function reviewSecrets(
  values: Record<string, string>,
  vars: Record<string, unknown>,
  known: string[],
  env: string,
): SecretsReview {
  const refused: string[] = [];
  const warnings: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    if (value.trim() === '')
      refused.push(`${name} is empty: leave the line out, or it replaces the secret with nothing`);
    if (name in vars)
      refused.push(
        `${name} is a var of env.${env} in worker/wrangler.jsonc: a secret of the same name is refused by Cloudflare. Keep it in one place`,
      );
    if (DEVELOPMENT_ONLY.includes(name))
      refused.push(
        `${name} serves development and tests only: on the deployed worker it points at a stand-in or the emulator. Leave it out`,
      );
    if (!known.includes(name))
      warnings.push(`${name} is not a variable the worker reads (worker/.dev.vars.example): a typo?`);
  }
  return {refused, warnings};
}

function main() {
  const args = process.argv.slice(2);
  const dryRun = args.includes('--dry-run');
  const envAt = args.indexOf('--env');
  const env = envAt >= 0 ? args[envAt + 1] : 'site';
  const file = args.find((arg, index) => !arg.startsWith('--') && (envAt < 0 || index !== envAt + 1));
  if (!file || !env || !fs.existsSync(file)) {
    console.error(
      'Usage: npm run secrets -- <file> [--env site] [--dry-run]   (a .env-format file kept outside the repository)',
    );
    process.exit(2);
  }
  const values = parseEnv(fs.readFileSync(file));
  const {vars} = readWorkerConfig(path.join(WORKER_DIR, 'wrangler.jsonc'), env);
  const known = Object.keys(parseEnv(fs.readFileSync(path.join(WORKER_DIR, '.dev.vars.example'))));
  const {refused, warnings} = reviewSecrets(values, vars ?? {}, known, env);
  for (const line of warnings) console.warn(`[secrets] warn: ${line}`);
  if (refused.length > 0) {
    for (const line of refused) console.error(`[secrets] refused: ${line}`);
    console.error('[secrets] Nothing was uploaded.');
    process.exit(2);
  }
  const names = Object.keys(values);
  if (dryRun) {
    console.log(`[secrets] --dry-run: would upload ${names.length} secrets to env.${env}: ${names.join(', ')}`);
    return;
  }
  const result = spawnSync(WRANGLER, ['secret', 'bulk', path.resolve(file), '--env', env], {
    cwd: WORKER_DIR,
    stdio: 'inherit',
  });
  process.exit(result.status ?? 1);
}

if (require.main === module) main();
