import {appConfig} from '../../../../src/config';
import type {InvitationWindow, QueuePlace} from '../../../../src/config/api';
import type {Context} from '../../context';
import {DAY_MS} from '../../../../src/config/dates';

/**
 * GitHub's cap on invitations, kept by the worker itself (D1): what was sent to a repository in
 * the last 24 hours, and the first-in, first-out line of grants that wait for the window to free,
 * one line per repository, the kit's and every extra repository's alike (`grants.waiting_at`,
 * migration 0029). Nothing here calls GitHub: each send asks for a slot first, and the cron's
 * drains send the line's head as slots free.
 */

/** What the line reads: the database, and the kit's repository (the kit's grant row names none). */
type Queues = Pick<Context, 'db' | 'settings'>;

/** One grant: its purchase, its seat and its repository's key ('kit', or an extra repository's key). */
export interface GrantKey {
  sessionId: string;
  seat: number;
  key: string;
}

/** A grant's row as the line names it. */
export const grantKey = (row: {session_id: string; seat: number; repository_key: string}): GrantKey => ({
  sessionId: row.session_id,
  seat: row.seat,
  key: row.repository_key,
});

/**
 * The grants that wait in a repository's line, as SQL: `alias` names the grants row, `repository`
 * and `kit` the placeholders of the repository asked about and of GITHUB_REPO. A grant waits while
 * it is queued with a place (`waiting_at`); one that left `queued` holds none, whatever its column
 * still says. The line is first come, first served by (waiting_at, id).
 */
const waitingIn = (alias: string, repository: string, kit: string) =>
  `${alias}.status = 'queued' AND ${alias}.waiting_at IS NOT NULL AND COALESCE(${alias}.repository, ${kit}) = ${repository}`;

/**
 * Takes one of the window's invitations for this grant, in one statement so that requests
 * alongside each other cannot both take the last one. None is taken when the window is full, or
 * when grants that came before this one still wait (first in, first out; a grant without a place
 * has every waiting grant ahead of it). Answers the slot's id, to give back if GitHub does not take
 * the invitation, or null.
 */
export async function takeSlot(
  {db, settings}: Queues,
  repository: string,
  grant: GrantKey,
  now = Date.now(),
): Promise<number | null> {
  const row = await db
    .prepare(
      `INSERT INTO invitations_sent (repository, session_id, sent_at)
       SELECT ?1, ?2, ?3
       WHERE (SELECT COUNT(*) FROM invitations_sent WHERE repository = ?1 AND sent_at > ?3 - ?5) < ?4
         AND NOT EXISTS (
           SELECT 1 FROM grants w
             LEFT JOIN grants me ON me.session_id = ?2 AND me.seat = ?8 AND me.repository_key = ?6 AND ${waitingIn('me', '?1', '?7')}
           WHERE ${waitingIn('w', '?1', '?7')} AND NOT (w.session_id = ?2 AND w.seat = ?8 AND w.repository_key = ?6)
             AND (me.id IS NULL OR (w.waiting_at, w.id) < (me.waiting_at, me.id)))
       RETURNING id`,
    )
    .bind(
      repository,
      grant.sessionId,
      now,
      appConfig.repository.invitationsPerDay,
      DAY_MS,
      grant.key,
      settings.GITHUB_REPO ?? null,
      grant.seat,
    )
    .first<{id: number}>();
  return row?.id ?? null;
}

/**
 * Whether an invitation could go now without waiting: the window has a slot and nobody waits in
 * the line. The cron's own re-sends ask first, so that they never withdraw an invitation that
 * still works only to queue its replacement (takeSlot still decides, for requests alongside).
 */
export async function hasFreeSlot({db, settings}: Queues, repository: string, now = Date.now()): Promise<boolean> {
  const row = await db
    .prepare(
      `SELECT (SELECT COUNT(*) FROM invitations_sent WHERE repository = ?1 AND sent_at > ?2 - ?4) < ?3
         AND NOT EXISTS (SELECT 1 FROM grants w WHERE ${waitingIn('w', '?1', '?5')}) AS free`,
    )
    .bind(repository, now, appConfig.repository.invitationsPerDay, DAY_MS, settings.GITHUB_REPO ?? null)
    .first<{free: number}>();
  return row?.free === 1;
}

/** GitHub did not take the invitation: the slot is free again. */
export async function giveBackSlot(db: D1Database, slotId: number) {
  await db.prepare('DELETE FROM invitations_sent WHERE id = ?1').bind(slotId).run();
}

/** After GitHub refused an invitation for its cap, the worker takes its word for this long. */
export const CAP_REFUSAL_PAUSE_MS = 30 * 60_000;

/**
 * GitHub refused for its cap although the worker's count had room: GitHub also counts the
 * invitations the seller sent by hand. The window is filled up to the cap with rows (no purchase)
 * that leave it in CAP_REFUSAL_PAUSE_MS, so that neither the cron nor the dashboard asks GitHub
 * again before then, and the line's expected times say so.
 */
export async function windowFullFor(db: D1Database, repository: string, now = Date.now()) {
  const row = await db
    .prepare('SELECT COUNT(*) AS used FROM invitations_sent WHERE repository = ?1 AND sent_at > ?2')
    .bind(repository, now - DAY_MS)
    .first<{used: number}>();
  const missing = appConfig.repository.invitationsPerDay - (row?.used ?? 0);
  if (missing <= 0) return;
  const fill = db
    .prepare(`INSERT INTO invitations_sent (repository, session_id, sent_at) VALUES (?1, '', ?2)`)
    .bind(repository, now + CAP_REFUSAL_PAUSE_MS - DAY_MS);
  await db.batch(Array.from({length: missing}, () => fill));
}

/**
 * Gives a queued grant a place in its repository's line, or keeps the place it has: a later
 * request of the purchase, while it waits, does not send it to the back. The kit's grant takes its
 * place now; an extra repository's, the time it was queued (`queued_at`), the order its reconcile
 * keeps (reconcile.ts `queuedAhead`).
 */
export async function waitInQueue(db: D1Database, grant: GrantKey, now = Date.now()) {
  await db
    .prepare(
      `UPDATE grants SET waiting_at = COALESCE(waiting_at, queued_at, ?3)
       WHERE session_id = ?1 AND seat = ?4 AND repository_key = ?2 AND status = 'queued'`,
    )
    .bind(grant.sessionId, grant.key, now, grant.seat)
    .run();
}

/** Takes the grant out of its line; true when it had a place there (its invitation waited). */
export async function leaveQueue(db: D1Database, grant: GrantKey): Promise<boolean> {
  const row = await db
    .prepare(
      `UPDATE grants SET waiting_at = NULL
       WHERE session_id = ?1 AND seat = ?3 AND repository_key = ?2 AND waiting_at IS NOT NULL RETURNING id`,
    )
    .bind(grant.sessionId, grant.key, grant.seat)
    .first();
  return row !== null;
}

/** The line's head, first come first: the grants whose turn comes next. */
export async function queueHead({db, settings}: Queues, repository: string, limit: number) {
  const {results} = await db
    .prepare(
      `SELECT w.session_id, w.seat, w.repository_key FROM grants w WHERE ${waitingIn('w', '?1', '?3')}
       ORDER BY w.waiting_at, w.id LIMIT ?2`,
    )
    .bind(repository, limit, settings.GITHUB_REPO ?? null)
    .all<{session_id: string; seat: number; repository_key: string}>();
  return results;
}

/** How many grants wait in the repository's line. */
async function waitingCount({db, settings}: Queues, repository: string): Promise<number> {
  const row = await db
    .prepare(`SELECT COUNT(*) AS queued FROM grants w WHERE ${waitingIn('w', '?1', '?2')}`)
    .bind(repository, settings.GITHUB_REPO ?? null)
    .first<{queued: number}>();
  return row?.queued ?? 0;
}

/** The invitations sent in the last 24 hours, oldest first. */
async function sentInWindow(db: D1Database, repository: string, now: number): Promise<number[]> {
  const {results} = await db
    .prepare('SELECT sent_at FROM invitations_sent WHERE repository = ?1 AND sent_at > ?2 ORDER BY sent_at')
    .bind(repository, now - DAY_MS)
    .all<{sent_at: number}>();
  return results.map((row) => row.sent_at);
}

/**
 * When the invitations at places 1..count of the line can go: each takes the slot of the
 * invitation that leaves the window first, and an invitation sent from the line leaves it
 * 24 hours later in turn. The cron sends them within minutes of that time.
 */
export function expectedTimes(
  sentTimes: number[],
  count: number,
  now: number,
  cap = appConfig.repository.invitationsPerDay,
): number[] {
  const window = [...sentTimes];
  const times: number[] = [];
  const surplus = window.length - cap; // > 0 only when the cap was lowered
  for (let place = 0; place < count; place++) {
    const leaving = place + surplus;
    const at = Math.max(leaving < 0 ? now : window[leaving]! + DAY_MS, times[place - 1] ?? now);
    times.push(at);
    window.push(at);
  }
  return times;
}

/** The grant's place in its repository's line, and when its invitation is expected, or null when it does not wait. */
export async function placeInQueue(
  queues: Queues,
  repository: string,
  grant: GrantKey,
  now = Date.now(),
): Promise<QueuePlace | null> {
  const row = await queues.db
    .prepare(
      `SELECT COUNT(*) AS position FROM grants w, grants me
       WHERE me.session_id = ?2 AND me.seat = ?5 AND me.repository_key = ?3 AND ${waitingIn('me', '?1', '?4')}
         AND ${waitingIn('w', '?1', '?4')} AND (w.waiting_at, w.id) <= (me.waiting_at, me.id)`,
    )
    .bind(repository, grant.sessionId, grant.key, queues.settings.GITHUB_REPO ?? null, grant.seat)
    .first<{position: number}>();
  if (!row || row.position === 0) return null; // not waiting
  const times = expectedTimes(await sentInWindow(queues.db, repository, now), row.position, now);
  return {position: row.position, expectedAt: times[row.position - 1]!};
}

/**
 * When an invitation that does not queue (a seat's move) can next have a slot: once every grant
 * waiting in the line has gone, and one more invitation has left the window.
 */
export async function nextFreeSlotAt(queues: Queues, repository: string, now = Date.now()): Promise<number> {
  const queued = await waitingCount(queues, repository);
  return expectedTimes(await sentInWindow(queues.db, repository, now), queued + 1, now)[queued]!;
}

/** The repository's window and line as the seller's console shows them. */
export async function invitationWindow(
  queues: Queues,
  repository: string,
  now = Date.now(),
): Promise<InvitationWindow> {
  const sent = await sentInWindow(queues.db, repository, now);
  const queued = await waitingCount(queues, repository);
  const times = expectedTimes(sent, queued, now);
  return {
    cap: appConfig.repository.invitationsPerDay,
    usedLast24h: sent.length,
    queued,
    drainsBy: times.at(-1) ?? null,
  };
}

/** Sent invitations leave the count after 24 hours; the rows go after two days. */
export function pruneSentStatement(db: D1Database, now = Date.now()) {
  return db.prepare('DELETE FROM invitations_sent WHERE sent_at < ?1').bind(now - 2 * DAY_MS);
}
