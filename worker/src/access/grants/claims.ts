import type {GrantStatus} from '../../../../src/config/api';

/**
 * Claims on a grant's row, so that one caller at a time acts on it: a request, the outbox and the
 * cron can reach the same grant together, and two sends would each take a slot of the day's cap
 * (and the second would undo the first); two reads would each ask GitHub.
 */

/** How long a claim to send holds: past it, the caller that took it is taken for dead. */
export const SEND_CLAIM_MS = 120_000;

/** The grant a claim is on: its row's id and, where the caller read one, its version. */
export interface ClaimedGrant {
  id: number;
  version?: number;
}

/** What the grant must still be for the claim to be taken. */
export interface ClaimCondition {
  status: GrantStatus;
  /** When given, only while the grant still holds this invitation. */
  invitationId?: number | null;
}

/**
 * Claims a grant's send (`sending_at`) or GitHub read (`checked_at`) while it is as `condition`
 * says (and still at `grant.version`, when given): true for the one caller whose conditional
 * UPDATE took it, none other within `holdMs`.
 */
export async function claim(
  db: D1Database,
  grant: ClaimedGrant,
  column: 'sending_at' | 'checked_at',
  {status, invitationId}: ClaimCondition,
  now: number,
  holdMs: number,
): Promise<boolean> {
  const claimed = await db
    .prepare(
      `UPDATE grants SET ${column} = ?2
       WHERE id = ?1 AND status = ?3 AND (${column} IS NULL OR ${column} <= ?2 - ?4)
         AND (?5 = 0 OR invitation_id IS ?6) AND (?7 IS NULL OR version = ?7)
       RETURNING id`,
    )
    .bind(
      grant.id,
      now,
      status,
      holdMs,
      invitationId === undefined ? 0 : 1,
      invitationId ?? null,
      grant.version ?? null,
    )
    .first();
  return claimed !== null;
}

/**
 * Runs `send` for the one caller that claims the grant's send (see `claim`), and lets the claim go
 * after, whatever `send` did; a caller that finds it taken gets what `taken` answers (or throws).
 */
export async function whileClaimed<T>(
  db: D1Database,
  grant: ClaimedGrant,
  condition: ClaimCondition,
  send: () => Promise<T>,
  taken: () => T,
): Promise<T> {
  const now = Date.now();
  if (!(await claim(db, grant, 'sending_at', condition, now, SEND_CLAIM_MS))) return taken();
  try {
    return await send();
  } finally {
    await db.prepare('UPDATE grants SET sending_at = NULL WHERE id = ?1 AND sending_at = ?2').bind(grant.id, now).run();
  }
}
