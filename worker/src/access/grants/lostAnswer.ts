import type {Invitation} from '../github';

/**
 * An invitation GitHub created whose answer the worker never got: GitHub took the PUT, then a 502,
 * a 504 or a timeout reached the worker instead of the 201. The send is retried (the outbox, the
 * cron), and the retry finds an open invitation for the account that no record of the worker names.
 * Refused as someone else's, it would fail a paying buyer's grant over a GitHub hiccup.
 *
 * So each grant records when the worker last asked GitHub to invite its account
 * (`invite_attempted_at`, set just before the PUT, cleared once the invitation is recorded), and an
 * open invitation for the same numeric account created around that attempt is the worker's own:
 * the send adopts it as the PUT's answer. One created well before the attempt (the seller's, by
 * hand), or found with no attempt recorded, is still refused: the worker acts only on what it created.
 */

/** How far GitHub's clock (an invitation's `created_at`) and the worker's may differ. */
const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * The longest GitHub may take to create the invitation after the attempt was recorded: the PUT is
 * sent right after, and no invocation of the worker waits longer than a cron run's 15 minutes.
 */
const LONGEST_ANSWER_MS = 15 * 60_000;

/** The open invitation of `inviteeId` that the worker's attempt at `attemptedAt` created, if there is one. */
export function lostAnswerInvitation(
  invitations: readonly Invitation[],
  inviteeId: number,
  attemptedAt: number | null,
): Invitation | null {
  if (attemptedAt === null) return null;
  return (
    invitations.find(
      (invitation) =>
        invitation.inviteeId === inviteeId &&
        !invitation.expired &&
        invitation.createdAt >= attemptedAt - CLOCK_SKEW_MS &&
        invitation.createdAt <= attemptedAt + LONGEST_ANSWER_MS + CLOCK_SKEW_MS,
    ) ?? null
  );
}

/**
 * When the recorded invitation was sent: now, or when GitHub created the adopted one of a lost
 * answer (GitHub expires it 7 days after that, and the re-sends before expiry count from it).
 */
export function sentAt(adopted: Invitation | null, now = Date.now()): number {
  return adopted ? Math.min(adopted.createdAt, now) : now;
}

/**
 * Records, just before the PUT, that the worker asks GitHub to invite the grant's account now: a
 * later send that finds the invitation of a lost answer adopts it. Only while the grant is as the
 * caller read it (its version and account, and `status` unless null). `at` null clears it: GitHub
 * answered, and created nothing.
 */
export async function recordAttempt(
  db: D1Database,
  grant: {id: number; version: number; github_user_id: number | null},
  status: 'queued' | 'pending' | null,
  at: number | null = Date.now(),
) {
  await db
    .prepare(
      `UPDATE grants SET invite_attempted_at = ?4
       WHERE id = ?1 AND version = ?2 AND github_user_id IS ?3 AND (?5 IS NULL OR status = ?5)`,
    )
    .bind(grant.id, grant.version, grant.github_user_id, at, status)
    .run();
}
