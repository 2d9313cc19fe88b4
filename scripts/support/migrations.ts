/**
 * The D1 migrations of `worker/migrations/`, as files: their order, and which of them move data.
 * A migration that copies or changes rows (not only the schema) says so on a line of its leading
 * comment, `-- Moves data: what moves where.`: going back past it takes the database back too (D1
 * Time Travel), not only the worker, so the preflight warns before a deploy applies one and
 * `npm run deploy` prints the time to restore to (docs: deployment, "Migrations, and going back").
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {WORKER_DIR} from '../wrangler';

const MIGRATIONS_DIR = path.join(WORKER_DIR, 'migrations');

/** The files of `worker/migrations`, in the order Wrangler applies them. */
export function migrationFiles(): string[] {
  return fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((name) => name.endsWith('.sql'))
    .sort();
}

export function migrationText(file: string): string {
  return fs.readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8');
}

/** Where the splits of `migrationStatements` are kept, one file a migration text and wrangler version. */
const SPLITS_DIR = path.join(WORKER_DIR, '..', 'node_modules', '.cache', 'migration-statements');
/** wrangler's version, read from its package.json (a few bytes; its code is what is slow to load). */
export const wranglerVersion = () =>
  (JSON.parse(fs.readFileSync(require.resolve('wrangler/package.json'), 'utf8')) as {version: string}).version;

/**
 * One migration's statements, split as Wrangler splits them (`wrangler d1 migrations apply`), to
 * run in one batch. Loading wrangler takes about a second of processor time, and jest loads it
 * afresh in every test file that starts a worker: the split is kept by the hash of the text and
 * wrangler's version, so wrangler is loaded once per change of either, not once per file.
 */
export function migrationStatements(file: string): string[] {
  const text = migrationText(file);
  // Another wrangler may split otherwise: its version is part of the key.
  const key = crypto.createHash('sha256').update(`${wranglerVersion()}\n${text}`).digest('hex');
  const kept = path.join(SPLITS_DIR, `${key}.json`);
  if (fs.existsSync(kept)) return JSON.parse(fs.readFileSync(kept, 'utf8')) as string[];
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const {unstable_splitSqlQuery} = require('wrangler') as typeof import('wrangler');
  const statements = unstable_splitSqlQuery(text);
  // Written aside, then renamed: a test file beside this one reads the whole split or none.
  fs.mkdirSync(SPLITS_DIR, {recursive: true});
  const aside = `${kept}.${process.pid}`;
  fs.writeFileSync(aside, JSON.stringify(statements));
  fs.renameSync(aside, kept);
  return statements;
}

/** What a migration's `-- Moves data:` line says moves, or null for one that changes the schema only. */
export function movedData(sql: string): string | null {
  return /^-- Moves data: (.+)$/m.exec(sql)?.[1]?.trim() ?? null;
}

/**
 * How to take the database of env `env` back to `time` (RFC 3339), and the worker with it: D1 Time
 * Travel restores any minute of its retention window; the worker of that time reads what it held.
 */
export function restoreCommands(env: string, time: string): string {
  return `cd worker && npx wrangler d1 time-travel restore DB --env ${env} --timestamp=${time}, then npx wrangler rollback --env ${env}`;
}

/**
 * What `npm run deploy` prints just before it applies the migrations: the time the database is at
 * (to the second, as Time Travel's --timestamp takes it) and how to go back to it.
 */
export function beforeMigrationsLine(env: string, now: Date): string {
  const time = now.toISOString().replace(/\.\d+Z$/, 'Z');
  return `[deploy] The D1 database before the migrations is that of ${time}. To go back to it: ${restoreCommands(env, time)}`;
}
