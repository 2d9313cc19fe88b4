import type {Context as AccessContext, RemovalPayload} from './access/grants';
import {performInvite, performRemoval, removalGaveUp, removalSucceeded} from './access/grants';
import {claim, dueJobIds, type Job, markDone, markFailed} from './jobs';
import {log} from './log';
import {type MailMessage, sendMail} from './mail';
import {settingsOf} from './settings';

/** Runs outbox jobs: at once after the request that queued them, and from the cron until done. */
export function accessContext(env: Env): AccessContext {
  return {db: env.DB, settings: settingsOf(env), runJob: (id) => runJob(env, id)};
}

async function execute(env: Env, job: Job) {
  const payload = JSON.parse(job.payload);
  switch (job.kind) {
    case 'mail':
      return sendMail(settingsOf(env), payload as MailMessage);
    case 'github-invite':
      await performInvite(accessContext(env), payload.sessionId, payload.version);
      return;
    case 'github-remove':
      await performRemoval(accessContext(env), payload as RemovalPayload);
      await removalSucceeded(env.DB, payload as RemovalPayload);
      return;
  }
}

/** Claims and runs one job; a failure is recorded for the next attempt, never thrown. */
export async function runJob(env: Env, id: number): Promise<void> {
  const job = await claim(env.DB, id);
  if (!job) return; // done, failed for good, not due yet, or running elsewhere
  await runClaimed(env, job);
}

/** Runs a job this request holds the lease of (claimed, or added claimed); never throws. */
export async function runClaimed(env: Env, job: Job): Promise<void> {
  try {
    await execute(env, job);
    await markDone(env.DB, job);
    log.info('job.done', {jobId: job.id, kind: job.kind, attempts: job.attempts});
  } catch (err) {
    const outcome = await markFailed(env.DB, job, err);
    const fields = {jobId: job.id, kind: job.kind, attempts: job.attempts, outcome, error: String(err)};
    if (outcome === 'retrying') {
      log.warn('job.failed', fields);
      return;
    }
    // Given up: someone has to look at it.
    log.error('job.gave_up', fields);
    if (job.kind === 'github-remove') await removalGaveUp(env.DB, JSON.parse(job.payload) as RemovalPayload, String(err));
  }
}

/** The scheduled handler's work: every due job, oldest first, a batch at a time. */
export async function runDueJobs(env: Env, limit = 50): Promise<number> {
  const ids = await dueJobIds(env.DB, limit);
  for (const id of ids) await runJob(env, id);
  return ids.length;
}
