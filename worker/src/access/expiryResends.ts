import {appConfig} from '../../../src/config';
import type {Context} from '../context';
import {HttpError} from '../errors';
import {log} from '../log';
import {PermanentError, RetryableError} from '../jobs';
import {SUBREQUESTS_PER} from '../subrequests';
import {GitHubFailure, INVITATION_LIFETIME_MS, repositoryFor} from './github';
import type {Grant} from './grants';
import {DAY_MS, hasFreeSlot} from './invitationQueue';
import {resendInvitation} from './seat';
import {observeGrant} from './status';

/**
 * Invitations that heal themselves: the cron sends a buyer's invitation again when it is about to
 * expire or has expired without being accepted, at most `repository.resendsAfterExpiry` times a
 * grant, within the invitation cap, and the buyer is e-mailed each time (the seat e-mail, saying
 * it was sent again). After the last one the invitation is left to expire, as before: the buyer's
 * dashboard and the seller's console show it expired, and the seller's daily digest lists it.
 */

/**
 * How long before it expires an invitation is sent again: a day leaves room for a window that is
 * full for hours, or a GitHub that does not answer, before the buyer meets an expired link.
 */
export const RESEND_BEFORE_EXPIRY_MS = DAY_MS;

/** The most one re-send may fetch: an invitation's, and the status read of one gone from GitHub's list. */
const RESEND_SUBREQUESTS = SUBREQUESTS_PER.invitation + 3;

/**
 * Sends again at most `max` invitations due, oldest first; a re-sent invitation is new, so the
 * next run finds the ones this run left at the head of the list. Stops when no invitation can go
 * without waiting (the queue and the window come first: a working invitation is never withdrawn
 * only to queue its replacement), or when GitHub cannot answer. Answers how many were sent again.
 */
export async function resendExpiringInvitations(context: Context, max: number): Promise<number> {
  const {db, settings} = context;
  if (!settings.GITHUB_REPO || !settings.GITHUB_TOKEN) return 0;
  const {results: due} = await db
    .prepare(
      `SELECT * FROM grants
       WHERE repository_key = 'kit' AND status = 'pending' AND github_user_id IS NOT NULL AND invited_at <= ?1 AND expiry_resends < ?2
       ORDER BY invited_at LIMIT ?3`,
    )
    .bind(Date.now() - (INVITATION_LIFETIME_MS - RESEND_BEFORE_EXPIRY_MS), appConfig.repository.resendsAfterExpiry, max)
    .all<Grant>();
  // The listing, and one re-send at least: else the next run, with its own subrequests.
  if (due.length === 0 || !context.subrequests.has(1 + RESEND_SUBREQUESTS)) return 0;
  let resent = 0;
  try {
    // One listing for the batch: an invitation still on it was not accepted.
    const listed = new Set((await repositoryFor(context).invitations()).map((invitation) => invitation.id));
    for (const grant of due) {
      if (!context.subrequests.has(RESEND_SUBREQUESTS) || !(await hasFreeSlot(context, settings.GITHUB_REPO))) break;
      if (!listed.has(grant.invitation_id!)) {
        // Gone from GitHub's list: accepted (or withdrawn by hand). The status read settles which.
        const seen = await observeGrant(context, grant, {fresh: true});
        if (seen.status !== 'pending' || !seen.expired) continue;
      }
      if (await resendOne(context, grant)) resent += 1;
    }
  } catch (err) {
    // GitHub cannot answer now, or this run's subrequests are spent: the next run carries on.
    if (!(err instanceof GitHubFailure || err instanceof RetryableError)) throw err;
    log.warn('access.expiry_resends_paused', {error: err.message});
  }
  if (resent > 0) log.info('access.expiry_resent', {resent});
  return resent;
}

/** One grant's invitation sent again; false when it was not (and why is logged). */
async function resendOne(context: Context, grant: Grant): Promise<boolean> {
  const {db} = context;
  try {
    // resendInvitation invites the grant's own numeric account, by the login it has today.
    await resendInvitation(context, grant, grant.user_id, {afterExpiry: true});
    return true;
  } catch (err) {
    if (err instanceof HttpError && err.code === 'GITHUB_USER_NOT_FOUND') {
      // The account is deleted: nobody is left to invite. No more re-sends for this grant.
      await stopResending(db, grant);
      log.warn('access.expiry_resend_skipped', {sessionId: grant.session_id, reason: 'the GitHub account is gone'});
      return false;
    }
    // resendInvitation marks the grant failed before it asks (and puts it back itself when GitHub
    // does not answer). A refusal before the invitation (the account joined meanwhile, or has an
    // invitation from the seller) changed nothing else: the invitation is pending (and expiring)
    // again, as it was, and the refusal is counted, so that one that stays is not asked at every run.
    // GitHub's refusal of the invitation itself (PermanentError) left the grant failed, for the seller.
    const refused = err instanceof HttpError || err instanceof PermanentError;
    await db
      .prepare(
        `UPDATE grants SET status = 'pending', detail = NULL, expiry_resends = expiry_resends + ?3
         WHERE repository_key = 'kit' AND session_id = ?1 AND version = ?2 AND status = 'failed'`,
      )
      .bind(grant.session_id, grant.version, refused ? 1 : 0)
      .run();
    if (!refused) throw err; // GitHub did not answer: the batch pauses
    log.warn('access.expiry_resend_refused', {sessionId: grant.session_id, reason: err.message});
    return false;
  }
}

async function stopResending(db: D1Database, grant: Grant) {
  await db
    .prepare(`UPDATE grants SET expiry_resends = ?3 WHERE repository_key = 'kit' AND session_id = ?1 AND version = ?2`)
    .bind(grant.session_id, grant.version, appConfig.repository.resendsAfterExpiry)
    .run();
}
