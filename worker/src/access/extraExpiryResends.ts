import {appConfig} from '../../../src/config';
import type {Context} from '../context';
import {log} from '../log';
import {whileClaimed} from './claims';
import {EXTRA_DETAIL, type ExtraGrant, markActive} from './extraGrantRecords';
import {recordAttempt} from './lostAnswer';
import {activeIfAccepted} from './extraGrantStatus';
import {withdrawStale} from './extraTakeBack';
import {GitHubFailure, type Invitation, repositoryFor} from './github';
import {giveBackSlot, takeSlot, windowFullFor} from './invitationQueue';
import {tellExtraResent} from './grantMail';

/**
 * An extra repository's invitation (extraGrants.ts) due to expire, sent again by the cron's one
 * batch of re-sends (expiryResends.ts): a day before GitHub expires one that was not accepted, it
 * withdraws the invitation this worker created and invites the grant's own numeric account again, within that
 * repository's cap, at most `repository.resendsAfterExpiry` times a grant, and e-mails the buyer
 * each time. A grant its purchase no longer wants (a refund whose reconcile has not run yet) is
 * never sent again: its reconcile takes it back.
 */

/** One due grant: active if it was accepted, else sent again by the one run that claims it. */
export async function resendIfDue(
  context: Context,
  grant: ExtraGrant,
  listed: readonly Invitation[],
): Promise<boolean> {
  const {db} = context;
  const open = listed.some((invitation) => invitation.id === grant.invitation_id);
  // Gone from GitHub's list (which keeps an expired invitation until it is withdrawn): accepted,
  // it is active and stays. Else the buyer declined it or someone withdrew it by hand: a choice,
  // which the cron does not undo (the kit's re-sends too go only to an invitation GitHub lists).
  if (!open) {
    if (!(await activeIfAccepted(context, grant, listed))) {
      await countWithoutSending(
        db,
        grant,
        'the invitation was declined or withdrawn by hand',
        appConfig.repository.resendsAfterExpiry,
      );
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
 * Withdraws the grant's invitation (still listed) and invites the same numeric account
 * again, within a slot of the repository's cap taken first. False when it was not sent (and why
 * is recorded or logged); throws GitHubFailure when GitHub does not answer.
 */
async function resendClaimed(context: Context, grant: ExtraGrant): Promise<boolean> {
  const {db} = context;
  const repositoryName = grant.repository!;
  const slot = await takeSlot(context, repositoryName, {sessionId: grant.session_id, key: grant.repository_key});
  if (slot === null) return false; // a request alongside took the last slot: a later run
  let giveBack = true;
  // Once true, no invitation of this worker's is left for the account: a failure must not leave the grant pending.
  let oldGone = false;
  try {
    const repository = repositoryFor(context, repositoryName);
    // GitHub invites by login, and logins change hands: the numeric id says who the account is today.
    const login = await repository.loginOf(grant.github_user_id!);
    if (!login) {
      // The account is deleted: nobody is left to invite. No more re-sends for this grant.
      await countWithoutSending(db, grant, 'the GitHub account is gone', appConfig.repository.resendsAfterExpiry);
      return false;
    }
    const collaborator = await repository.isCollaborator(login);
    if (!(await repository.withdrawInvitation(grant.invitation_id!))) {
      // Accepted between the listing and now (the account is there), or withdrawn by hand: a later run reads which.
      if (collaborator) await markActive(db, grant, login);
      return false;
    }
    oldGone = true;
    // Added by another way (the seller, by hand) while this worker's invitation waited: it is
    // withdrawn, and the account, which this worker did not add, is never removed by it.
    if (collaborator) {
      await markActive(db, grant, login, {notOurs: true});
      return false;
    }
    // Should GitHub's answer be lost, the grant is queued again (invitationLost) and its send adopts what this PUT created.
    await recordAttempt(db, grant, 'pending');
    const outcome = await repository.invite(login);
    giveBack = outcome.state !== 'invited';
    if (outcome.state === 'active') {
      await markActive(db, grant, login, {notOurs: true});
      return false;
    }
    const now = Date.now();
    const recorded = await db
      .prepare(
        `UPDATE grants SET invitation_id = ?4, github_username = ?5, detail = NULL, invited_at = ?6, checked_at = ?6, updated_at = ?6,
           expiry_resends = expiry_resends + 1, invite_attempted_at = NULL
         WHERE session_id = ?1 AND repository_key = ?2 AND status = 'pending' AND invitation_id = ?3
           AND EXISTS (SELECT 1 FROM purchases WHERE session_id = ?1 AND status = 'paid')
         RETURNING expiry_resends`,
      )
      .bind(grant.session_id, grant.repository_key, grant.invitation_id, outcome.invitationId, login, now)
      .first<{expiry_resends: number}>();
    if (!recorded) {
      // Taken back (a refund, the seat moved) while GitHub answered: this invitation is stale.
      await withdrawStale(context, grant, outcome.invitationId);
      return false;
    }
    log.info('access.expiry_resent_one', {
      sessionId: grant.session_id,
      key: grant.repository_key,
      resends: recorded.expiry_resends,
    });
    await tellExtraResent(context, grant, {login, count: recorded.expiry_resends, invitationId: outcome.invitationId});
    return true;
  } catch (err) {
    if (!(err instanceof GitHubFailure)) throw err;
    if (err.capReached) {
      // GitHub also counts the invitations the seller sent by hand: its word wins.
      await giveBackSlot(db, slot);
      giveBack = false;
      await windowFullFor(db, repositoryName);
    }
    // The old invitation is withdrawn and no new one went: the grant
    // waits, queued, and the cron sends it as any other (or, refused, it is failed for the seller).
    if (oldGone) await invitationLost(db, grant, err.transient || err.capReached);
    if (err.transient) throw err; // the batch pauses
    if (!oldGone) await countWithoutSending(db, grant, err.message);
    return false;
  } finally {
    if (giveBack) await giveBackSlot(db, slot);
  }
}

/**
 * The grant's invitation was withdrawn and GitHub did not take the new one. `retry`: it did not
 * answer, or its cap was reached: the grant is queued again (the cron's drain sends it). Else
 * GitHub refused it: failed, for the seller.
 */
async function invitationLost(db: D1Database, grant: ExtraGrant, retry: boolean) {
  await db
    .prepare(
      `UPDATE grants SET status = ?4, detail = ?5, invitation_id = NULL, invited_at = NULL, checked_at = NULL,
         expiry_resends = expiry_resends + 1, updated_at = ?6, waiting_at = NULL
       WHERE session_id = ?1 AND repository_key = ?2 AND status = 'pending' AND invitation_id = ?3`,
    )
    .bind(
      grant.session_id,
      grant.repository_key,
      grant.invitation_id,
      retry ? 'queued' : 'failed',
      retry ? null : EXTRA_DETAIL.refused,
      Date.now(),
    )
    .run();
  log.warn('access.expiry_resend_lost', {sessionId: grant.session_id, key: grant.repository_key, queued: retry});
}

/**
 * A re-send that did not happen, and will not by waiting: counted (or, `to`, stopped), so that a
 * grant that stays so is not asked about at every run. The invitation stays as it was.
 */
async function countWithoutSending(db: D1Database, grant: ExtraGrant, reason: string, to?: number) {
  await db
    .prepare(
      `UPDATE grants SET expiry_resends = COALESCE(?4, expiry_resends + 1)
       WHERE session_id = ?1 AND repository_key = ?2 AND status = 'pending' AND invitation_id = ?3`,
    )
    .bind(grant.session_id, grant.repository_key, grant.invitation_id, to ?? null)
    .run();
  log.warn('access.expiry_resend_skipped', {sessionId: grant.session_id, key: grant.repository_key, reason});
}
