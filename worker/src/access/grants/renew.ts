import type {GrantStatus} from '../../../../src/config/api';
import type {Context} from '../../context';
import {HttpError} from '../../errors';
import {log} from '../../log';
import {whileClaimed} from './claims';
import {readGrant} from './records';
import {activeIfAccepted} from './status';
import {stillWanted, wantedFor} from './reconcile';
import {handToReconcile, reconcileExtraGrantsSoon} from './reconcileSoon';
import {repositoryFor} from '../github';
import {enforceLimit, limits} from '../../rateLimit';

/**
 * A buyer's own request for a new invitation to an extra repository of their plan, once the last
 * one expired: after the cron's re-sends (expiryResends.ts) are spent, or before they came.
 * GitHub honours an invitation for 7 days; after the last automatic re-send the grant stays
 * "pending" on an invitation nobody can accept, and this is the way out, as the kit's
 * "Send a new one" is for its own invitation.
 *
 * The expired invitation this worker recorded is withdrawn and the grant queued again, at the back
 * of the repository's queue: it then goes out as a first invitation does (reconcileExtraGrants),
 * within that repository's daily cap, to the kit seat's account by its numeric id. The re-send
 * count starts again, so the new invitation heals itself as the first did.
 */

/**
 * Renews the purchase's expired invitation to the repository of `key`. Answers the grant's state
 * after it (queued while it waits for the cap or the next run, pending once sent, active when it
 * turns out the buyer had accepted). Refuses with 409 what is not an expired invitation of theirs.
 */
export async function renewExtraInvitation(context: Context, sessionId: string, key: string): Promise<GrantStatus> {
  const {db, settings} = context;
  const row = await readGrant(db, sessionId, key);
  if (!row || row.status !== 'pending' || row.invitation_id === null || row.repository === null) {
    throw new HttpError(409, 'There is no invitation to this repository to send again', 'CONFLICT');
  }
  // A grant its purchase no longer wants (a refund, the seat moved) is its reconcile's to take back.
  if (!stillWanted(await wantedFor(db, sessionId), settings, row)) {
    await handToReconcile(db, row);
    throw new HttpError(409, 'This repository is no longer part of your purchase', 'CONFLICT');
  }
  const repository = repositoryFor(context, row.repository);
  const listed = await repository.invitations();
  const ours = listed.find((invitation) => invitation.id === row.invitation_id);
  // GitHub's word on an invitation it lists; the worker's own record for one it no longer does.
  if (ours && !ours.expired) {
    throw new HttpError(
      409,
      'The invitation is still valid: check your e-mail or github.com/notifications',
      'CONFLICT',
    );
  }
  if (!ours && (await activeIfAccepted(context, row, listed))) return 'active';
  // Gone and not accepted (declined, or withdrawn by hand), or expired: the buyer asks for a new one,
  // a few a day (each takes one of the repository's daily invitations).
  await enforceLimit(db, `resend:${sessionId}:${key}`, limits.invitationResends);
  // One request or cron run at a time: a re-send under way has taken the grant already.
  const invitationId = row.invitation_id;
  const queued = await whileClaimed(
    db,
    row,
    {status: 'pending', invitationId},
    async () => {
      if (ours && !(await repository.withdrawInvitation(invitationId)) && (await activeIfAccepted(context, row)))
        return 'active';
      const now = Date.now();
      const renewed = await db
        .prepare(
          `UPDATE grants SET status = 'queued', invitation_id = NULL, invited_at = NULL, checked_at = NULL, detail = NULL,
             queued_at = ?4, updated_at = ?4, expiry_resends = 0, waiting_at = NULL
           WHERE session_id = ?1 AND repository_key = ?2 AND status = 'pending' AND invitation_id = ?3 RETURNING session_id`,
        )
        .bind(sessionId, key, row.invitation_id, now)
        .first();
      return renewed !== null;
    },
    () => {
      throw new HttpError(409, 'An invitation is being sent right now. Look again in a minute.', 'CONFLICT');
    },
  );
  if (queued === 'active') return 'active';
  if (queued) {
    log.info('access.renewed', {sessionId, key, expiredInvitationId: row.invitation_id});
    await reconcileExtraGrantsSoon(context, sessionId, `renew:${key}:${row.invitation_id}`);
  }
  const after = await db
    .prepare('SELECT status FROM grants WHERE session_id = ?1 AND repository_key = ?2')
    .bind(sessionId, key)
    .first<{status: GrantStatus}>();
  return after?.status ?? 'queued';
}
