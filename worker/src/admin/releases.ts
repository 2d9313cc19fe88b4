import {type AdminRelease, type AdminReleaseFailure, MAX_LISTED_FAILURES} from '../../../src/config/api';

/**
 * Each release announced, newest first, with how its e-mails went: per buyer, from
 * `release_deliveries` (what Mailgun accepted, refused, delivered, bounced), and the addresses of
 * its outbox batches (`release:<id>:…` jobs) still waiting. The unsubscribed are counted among the
 * addresses the release was queued for, not among everyone who ever unsubscribed.
 */
export async function releaseList(db: D1Database, limit = 50): Promise<AdminRelease[]> {
  const {results} = await db
    .prepare(
      `WITH listed AS (SELECT * FROM releases ORDER BY published_at DESC, id DESC LIMIT ?1),
       counts AS (
         SELECT release_id,
           SUM(status IN ('sent', 'delivered')) AS emailed,
           SUM(status = 'delivered') AS delivered,
           SUM(status = 'failed') AS failed
         FROM release_deliveries WHERE release_id IN (SELECT id FROM listed) GROUP BY release_id)
       SELECT r.id, r.tag, r.name, r.published_at, r.recipients,
         COALESCE(c.emailed, 0) AS emailed, COALESCE(c.delivered, 0) AS delivered, COALESCE(c.failed, 0) AS failed,
         (SELECT COALESCE(SUM(json_array_length(j.payload, '$.recipients')), 0) FROM jobs j
           WHERE j.kind = 'release-mail' AND j.status = 'pending' AND j.key LIKE 'release:' || r.id || ':%') AS waiting,
         (SELECT COUNT(*) FROM release_unsubscribes u WHERE u.email IN (
           SELECT e.value FROM jobs j, json_each(j.payload, '$.recipients') e
           WHERE j.kind = 'release-mail' AND j.key LIKE 'release:' || r.id || ':%')) AS unsubscribed
       FROM listed r LEFT JOIN counts c ON c.release_id = r.id
       ORDER BY r.published_at DESC, r.id DESC`,
    )
    .bind(limit)
    .all<{
      id: number;
      tag: string;
      name: string;
      published_at: number;
      recipients: number;
      emailed: number;
      delivered: number;
      failed: number;
      waiting: number;
      unsubscribed: number;
    }>();
  const failures = await failuresOf(
    db,
    results.map((row) => row.id),
  );
  return results.map(({published_at: publishedAt, ...row}) => ({
    ...row,
    publishedAt,
    failures: failures.get(row.id) ?? [],
  }));
}

/** The first MAX_LISTED_FAILURES failed addresses of each release, with Mailgun's reason. */
async function failuresOf(db: D1Database, ids: number[]): Promise<Map<number, AdminReleaseFailure[]>> {
  const {results} = await db
    .prepare(
      `SELECT release_id, email, reason FROM (
         SELECT release_id, email, reason, ROW_NUMBER() OVER (PARTITION BY release_id ORDER BY email) AS n
         FROM release_deliveries WHERE status = 'failed' AND release_id IN (SELECT value FROM json_each(?1)))
       WHERE n <= ?2 ORDER BY release_id, email`,
    )
    .bind(JSON.stringify(ids), MAX_LISTED_FAILURES)
    .all<{release_id: number; email: string; reason: string | null}>();
  const byRelease = new Map<number, AdminReleaseFailure[]>();
  for (const {release_id: id, email, reason} of results)
    byRelease.set(id, [...(byRelease.get(id) ?? []), {email, reason}]);
  return byRelease;
}
