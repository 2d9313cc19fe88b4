import {pruneSentStatement} from './access/grants/invitationQueue';
import {affiliateProgramme, appConfig} from '../../src/config';
import {DAY_MS} from '../../src/config/dates';
import {dayOf} from './affiliates/visits';

/**
 * What the worker keeps only for a while. A Mailgun token older than its 5-minute signature window
 * can never be replayed, and Stripe stops retrying an event after 3 days; 30 days leaves room.
 * A download link never followed is worth nothing once expired; a followed one is the log of a
 * download, and stays.
 *
 * An affiliate's visit is kept only while it can still earn a commission (the programme's
 * `referralDays`; all of them when the seller runs no programme): its affiliate's clicks are
 * counted on the affiliate's row, and a commission keeps the visit's id. The salt that made its
 * visitors' hashes goes once its day is over, after which no hash can be matched to an address.
 */
export const KEEP_MS = 30 * 24 * 3600_000;

export async function pruneRecords(db: D1Database, now = Date.now()) {
  const before = now - KEEP_MS;
  await db.batch([
    pruneSentStatement(db, now),
    db.prepare('DELETE FROM mailgun_tokens WHERE used_at < ?1').bind(before),
    db.prepare('DELETE FROM stripe_events WHERE processed_at IS NOT NULL AND processed_at < ?1').bind(before),
    db.prepare('DELETE FROM download_links WHERE used_at IS NULL AND expires_at < ?1').bind(before),
    db
      .prepare('DELETE FROM affiliate_visits WHERE created_at < ?1')
      .bind(now - (affiliateProgramme(appConfig)?.referralDays ?? 0) * DAY_MS),
    db.prepare('DELETE FROM affiliate_salts WHERE day < ?1').bind(dayOf(now)),
  ]);
}
