/**
 * The D1 migrations of `worker/migrations/`, as files: their order, and which of them move data.
 * A migration that copies or changes rows (not only the schema) says so on a line of its leading
 * comment, `-- Moves data: what moves where.`: going back past it takes the database back too (D1
 * Time Travel), not only the worker, so the preflight warns before a deploy applies one and
 * `npm run deploy` prints the time to restore to (docs: deployment, "Migrations, and going back").
 */
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
