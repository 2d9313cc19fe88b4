import type {GrantStatus} from '../../../../src/config/api';
import type {Context} from '../../context';
import {HttpError} from '../../errors';
import {log} from '../../log';
import {enforceLimit, limits} from '../../rateLimit';
import {repositoryFor} from '../github';
import {whileClaimed} from './claims';
import {type Grant, isSeat, loginToday, readGrant, type SeatRef, seatPath, seatRef} from './records';
import {stillWanted, wantedFor} from './reconcile';
import {handToReconcile, reconcileSoon} from './reconcileSoon';
import {resendInvitation} from './seat';
import {activeIfAccepted, observeGrant} from './status';

/**
 * A new invitation for a grant whose last one GitHub no longer honours (it expired, after the
 * cron's re-sends or before them, or the buyer declined it), for every repository: the kit's
 * (the dashboard's "Send a new one", the console's Resend) and a plan's extra ones. GitHub honours
 * an invitation for 7 days; after the last automatic re-send the grant stays "pending" on an
 * invitation nobody can accept, and this is the way out.
 *
 * One behaviour whoever asks and whichever the repository: GitHub is asked about the invitation
 * first (accepted meanwhile: the grant is active, and nothing is sent), then who the account is by
 * its numeric id (gone: 404, and nothing changes); only then is the expired invitation withdrawn
 * and a new one sent within the repository's daily cap, at the back of its line. The re-send count
 * starts again, so the new invitation heals itself as the first did.
 */

/**
 * Who asks: the words of a refusal, and the daily limit (a buyer's clicks spend GitHub's
 * invitations). A buyer's renewal of the seat records them as who pointed it, as their request does.
 */
export type Renewer = {by: 'buyer'; userId: string} | {by: 'seller'};

const REFUSALS = {
  buyer: {
    none: 'There is no pending invitation to resend',
    valid: 'The invitation is still valid: check your e-mail or github.com/notifications',
  },
  seller: {
    none: 'This purchase has no pending invitation to send again. To invite an account, use Grant access.',
    valid: 'The invitation has not expired: the buyer accepted it, or GitHub still honours it.',
  },
} as const;

/**
 * Renews the purchase's lapsed invitation to the repository of `key` ('kit' or a key of its plan).
 * Answers the grant's state after it: queued while it waits for the cap or the next run, pending
 * once sent, active when it turns out the buyer had accepted. Refuses with 409 what is not a lapsed
 * invitation of the purchase's, with 404 an account GitHub no longer knows.
 */
export async function renewInvitation(
  context: Context,
  at: SeatRef | string,
  key: string,
  renewer: Renewer,
): Promise<GrantStatus> {
  const {db, settings} = context;
  const words = REFUSALS[renewer.by];
  const seat = seatRef(at);
  const row = await readGrant(db, seat, key);
  // A seat invited before invitation ids were recorded has none; an extra grant always has one.
  if (!row || row.status !== 'pending' || (row.invitation_id === null && !isSeat(row)))
    throw new HttpError(409, words.none, 'CONFLICT');
  // An extra grant its purchase no longer wants (a refund, the seat moved) is its reconcile's to take back.
  if (!isSeat(row) && !stillWanted(await wantedFor(db, seat), settings, row)) {
    await handToReconcile(db, row);
    throw new HttpError(409, 'This repository is no longer part of your purchase', 'CONFLICT');
  }
  // GitHub's word on the invitation: accepted (recorded active), still open, or lapsed.
  const seen = await observeGrant(context, row, {fresh: true});
  if (seen.status === 'active') return 'active';
  if (seen.status !== 'pending' || seen.invitation_expired !== 1) throw new HttpError(409, words.valid, 'CONFLICT');
  if (renewer.by === 'buyer') await enforceLimit(db, `resend:${seatPath(seat)}:${key}`, limits.invitationResends);
  // The seat goes through its own request (seat.ts), which checks the account by its id first.
  if (isSeat(seen)) {
    if (renewer.by === 'buyer') await resendInvitation(context, seen, renewer.userId);
    else await resendInvitation(context, seen, seen.user_id, {byAdmin: true});
    return (await readGrant(db, seat))?.status ?? 'queued';
  }
  // Its account first, as the seat's request does: one GitHub no longer knows changes nothing.
  await loginToday(context, seen);
  return requeue(context, seen);
}

/**
 * Withdraws the extra grant's lapsed invitation (the one this worker recorded) and queues the grant
 * again, at the back of its repository's line; its reconcile sends it as a first invitation.
 */
async function requeue(context: Context, row: Grant): Promise<GrantStatus> {
  const {db} = context;
  const {session_id: sessionId, repository_key: key} = row;
  const invitationId = row.invitation_id!;
  const repository = repositoryFor(context, row.repository!);
  // One request or cron run at a time: a re-send under way has taken the grant already.
  const queued = await whileClaimed(
    db,
    row,
    {status: 'pending', invitationId},
    async () => {
      // Gone from GitHub since it was read: it may have been accepted a moment ago.
      if (!(await repository.withdrawInvitation(invitationId)) && (await activeIfAccepted(context, row)))
        return 'active';
      const now = Date.now();
      const renewed = await db
        .prepare(
          `UPDATE grants SET status = 'queued', invitation_id = NULL, invited_at = NULL, checked_at = NULL, detail = NULL,
             queued_at = ?3, updated_at = ?3, expiry_resends = 0, waiting_at = NULL
           WHERE id = ?1 AND status = 'pending' AND invitation_id = ?2 RETURNING id`,
        )
        .bind(row.id, invitationId, now)
        .first();
      return renewed !== null;
    },
    () => {
      throw new HttpError(409, 'An invitation is being sent right now. Look again in a minute.', 'CONFLICT');
    },
  );
  if (queued === 'active') return 'active';
  if (queued) {
    log.info('access.renewed', {sessionId, key, expiredInvitationId: invitationId});
    await reconcileSoon(context, row, `renew:${key}:${invitationId}`);
  }
  return (await readGrant(db, row, key))?.status ?? 'queued';
}
