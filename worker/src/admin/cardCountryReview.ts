import {HttpError} from '../errors';

/**
 * The seller accepts a payment flagged because its card is from another country than its
 * fair-price discount (payments/cardCountry.ts): a purchase's, or an upgrade's (its own payment,
 * by the upgrade's session, as a refund takes it). The flag clears and stays cleared, a webhook
 * delivered again included. The buyer keeps what they paid for as it is; to take it back, the
 * seller refunds it instead. Null when there is no such payment; 409 when it is not flagged.
 */
export async function acceptCardCountry(db: D1Database, sessionId: string) {
  const accept = (table: 'purchases' | 'upgrades') =>
    db
      .prepare(
        `UPDATE ${table} SET country_review = 'accepted' WHERE session_id = ?1 AND country_review = 'flagged'
         RETURNING fair_price_country, card_country, ${table === 'upgrades' ? 'purchase_session_id' : 'NULL'} AS upgrade_of`,
      )
      .bind(sessionId);
  const [purchase, upgrade] = await db.batch<{
    fair_price_country: string;
    card_country: string | null;
    upgrade_of: string | null;
  }>([accept('purchases'), accept('upgrades')]);
  const accepted = purchase!.results[0] ?? upgrade!.results[0];
  if (accepted) return accepted;
  const found = await db
    .prepare(
      `SELECT country_review, 'purchase' AS kind FROM purchases WHERE session_id = ?1
       UNION ALL SELECT country_review, 'upgrade' AS kind FROM upgrades WHERE session_id = ?1 LIMIT 1`,
    )
    .bind(sessionId)
    .first<{country_review: string | null; kind: 'purchase' | 'upgrade'}>();
  if (!found) return null;
  const what = found.kind === 'upgrade' ? 'This upgrade' : 'This purchase';
  throw new HttpError(
    409,
    found.country_review === 'accepted'
      ? `${what} was already accepted.`
      : `${what} is not flagged: its card's country was not found to differ.`,
    'CONFLICT',
  );
}
