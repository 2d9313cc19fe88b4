import {memberName} from '../../../src/config';
import {readGrant} from '../access/grants/records';
import {requestAccess} from '../access/grants/seat';
import {githubUserOrRefuse} from '../access/reportGitHub';
import type {Context} from '../context';
import {HttpError} from '../errors';
import {mailOnce} from '../mail';
import {heldMember, type MemberRow} from './members';
import {removeMember} from './removeMember';
import {memberTakenBackMail} from './teamMail';

/**
 * The seller's actions on one member of a team (the console's Team section): move their seat to
 * another GitHub account, or take the seat back. The member is named by their record's id, read
 * again here: a member who no longer holds a seat of this purchase (removed, or the seat given to
 * someone else since the page was read) is refused, never acted on by seat number. Each acts through
 * the path the owner's own action takes: requestAccess for the seat, removeMember for the take-back.
 */

/** The refusal of a member who no longer holds a seat of the purchase: the page is out of date. */
const noLongerHeld = () =>
  new HttpError(409, 'This member no longer holds a seat of this team: read the purchase again.', 'CONFLICT');

/** A paid purchase's member who holds a seat now, or a 409 that says to read the page again. */
async function heldOrRefuse(context: Context, sessionId: string, id: number): Promise<MemberRow> {
  const member = await heldMember(context.db, sessionId, id);
  if (!member) throw noLongerHeld();
  return member;
}

/**
 * Moves a joined member's seat to `username`, by the seller's right (`byAdmin`: the seat's count of
 * moves is not spent). GitHub answers first: an account it does not know is refused, nothing changed.
 * A purchase the seller revoked is refused: Grant access gives the purchase back first.
 */
export async function moveMemberSeat(
  context: Context,
  purchase: {session_id: string; user_id: string | null; revoked_by_seller_at: number | null},
  id: number,
  username: string,
): Promise<{status: string; detail: string}> {
  const member = await heldOrRefuse(context, purchase.session_id, id);
  if (purchase.revoked_by_seller_at !== null)
    throw new HttpError(
      409,
      "This purchase's access is revoked: grant it back before moving a member's seat.",
      'CONFLICT',
    );
  if (member.state !== 'joined')
    throw new HttpError(
      409,
      `${member.email ?? 'This member'} has not taken the seat yet: the invitation's link gives it. Take the seat back to withdraw it.`,
      'CONFLICT',
    );
  const found = await githubUserOrRefuse(context, username);
  const at = {session_id: purchase.session_id, seat: member.seat};
  const grant = await readGrant(context.db, at);
  const access = await requestAccess(
    context,
    {
      sessionId: purchase.session_id,
      seat: member.seat,
      memberId: member.id,
      // Whoever pointed the seat before (the member, or the owner who named them) stays its pointer.
      userId: (grant?.member_id === member.id ? grant.user_id : null) ?? member.user_id ?? purchase.user_id ?? '',
      github: found,
    },
    {byAdmin: true},
  );
  return {status: access.status, detail: `@${found.login}: ${access.status} (seat ${member.seat})`};
}

/**
 * Takes back a member's seat (or withdraws their invitation): their access is taken back and their
 * links stop, as when the owner removes them, and the seat is free again for the owner to give.
 * The member (by the address they were invited at) and the owner are e-mailed why.
 */
export async function takeBackMemberSeat(
  context: Context,
  purchase: {session_id: string; email: string | null},
  id: number,
): Promise<{status: string; detail: string}> {
  const member = await heldOrRefuse(context, purchase.session_id, id);
  const grant = await readGrant(context.db, {session_id: purchase.session_id, seat: member.seat});
  // The seat's account when it is this member's (a grant left by a member before them is not).
  const name = memberName({
    username: grant?.member_id === member.id ? grant.github_username : undefined,
    email: member.email ?? undefined,
  });
  const ended = await removeMember(context, purchase, member.seat, 'seller', member.id);
  if (!ended) throw noLongerHeld();
  if (purchase.email)
    await mailOnce(
      context,
      `team-taken-back-owner:${ended.id}`,
      memberTakenBackMail({to: purchase.email, member: name, invited: ended.state === 'withdrawn'}),
      purchase.session_id,
    );
  return {
    status: ended.state,
    detail: `${name}: seat ${member.seat} ${ended.state === 'withdrawn' ? 'invitation withdrawn' : 'taken back'}`,
  };
}
