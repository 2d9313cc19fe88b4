import {SEAT_END_REASONS, type SeatEndReason} from '../../../src/config';
import {takeBackSeat} from '../access/grants/removal';
import type {Context} from '../context';
import {enqueue} from '../jobs';
import {log} from '../log';
import {mailOnce} from '../mail';
import {endMember, type MemberRow, membersPastSeats} from './members';
import {memberRemovedMail} from './teamMail';

/**
 * A member's seat ends: the owner removed them (or withdrew their invitation), a refund of seats
 * took their seat away, or the seller took it back from the console. One path for all three: the
 * member's hold ends (their link stops with it), the seat's grants are taken back (the same
 * take-back as a refund's, for that seat alone), and a member who had joined with an address is
 * told why. Null when the seat had no member (or, with
 * `memberId`, not that one: a seat given to someone else meanwhile is left alone).
 */
export async function removeMember(
  context: Context,
  purchase: {session_id: string; email: string | null},
  seat: number,
  reason: SeatEndReason,
  memberId?: number,
): Promise<MemberRow | null> {
  const ended = await endMember(context.db, purchase.session_id, seat, reason, memberId);
  if (!ended) return null;
  // Queued first: should the take-back below stop half-way, the cron's reconcile of the purchase
  // takes back what the seat still holds (reconcile.ts: a seat its member left).
  await enqueue(context.db, {
    key: `reconcile:${purchase.session_id}:team-removed:${ended.id}`,
    kind: 'reconcile',
    sessionId: purchase.session_id,
    payload: {sessionId: purchase.session_id},
  });
  await takeBackSeat(context, {session_id: purchase.session_id, seat}, SEAT_END_REASONS[reason]);
  // A member who had joined (the row as it is now: removed) is told; a withdrawn invitation is not.
  if (ended.state === 'removed' && ended.email) {
    await mailOnce(
      context,
      `team-removed:${ended.id}`,
      memberRemovedMail({to: ended.email, owner: purchase.email ?? 'The team’s owner', reason}),
      purchase.session_id,
    );
  }
  log.info('team.removed', {sessionId: purchase.session_id, seat, now: ended.state, reason});
  return ended;
}

/**
 * After a refund or a dispute of seats added (upgrades/revocations.ts): when the team now holds more
 * seats than it has, its newest members lose theirs, as many as are past the count, each told why.
 * A purchase no longer paid has lost every seat already (its own revocation).
 */
export async function endSeatsPast(context: Context, sessionId: string): Promise<number> {
  const owner = await context.db
    .prepare(`SELECT email FROM purchases WHERE session_id = ?1 AND status = 'paid'`)
    .bind(sessionId)
    .first<{email: string | null}>();
  if (!owner) return 0;
  const past = await membersPastSeats(context.db, sessionId);
  for (const member of past) {
    await removeMember(context, {session_id: sessionId, email: owner.email}, member.seat, 'seats_refunded');
  }
  return past.length;
}
