import {AFFILIATE_WORDS} from '../../../src/config';
import type {AuthUser} from '../auth/user';
import {HttpError} from '../errors';
import {log} from '../log';

/** An affiliate's id: `aff_` and 24 random hex digits (affiliateParams' pattern). */
function newAffiliateId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `aff_${[...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * The caller joins the programme with the code they named (lower-case, AFFILIATE_CODE_PATTERN):
 * one affiliate per account, one per code. Only with a verified e-mail: commission is owed to an
 * address its owner proved, and the self-referral check compares buyers with it.
 */
export async function joinAffiliates(db: D1Database, user: AuthUser, code: string, now = Date.now()) {
  if (!user.emailVerified || !user.email)
    throw new HttpError(403, AFFILIATE_WORDS.emailNotVerified, 'EMAIL_NOT_VERIFIED');
  const joined = await db
    .prepare(
      `INSERT INTO affiliates (id, user_id, email, code, created_at) VALUES (?1, ?2, ?3, ?4, ?5)
       ON CONFLICT DO NOTHING RETURNING id`,
    )
    .bind(newAffiliateId(), user.uid, user.email.toLowerCase(), code, now)
    .first<{id: string}>();
  if (joined) {
    log.info('affiliate.joined', {affiliateId: joined.id, userId: user.uid});
    return;
  }
  const already = await db.prepare('SELECT 1 AS joined FROM affiliates WHERE user_id = ?1').bind(user.uid).first();
  throw new HttpError(409, already ? AFFILIATE_WORDS.alreadyJoined : AFFILIATE_WORDS.codeTaken, 'CONFLICT');
}
