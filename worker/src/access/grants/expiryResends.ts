import {appConfig} from '../../../../src/config';
import {ENTITLED} from './entitlement';
import type {Context} from '../../context';
import {log} from '../../log';
import {RetryableError} from '../../jobs';
import {SUBREQUESTS_PER} from '../../subrequests';
import {whileClaimed} from './claims';
import {activeIfAccepted} from './status';
import {stillWanted, wantedFor} from './reconcile';
import {handToReconcile} from './reconcileSoon';
import {GitHubFailure, INVITATION_LIFETIME_MS, type Invitation, repositoryFor} from '../github';
import {GRANT_DETAIL, type Grant, markActive} from './records';
import {grantKey, hasFreeSlot} from './invitationQueue';
import {type InSlot, withSlot} from './sendInvitation';
import {DAY_MS} from '../../../../src/config/dates';
import {recordAttempt} from './lostAnswer';
import {removeNowOrLater} from './removal';
import {kindOf, repositoryOf, type RepositoryKind} from './repositoryKind';

const MAX_RESENDS = appConfig.repository.resendsAfterExpiry;

/**
 * Invitations that heal themselves, on every repository a purchase holds (the kit's and a plan's
 * extras): the cron sends a buyer's invitation again when it is about to expire or has expired
 * without being accepted, at most `repository.resendsAfterExpiry` times a grant, within that
 * repository's cap, and the buyer is e-mailed each time. After the last one the invitation is left
 * to expire: the buyer's dashboard and the seller's console show it expired, and the seller's daily
 * digest lists it. Every repository's grant is sent again by one function, `resendDue`: a day
 * before GitHub expires an invitation that was not accepted, it withdraws the invitation this
 * worker created and invites the grant's own numeric account again. A grant of a purchase that is
 * not paid, or that the seller revoked, or that no longer wants it (a refund whose take-back has
 * not run yet) is never sent again: its take-back takes it.
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
           AND g.invitation_id IS NOT NULL AND (g.repository_key = 'kit' OR g.repository IS NOT NULL)
           AND ${ENTITLED('p', 'g')})
       WHERE place <= ?3 ORDER BY invited_at, id`,
    )
    // More than `max` are read, and as many of each repository: the oldest may be grants left for
    // their reconcile, or of a repository whose window is full, and they must hold back neither
    // the ones behind them nor another repository's.
    .bind(
      Date.now() - (INVITATION_LIFETIME_MS - RESEND_BEFORE_EXPIRY_MS),
      MAX_RESENDS,
      max * SCANNED_PER_RESEND,
      settings.GITHUB_REPO ?? null,
    )
    .all<Grant>();
  // One listing of each repository's invitations for the batch: one still on it was not accepted.
  const listings = new Map<string, Invitation[]>();
  const waiting = new Set<string>();
  let resent = 0;
  try {
    for (const grant of due) {
      if (resent >= max) break;
      const kit = grant.repository_key === 'kit';
      const repository = repositoryOf(context, grant);
      if (!repository || waiting.has(repository)) continue;
      // Asked of D1 before GitHub: an extra grant its purchase no longer wants (a refund or a seat
      // move whose take-back waits, a repository the seller has changed since) is its reconcile's,
      // which this queues; its repository is not even listed (the token may no longer read it).
      // The kit's grant is taken back in the same request as the refund or the move.
      if (!kit && !stillWanted(await wantedFor(db, grant), settings, grant)) {
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
      if (await resendDue(context, grant, listed)) resent += 1;
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

/** A due grant's row: the kit's (the seat) or an extra repository's, read from the one table. */
type DueGrant = Grant;

/**
 * One due grant, of any repository: active if it was accepted, else sent again by the one run
 * that claims it. False when it was not sent (and why is recorded or logged).
 */
async function resendDue(context: Context, grant: DueGrant, listed: readonly Invitation[]): Promise<boolean> {
  const {db} = context;
  // Gone from GitHub's list (which keeps an expired invitation until it is withdrawn): accepted,
  // it is active and stays. Else the buyer declined it or someone withdrew it by hand: a choice,
  // which the cron does not undo. The dashboard shows it expired, and the buyer who changes their
  // mind asks again there. A GitHub that cannot say which pauses the batch (GitHubFailure).
  if (!listed.some((invitation) => invitation.id === grant.invitation_id)) {
    if (!(await activeIfAccepted(context, grant, listed, repositoryOf(context, grant)!))) {
      await countWithoutSending(db, grant, 'the invitation was declined or withdrawn by hand', MAX_RESENDS);
    }
    return false;
  }
  // GitHub answers a PUT for an account with an open invitation with that invitation: one this
  // worker did not send (the seller's) is not its to replace.
  if (
    listed.some(
      (invitation) =>
        invitation.inviteeId === grant.github_user_id && invitation.id !== grant.invitation_id && !invitation.expired,
    )
  ) {
    await countWithoutSending(db, grant, 'the account has an open invitation this worker did not send');
    return false;
  }
  // Only while the row still holds the invitation this run read: another run may have sent it again since.
  return whileClaimed(
    db,
    grant,
    {status: 'pending', invitationId: grant.invitation_id},
    () => resendClaimed(context, grant),
    () => false,
  );
}

/**
 * Withdraws the grant's invitation (still listed) and invites the same numeric account again,
 * within a slot of the repository's cap taken first (sendInvitation.ts `withSlot`). False when it
 * was not sent (and why is recorded or logged); throws GitHubFailure when GitHub does not answer.
 */
async function resendClaimed(context: Context, grant: DueGrant): Promise<boolean> {
  const {db} = context;
  const kind = kindOf(context, grant);
  const repositoryName = kind.repository;
  // Once true, no invitation of this worker's is left for the account: a failure must not leave the grant pending.
  let oldGone = false;
  let inSlot: InSlot<boolean>;
  try {
    inSlot = await withSlot(context, repositoryName, grantKey(grant), (kept) =>
      withdrawAndInvite(context, grant, kind, {
        kept,
        withdrawn: () => (oldGone = true),
      }),
    );
  } catch (err) {
    if (!(err instanceof GitHubFailure)) throw err;
    // The old invitation is withdrawn and no new one went: the grant waits, queued, and the cron
    // sends it as any other (or, refused, it is failed for the seller).
    if (oldGone) await invitationLost(db, grant, err.transient);
    if (err.transient) throw err; // the batch pauses
    if (!oldGone) await countWithoutSending(db, grant, err.message);
    return false;
  }
  if (inSlot.kind === 'done') return inSlot.value;
  // GitHub refused the new invitation for its cap (it counts the seller's own too): the grant, its
  // old invitation withdrawn, waits in line. With no slot at all (a request alongside took the
  // last one), nothing was withdrawn: a later run.
  if (inSlot.refused && oldGone) await invitationLost(db, grant, true);
  return false;
}

/**
 * Within the slot resendClaimed holds: withdraws the grant's invitation (still listed) and invites
 * the same numeric account again. `withdrawn` is told once the old invitation is gone, `kept` once
 * GitHub created the new one. False when it was not sent (and why is recorded or logged).
 */
async function withdrawAndInvite(
  context: Context,
  grant: DueGrant,
  kind: RepositoryKind,
  {kept, withdrawn}: {kept: () => void; withdrawn: () => void},
): Promise<boolean> {
  const {db} = context;
  const repository = repositoryFor(context, kind.repository);
  // GitHub invites by login, and logins change hands: the numeric id says who the account is today.
  const login = await repository.loginOf(grant.github_user_id!);
  if (!login) {
    // The account is deleted: nobody is left to invite. No more re-sends for this grant.
    await countWithoutSending(db, grant, 'the GitHub account is gone', MAX_RESENDS);
    return false;
  }
  const collaborator = await repository.isCollaborator(login);
  if (!(await repository.withdrawInvitation(grant.invitation_id!))) {
    // Accepted between the listing and now (the account is there), or withdrawn by hand: a later run reads which.
    if (collaborator) await markActive(db, grant, login);
    return false;
  }
  withdrawn();
  // Added by another way (the seller, by hand) while this worker's invitation waited: it is
  // withdrawn, and the account, which this worker did not add, is never removed by it.
  if (collaborator) {
    await markActive(db, grant, login, {notOurs: true});
    return false;
  }
  // Should GitHub's answer be lost, the grant is queued again (invitationLost) and its send adopts what this PUT created.
  await recordAttempt(db, grant, 'pending');
  const outcome = await repository.invite(login);
  if (outcome.state === 'active') {
    await markActive(db, grant, login, {notOurs: true});
    return false;
  }
  kept();
  const now = Date.now();
  // A new invitation is a new version of the grant (a status read of the old one changes nothing),
  // and the e-mail of the seat's version says it was sent again.
  const recorded = await db
    .prepare(
      `UPDATE grants SET invitation_id = ?4, github_username = ?5, detail = NULL, invited_at = ?6, checked_at = ?6, updated_at = ?6,
         expiry_resends = expiry_resends + 1, invite_attempted_at = NULL, invitation_expired = 0, version = version + 1,
         resent_after_expiry = 1
       WHERE id = ?2 AND status = 'pending' AND invitation_id = ?3
         AND EXISTS (SELECT 1 FROM purchases p WHERE p.session_id = ?1 AND ${ENTITLED('p', 'grants')})
       RETURNING *`,
    )
    .bind(grant.session_id, grant.id, grant.invitation_id, outcome.invitationId, login, now)
    .first<DueGrant>();
  if (!recorded) {
    // Taken back (a refund, the seat moved) while GitHub answered: this invitation is stale.
    await removeNowOrLater(context, {...grant, invitation_id: outcome.invitationId}, 'stale invitation');
    return false;
  }
  log.info('access.expiry_resent_one', {
    sessionId: grant.session_id,
    key: grant.repository_key,
    resends: recorded.expiry_resends,
  });
  await kind.tellResent(context, recorded, {login, invitationId: outcome.invitationId});
  return true;
}

/**
 * The grant's invitation was withdrawn and GitHub did not take the new one. `retry`: it did not
 * answer, or its cap was reached: the grant is queued again, at the back of its repository's line
 * (the cron's drain sends it, and adopts what a lost answer created). Else GitHub refused it:
 * failed, for the seller. Either way a new version, whose invitation is a re-send.
 */
async function invitationLost(db: D1Database, grant: DueGrant, retry: boolean) {
  const now = Date.now();
  await db
    .prepare(
      `UPDATE grants SET status = ?3, detail = ?4, invitation_id = NULL, invited_at = NULL, checked_at = NULL,
         expiry_resends = expiry_resends + 1, updated_at = ?5, waiting_at = ?6, version = version + 1, resent_after_expiry = 1
       WHERE id = ?1 AND status = 'pending' AND invitation_id = ?2`,
    )
    .bind(
      grant.id,
      grant.invitation_id,
      retry ? 'queued' : 'failed',
      retry ? null : GRANT_DETAIL.refused,
      now,
      retry ? now : null,
    )
    .run();
  log.warn('access.expiry_resend_lost', {sessionId: grant.session_id, key: grant.repository_key, queued: retry});
}

/**
 * A re-send that did not happen, and will not by waiting: counted (or, `to`, stopped), so that a
 * grant that stays so is not asked about at every run. The invitation stays as it was.
 */
async function countWithoutSending(db: D1Database, grant: DueGrant, reason: string, to?: number) {
  await db
    .prepare(
      `UPDATE grants SET expiry_resends = COALESCE(?3, expiry_resends + 1)
       WHERE id = ?1 AND status = 'pending' AND invitation_id = ?2`,
    )
    .bind(grant.id, grant.invitation_id, to ?? null)
    .run();
  log.warn('access.expiry_resend_skipped', {sessionId: grant.session_id, key: grant.repository_key, reason});
}
