import type {AdminRelease} from '../../../src/config/api';

/**
 * Each release announced, newest first, with how its e-mails went: the addresses of its outbox
 * batches (`release:<id>:…` jobs) counted by the batch's state. Mailgun's own delivery reports
 * are not read: "emailed" means Mailgun accepted the batch.
 */
export async function releaseList(db: D1Database, limit = 50): Promise<AdminRelease[]> {
  const {results} = await db
    .prepare(
      `SELECT r.id, r.tag, r.name, r.published_at, r.recipients,
         COALESCE(SUM(CASE WHEN j.status = 'done' THEN json_array_length(j.payload, '$.recipients') END), 0) AS emailed,
         COALESCE(SUM(CASE WHEN j.status = 'failed' THEN json_array_length(j.payload, '$.recipients') END), 0) AS failed,
         COALESCE(SUM(CASE WHEN j.status = 'pending' THEN json_array_length(j.payload, '$.recipients') END), 0) AS waiting,
         (SELECT COUNT(*) FROM release_unsubscribes) AS unsubscribed
       FROM releases r LEFT JOIN jobs j ON j.kind = 'release-mail' AND j.key LIKE 'release:' || r.id || ':%'
       GROUP BY r.id ORDER BY r.published_at DESC, r.id DESC LIMIT ?1`,
    )
    .bind(limit)
    .all<{id: number; tag: string; name: string; published_at: number; recipients: number; emailed: number; failed: number; waiting: number; unsubscribed: number}>();
  return results.map(({published_at: publishedAt, ...row}) => ({...row, publishedAt}));
}
