import {afterPurchase} from '../../../../src/config';
import {HttpError} from '../../errors';

/**
 * The seller's revocation, as the purchase records it (`purchases.revoked_by_seller_at`, migration
 * 0027): the seller's Revoke access ends the purchase's right to the code, whatever way it is
 * delivered, and lasts until the seller's Grant access (seat.ts `revokeBySeller`, `grantBySeller`).
 * It is the purchase's, not its GitHub grant's: a buyer who only downloads has no grant.
 * Every way back to the code asks here: an invitation (seat.ts `requestAccess`), a download link
 * made or followed (download.ts), and a dispute won (reconcile.ts `restoreSeat`), which gives back
 * only what the dispute took. A buyer's other paid purchases keep theirs: the purchase chosen for
 * the buyer is chosen among those not revoked (purchases.ts `inForce`), and the console's page
 * names the others (admin/purchases.ts).
 */

/** What the buyer hears from every way back to the code. */
export function revokedBySeller() {
  return new HttpError(403, afterPurchase.revokedBySeller, 'ACCESS_REVOKED');
}

/** Whether the seller has revoked this purchase's access (false for a purchase D1 does not have). */
export async function isRevokedBySeller(db: D1Database, sessionId: string): Promise<boolean> {
  const row = await db
    .prepare('SELECT revoked_by_seller_at FROM purchases WHERE session_id = ?1')
    .bind(sessionId)
    .first<{revoked_by_seller_at: number | null}>();
  return row?.revoked_by_seller_at != null;
}

/** Records the revocation on a paid purchase; false when it is not paid, or already revoked. */
export async function recordSellerRevocation(db: D1Database, sessionId: string): Promise<boolean> {
  const now = Date.now();
  const recorded = await db
    .prepare(
      `UPDATE purchases SET revoked_by_seller_at = ?2, updated_at = ?2
       WHERE session_id = ?1 AND status = 'paid' AND revoked_by_seller_at IS NULL
       RETURNING session_id`,
    )
    .bind(sessionId, now)
    .first();
  return recorded !== null;
}

/**
 * Lifts it: the buyer may download and ask for an invitation again. False when there was none.
 */
export async function liftSellerRevocation(db: D1Database, sessionId: string): Promise<boolean> {
  const now = Date.now();
  const lifted = await db
    .prepare(
      `UPDATE purchases SET revoked_by_seller_at = NULL, updated_at = ?2
       WHERE session_id = ?1 AND revoked_by_seller_at IS NOT NULL
       RETURNING session_id`,
    )
    .bind(sessionId, now)
    .first();
  return lifted !== null;
}
