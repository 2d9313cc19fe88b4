import {HttpError} from '../errors';

/**
 * The seller accepts a purchase flagged because its card is from another country than its
 * fair-price discount (payments/cardCountry.ts): the flag clears and stays cleared, a webhook
 * delivered again included. The buyer keeps the purchase as it is; to take it back, the seller
 * refunds it instead. Null when there is no such purchase; 409 when it is not flagged.
 */
export async function acceptCardCountry(db: D1Database, sessionId: string) {
  const accepted = await db
    .prepare(
      `UPDATE purchases SET country_review = 'accepted' WHERE session_id = ?1 AND country_review = 'flagged'
       RETURNING fair_price_country, card_country`,
    )
    .bind(sessionId)
    .first<{fair_price_country: string; card_country: string | null}>();
  if (accepted) return accepted;
  const found = await db.prepare('SELECT country_review FROM purchases WHERE session_id = ?1').bind(sessionId).first<{country_review: string | null}>();
  if (!found) return null;
  throw new HttpError(
    409,
    found.country_review === 'accepted' ? 'This purchase was already accepted.' : "This purchase is not flagged: its card's country was not found to differ.",
    'CONFLICT',
  );
}
