import type {AuthUser} from '../auth/user';
import {accessPurchaseOf, paidPurchase, type Purchase} from '../purchases';
import {joinedSeatOf} from '../team/members';
import {OWNER_SEAT, type SeatRef} from './grants/records';

/**
 * Where a signed-in user's access to the code is: the seat of their own purchase (accessPurchaseOf:
 * the owner's, seat 1), or else the seat of a team they joined (team/). What the dashboard shows, an
 * invitation asked for, a download link made: each reads this one seat.
 */
export interface AccessSeat {
  purchase: Purchase;
  seat: number;
  /**
   * For a member: their row (team_members) and the team's owner, by the purchase's e-mail. A member
   * never reads the owner's payment.
   */
  member?: {id: number; owner: string};
}

export async function accessSeatOf(db: D1Database, user: AuthUser): Promise<AccessSeat | null> {
  const own = await accessPurchaseOf(db, user);
  if (own) return {purchase: own, seat: OWNER_SEAT};
  const joined = await joinedSeatOf(db, user.uid);
  const purchase = joined && (await paidPurchase(db, joined.session_id));
  if (!joined || !purchase) return null;
  return {purchase, seat: joined.seat, member: {id: joined.id, owner: purchase.email ?? ''}};
}

/** The seat as a grant's reference. */
export const refOf = (at: AccessSeat): SeatRef => ({session_id: at.purchase.session_id, seat: at.seat});
