import {appConfig} from '../../../src/config';
import type {Context} from '../context';
import {HttpError} from '../errors';
import {log} from '../log';
import {PermanentError, RetryableError} from '../jobs';
import {SUBREQUESTS_PER} from '../subrequests';
import type {ExtraGrant} from './extraGrantRecords';
import {resendIfDue} from './extraExpiryResends';
import {handToReconcile, stillWanted, wantedFor} from './extraGrants';
import {GitHubFailure, INVITATION_LIFETIME_MS, type Invitation, repositoryFor} from './github';
import type {Grant} from './grants';
import {DAY_MS, hasFreeSlot} from './invitationQueue';
import {resendInvitation} from './seat';
import {observeGrant} from './status';

/**
 * Invitations that heal themselves, on every repository a purchase holds (the kit's and a plan's
 * extras): the cron sends a buyer's invitation again when it is about to expire or has expired
 * without being accepted, at most `repository.resendsAfterExpiry` times a grant, within that
 * repository's cap, and the buyer is e-mailed each time. After the last one the invitation is left
 * to expire: the buyer's dashboard and the seller's console show it expired, and the seller's daily
 * digest lists it. The kit's grant is sent again here (`resendOne`), an extra's by
 * extraExpiryResends.ts.
 */

/**
 * How long before it expires an invitation is sent again: a day leaves room for a window that is
 * full for hours, or a GitHub that does not answer, before the buyer meets an expired link.
 */
export const RESEND_BEFORE_EXPIRY_MS = DAY_MS;

/**
 * The most one re-send may fetch: the status read of an invitation gone from GitHub's list, then
 * an invitation's (the login, the check, the withdrawal, the invitation, a stale one's withdrawal,
 * the e-mail).
 */
const RESEND_SUBREQUESTS = SUBREQUESTS_PER.invitation + 3;

/** How many due grants a run reads for each re-send it may make. */
const SCANNED_PER_RESEND = 10;

/**
 * Sends again at most `max` due invitations, of any repository, oldest first; a re-sent invitation
 * is new, so the next run finds the ones this run left. A repository whose window is full, or
 * whose grants wait in its line, is left for a later run (a working invitation is never withdrawn
 * only to queue its replacement); GitHub not answering, or this run's subrequests spent, pause the
 * batch. Answers how many were sent again.
 */
export async function resendExpiringInvitations(context: Context, max: number): Promise<number> {
  const {db, settings} = context;
  if (!settings.GITHUB_TOKEN) return 0;
  const {results: due} = await db
    .prepare(
      `SELECT * FROM (
         SELECT g.*, ROW_NUMBER() OVER (PARTITION BY COALESCE(g.repository, ?4) ORDER BY g.invited_at, g.id) AS place
         FROM grants g JOIN purchases p ON p.session_id = g.session_id
         WHERE g.status = 'pending' AND g.github_user_id IS NOT NULL AND g.invited_at <= ?1 AND g.expiry_resends < ?2
           AND (g.repository_key = 'kit' OR (p.status = 'paid' AND g.invitation_id IS NOT NULL AND g.repository IS NOT NULL)))
       WHERE place <= ?3 ORDER BY invited_at, id`,
    )
    // More than `max` are read, and as many of each repository: the oldest may be grants left for
    // their reconcile, or of a repository whose window is full, and they must hold back neither
    // the ones behind them nor another repository's.
    .bind(
      Date.now() - (INVITATION_LIFETIME_MS - RESEND_BEFORE_EXPIRY_MS),
      appConfig.repository.resendsAfterExpiry,
      max * SCANNED_PER_RESEND,
      settings.GITHUB_REPO ?? null,
    )
    .all<Grant & ExtraGrant>();
  // One listing of each repository's invitations for the batch: one still on it was not accepted.
  const listings = new Map<string, Invitation[]>();
  const waiting = new Set<string>();
  let resent = 0;
  try {
    for (const grant of due) {
      if (resent >= max) break;
      const kit = grant.repository_key === 'kit';
      const repository = kit ? settings.GITHUB_REPO : grant.repository;
      if (!repository || waiting.has(repository)) continue;
      // Asked of D1 before GitHub: an extra grant its purchase no longer wants (a refund or a seat
      // move whose take-back waits, a repository the seller has changed since) is its reconcile's,
      // which this queues; its repository is not even listed (the token may no longer read it).
      // The kit's grant is taken back in the same request as the refund or the move.
      if (!kit && !stillWanted(await wantedFor(db, grant.session_id), settings, grant)) {
        await handToReconcile(db, grant);
        continue;
      }
      if (!(await windowOpen(context, repository))) {
        waiting.add(repository);
        continue;
      }
      let listed = listings.get(repository);
      if (!context.subrequests.has(RESEND_SUBREQUESTS + (listed ? 0 : 1))) break;
      if (!listed) listings.set(repository, (listed = await repositoryFor(context, repository).invitations()));
      if (await (kit ? resendOne(context, grant, listed) : resendIfDue(context, grant, listed))) resent += 1;
    }
  } catch (err) {
    // GitHub cannot answer now, or this run's subrequests are spent: the next run carries on.
    if (!(err instanceof GitHubFailure || err instanceof RetryableError)) throw err;
    log.warn('access.expiry_resends_paused', {error: err.message});
  }
  if (resent > 0) log.info('access.expiry_resent', {resent});
  return resent;
}

/**
 * Whether an invitation to the repository could go now without waiting: the window has a slot,
 * and no grant of it is queued (those wait for the window, and go first).
 */
async function windowOpen(context: Context, repository: string): Promise<boolean> {
  const queued = await context.db
    .prepare(`SELECT 1 AS found FROM grants WHERE COALESCE(repository, ?2) = ?1 AND status = 'queued' LIMIT 1`)
    .bind(repository, context.settings.GITHUB_REPO ?? null)
    .first();
  return queued === null && (await hasFreeSlot(context, repository));
}

/**
 * The kit's grant, due: sent again while GitHub lists its invitation. False when it was not sent
 * (and why is logged).
 */
async function resendOne(context: Context, grant: Grant, listed: readonly Invitation[]): Promise<boolean> {
  const {db} = context;
  if (!listed.some((invitation) => invitation.id === grant.invitation_id)) {
    // Gone from GitHub's list (which keeps an expired invitation until it is withdrawn): accepted,
    // the status read makes it active. Else the buyer declined it or someone withdrew it by hand:
    // a choice, which the cron does not undo (an extra repository's the same, extraExpiryResends.ts).
    // The dashboard shows it expired, and the buyer who changes their mind asks again there.
    const seen = await observeGrant(context, grant, {fresh: true});
    if (seen.status === 'pending') {
      await stopResending(db, grant);
      log.warn('access.expiry_resend_skipped', {
        sessionId: grant.session_id,
        reason: 'the invitation was declined or withdrawn by hand',
      });
    }
    return false;
  }
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
