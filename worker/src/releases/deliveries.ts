import type {Audience} from './audience';

/**
 * The per-buyer record of a release's e-mail (`release_deliveries`): `sent` when Mailgun accepts
 * the batch, `delivered` or `failed` once Mailgun says so. The order rules live here, in SQL, so
 * that two writers racing (a batch being recorded, an event arriving) still end right:
 * - `delivered` is final over `sent` and `failed` (a failed address sent again, and delivered);
 * - `failed` is final over `sent`, never over `delivered`;
 * - `sent` replaces only a `failed` written before this send began (a send again), never an event
 *   that arrived while the batch was on its way.
 */
export type DeliveryStatus = 'sent' | 'delivered' | 'failed';

export interface DeliveryBatch {
  releaseId: number;
  audience: Audience;
  emails: string[];
}

/** Mailgun accepted the batch, whose call began at `sentAt`. */
export function recordSent(
  db: D1Database,
  {releaseId, audience, emails}: DeliveryBatch,
  sentAt: number,
  now = Date.now(),
) {
  return db
    .prepare(
      `INSERT INTO release_deliveries (release_id, email, audience, status, reason, updated_at)
       SELECT ?1, value, ?2, 'sent', NULL, ?4 FROM json_each(?3) WHERE EXISTS (SELECT 1 FROM releases WHERE id = ?1)
       ON CONFLICT (release_id, email) DO UPDATE SET status = 'sent', reason = NULL, audience = excluded.audience, updated_at = excluded.updated_at
       WHERE release_deliveries.status = 'failed' AND release_deliveries.updated_at < ?5`,
    )
    .bind(releaseId, audience, JSON.stringify(emails), now, sentAt)
    .run();
}

/** The batch's addresses failed for good (Mailgun refused them), with its reason. */
export function recordFailed(
  db: D1Database,
  {releaseId, audience, emails}: DeliveryBatch,
  reason: string,
  now = Date.now(),
) {
  return db
    .prepare(
      `INSERT INTO release_deliveries (release_id, email, audience, status, reason, updated_at)
       SELECT ?1, value, ?2, 'failed', ?4, ?5 FROM json_each(?3) WHERE EXISTS (SELECT 1 FROM releases WHERE id = ?1)
       ON CONFLICT (release_id, email) DO UPDATE SET status = 'failed', reason = excluded.reason, updated_at = excluded.updated_at
       WHERE release_deliveries.status = 'sent'`,
    )
    .bind(releaseId, audience, JSON.stringify(emails), reason.slice(0, 500), now)
    .run();
}

/** What one of Mailgun's events says of one address of a stored release. */
export interface DeliveryEvent {
  releaseId: number;
  audience: Audience;
  email: string;
  status: Exclude<DeliveryStatus, 'sent'>;
  reason: string | null;
}

/**
 * The statement that applies an event, for a batch that stores it with its token: nothing when
 * the release is not one the worker stored, or when `unlessToken` was used already.
 */
export function eventStatement(
  db: D1Database,
  event: DeliveryEvent,
  unlessToken: string,
  now = Date.now(),
): D1PreparedStatement {
  const over =
    event.status === 'delivered' ? `release_deliveries.status <> 'delivered'` : `release_deliveries.status = 'sent'`;
  return db
    .prepare(
      `INSERT INTO release_deliveries (release_id, email, audience, status, reason, updated_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6
       WHERE EXISTS (SELECT 1 FROM releases WHERE id = ?1) AND NOT EXISTS (SELECT 1 FROM mailgun_tokens WHERE token = ?7)
       ON CONFLICT (release_id, email) DO UPDATE SET status = excluded.status, reason = excluded.reason, updated_at = excluded.updated_at
       WHERE ${over}`,
    )
    .bind(event.releaseId, event.email, event.audience, event.status, event.reason, now, unlessToken);
}
