import {type SeatEndReason, TEAM_LINK_MS} from '../../../src/config';
import type {TeamMember} from '../../../src/config/api';
import type {AuthUser} from '../auth/user';
import {invitationLapsed, type Grant} from '../access/grants/records';
import {effectiveSeats, inForce, paidPurchasesOf, type Purchase} from '../purchases';
import {newSecretToken, tokenHash} from '../secretToken';

/**
 * The members of a team purchase (migration 0038): who holds each seat past the owner's own. A
 * member's access is their seat's grants (access/grants/, every rule of one seat holds per seat);
 * this file is who the seat is for: the GitHub account the owner named, or an address the owner
 * invited, whose link the member takes once, signed in with that address.
 */

export type MemberState = 'invited' | 'joined' | 'withdrawn' | 'removed';

export interface MemberRow {
  id: number;
  session_id: string;
  seat: number;
  state: MemberState;
  email: string | null;
  link_hash: string | null;
  link_expires_at: number | null;
  user_id: string | null;
  created_at: number;
  updated_at: number;
}

/** The states in which a member holds their seat: no one else may be given it. */
const HOLDS = `('invited', 'joined')`;
/** A seat's grant in one of these still holds an account on GitHub, or is on its way to. */
const GRANT_HELD = `('queued', 'pending', 'active', 'removal_failed')`;

/**
 * The user's team purchase: paid, theirs, in force, sold with more than one seat. Of several, the
 * one with the most seats (the oldest of equals). Null when they own none.
 */
export async function teamPurchaseOf(db: D1Database, user: AuthUser): Promise<Purchase | null> {
  const teams = inForce(await paidPurchasesOf(db, user)).filter((purchase) => (purchase.seats ?? 1) > 1);
  let best: Purchase | null = null;
  for (const purchase of teams) if (!best || purchase.seats! > best.seats!) best = purchase;
  return best;
}

/** The members that hold a seat of the purchase (invited or joined), by seat. */
export async function membersOf(db: D1Database, sessionId: string): Promise<MemberRow[]> {
  const {results} = await db
    .prepare(`SELECT * FROM team_members WHERE session_id = ?1 AND state IN ${HOLDS} ORDER BY seat`)
    .bind(sessionId)
    .all<MemberRow>();
  return results;
}

/**
 * SQL (common table expressions, binding ?1 the purchase's session id) for the seats a team has
 * and those taken: `bought(seats)`, its seats now (purchases.ts `effectiveSeats`: seats added and
 * refunded since included, read in the statement, never from a value read before it); `held(n)`,
 * each seat past the owner's a member holds or whose grant still holds an account on GitHub (a
 * member removed whose take-back failed keeps the seat until it is off). Seats are a count: a seat's
 * number names its grants, and any number may be held, so a team whose seats were refunded keeps
 * its members where they are.
 */
const SEATS_TAKEN = `bought(seats) AS (SELECT ${effectiveSeats('p')} FROM purchases p WHERE p.session_id = ?1),
  held(n) AS (SELECT seat FROM team_members WHERE session_id = ?1 AND state IN ${HOLDS}
    UNION SELECT seat FROM grants WHERE session_id = ?1 AND seat > 1 AND status IN ${GRANT_HELD})`;

/** How many seats of the purchase may be given now: its seats, less the owner's and those taken. */
export async function freeSeatsOf(db: D1Database, purchase: Pick<Purchase, 'session_id'>): Promise<number> {
  const row = await db
    .prepare(
      `WITH ${SEATS_TAKEN}
       SELECT MAX(0, (SELECT seats FROM bought) - 1 - (SELECT COUNT(*) FROM held)) AS free`,
    )
    .bind(purchase.session_id)
    .first<{free: number}>();
  return row?.free ?? 0;
}

/**
 * How many seats past the owner's are held now: by a member, or by a grant whose take-back has not
 * reached GitHub yet (SEATS_TAKEN). The console counts from it who a refund of seats ends.
 */
export async function seatsHeld(db: D1Database, sessionId: string): Promise<number> {
  const row = await db
    .prepare(`WITH ${SEATS_TAKEN} SELECT COUNT(*) AS n FROM held`)
    .bind(sessionId)
    .first<{n: number}>();
  return row?.n ?? 0;
}

/**
 * How many seats held are past the team's seats now, or past them with `fewer` seats: those that a
 * refund of that many must end. 0 while the seats held fit.
 */
export async function seatsPast(db: D1Database, sessionId: string, fewer = 0): Promise<number> {
  const counted = await db
    .prepare(
      `WITH ${SEATS_TAKEN}
       SELECT MAX(0, (SELECT COUNT(*) FROM held) - ((SELECT seats FROM bought) - ?2 - 1)) AS past`,
    )
    .bind(sessionId, fewer)
    .first<{past: number | null}>();
  return counted?.past ?? 0;
}

/**
 * The members past the team's seats now, the newest first: those a refund of seats ends
 * (team/removeMember.ts `endSeatsPast`). None while the seats held fit.
 */
export async function membersPastSeats(db: D1Database, sessionId: string): Promise<MemberRow[]> {
  const past = await seatsPast(db, sessionId);
  if (past === 0) return [];
  const {results} = await db
    .prepare(
      `SELECT * FROM team_members WHERE session_id = ?1 AND state IN ${HOLDS} ORDER BY created_at DESC, id DESC LIMIT ?2`,
    )
    .bind(sessionId, past)
    .all<MemberRow>();
  return results;
}

/** The member whose record is `id`, while they hold a seat of the purchase; else null. */
export function heldMember(db: D1Database, sessionId: string, id: number): Promise<MemberRow | null> {
  return db
    .prepare(`SELECT * FROM team_members WHERE id = ?1 AND session_id = ?2 AND state IN ${HOLDS}`)
    .bind(id, sessionId)
    .first<MemberRow>();
}

/** The member holding a seat of the purchase, or null. */
export function memberAt(db: D1Database, sessionId: string, seat: number): Promise<MemberRow | null> {
  return db
    .prepare(`SELECT * FROM team_members WHERE session_id = ?1 AND seat = ?2 AND state IN ${HOLDS}`)
    .bind(sessionId, seat)
    .first<MemberRow>();
}

/** Whether an insert failed because the address holds a seat of the team already (an index). */
export const isSameAddressTwice = (err: unknown) =>
  err instanceof Error && /UNIQUE constraint failed: team_members\.session_id, team_members\.email/.test(err.message);

/**
 * Gives the lowest seat number no one holds to a new member, in one statement, while the team has a
 * free seat (freeSeatsOf's count, its seats read in the same statement). Two gives at once never
 * share a seat (the index on live seats). Null when every seat is taken.
 */
export async function giveSeat(
  db: D1Database,
  purchase: Pick<Purchase, 'session_id'>,
  member: {state: 'invited' | 'joined'; email?: string; linkHash?: string},
): Promise<MemberRow | null> {
  const now = Date.now();
  return db
    .prepare(
      `WITH RECURSIVE ${SEATS_TAKEN},
         seat(n) AS (SELECT 2 UNION ALL SELECT n + 1 FROM seat WHERE n < (SELECT COUNT(*) FROM held) + 2)
       INSERT INTO team_members (session_id, seat, state, email, link_hash, link_expires_at, created_at, updated_at)
       SELECT ?1, n, ?2, ?3, ?4, ?5, ?6, ?6 FROM seat
       WHERE n NOT IN (SELECT n FROM held) AND (SELECT COUNT(*) FROM held) < (SELECT seats FROM bought) - 1
       ORDER BY n LIMIT 1
       RETURNING *`,
    )
    .bind(
      purchase.session_id,
      member.state,
      member.email ?? null,
      member.linkHash ?? null,
      member.linkHash ? now + TEAM_LINK_MS : null,
      now,
    )
    .first<MemberRow>();
}

/** Takes back a seat given a moment ago whose member could not be invited: it held nothing yet. */
export async function ungiveSeat(db: D1Database, member: Pick<MemberRow, 'id'>): Promise<void> {
  await db.prepare(`DELETE FROM team_members WHERE id = ?1 AND user_id IS NULL`).bind(member.id).run();
}

/**
 * Ends a member's hold on their seat: an invitation is withdrawn, a member removed. Their link
 * stops with it (joinTeam reads the state). Returns the row as it is now (`withdrawn` or
 * `removed`), or null when the seat had no member (with `memberId`, not that one).
 */
export function endMember(
  db: D1Database,
  sessionId: string,
  seat: number,
  reason: SeatEndReason = 'removed',
  memberId: number | null = null,
): Promise<MemberRow | null> {
  return db
    .prepare(
      `UPDATE team_members SET state = CASE WHEN state = 'invited' THEN 'withdrawn' ELSE 'removed' END, updated_at = ?3,
         end_reason = ?4
       WHERE session_id = ?1 AND seat = ?2 AND state IN ${HOLDS} AND (?5 IS NULL OR id = ?5) RETURNING *`,
    )
    .bind(sessionId, seat, Date.now(), reason === 'removed' ? null : reason, memberId)
    .first<MemberRow>();
}

/** A new link for an invited member, for the full time again; the old link stops. Null when the seat holds no invitation. */
export async function renewLink(
  db: D1Database,
  sessionId: string,
  seat: number,
): Promise<{member: MemberRow; token: string} | null> {
  const token = newSecretToken();
  const member = await db
    .prepare(
      `UPDATE team_members SET link_hash = ?3, link_expires_at = ?4, updated_at = ?5
       WHERE session_id = ?1 AND seat = ?2 AND state = 'invited' RETURNING *`,
    )
    .bind(sessionId, seat, await tokenHash(token), Date.now() + TEAM_LINK_MS, Date.now())
    .first<MemberRow>();
  return member && {member, token};
}

/** A new link's secret and the hash D1 keeps of it. */
export async function newLink(): Promise<{token: string; hash: string}> {
  const token = newSecretToken();
  return {token, hash: await tokenHash(token)};
}

/** The member row a link's secret names, whatever its state now, or null for a link never sent (or replaced). */
export async function memberOfLink(db: D1Database, token: string): Promise<MemberRow | null> {
  return db
    .prepare('SELECT * FROM team_members WHERE link_hash = ?1')
    .bind(await tokenHash(token))
    .first<MemberRow>();
}

/** The invited member takes their seat: once, while still invited by that link. Null when it changed meanwhile. */
export function takeLink(db: D1Database, member: MemberRow, userId: string): Promise<MemberRow | null> {
  return db
    .prepare(
      `UPDATE team_members SET state = 'joined', user_id = ?3, updated_at = ?4
       WHERE id = ?1 AND state = 'invited' AND link_hash = ?2 RETURNING *`,
    )
    .bind(member.id, member.link_hash, userId, Date.now())
    .first<MemberRow>();
}

/** The seat a user joined through a link, of a team whose purchase is paid, or null. */
export function joinedSeatOf(db: D1Database, userId: string): Promise<MemberRow | null> {
  // Of a team still paid: a seat of a refunded team holds nothing, and keeps its member from no other.
  return db
    .prepare(
      `SELECT m.* FROM team_members m JOIN purchases p ON p.session_id = m.session_id
       WHERE m.user_id = ?1 AND m.state = 'joined' AND p.status = 'paid' ORDER BY m.id DESC LIMIT 1`,
    )
    .bind(userId)
    .first<MemberRow>();
}

/**
 * The team a user's seat ended in (its owner removed them, or refunded it), when they hold none now:
 * the owner's address and why, for their dashboard to say so. Null otherwise.
 */
export function endedTeamOf(db: D1Database, userId: string): Promise<{owner: string; reason: SeatEndReason} | null> {
  return db
    .prepare(
      `SELECT COALESCE(p.email, '') AS owner, COALESCE(m.end_reason, 'removed') AS reason FROM team_members m JOIN purchases p ON p.session_id = m.session_id
       WHERE m.user_id = ?1 AND m.state = 'removed'
         AND NOT EXISTS (SELECT 1 FROM team_members j WHERE j.user_id = ?1 AND j.state = 'joined')
       ORDER BY m.updated_at DESC LIMIT 1`,
    )
    .bind(userId)
    .first<{owner: string; reason: SeatEndReason}>();
}

/** A member as the owner sees them, with their seat's grant of the kit's repository (read as recorded). */
export function shownMember(member: MemberRow, seatGrant: Grant | null): TeamMember {
  // A seat's grant from before this member (a member removed before them) is not theirs.
  const holdsGrant = seatGrant !== null && member.state === 'joined' && seatGrant.member_id === member.id;
  return {
    seat: member.seat,
    state: member.state === 'invited' ? 'invited' : 'joined',
    ...(member.email !== null && {email: member.email}),
    ...(holdsGrant && seatGrant.github_username !== null && {username: seatGrant.github_username}),
    access: holdsGrant ? seatGrant.status : 'none',
    expired: holdsGrant ? invitationLapsed(seatGrant) : false,
    ...(member.state === 'invited' && member.link_expires_at !== null && {linkExpiresAt: member.link_expires_at}),
  };
}
