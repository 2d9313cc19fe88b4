import type {Context} from '../context';
import {enqueue, RetryableError} from '../jobs';
import {log} from '../log';
import {registerJob, runJob} from '../outbox';
import {repositoryFor} from './github';
import {takeOffGitHub} from './takeOff';
import {type ExtraGrant, readExtraGrant} from './extraGrantRecords';
import {isLive} from './grants';

/**
 * Takes back a grant no longer wanted: only what this worker created on GitHub (takeOff.ts: the
 * invitation it recorded, or, once that was accepted, the account it invited, never what another
 * live grant of the repository holds now), then records it revoked.
 */
export async function takeBackExtraGrant(context: Context, row: ExtraGrant, reason: string) {
  const {db} = context;
  if (row.repository !== null) {
    await takeOffGitHub(
      context,
      repositoryFor(context, row.repository),
      {
        sessionId: row.session_id,
        invitationId: row.invitation_id,
        githubUserId: row.github_user_id,
        attemptedAt: row.invite_attempted_at,
      },
      {sessionId: row.session_id, version: row.version},
    );
  }
  // Only the grant as it was read: a re-send (expiryResends.ts) may have replaced its
  // invitation meanwhile, or a status read made it active. Marked revoked, that new invitation
  // would stay open on GitHub with nothing to withdraw it; so the job runs again, on the new row.
  const revoked = await db
    .prepare(
      `UPDATE grants SET status = 'revoked', detail = ?4, sending_at = NULL, updated_at = ?5
       WHERE session_id = ?1 AND repository_key = ?2 AND status = ?3 AND invitation_id IS ?6 RETURNING session_id`,
    )
    .bind(row.session_id, row.repository_key, row.status, reason, Date.now(), row.invitation_id)
    .first();
  if (!revoked && isLive(await readExtraGrant(db, row.session_id, row.repository_key))) {
    throw new RetryableError(
      `The grant to ${row.repository} changed while it was taken back; it is taken back again`,
      0,
    );
  }
  log.info('access.revoked', {
    sessionId: row.session_id,
    key: row.repository_key,
    reason,
    invitationId: row.invitation_id,
  });
}

/** A stale invitation: created by this worker while its grant was being taken back. */
interface StaleInvitation {
  sessionId: string;
  key: string;
  repository: string;
  invitationId: number;
  githubUserId: number | null;
}

/**
 * Withdraws an invitation GitHub created while its grant was taken back (a refund, the seat moved,
 * meanwhile), through the outbox: a GitHub that does not answer now is asked again by the cron,
 * never left with an open invitation a refunded buyer could still accept.
 */
export async function withdrawStale(
  context: Context,
  grant: Pick<ExtraGrant, 'session_id' | 'repository_key' | 'repository' | 'github_user_id'>,
  invitationId: number,
) {
  const payload: StaleInvitation = {
    sessionId: grant.session_id,
    key: grant.repository_key,
    repository: grant.repository!,
    invitationId,
    githubUserId: grant.github_user_id,
  };
  const id = await enqueue(context.db, {
    key: `extra-withdraw:${payload.repository}:${invitationId}`,
    kind: 'extra-withdraw',
    sessionId: grant.session_id,
    payload,
  });
  if (id !== null) await runJob(context, id);
}

registerJob<StaleInvitation>('extra-withdraw', {
  run: async (context, stale) => {
    // If it was accepted before the withdrawal, the account it let in is removed, unless a live
    // grant of the repository holds it now (its own purchase invited it again since, or another).
    await takeOffGitHub(context, repositoryFor(context, stale.repository), {...stale, attemptedAt: null}, null);
    log.info('access.stale_invitation_withdrawn', {
      sessionId: stale.sessionId,
      key: stale.key,
      invitationId: stale.invitationId,
    });
  },
  gaveUp: async (_context, stale, error) => {
    // An invitation of this worker's may still be open on GitHub: the console lists the failed job.
    log.error('access.stale_withdrawal_failed', {
      sessionId: stale.sessionId,
      key: stale.key,
      invitationId: stale.invitationId,
      error,
    });
  },
});
