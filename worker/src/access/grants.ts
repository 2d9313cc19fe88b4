import {enqueue, hasPendingJobs, PermanentError, RetryableError} from '../jobs';
import {log} from '../log';
import type {Settings} from '../settings';
import {GitHubFailure, repositoryFor} from './github';

/**
 * Repository access, granted and revoked in one place (as Polar does for GitHub benefits). D1 is
 * the record: one GitHub account per purchase, GitHub's numeric user id, the invitation id and a
 * status. Every change bumps `version`, so a GitHub answer that arrives after the grant changed
 * (a refund, another username) is recognised as stale and undone rather than recorded.
 */
export type GrantStatus = 'queued' | 'pending' | 'active' | 'revoked' | 'failed';

export interface Grant {
  session_id: string;
  user_id: string;
  github_username: string;
  github_user_id: number | null;
  invitation_id: number | null;
  status: GrantStatus;
  detail: string | null;
  version: number;
}

export type AccessResult = {status: 'invited' | 'active' | 'queued'; retryAfterMs?: number};

/** What access needs: the database, the settings, and a way to run an outbox job at once. */
export interface Context {
  db: D1Database;
  settings: Settings;
  runJob(id: number): Promise<void>;
}

export function readGrant(db: D1Database, sessionId: string) {
  return db.prepare('SELECT * FROM access_grants WHERE session_id = ?1').bind(sessionId).first<Grant>();
}

export function grantForUser(db: D1Database, userId: string) {
  return db
    .prepare('SELECT * FROM access_grants WHERE user_id = ?1 ORDER BY updated_at DESC LIMIT 1')
    .bind(userId)
    .first<Grant>();
}

const live = (grant: Grant | null): grant is Grant =>
  grant !== null && ['queued', 'pending', 'active'].includes(grant.status);

function resultOf(grant: Grant): AccessResult {
  return {status: grant.status === 'active' ? 'active' : grant.status === 'pending' ? 'invited' : 'queued'};
}

/**
 * Points the purchase's access at `github` and invites that account. A different account that had
 * access for this purchase is removed first (its removal is an outbox job the invitation waits for).
 */
export async function requestAccess(
  context: Context,
  request: {sessionId: string; userId: string; github: {login: string; id: number | null}},
): Promise<AccessResult> {
  const {db} = context;
  const current = await readGrant(db, request.sessionId);
  const sameAccount =
    current &&
    (current.github_user_id !== null && request.github.id !== null
      ? current.github_user_id === request.github.id
      : current.github_username.toLowerCase() === request.github.login.toLowerCase());
  if (live(current) && sameAccount) return resultOf(current);

  const now = Date.now();
  const claimed = current
    ? await db
        .prepare(
          `UPDATE access_grants SET github_username = ?2, github_user_id = ?3, invitation_id = NULL,
             status = 'queued', detail = NULL, version = version + 1, user_id = ?5, updated_at = ?6
           WHERE session_id = ?1 AND version = ?4
           RETURNING *`,
        )
        .bind(request.sessionId, request.github.login, request.github.id, current.version, request.userId, now)
        .first<Grant>()
    : await db
        .prepare(
          `INSERT INTO access_grants (session_id, user_id, github_username, github_user_id, status, updated_at)
           VALUES (?1, ?2, ?3, ?4, 'queued', ?5)
           ON CONFLICT (session_id) DO NOTHING
           RETURNING *`,
        )
        .bind(request.sessionId, request.userId, request.github.login, request.github.id, now)
        .first<Grant>();
  if (!claimed) {
    // Another request changed the grant first; report what it decided.
    const winner = await readGrant(db, request.sessionId);
    return winner ? resultOf(winner) : {status: 'queued'};
  }
  if (live(current) && !sameAccount) {
    await removeNowOrLater(context, current, 'replaced by another GitHub account');
  } else if (current?.status === 'failed' && current.invitation_id !== null) {
    // An expired invitation is withdrawn before its replacement goes out.
    await removeNowOrLater(context, current, 'invitation replaced');
  }
  return inviteNowOrLater(context, claimed);
}

/** Tries the invitation now; a transient failure leaves it to the outbox and answers `queued`. */
async function inviteNowOrLater(context: Context, grant: Grant): Promise<AccessResult> {
  try {
    return await performInvite(context, grant.session_id, grant.version);
  } catch (err) {
    if (err instanceof RetryableError) {
      await enqueue(context.db, {
        key: `invite:${grant.session_id}:${grant.version}`,
        kind: 'github-invite',
        payload: {sessionId: grant.session_id, version: grant.version},
        runAfter: Date.now() + (err.retryAfterMs ?? 60_000),
      });
      log.warn('access.invite_queued', {sessionId: grant.session_id, reason: err.message});
      return {status: 'queued', retryAfterMs: err.retryAfterMs};
    }
    throw err;
  }
}

/**
 * Sends the invitation for one version of a grant. Throws RetryableError for transient failures
 * and PermanentError (after recording the grant as failed) for the rest. The outbox's
 * `github-invite` job calls this too.
 */
export async function performInvite(context: Context, sessionId: string, version: number): Promise<AccessResult> {
  const {db, settings} = context;
  const grant = await readGrant(db, sessionId);
  if (!grant || grant.version !== version || grant.status !== 'queued') {
    return grant ? resultOf(grant) : {status: 'queued'};
  }
  if (await hasPendingJobs(db, `remove:${sessionId}:`)) {
    throw new RetryableError('Waiting for the previous GitHub account to be removed', 30_000);
  }
  const repository = repositoryFor(settings);
  try {
    let githubId = grant.github_user_id;
    if (githubId === null) {
      const user = await repository.lookupUser(grant.github_username);
      if (!user) return await recordFailure(db, grant, `GitHub user ${grant.github_username} was not found`);
      githubId = user.id;
    }
    const outcome = await repository.invite(grant.github_username);
    const status = outcome.state === 'invited' ? 'pending' : 'active';
    const invitationId = outcome.state === 'invited' ? outcome.invitationId : null;
    const recorded = await db
      .prepare(
        `UPDATE access_grants SET status = ?3, invitation_id = ?4, github_user_id = ?5, updated_at = ?6
         WHERE session_id = ?1 AND version = ?2 AND status = 'queued'
           AND EXISTS (SELECT 1 FROM purchases WHERE session_id = ?1 AND status = 'paid')
         RETURNING *`,
      )
      .bind(sessionId, version, status, invitationId, githubId, Date.now())
      .first<Grant>();
    if (!recorded) {
      // The grant changed or the purchase was revoked while GitHub answered: undo this invitation.
      await removeNowOrLater(context, {...grant, invitation_id: invitationId}, 'stale invitation');
      const now = await readGrant(db, sessionId);
      return now ? resultOf(now) : {status: 'queued'};
    }
    log.info('access.invited', {sessionId, githubUserId: githubId, status});
    return resultOf(recorded);
  } catch (err) {
    if (!(err instanceof GitHubFailure)) throw err;
    if (err.transient) throw new RetryableError(err.message, err.retryAfterMs);
    return recordFailure(db, grant, err.message);
  }
}

async function recordFailure(db: D1Database, grant: Grant, reason: string): Promise<never> {
  await db
    .prepare(
      `UPDATE access_grants SET status = 'failed', detail = ?3, updated_at = ?4
       WHERE session_id = ?1 AND version = ?2`,
    )
    .bind(grant.session_id, grant.version, reason, Date.now())
    .run();
  log.warn('access.invite_failed', {sessionId: grant.session_id, reason});
  throw new PermanentError(reason);
}

/** Takes access away for a purchase (refund, dispute): the record at once, GitHub through the outbox. */
export async function revokeAccess(context: Context, sessionId: string, reason: string) {
  const revoked = await context.db
    .prepare(
      `UPDATE access_grants SET status = 'revoked', detail = ?2, version = version + 1, updated_at = ?3
       WHERE session_id = ?1 AND status IN ('queued', 'pending', 'active', 'failed')
       RETURNING *`,
    )
    .bind(sessionId, reason, Date.now())
    .first<Grant>();
  if (revoked) await removeNowOrLater(context, revoked, reason);
}

/** Queues the removal of a grant's GitHub account and tries it at once; the cron retries failures. */
async function removeNowOrLater(context: Context, grant: Grant, reason: string) {
  const id = await enqueue(context.db, {
    key: `remove:${grant.session_id}:${grant.version}:${grant.github_username.toLowerCase()}:${grant.invitation_id ?? ''}`,
    kind: 'github-remove',
    payload: {sessionId: grant.session_id, username: grant.github_username, invitationId: grant.invitation_id},
  });
  log.info('access.removal_queued', {sessionId: grant.session_id, reason, jobId: id});
  if (id !== null) await context.runJob(id);
}

/** The outbox's `github-remove` job. */
export async function performRemoval(settings: Settings, payload: {username: string; invitationId: number | null}) {
  try {
    await repositoryFor(settings).remove(payload);
  } catch (err) {
    if (err instanceof GitHubFailure) {
      throw err.transient ? new RetryableError(err.message, err.retryAfterMs) : new PermanentError(err.message);
    }
    throw err;
  }
}

/**
 * A grant as GitHub sees it now: an accepted invitation becomes `active`, and a pending one says
 * whether it expired. If GitHub cannot answer, the stored state is shown as it is.
 */
export async function observeGrant({db, settings}: Context, grant: Grant) {
  const base = {status: grant.status, username: grant.github_username, detail: grant.detail ?? undefined};
  if (grant.status !== 'pending') return {...base, expired: false};
  try {
    const repository = repositoryFor(settings);
    if (await repository.isCollaborator(grant.github_username)) {
      await db.prepare(
        `UPDATE access_grants SET status = 'active', updated_at = ?3 WHERE session_id = ?1 AND version = ?2 AND status = 'pending'`,
      )
        .bind(grant.session_id, grant.version, Date.now())
        .run();
      return {...base, status: 'active' as const, expired: false};
    }
    const invitation = grant.invitation_id === null ? null : await repository.findInvitation(grant.invitation_id);
    return {...base, expired: invitation === null || invitation.expired};
  } catch {
    return {...base, expired: false};
  }
}

/** A fresh invitation for the same account after the last one expired; the old one is withdrawn. */
export async function resendInvitation(context: Context, grant: Grant, userId: string): Promise<AccessResult> {
  await context.db
    .prepare(
      `UPDATE access_grants SET status = 'failed', detail = 'invitation expired', updated_at = ?3
       WHERE session_id = ?1 AND version = ?2`,
    )
    .bind(grant.session_id, grant.version, Date.now())
    .run();
  return requestAccess(context, {
    sessionId: grant.session_id,
    userId,
    github: {login: grant.github_username, id: grant.github_user_id},
  });
}
