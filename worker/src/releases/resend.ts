import type {Context} from '../context';
import {HttpError} from '../errors';
import {enqueue, hasPendingJobs} from '../jobs';
import {runJob} from '../outbox';
import type {Audience} from './audience';
import {batchesOf, batchSpacingMs, type ReleaseBatch} from './releaseMail';

export interface Resent {
  addresses: number;
  batches: number;
}

/**
 * The console's "Send again to those who failed": one new batch (or more, past releaseBatchSize) of the
 * release's e-mail for exactly the addresses the worker recorded failed, each job with a key of
 * its own. The batches are sent like the first ones, so each address is checked against the
 * audience again when it goes (unsubscribed or refunded since: skipped). The first goes at once.
 */
export async function resendFailed(context: Context, releaseId: number, unsubscribeUrl: string): Promise<Resent> {
  const {db} = context;
  const release = await db.prepare('SELECT id FROM releases WHERE id = ?1').bind(releaseId).first();
  if (!release) throw new HttpError(404, 'There is no release with that id.', 'NOT_FOUND');
  const prefix = `release:${releaseId}:resend-`;
  if (await hasPendingJobs(db, prefix)) {
    throw new HttpError(
      409,
      'This release is already being sent again to those who failed: wait for it to finish.',
      'CONFLICT',
    );
  }
  const {results} = await db
    .prepare(
      `SELECT email, audience, updated_at FROM release_deliveries WHERE release_id = ?1 AND status = 'failed' ORDER BY audience, email`,
    )
    .bind(releaseId)
    .all<{email: string; audience: Audience; updated_at: number}>();
  if (results.length === 0)
    throw new HttpError(409, 'No e-mail of this release failed: there is nobody to send it to again.', 'CONFLICT');

  const now = Date.now();
  // The keys name this round of failures (its latest), not the time of the request: two requests
  // at once (two admins, a retried POST) queue the same jobs, which the outbox takes once.
  const round = Math.max(...results.map((row) => row.updated_at));
  const batches: ReleaseBatch[] = [];
  for (const audience of ['updates', 'upgrade'] as const) {
    const emails = results.filter((row) => row.audience === audience).map((row) => row.email);
    batches.push(
      ...batchesOf(context.settings, {releaseId, audience, emails, unsubscribeUrl, keyPrefix: `${prefix}${round}:`}),
    );
  }
  const ids: (number | null)[] = [];
  for (const [index, batch] of batches.entries()) {
    ids.push(
      await enqueue(
        db,
        {key: batch.key!, kind: 'release-mail', payload: batch, runAfter: now + index * batchSpacingMs()},
        now,
      ),
    );
  }
  if (ids[0]) await runJob(context, ids[0]);
  return {addresses: results.length, batches: batches.length};
}
