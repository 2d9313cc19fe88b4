import type {Context} from '../context';
import {enqueue, hasPendingJobs} from '../jobs';
import {log} from '../log';
import {registerJob, runJob} from '../outbox';
import {repositoryFor} from './github';
import type {Grant} from './grants';
import {takeOffGitHub} from './takeOff';

/** Taking off GitHub what this worker created for a grant: through the outbox's `github-remove` job. */

/** A removal job's payload: the grant version it is for, and what that version created on GitHub. */
export interface RemovalPayload {
  sessionId: string;
  version: number;
  /** The invitation the grant recorded; null for one whose answer was lost (found by `attemptedAt`). */
  invitationId: number | null;
  githubUserId: number | null;
  /** When the grant last asked GitHub for an invitation whose answer never came (lostAnswer.ts). */
  attemptedAt?: number;
}

/** The start of the keys of a grant version's removal jobs (one per invitation it recorded). */
const removalKeys = (grant: Pick<Grant, 'session_id' | 'version'>) => `remove:${grant.session_id}:${grant.version}:`;

/**
 * Whether a grant taken away still waits for its removal from GitHub: GitHub did not answer the
 * first try, and the outbox tries again (until it gives up: `removal_failed`). Until then the
 * account may still be on the repository, and the buyer's dashboard says so.
 */
export function removalUnderWay(db: D1Database, grant: Pick<Grant, 'session_id' | 'version'>): Promise<boolean> {
  return hasPendingJobs(db, removalKeys(grant));
}

/**
 * Queues the removal of what this worker created for a grant (its invitation, and the account
 * that accepted it) and tries it at once; the cron retries failures. A grant with no invitation
 * recorded created nothing on GitHub, unless it asked GitHub and the answer was lost: the
 * invitation that attempt may have created is looked for, and withdrawn.
 */
export async function removeNowOrLater(context: Context, grant: Grant, reason: string) {
  const lost = grant.invitation_id === null && grant.invite_attempted_at !== null && grant.github_user_id !== null;
  if (grant.invitation_id === null && !lost) return;
  const payload: RemovalPayload = {
    sessionId: grant.session_id,
    version: grant.version,
    invitationId: grant.invitation_id,
    githubUserId: grant.github_user_id,
    ...(lost && {attemptedAt: grant.invite_attempted_at!}),
  };
  const id = await enqueue(context.db, {
    key: `${removalKeys(grant)}${grant.invitation_id ?? 'lost-answer'}`,
    kind: 'github-remove',
    sessionId: grant.session_id,
    payload,
  });
  log.info('access.removal_queued', {sessionId: grant.session_id, reason, jobId: id});
  if (id !== null) await runJob(context, id);
}

/**
 * The outbox's `github-remove` job: takes off the kit's repository what the grant version created
 * (takeOff.ts); another live grant's invitation or account is left alone.
 */
export function performRemoval(context: Context, payload: RemovalPayload) {
  return takeOffGitHub(
    context,
    repositoryFor(context),
    {...payload, attemptedAt: payload.attemptedAt ?? null},
    payload,
  );
}

/** A removal that had failed for good went through after all (a retry): the grant is revoked. */
export async function removalSucceeded(db: D1Database, payload: RemovalPayload) {
  await db
    .prepare(
      `UPDATE grants SET status = 'revoked', detail = NULL, updated_at = ?3
       WHERE repository_key = 'kit' AND session_id = ?1 AND version = ?2 AND status = 'removal_failed'`,
    )
    .bind(payload.sessionId, payload.version, Date.now())
    .run();
}

/**
 * The outbox gave up on a removal: a refunded buyer may still be on GitHub, so the grant must not
 * look removed. A removal for an account the purchase already moved away from has no grant row
 * left to mark; the failed job and the error log are its record.
 */
export async function removalGaveUp(db: D1Database, payload: RemovalPayload, error: string) {
  const marked = await db
    .prepare(
      `UPDATE grants SET status = 'removal_failed', detail = 'The GitHub account could not be removed', updated_at = ?3
       WHERE repository_key = 'kit' AND session_id = ?1 AND version = ?2 AND status = 'revoked'
       RETURNING session_id`,
    )
    .bind(payload.sessionId, payload.version, Date.now())
    .first();
  log.error('access.removal_failed', {
    sessionId: payload.sessionId,
    githubUserId: payload.githubUserId,
    invitationId: payload.invitationId,
    grantMarked: marked !== null,
    error,
  });
}

registerJob<RemovalPayload>('github-remove', {
  run: async (context, payload) => {
    await performRemoval(context, payload);
    await removalSucceeded(context.db, payload);
  },
  gaveUp: (context, payload, error) => removalGaveUp(context.db, payload, error),
});
