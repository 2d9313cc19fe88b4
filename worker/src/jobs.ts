/**
 * The outbox: outgoing work (GitHub calls, e-mails) kept in D1 until it succeeds or fails for
 * good. A job's key makes enqueueing idempotent; claiming pushes `run_after` into the future as a
 * lease, so a job runs in one place at a time even when a request and the cron race for it.
 */
import type {AdminJob} from '../../src/config/api';

/** The kinds of job, as the contract lists them for the console's Failures page (src/config/apiSchemas.ts `adminJob`). */
export type JobKind = AdminJob['kind'];

export interface Job {
  id: number;
  key: string;
  kind: JobKind;
  payload: string;
  attempts: number;
}

/** A failure worth retrying later (a rate limit, a 5xx, the network). */
export class RetryableError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** A failure that retrying will not fix (a 4xx other than a rate limit). */
export class PermanentError extends Error {}

export const MAX_ATTEMPTS = 12;
const LEASE_MS = 5 * 60_000;
const MAX_BACKOFF_MS = 6 * 3600_000;

export interface NewJob {
  key: string;
  kind: JobKind;
  payload: unknown;
  runAfter?: number;
  /** The purchase the job works for, so the seller's console can list it there. */
  sessionId?: string;
}

/**
 * The statement that adds a job, for a batch that must store it with something else. `onlyIf`, an
 * SQL condition that may bind ?7, is checked when the statement runs: a batch queues the job only
 * when its earlier statements left the state that calls for it.
 */
export function enqueueStatement(
  db: D1Database,
  job: NewJob,
  now = Date.now(),
  onlyIf?: {sql: string; param: unknown},
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO jobs (key, kind, payload, run_after, created_at, updated_at, session_id)
       SELECT ?1, ?2, ?3, ?4, ?5, ?5, ?6 WHERE ${onlyIf?.sql ?? 'TRUE'}
       ON CONFLICT (key) DO NOTHING
       RETURNING id`,
    )
    .bind(
      job.key,
      job.kind,
      JSON.stringify(job.payload),
      job.runAfter ?? now,
      now,
      job.sessionId ?? null,
      ...(onlyIf ? [onlyIf.param] : []),
    );
}

/**
 * The statement that adds a job already claimed by the request that adds it, which then runs it
 * at once (`runClaimed` in outbox.ts): one round trip fewer than adding, then claiming. If that
 * request dies first, the lease runs out and the cron runs the job. `onlyIf`, an SQL condition
 * that may bind ?7, is checked when the statement runs, so a batch can queue a job only when its
 * earlier statements left the state that calls for it. Answers the claimed job, or no row when
 * the key exists already or the condition is false.
 */
export function enqueueClaimedStatement(
  db: D1Database,
  job: Omit<NewJob, 'runAfter'>,
  onlyIf?: {sql: string; param: unknown},
  now = Date.now(),
): D1PreparedStatement {
  const params = [job.key, job.kind, JSON.stringify(job.payload), now + LEASE_MS, now, job.sessionId ?? null];
  return db
    .prepare(
      `INSERT INTO jobs (key, kind, payload, run_after, created_at, updated_at, session_id, attempts)
       SELECT ?1, ?2, ?3, ?4, ?5, ?5, ?6, 1 WHERE ${onlyIf?.sql ?? 'TRUE'}
       ON CONFLICT (key) DO NOTHING
       RETURNING id, key, kind, payload, attempts`,
    )
    .bind(...params, ...(onlyIf ? [onlyIf.param] : []));
}

/** The job's id, or null when a job with this key already exists. */
export async function enqueue(db: D1Database, job: NewJob, now = Date.now()): Promise<number | null> {
  const row = await enqueueStatement(db, job, now).first<{id: number}>();
  return row?.id ?? null;
}

export async function claim(db: D1Database, id: number, now = Date.now()): Promise<Job | null> {
  return db
    .prepare(
      `UPDATE jobs SET attempts = attempts + 1, run_after = ?2, updated_at = ?3
       WHERE id = ?1 AND status = 'pending' AND run_after <= ?3
       RETURNING id, key, kind, payload, attempts`,
    )
    .bind(id, now + LEASE_MS, now)
    .first<Job>();
}

export async function dueJobIds(db: D1Database, limit: number, now = Date.now()): Promise<number[]> {
  const {results} = await db
    .prepare(`SELECT id FROM jobs WHERE status = 'pending' AND run_after <= ?1 ORDER BY run_after LIMIT ?2`)
    .bind(now, limit)
    .all<{id: number}>();
  return results.map((row) => row.id);
}

export async function markDone(db: D1Database, job: Job, now = Date.now()) {
  await db
    .prepare(`UPDATE jobs SET status = 'done', last_error = NULL, updated_at = ?2 WHERE id = ?1`)
    .bind(job.id, now)
    .run();
}

/** Schedules the next attempt after `retry-after` or an exponential back-off; gives up at last. */
export async function markFailed(db: D1Database, job: Job, err: unknown, now = Date.now()) {
  const message = err instanceof Error ? err.message : String(err);
  const permanent = err instanceof PermanentError || job.attempts >= MAX_ATTEMPTS;
  const backoff = Math.min(60_000 * 2 ** (job.attempts - 1), MAX_BACKOFF_MS);
  const retryAfter = err instanceof RetryableError && err.retryAfterMs !== undefined ? err.retryAfterMs : backoff;
  await db
    .prepare(`UPDATE jobs SET status = ?2, last_error = ?3, run_after = ?4, updated_at = ?5 WHERE id = ?1`)
    .bind(job.id, permanent ? 'failed' : 'pending', message.slice(0, 1000), now + Math.max(0, retryAfter), now)
    .run();
  return permanent ? 'failed' : 'retrying';
}

/**
 * Hands a claimed job back, due now and without counting the attempt: it stopped before doing
 * anything (its invocation had no subrequests left), which is no fault of the job's.
 */
export async function release(db: D1Database, job: Job, now = Date.now()) {
  await db
    .prepare(
      `UPDATE jobs SET attempts = attempts - 1, run_after = ?2, updated_at = ?2 WHERE id = ?1 AND status = 'pending'`,
    )
    .bind(job.id, now)
    .run();
}

/** Whether unfinished jobs exist under a key prefix (an invite waits for its removals). */
export async function hasPendingJobs(db: D1Database, keyPrefix: string): Promise<boolean> {
  const row = await db
    .prepare(`SELECT 1 AS found FROM jobs WHERE status = 'pending' AND substr(key, 1, length(?1)) = ?1 LIMIT 1`)
    .bind(keyPrefix)
    .first();
  return row !== null;
}
