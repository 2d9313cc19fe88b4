import {appConfig} from '../../../src/config';
import type {Context} from '../context';
import {log} from '../log';
import {reconcileExtraGrantsSoon} from './extraGrants';
import {type Repository, repositoryFor} from './github';
import {type Grant, type GrantStatus} from './grants';
import {placeInQueue, type QueuePlace} from './invitationQueue';
import {removalUnderWay} from './removal';

/**
 * What the dashboard and the console read of a seat: the record, GitHub's word on a pending
 * invitation, and a queued invitation's place in line.
 */

/** Polling the dashboard must not spend the token's quota: GitHub is read once a minute per grant. */
export const CHECK_EVERY_MS = 60_000;

export interface ObservedGrant {
  status: GrantStatus;
  username: string;
  detail?: string;
  expired: boolean;
  usernameChanges: number;
  usernameChangesLeft: number;
  /** A queued invitation that waits for GitHub's cap: its place and when it is expected. */
  queue?: QueuePlace;
  /** A revoked grant whose removal from GitHub is still being tried (removal.ts `removalUnderWay`). */
  removing?: boolean;
}

/** A GitHub read that failed is tried again after this, not at the next poll. */
export const RETRY_FAILED_READ_MS = 15_000;

/**
 * An accepted seat's login is read again at most this often: GitHub lets an account change its
 * login at any time, and the grant follows the numeric id, so the dashboard and the console
 * catch up with a rename within the hour.
 */
export const LOGIN_CHECK_EVERY_MS = 3600_000;

/**
 * Records the account's login of today when it is not the stored one (only while the grant is
 * still the one read: `version`), and answers the login to show. A null login (GitHub did not
 * say) leaves the stored one.
 */
async function renamed(db: D1Database, grant: Grant, login: string | null): Promise<string> {
  if (login === null || login === grant.github_username) return grant.github_username;
  await db
    .prepare(`UPDATE grants SET github_username = ?3 WHERE repository_key = 'kit' AND session_id = ?1 AND version = ?2`)
    .bind(grant.session_id, grant.version, login)
    .run();
  log.info('access.login_renamed', {
    sessionId: grant.session_id,
    githubUserId: grant.github_user_id,
    from: grant.github_username,
    to: login,
  });
  return login;
}

/**
 * The account's login today, by the numeric id the grant follows (recorded when it changed). Null
 * when GitHub has no such account any more, or the grant predates numeric ids.
 */
async function currentLogin(db: D1Database, repository: Repository, grant: Grant): Promise<string | null> {
  if (grant.github_user_id === null) return null;
  const login = await repository.loginOf(grant.github_user_id);
  return login === null ? null : renamed(db, grant, login);
}

/**
 * Claims the grant's GitHub read in D1: true for the one request that may ask GitHub now (its
 * last read is older than `everyMs`, or `fresh`), false for those alongside it.
 */
async function claimRead(
  db: D1Database,
  grant: Grant,
  status: 'pending' | 'active',
  now: number,
  fresh: boolean,
  everyMs: number,
) {
  const claimed = await db
    .prepare(
      `UPDATE grants SET checked_at = ?3
       WHERE repository_key = 'kit' AND session_id = ?1 AND version = ?2 AND status = ?6
         AND (?4 = 1 OR checked_at IS NULL OR checked_at <= ?3 - ?5)
       RETURNING session_id`,
    )
    .bind(grant.session_id, grant.version, now, fresh ? 1 : 0, everyMs, status)
    .first();
  return claimed !== null;
}

/** An active seat, with its login as GitHub says today (asked at most hourly, by one request). */
async function observeActive(
  context: Context,
  grant: Grant,
  base: ObservedGrant,
  fresh: boolean,
): Promise<ObservedGrant> {
  const {db} = context;
  const now = Date.now();
  if (grant.github_user_id === null) return base;
  if (!(await claimRead(db, grant, 'active', now, fresh, LOGIN_CHECK_EVERY_MS))) return base;
  try {
    const login = await currentLogin(db, repositoryFor(context), grant);
    return login ? {...base, username: login} : base;
  } catch (err) {
    log.warn('access.login_unread', {
      sessionId: grant.session_id,
      error: err instanceof Error ? err.message : String(err),
    });
    return base;
  }
}

/**
 * A grant as GitHub sees it: an accepted invitation becomes `active`, and a pending one says
 * whether it expired. GitHub is asked at most once a minute per grant (`fresh` asks now), by the
 * one request whose conditional UPDATE claims the read in D1; requests alongside it, and those
 * within the minute, show the stored state. If GitHub cannot answer, the stored state is shown
 * and GitHub is asked again after RETRY_FAILED_READ_MS.
 */
export async function observeGrant(context: Context, grant: Grant, {fresh = false} = {}): Promise<ObservedGrant> {
  const {db, settings} = context;
  const base = {
    status: grant.status,
    username: grant.github_username,
    detail: grant.detail ?? undefined,
    expired: grant.invitation_expired === 1,
    usernameChanges: grant.username_changes,
    usernameChangesLeft: Math.max(0, appConfig.repository.maxUsernameChanges - grant.username_changes),
  };
  if (grant.status === 'queued') {
    const queue = settings.GITHUB_REPO
      ? await placeInQueue(context, settings.GITHUB_REPO, {sessionId: grant.session_id, key: 'kit'})
      : null;
    return {...base, expired: false, ...(queue && {queue})};
  }
  if (grant.status === 'active') return observeActive(context, grant, {...base, expired: false}, fresh);
  if (grant.status === 'revoked' && (await removalUnderWay(db, grant)))
    return {...base, expired: false, removing: true};
  if (grant.status !== 'pending') return {...base, expired: false};
  const now = Date.now();
  if (!fresh && grant.checked_at !== null && now - grant.checked_at < CHECK_EVERY_MS) return base;
  // Another request is asking GitHub, or just did.
  if (!(await claimRead(db, grant, 'pending', now, fresh, CHECK_EVERY_MS))) return base;
  try {
    const repository = repositoryFor(context);
    // An open invitation names its invitee as they are called today; one that is gone was
    // accepted (or withdrawn by hand), and the numeric id then says who to look for.
    const invitation = (await repository.invitations()).find((candidate) => candidate.id === grant.invitation_id);
    if (invitation && !invitation.expired) {
      const login = await renamed(db, grant, invitation.inviteeLogin);
      await db
        .prepare(
          `UPDATE grants SET checked_at = ?3, invitation_expired = 0 WHERE repository_key = 'kit' AND session_id = ?1 AND version = ?2 AND status = 'pending'`,
        )
        .bind(grant.session_id, grant.version, now)
        .run();
      return {...base, username: login, expired: false};
    }
    const current = await currentLogin(db, repository, grant);
    // An account GitHub no longer knows by its id accepted nothing: its old login may be someone
    // else's now, so it is not asked about.
    const gone = current === null && grant.github_user_id !== null;
    const login = current ?? grant.github_username;
    if (!gone && (await repository.isCollaborator(login))) {
      await db
        .prepare(
          `UPDATE grants SET status = 'active', checked_at = ?3, invitation_expired = 0, updated_at = ?3
           WHERE repository_key = 'kit' AND session_id = ?1 AND version = ?2 AND status = 'pending'`,
        )
        .bind(grant.session_id, grant.version, now)
        .run();
      await reconcileExtraGrantsSoon(context, grant.session_id, `active:${grant.version}`);
      return {...base, username: login, status: 'active', expired: false};
    }
    await db
      .prepare(
        `UPDATE grants SET checked_at = ?3, invitation_expired = 1 WHERE repository_key = 'kit' AND session_id = ?1 AND version = ?2 AND status = 'pending'`,
      )
      .bind(grant.session_id, grant.version, now)
      .run();
    return {...base, username: login, expired: true};
  } catch (err) {
    log.warn('access.status_unread', {
      sessionId: grant.session_id,
      error: err instanceof Error ? err.message : String(err),
    });
    // The claim holds for RETRY_FAILED_READ_MS instead of the minute.
    await db
      .prepare(
        `UPDATE grants SET checked_at = ?4 WHERE repository_key = 'kit' AND session_id = ?1 AND version = ?2 AND checked_at = ?3`,
      )
      .bind(grant.session_id, grant.version, now, now - CHECK_EVERY_MS + RETRY_FAILED_READ_MS)
      .run();
    return base;
  }
}

/**
 * Whether the grant's invitation is one to send again: pending, not accepted, and expired, as
 * GitHub says now. Anything else (accepted, still valid, failed, revoked) must be left as it is:
 * resending marks the grant failed before it invites again.
 */
export async function invitationExpired(context: Context, grant: Grant): Promise<boolean> {
  if (grant.status !== 'pending') return false;
  const seen = await observeGrant(context, grant, {fresh: true});
  return seen.status === 'pending' && seen.expired;
}
