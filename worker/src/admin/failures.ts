import type {AdminJob} from '../../../src/config/api';
import type {JobKind} from '../jobs';
import {maskSessionIds} from '../log';

/** The outbox work that needs the seller's eyes: given up for good, or waiting to try again. */
const LIMIT = 200;

export async function failingJobs(db: D1Database): Promise<AdminJob[]> {
  const {results} = await db
    .prepare(
      `SELECT id, kind, status, attempts, last_error, run_after, updated_at, session_id FROM jobs
       WHERE status = 'failed' OR (status = 'pending' AND attempts > 0)
       ORDER BY updated_at DESC LIMIT ${LIMIT}`,
    )
    .all<{
      id: number;
      kind: JobKind;
      status: 'failed' | 'pending';
      attempts: number;
      last_error: string | null;
      run_after: number;
      updated_at: number;
      session_id: string | null;
    }>();
  return results.map((job) => ({
    id: job.id,
    kind: job.kind,
    state: job.status === 'failed' ? 'failed' : 'retrying',
    attempts: job.attempts,
    lastError: job.last_error && maskSessionIds(job.last_error),
    runAfter: job.run_after,
    updatedAt: job.updated_at,
    sessionId: job.session_id,
    removalFailed: (job.kind === 'github-remove' || job.kind === 'extra-withdraw') && job.status === 'failed',
  }));
}

/** Makes a failed or waiting job due now, with a fresh count of attempts; null when there is none. */
export async function makeDue(db: D1Database, id: number): Promise<{session_id: string | null; kind: JobKind} | null> {
  return db
    .prepare(
      `UPDATE jobs SET status = 'pending', attempts = 0, run_after = ?2, updated_at = ?2
       WHERE id = ?1 AND status IN ('failed', 'pending')
       RETURNING session_id, kind`,
    )
    .bind(id, Date.now())
    .first();
}
