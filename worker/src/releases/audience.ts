import {planKeys} from '../../../src/config';
import {effectivePlan} from '../purchases';

/**
 * Who a release is e-mailed to. `updates`: buyers with a paid purchase (not refunded, not
 * disputed) of a plan that includes updates. `upgrade`: buyers whose paid plans all leave updates
 * out, for the short note offering the upgrade (when the config's `releases.noticeWithoutUpdates`
 * asks for it). Either way, never an address that unsubscribed from release e-mails.
 */
export type Audience = 'updates' | 'upgrade';

const WITH_UPDATES = JSON.stringify(planKeys(true));
const WITHOUT_UPDATES = JSON.stringify(planKeys(false));

// ?1: the plans the audience bought; ?2: plans whose buyers are left out (or null); ?3: the
// addresses to keep (or null for all). Purchases store each e-mail lower-cased. A purchase's plan
// is the one it gives now: an upgrade to a plan with updates brings its buyer into `updates`.
const AUDIENCE_SQL = `
  SELECT DISTINCT email FROM purchases p
  WHERE status = 'paid' AND email IS NOT NULL AND ${effectivePlan('p')} IN (SELECT value FROM json_each(?1))
    AND (?2 IS NULL OR email NOT IN (
      SELECT email FROM purchases q
      WHERE status = 'paid' AND email IS NOT NULL AND ${effectivePlan('q')} IN (SELECT value FROM json_each(?2))))
    AND (?3 IS NULL OR email IN (SELECT value FROM json_each(?3)))
    AND email NOT IN (SELECT email FROM release_unsubscribes)
  ORDER BY email`;

/**
 * The audience's addresses, in a stable order; `among` keeps only those of a list (a batch,
 * checked again when it is sent: a refund or an unsubscribe since it was queued takes one out).
 */
export async function audienceOf(db: D1Database, audience: Audience, among?: string[]): Promise<string[]> {
  const [bought, leftOut] = audience === 'updates' ? [WITH_UPDATES, null] : [WITHOUT_UPDATES, WITH_UPDATES];
  const {results} = await db
    .prepare(AUDIENCE_SQL)
    .bind(bought, leftOut, among ? JSON.stringify(among) : null)
    .all<{email: string}>();
  return results.map((row) => row.email);
}
