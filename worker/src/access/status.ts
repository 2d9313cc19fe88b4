import {appConfig} from '../../../src/config';
import type {Context} from '../context';
import {log} from '../log';
import {repositoryFor} from './github';
import {type Grant, type GrantStatus} from './grants';
import {placeInQueue, type QueuePlace} from './invitationQueue';

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
}

/** A GitHub read that failed is tried again after this, not at the next poll. */
export const RETRY_FAILED_READ_MS = 15_000;

/**
 * A grant as GitHub sees it: an accepted invitation becomes `active`, and a pending one says
 * whether it expired. GitHub is asked at most once a minute per grant (`fresh` asks now), by the
 * one request whose conditional UPDATE claims the read in D1; requests alongside it, and those
 * within the minute, show the stored state. If GitHub cannot answer, the stored state is shown
 * and GitHub is asked again after RETRY_FAILED_READ_MS.
 */
export async function observeGrant({db, settings}: Context, grant: Grant, {fresh = false} = {}): Promise<ObservedGrant> {
  const base = {
    status: grant.status,
    username: grant.github_username,
    detail: grant.detail ?? undefined,
    expired: grant.invitation_expired === 1,
    usernameChanges: grant.username_changes,
    usernameChangesLeft: Math.max(0, appConfig.repository.maxUsernameChanges - grant.username_changes),
  };
  if (grant.status === 'queued') {
    const queue = settings.GITHUB_REPO ? await placeInQueue(db, settings.GITHUB_REPO, grant.session_id) : null;
    return {...base, expired: false, ...(queue && {queue})};
  }
  if (grant.status !== 'pending') return {...base, expired: false};
  const now = Date.now();
  if (!fresh && grant.checked_at !== null && now - grant.checked_at < CHECK_EVERY_MS) return base;
  const claimed = await db
    .prepare(
      `UPDATE access_grants SET checked_at = ?3
       WHERE session_id = ?1 AND version = ?2 AND status = 'pending'
         AND (?4 = 1 OR checked_at IS NULL OR checked_at <= ?3 - ?5)
       RETURNING session_id`,
    )
    .bind(grant.session_id, grant.version, now, fresh ? 1 : 0, CHECK_EVERY_MS)
    .first();
  if (!claimed) return base; // another request is asking GitHub, or just did
  try {
    const repository = repositoryFor(settings);
    if (await repository.isCollaborator(grant.github_username)) {
      await db
        .prepare(
          `UPDATE access_grants SET status = 'active', checked_at = ?3, invitation_expired = 0, updated_at = ?3
           WHERE session_id = ?1 AND version = ?2 AND status = 'pending'`,
        )
        .bind(grant.session_id, grant.version, now)
        .run();
      return {...base, status: 'active', expired: false};
    }
    const invitation = (await repository.invitations()).find((candidate) => candidate.id === grant.invitation_id);
    const expired = invitation === undefined || invitation.expired;
    await db
      .prepare(
        `UPDATE access_grants SET checked_at = ?3, invitation_expired = ?4
         WHERE session_id = ?1 AND version = ?2 AND status = 'pending'`,
      )
      .bind(grant.session_id, grant.version, now, expired ? 1 : 0)
      .run();
    return {...base, expired};
  } catch (err) {
    log.warn('access.status_unread', {sessionId: grant.session_id, error: err instanceof Error ? err.message : String(err)});
    // The claim holds for RETRY_FAILED_READ_MS instead of the minute.
    await db
      .prepare(`UPDATE access_grants SET checked_at = ?4 WHERE session_id = ?1 AND version = ?2 AND checked_at = ?3`)
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

