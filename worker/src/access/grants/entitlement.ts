import {findStoredPlan, repositoryKeys} from '../../../../src/config';
import {effectivePlan} from '../../purchases';
import {OWNER_SEAT, type SeatRef, seatRef} from './records';

/**
 * May this seat of a purchase have the code now, and which of it? One answer for every delivery:
 * an invitation sent, re-sent or kept (the seat's and the extra repositories' reconcile), a download
 * link made or followed. A purchase is entitled while it is paid (not refunded, not lost to a
 * dispute) and the seller has not revoked it; it is entitled to the kit's repository and to the
 * extra ones its plan grants now (its latest paid upgrade's: purchases.ts `effectivePlan`). A seat
 * past the owner's own is entitled while a member holds it (team/members.ts): removed, it is not.
 */

/**
 * The seat of a grant row `grant` (the table's name or its alias) is held, by the one the grant is
 * for: the owner's own seat, or a team seat whose member (`member_id`) still holds it (joined, or
 * named by the owner). A grant a removed member left is not, whoever holds the seat since. Always
 * qualified: `team_members` has a `seat` of its own.
 */
export const SEAT_HELD = (grant: string) =>
  `(${grant}.seat = ${OWNER_SEAT} OR EXISTS (SELECT 1 FROM team_members m
     WHERE m.id = ${grant}.member_id AND m.session_id = ${grant}.session_id AND m.seat = ${grant}.seat
       AND m.state = 'joined'))`;

/**
 * The same answer as SQL, for the statements that send or record a delivery: a purchase row
 * `alias`, and with `grant` the grant row whose seat must be held too.
 */
export const ENTITLED = (alias: string, grant?: string) =>
  `${alias}.status = 'paid' AND ${alias}.revoked_by_seller_at IS NULL${grant ? ` AND ${SEAT_HELD(grant)}` : ''}`;

export type Standing = 'entitled' | 'not_paid' | 'revoked_by_seller' | 'seat_ended';

export interface Entitlement {
  standing: Standing;
  /** The repository keys it may have: 'kit', then the plan's extra keys; none unless entitled. */
  repositories: string[];
}

/**
 * The entitlement of a seat of a purchase (a session id alone: the owner's own seat), for the member
 * `memberId` on a team's seat (a grant's `member_id`, a download link's).
 */
export async function entitlementOf(
  db: D1Database,
  at: SeatRef | string,
  memberId: number | null = null,
): Promise<Entitlement> {
  const {session_id: sessionId, seat} = seatRef(at);
  const row = await db
    .prepare(
      `SELECT p.status, p.revoked_by_seller_at, ${effectivePlan('p')} AS plan,
         ${SEAT_HELD('g')} AS seat_held
       FROM purchases p, (SELECT ?1 AS session_id, ?2 AS seat, ?3 AS member_id) g WHERE p.session_id = ?1`,
    )
    .bind(sessionId, seat, memberId)
    .first<{status: string; revoked_by_seller_at: number | null; plan: string | null; seat_held: number}>();
  const standing: Standing =
    row?.status !== 'paid'
      ? 'not_paid'
      : row.revoked_by_seller_at !== null
        ? 'revoked_by_seller'
        : row.seat_held !== 1
          ? 'seat_ended'
          : 'entitled';
  return {
    standing,
    repositories: standing === 'entitled' ? repositoryKeys(findStoredPlan(row!.plan)) : [],
  };
}
