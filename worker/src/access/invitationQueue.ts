import {appConfig} from '../../../src/config';
import type {InvitationWindow} from '../../../src/config/api';

/**
 * GitHub's cap on invitations, kept by the worker itself (D1): what was sent to a repository in
 * the last 24 hours, and the first-in, first-out queue of invitations that wait for the window to
 * free. Nothing here calls GitHub: invite.ts asks for a slot before each invitation, drainQueue.ts
 * sends the queue's head as slots free.
 */
export const DAY_MS = 24 * 3600_000;

/**
 * A queue entry still counts while its grant waits at that version: a refund, a failure or another
 * request of the purchase leaves the entry stale, and stale entries hold no place.
 */
const WAITING = `invitation_queue q JOIN grants g ON g.session_id = q.session_id AND g.repository_key = 'kit' AND g.version = q.version AND g.status = 'queued'`;

/**
 * Takes one of the window's invitations for this purchase, in one statement so that requests
 * alongside each other cannot both take the last one. None is taken when the window is full, or
 * when invitations queued before this purchase's still wait (first in, first out). Answers the
 * slot's id, to give back if GitHub does not take the invitation, or null.
 */
export async function takeSlot(
  db: D1Database,
  repository: string,
  sessionId: string,
  now = Date.now(),
): Promise<number | null> {
  const row = await db
    .prepare(
      `INSERT INTO invitations_sent (repository, session_id, sent_at)
       SELECT ?1, ?2, ?3
       WHERE (SELECT COUNT(*) FROM invitations_sent WHERE repository = ?1 AND sent_at > ?3 - ?5) < ?4
         AND NOT EXISTS (
           SELECT 1 FROM ${WAITING}
           WHERE q.repository = ?1 AND q.session_id != ?2
             AND q.id < COALESCE((SELECT id FROM invitation_queue WHERE session_id = ?2), 9223372036854775807))
       RETURNING id`,
    )
    .bind(repository, sessionId, now, appConfig.repository.invitationsPerDay, DAY_MS)
    .first<{id: number}>();
  return row?.id ?? null;
}

/**
 * Whether an invitation could go now without waiting: the window has a slot and nobody waits in
 * the queue. The cron's own re-sends ask first, so that they never withdraw an invitation that
 * still works only to queue its replacement (takeSlot still decides, for requests alongside).
 */
export async function hasFreeSlot(db: D1Database, repository: string, now = Date.now()): Promise<boolean> {
  const row = await db
    .prepare(
      `SELECT (SELECT COUNT(*) FROM invitations_sent WHERE repository = ?1 AND sent_at > ?2 - ?4) < ?3
         AND NOT EXISTS (SELECT 1 FROM ${WAITING} WHERE q.repository = ?1) AS free`,
    )
    .bind(repository, now, appConfig.repository.invitationsPerDay, DAY_MS)
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
 * again before then, and the queue's expected times say so.
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

/** Puts the purchase's invitation in the queue, or moves its entry to this grant version, keeping its place. */
export async function waitInQueue(
  db: D1Database,
  repository: string,
  grant: {sessionId: string; version: number},
  now = Date.now(),
) {
  await db
    .prepare(
      `INSERT INTO invitation_queue (session_id, version, repository, queued_at) VALUES (?1, ?2, ?3, ?4)
       ON CONFLICT (session_id) DO UPDATE SET version = excluded.version, repository = excluded.repository`,
    )
    .bind(grant.sessionId, grant.version, repository, now)
    .run();
}

/** Takes the purchase out of the queue; true when it was in it (its invitation waited). */
export async function leaveQueue(db: D1Database, sessionId: string): Promise<boolean> {
  const row = await db
    .prepare('DELETE FROM invitation_queue WHERE session_id = ?1 RETURNING id')
    .bind(sessionId)
    .first();
  return row !== null;
}

/** The queue's head, oldest first, stale entries included (the drain clears them). */
export async function queueHead(db: D1Database, repository: string, limit: number) {
  const {results} = await db
    .prepare('SELECT session_id, version FROM invitation_queue WHERE repository = ?1 ORDER BY id LIMIT ?2')
    .bind(repository, limit)
    .all<{session_id: string; version: number}>();
  return results;
}

/** How many invitations wait in the repository's queue. */
async function waitingCount(db: D1Database, repository: string): Promise<number> {
  const row = await db
    .prepare(`SELECT COUNT(*) AS queued FROM ${WAITING} WHERE q.repository = ?1`)
    .bind(repository)
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
 * When the invitations at places 1..count of the queue can go: each takes the slot of the
 * invitation that leaves the window first, and an invitation sent from the queue leaves it
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

export interface QueuePlace {
  /** 1 for the next invitation to go. */
  position: number;
  /** When it is expected to go (ms since the epoch). */
  expectedAt: number;
}

/** The purchase's place in the queue, and when its invitation is expected, or null when it does not wait. */
export async function placeInQueue(
  db: D1Database,
  repository: string,
  sessionId: string,
  now = Date.now(),
): Promise<QueuePlace | null> {
  const row = await db
    .prepare(
      `SELECT COUNT(*) AS position FROM ${WAITING}
       WHERE q.repository = ?1 AND q.id <= (SELECT q.id FROM ${WAITING} WHERE q.session_id = ?2 AND q.repository = ?1)`,
    )
    .bind(repository, sessionId)
    .first<{position: number}>();
  if (!row || row.position === 0) return null; // not waiting
  const times = expectedTimes(await sentInWindow(db, repository, now), row.position, now);
  return {position: row.position, expectedAt: times[row.position - 1]!};
}

/**
 * When an invitation that does not queue (a seat's move) can next have a slot: once every
 * invitation waiting in the queue has gone, and one more has left the window.
 */
export async function nextFreeSlotAt(db: D1Database, repository: string, now = Date.now()): Promise<number> {
  const queued = await waitingCount(db, repository);
  return expectedTimes(await sentInWindow(db, repository, now), queued + 1, now)[queued]!;
}

/** The repository's window and queue as the seller's console shows them. */
export async function invitationWindow(
  db: D1Database,
  repository: string,
  now = Date.now(),
): Promise<InvitationWindow> {
  const sent = await sentInWindow(db, repository, now);
  const queued = await waitingCount(db, repository);
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
