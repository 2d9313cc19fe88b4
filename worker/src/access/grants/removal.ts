import type {Context} from '../../context';
import {enqueue, hasPendingJobs} from '../../jobs';
import {log} from '../../log';
import {registerJob, runJob} from '../../outbox';
import {SUBREQUESTS_PER} from '../../subrequests';
import {repositoryFor} from '../github';
import {type Grant, OWNER_SEAT, type SeatRef, seatPath} from './records';
import {takeOffGitHub} from './takeOff';

/**
 * The one take-back of every repository (the kit's seat and each extra): the grant is recorded
 * revoked first, so nothing sends to it again, then what this worker created for it on GitHub is
 * taken off through the outbox's `github-remove` job, retried by the cron. A removal the outbox
 * gives up on leaves the grant `removal_failed`: the account may still be on the repository, and
 * the console says so until a retry or the audit's fix removes it.
 */

/** What a take-back needs of a grant row, of any repository. */
export type Removable = Pick<
  Grant,
  | 'session_id'
  | 'seat'
  | 'repository_key'
  | 'repository'
  | 'version'
  | 'invitation_id'
  | 'github_user_id'
  | 'invite_attempted_at'
>;

/** The statuses a take-back revokes: every grant not taken back already. */
const TAKEN_BACK_FROM = `('queued', 'pending', 'active', 'failed')`;

/** A removal job's payload: the grant version it is for, and what that version created on GitHub. */
export interface RemovalPayload {
  sessionId: string;
  /** The grant's seat (a job queued before migration 0035 names none: `asToday`). */
  seat: number;
  /** The grant's repository key: 'kit', or an extra repository's. */
  repositoryKey: string;
  /** The repository it was for; null for the kit's (the worker's GITHUB_REPO). */
  repository: string | null;
  version: number;
  /** The invitation the grant recorded; null for one whose answer was lost (found by `attemptedAt`). */
  invitationId: number | null;
  githubUserId: number | null;
  /** When the grant last asked GitHub for an invitation whose answer never came (lostAnswer.ts). */
  attemptedAt?: number;
}

/** The start of the keys of a grant version's removal jobs (one per invitation it recorded). */
const removalKeys = (grant: Pick<Grant, 'session_id' | 'seat' | 'repository_key' | 'version'>) =>
  `remove:${seatPath(grant)}:${grant.repository_key}:${grant.version}:`;

/**
 * Whether a grant taken away still waits for its removal from GitHub: GitHub did not answer the
 * first try, and the outbox tries again (until it gives up: `removal_failed`). Until then the
 * account may still be on the repository, and the buyer's dashboard says so.
 */
export function removalUnderWay(
  db: D1Database,
  grant: Pick<Grant, 'session_id' | 'seat' | 'repository_key' | 'version'>,
): Promise<boolean> {
  return hasPendingJobs(db, removalKeys(grant));
}

/**
 * Takes a grant back: records it revoked (a new version), then removes what this worker created
 * for it. `asRead`: the grant as the caller read it; it is taken back only if its status and
 * invitation are still those (a re-send or an activation meanwhile is the caller's to read
 * again). Without it, any grant that is not taken back already is. Returns the revoked row, or
 * null when there was nothing to take back.
 */
export async function takeBack(
  context: Context,
  grant: Pick<Grant, 'id' | 'session_id'>,
  reason: string,
  asRead?: Pick<Grant, 'invitation_id'> & {status: string},
): Promise<Grant | null> {
  const [revoked] = await revokeAndRemove(context, grant.session_id, reason, {id: grant.id, asRead});
  return revoked ?? null;
}

/**
 * A refund, a lost or open dispute, or the seller's Revoke access: every repository the purchase
 * holds is taken back. Every live grant is recorded revoked in one statement, so that a failure
 * after it (D1, GitHub) leaves none of them live for a retry that may never come (the seller's
 * second Revoke answers 409). Then what each created on GitHub is removed, the kit's first: now,
 * as far as this invocation's subrequests reach, and by the cron's outbox after. A grant already
 * taken back (or whose removal failed) is left as it is. Returns the rows it revoked.
 */
export function takeBackEvery(context: Context, sessionId: string, reason: string): Promise<Grant[]> {
  return revokeAndRemove(context, sessionId, reason, {});
}

/**
 * One seat of a team taken back, every repository it holds: a member removed (team/). The same
 * take-back as a refund's, for that seat alone; the purchase's other seats keep theirs.
 */
export function takeBackSeat(context: Context, at: SeatRef, reason: string): Promise<Grant[]> {
  return revokeAndRemove(context, at.session_id, reason, {seat: at.seat});
}

/**
 * The one statement of every take-back: the purchase's grants (the one grant `id`, else every
 * one of the one `seat`, else of every seat; as read, `asRead`, else any not taken back already)
 * recorded revoked, a new version each; then, the kit's first, what each created on GitHub removed.
 */
async function revokeAndRemove(
  context: Context,
  sessionId: string,
  reason: string,
  {id, seat, asRead}: {id?: number; seat?: number; asRead?: Pick<Grant, 'invitation_id'> & {status: string}},
): Promise<Grant[]> {
  const {results} = await context.db
    .prepare(
      `UPDATE grants SET status = 'revoked', detail = ?2, version = version + 1, waiting_at = NULL, sending_at = NULL, updated_at = ?3
       WHERE session_id = ?1 AND (?4 IS NULL OR id = ?4) AND (?7 IS NULL OR seat = ?7)
         AND CASE WHEN ?5 IS NULL THEN status IN ${TAKEN_BACK_FROM}
                  ELSE status = ?5 AND invitation_id IS ?6 END
       RETURNING *`,
    )
    .bind(
      sessionId,
      reason,
      Date.now(),
      id ?? null,
      asRead?.status ?? null,
      asRead?.invitation_id ?? null,
      seat ?? null,
    )
    .all<Grant>();
  const revoked = results.sort(
    (a, b) =>
      Number(b.repository_key === 'kit') - Number(a.repository_key === 'kit') ||
      a.repository_key.localeCompare(b.repository_key),
  );
  for (const row of revoked) await removeRevoked(context, row, reason);
  return revoked;
}

/** What follows a grant recorded revoked: the log, and the removal of what it created on GitHub. */
async function removeRevoked(context: Context, revoked: Grant, reason: string) {
  log.info('access.revoked', {
    sessionId: revoked.session_id,
    key: revoked.repository_key,
    reason,
    invitationId: revoked.invitation_id,
  });
  await removeNowOrLater(context, revoked, reason);
}

/**
 * Queues the removal of what this worker created for a grant (its invitation, and the account
 * that accepted it) and tries it at once, where this invocation can fit it; the cron retries the
 * rest. A grant with no invitation recorded created nothing on GitHub, unless it asked GitHub and
 * the answer was lost: the invitation that attempt may have created is looked for, and withdrawn. Also the withdrawal of
 * a stale invitation (GitHub created it while the grant changed): the grant as the send read it,
 * with that invitation.
 */
export async function removeNowOrLater(context: Context, grant: Removable, reason: string) {
  const lost = grant.invitation_id === null && grant.invite_attempted_at !== null && grant.github_user_id !== null;
  if (grant.invitation_id === null && !lost) return;
  const payload: RemovalPayload = {
    sessionId: grant.session_id,
    seat: grant.seat,
    repositoryKey: grant.repository_key,
    repository: grant.repository,
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
  log.info('access.removal_queued', {sessionId: grant.session_id, key: grant.repository_key, reason, jobId: id});
  // At once where this invocation can fit the whole removal; a removal begun and cut off half way
  // would leave a withdrawn invitation's account unlooked-for until the next run anyway.
  if (id !== null && context.subrequests.has(SUBREQUESTS_PER.fix)) await runJob(context, id);
}

/**
 * The outbox's `github-remove` job: takes off the grant's repository what the grant version
 * created (takeOff.ts); another live grant's invitation or account is left alone.
 */
export function performRemoval(context: Context, payload: RemovalPayload) {
  return takeOffGitHub(
    context,
    repositoryFor(context, payload.repository ?? undefined),
    {...payload, attemptedAt: payload.attemptedAt ?? null},
    payload,
  );
}

/** A removal that had failed for good went through after all (a retry): the grant is revoked. */
export async function removalSucceeded(db: D1Database, payload: RemovalPayload) {
  await db
    .prepare(
      `UPDATE grants SET status = 'revoked', detail = NULL, updated_at = ?4
       WHERE session_id = ?1 AND seat = ?5 AND repository_key = ?2 AND version = ?3 AND status = 'removal_failed'`,
    )
    .bind(payload.sessionId, payload.repositoryKey, payload.version, Date.now(), payload.seat)
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
      `UPDATE grants SET status = 'removal_failed', detail = 'The GitHub account could not be removed', updated_at = ?4
       WHERE session_id = ?1 AND seat = ?5 AND repository_key = ?2 AND version = ?3 AND status = 'revoked'
       RETURNING session_id`,
    )
    .bind(payload.sessionId, payload.repositoryKey, payload.version, Date.now(), payload.seat)
    .first();
  log.error('access.removal_failed', {
    sessionId: payload.sessionId,
    key: payload.repositoryKey,
    githubUserId: payload.githubUserId,
    invitationId: payload.invitationId,
    grantMarked: marked !== null,
    error,
  });
}

/**
 * A removal as the worker before migration 0031 queued it: a kit's `github-remove` without its
 * repository key, or an extra repository's stale invitation (`extra-withdraw`, no grant version);
 * or as the worker before 0035 did, without the grant's seat (all were the buyer's own). A deploy
 * applies the migrations a minute before the new worker serves, and the worker before it may
 * queue one in that minute: it is read as today's.
 */
type QueuedBefore0031 =
  | (Omit<RemovalPayload, 'seat' | 'repositoryKey' | 'repository'> & {
      seat?: number;
      repositoryKey?: string;
      repository?: string | null;
    })
  | {sessionId: string; key: string; repository: string; invitationId: number; githubUserId: number | null};

function asToday(payload: QueuedBefore0031): RemovalPayload {
  if ('key' in payload)
    return {
      sessionId: payload.sessionId,
      seat: OWNER_SEAT,
      repositoryKey: payload.key,
      repository: payload.repository,
      version: -1,
      invitationId: payload.invitationId,
      githubUserId: payload.githubUserId,
    };
  return {
    ...payload,
    seat: payload.seat ?? OWNER_SEAT,
    repositoryKey: payload.repositoryKey ?? 'kit',
    repository: payload.repository ?? null,
  };
}

const removalJob = {
  run: async (context: Context, queued: QueuedBefore0031) => {
    const payload = asToday(queued);
    await performRemoval(context, payload);
    await removalSucceeded(context.db, payload);
  },
  gaveUp: (context: Context, queued: QueuedBefore0031, error: string) =>
    removalGaveUp(context.db, asToday(queued), error),
};
registerJob<QueuedBefore0031>('github-remove', removalJob);
registerJob<QueuedBefore0031>('extra-withdraw', removalJob);
