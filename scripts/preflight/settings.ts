/**
 * What a deploy will use, read where the deploy reads it: the site's `.env` under the shell's
 * environment (the build's), and for the worker the `vars` of its wrangler environment, over the
 * secret values from `--secrets <file>` and the shell. Cloudflare never gives a secret's value
 * back, so the values to test come from this machine; Cloudflare says which names are set.
 */
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {parse as parseEnv} from 'dotenv';
import {WORKER_DIR, WRANGLER} from '../wrangler';
import type {WorkerConfig} from './cloudflare';
import type {Vars} from './lines';

export interface PreflightSettings {
  /** The wrangler environment deployed. */
  env: string;
  site: Vars;
  worker: Vars;
  config: WorkerConfig;
}

export interface SettingsSources {
  root: string;
  env: string;
  /** A dotenv file of the worker's secret values, kept outside the repository. */
  secretsFile?: string;
  processEnv: Vars;
  /** worker/wrangler.jsonc, or another for tests. */
  wranglerConfig?: string;
}

const readVars = (file: string): Vars => (fs.existsSync(file) ? parseEnv(fs.readFileSync(file)) : {});

/** The worker's variable names, as its documented example lists them. */
function workerVariableNames(): string[] {
  return Object.keys(readVars(path.join(WORKER_DIR, '.dev.vars.example')));
}

export function readSettings(sources: SettingsSources): PreflightSettings {
  const {root, env, secretsFile, processEnv} = sources;
  if (secretsFile && !fs.existsSync(secretsFile)) throw new Error(`--secrets ${secretsFile}: no such file`);
  const config = readWorkerConfig(sources.wranglerConfig ?? path.join(WORKER_DIR, 'wrangler.jsonc'), env);
  const shell = Object.fromEntries(
    workerVariableNames()
      .filter((name) => processEnv[name] !== undefined)
      .map((name) => [name, processEnv[name]]),
  );
  const deployedVars = Object.fromEntries(Object.entries(config.vars).map(([name, value]) => [name, String(value)]));
  return {
    env,
    site: {...readVars(path.join(root, '.env')), ...processEnv},
    worker: {...(secretsFile ? readVars(secretsFile) : {}), ...shell, ...deployedVars},
    config,
  };
}

/** The environment's bindings and vars, as wrangler itself resolves them. */
export function readWorkerConfig(file: string, env: string): WorkerConfig {
  // Loaded here only: importing wrangler installs its own SIGINT handler (see ../wrangler.ts).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const {unstable_readConfig} = require('wrangler') as typeof import('wrangler');
  const config = unstable_readConfig({config: file, env});
  return {d1_databases: config.d1_databases, vars: config.vars as Record<string, unknown>};
}

/** Runs wrangler in worker/ for the preflight; throws its error line when it fails. */
function wranglerOutput(args: string[]): string {
  const result = spawnSync(WRANGLER, args, {
    cwd: WORKER_DIR,
    env: {...process.env, WRANGLER_SEND_METRICS: 'false'},
    encoding: 'utf8',
  });
  // The command's words, for the message: `wrangler secret list`, `wrangler d1 migrations list`.
  const firstFlag = args.findIndex((arg) => arg.startsWith('-'));
  const command = args
    .slice(0, firstFlag < 0 ? args.length : firstFlag)
    .slice(0, 3)
    .join(' ');
  if (result.status !== 0)
    throw new Error(`wrangler ${command} failed: ${wranglerError(`${result.stderr}\n${result.stdout}`)}`);
  return result.stdout;
}

/** The names of the environment's secrets, from Cloudflare (needs `wrangler login`). */
export async function wranglerSecretNames(env: string): Promise<string[]> {
  const stdout = wranglerOutput(['secret', 'list', '--env', env, '--format', 'json']);
  const json = stdout.slice(stdout.indexOf('['));
  return (JSON.parse(json) as {name: string}[]).map((secret) => secret.name);
}

/**
 * The migrations not yet applied to the environment's database on Cloudflare. `args` are the
 * database's location: `--remote` for the deploy; tests pass `--local --persist-to <dir>`.
 */
export async function wranglerPendingMigrations(env: string, args: string[] = ['--remote']): Promise<string[]> {
  return pendingMigrationNames(wranglerOutput(['d1', 'migrations', 'list', 'DB', '--env', env, ...args]));
}

/** The file names in `wrangler d1 migrations list`'s table (it has no JSON output). */
export function pendingMigrationNames(output: string): string[] {
  return [...output.matchAll(/\b\d+_[\w-]+\.sql\b/g)].map((match) => match[0]);
}

/** wrangler's ERROR line, without its colours (or its last words when it printed none). */
function wranglerError(output: string): string {
  const plain = output
    // eslint-disable-next-line no-control-regex -- the escape that starts a terminal colour
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const error = plain.find((line) => line.includes('[ERROR]'));
  return (
    error ??
    plain
      .filter((line) => !line.startsWith('🪵'))
      .slice(-2)
      .join(' ')
  ).replace(/^✘ \[ERROR\] /, '');
}
