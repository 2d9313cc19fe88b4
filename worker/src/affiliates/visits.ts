import type {AffiliateVisit} from '../../../src/config/api';
import {AFFILIATE_WORDS, affiliateProgramme, appConfig} from '../../../src/config';
import {HttpError} from '../errors';
import {log} from '../log';
import {newSecretToken, tokenHash} from '../secretToken';
import {REFERRAL_METADATA, referralMs} from './programme';

/** The UTC day of a moment, YYYY-MM-DD: a visitor counts once a day, and a salt lasts a day. */
export const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);

/**
 * Records a visit through the link of the affiliate whose code it is, once per visitor and day: a
 * visitor's second visit of the day answers the first one's id and counts no click. The visitor
 * is known by a hash of the day's random salt, their address and their browser: once the salt is
 * purged (retention.ts, after its day), the hash names nobody, and no secret needs configuring.
 */
export async function recordVisit(
  db: D1Database,
  programme: {referralDays: number},
  code: string,
  visitor: {address: string; userAgent: string},
  now = Date.now(),
): Promise<AffiliateVisit> {
  const day = dayOf(now);
  const [affiliate, , salt] = await db.batch<{id?: string; salt?: string}>([
    db.prepare('SELECT id FROM affiliates WHERE code = ?1').bind(code),
    db
      .prepare('INSERT INTO affiliate_salts (day, salt, created_at) VALUES (?1, ?2, ?3) ON CONFLICT (day) DO NOTHING')
      .bind(day, newSecretToken(), now),
    db.prepare('SELECT salt FROM affiliate_salts WHERE day = ?1').bind(day),
  ]);
  const affiliateId = affiliate!.results[0]?.id;
  if (!affiliateId) throw new HttpError(404, AFFILIATE_WORDS.unknownCode, 'NOT_FOUND');
  const key = await tokenHash(`${salt!.results[0]!.salt}\n${visitor.address}\n${visitor.userAgent}`);
  const id = newSecretToken();
  const [, , visit] = await db.batch<{id: string; created_at: number}>([
    db
      .prepare(
        `INSERT INTO affiliate_visits (id, affiliate_id, visitor, day, created_at) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (affiliate_id, visitor, day) DO NOTHING`,
      )
      .bind(id, affiliateId, key, day, now),
    // A click counts only when this visit is the day's first (its row is the one just made): the
    // figure outlives the visits, which are purged after the referral period.
    db
      .prepare(
        'UPDATE affiliates SET clicks = clicks + 1 WHERE id = ?1 AND EXISTS (SELECT 1 FROM affiliate_visits WHERE id = ?2)',
      )
      .bind(affiliateId, id),
    db
      .prepare('SELECT id, created_at FROM affiliate_visits WHERE affiliate_id = ?1 AND visitor = ?2 AND day = ?3')
      .bind(affiliateId, key, day),
  ]);
  const row = visit!.results[0]!;
  return {referral: row.id, expiresAt: row.created_at + referralMs(programme)};
}

/**
 * What a checkout puts in its session's metadata for the referral the browser sent: the affiliate
 * and the visit, when the worker recorded that visit within the referral period; else nothing.
 * A referral never stands between a buyer and the checkout: unknown, expired, or a failure to read
 * it, and the checkout goes on without one.
 */
export async function referralMetadata(
  db: D1Database,
  referral: string | undefined,
  now = Date.now(),
): Promise<Record<string, string>> {
  const programme = affiliateProgramme(appConfig);
  if (!programme || !referral) return {};
  try {
    const visit = await db
      .prepare(
        `SELECT v.id, v.affiliate_id, v.created_at FROM affiliate_visits v
         JOIN affiliates a ON a.id = v.affiliate_id WHERE v.id = ?1`,
      )
      .bind(referral)
      .first<{id: string; affiliate_id: string; created_at: number}>();
    if (!visit || visit.created_at + referralMs(programme) <= now) return {};
    return {[REFERRAL_METADATA.affiliate]: visit.affiliate_id, [REFERRAL_METADATA.visit]: visit.id};
  } catch (err) {
    log.error('affiliate.referral_unread', {error: err instanceof Error ? err.message : String(err)});
    return {};
  }
}
