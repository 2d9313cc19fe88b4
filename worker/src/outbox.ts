import type {Context} from './context';
import {claim, dueJobIds, type Job, type JobKind, markDone, markFailed, release} from './jobs';
import {log} from './log';
import {NextRun, SUBREQUESTS_PER} from './subrequests';

/**
 * Runs outbox jobs: at once after the request that queued them, and from the cron until done.
 * Each kind of job is registered here by the module that owns its work (mail.ts, access/), so the
 * outbox knows how to run a job without knowing what it is for.
 */
export interface JobHandler<Payload> {
  run(context: Context, payload: Payload): Promise<void>;
  /** Called once when the outbox gives up on a job: whatever must not look done is marked here. */
  gaveUp?(context: Context, payload: Payload, error: string): Promise<void>;
}

const handlers = new Map<JobKind, JobHandler<never>>();

export function registerJob<Payload>(kind: JobKind, handler: JobHandler<Payload>) {
  handlers.set(kind, handler as JobHandler<never>);
}

function handlerOf(job: Job): JobHandler<unknown> {
  const handler = handlers.get(job.kind);
  // Thrown as an ordinary failure: the job is retried later rather than lost.
  if (!handler) throw new Error(`No handler is registered for jobs of kind ${job.kind}`);
  return handler as JobHandler<unknown>;
}

/** Claims and runs one job; a failure is recorded for the next attempt, never thrown. */
export async function runJob(context: Context, id: number): Promise<void> {
  const job = await claim(context.db, id);
  if (!job) return; // done, failed for good, not due yet, or running elsewhere
  await runClaimed(context, job);
}

/** Runs a job this request holds the lease of (claimed, or added claimed); never throws. */
export async function runClaimed(context: Context, job: Job): Promise<void> {
  try {
    await handlerOf(job).run(context, JSON.parse(job.payload));
    await markDone(context.db, job);
    log.info('job.done', {jobId: job.id, kind: job.kind, attempts: job.attempts});
  } catch (err) {
    if (err instanceof NextRun) {
      await release(context.db, job);
      log.info('job.deferred', {jobId: job.id, kind: job.kind, reason: err.message});
      return;
    }
    const outcome = await markFailed(context.db, job, err);
    const fields = {jobId: job.id, kind: job.kind, attempts: job.attempts, outcome, error: String(err)};
    if (outcome === 'retrying') {
      log.warn('job.failed', fields);
      return;
    }
    // Given up: someone has to look at it.
    log.error('job.gave_up', fields);
    await handlers.get(job.kind)?.gaveUp?.(context, JSON.parse(job.payload) as never, String(err));
  }
}

/**
 * The scheduled handler's work: due jobs, oldest first, as many as the invocation's subrequests
 * allow (at most `limit`); the rest wait for the next run. Answers how many ran.
 */
export async function runDueJobs(context: Context, limit = 50): Promise<number> {
  const ids = await dueJobIds(context.db, limit);
  let ran = 0;
  for (const id of ids) {
    if (!context.subrequests.has(SUBREQUESTS_PER.job)) break;
    await runJob(context, id);
    ran += 1;
  }
  return ran;
}
