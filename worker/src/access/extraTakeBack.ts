import type {Context} from '../context';
import {enqueue, PermanentError, RetryableError} from '../jobs';
import {log} from '../log';
import {registerJob, runJob} from '../outbox';
import {GitHubFailure, type Repository, repositoryFor} from './github';
import {holderOf} from './holders';
import {lostAnswerInvitation} from './lostAnswer';
import {type ExtraGrant, isLive, readExtraGrant} from './extraGrantRecords';

/**
 * Takes back a grant no longer wanted: only what this worker created on GitHub (the invitation it
 * recorded, or, once that was accepted, the account it invited), then records it revoked. An
 * account or invitation that another live grant of the repository holds now is left alone (`holderOf`).
 */
export async function takeBackExtraGrant(context: Context, row: ExtraGrant, reason: string) {
  const {db} = context;
  const except = {sessionId: row.session_id, version: row.version};
  if (row.invitation_id !== null && row.repository !== null) {
    try {
      const repository = repositoryFor(context, row.repository);
      if (
        !(await holderOf(context, repository.fullName, {invitationId: row.invitation_id}, except)) &&
        !(await repository.withdrawInvitation(row.invitation_id))
      ) {
        // Gone: accepted (or withdrawn by hand). The account it invited is removed, by its id today.
        if (
          row.github_user_id !== null &&
          !(await holderOf(context, repository.fullName, {githubUserId: row.github_user_id}, except))
        ) {
          await removeAccount(repository, row.github_user_id);
        }
      }
    } catch (err) {
      if (err instanceof GitHubFailure)
        throw err.transient ? new RetryableError(err.message, err.retryAfterMs) : new PermanentError(err.message);
      throw err;
    }
  } else if (row.repository !== null && row.github_user_id !== null && row.invite_attempted_at !== null) {
    // Asked of GitHub, and the answer lost (lostAnswer.ts): the invitation that attempt created, if
    // GitHub lists it, is withdrawn, so that nothing is left open for an account no longer granted.
    try {
      const repository = repositoryFor(context, row.repository);
      const created = lostAnswerInvitation(await repository.invitations(), row.github_user_id, row.invite_attempted_at);
      if (
        created &&
        !(await holderOf(
          context,
          repository.fullName,
          {invitationId: created.id, githubUserId: row.github_user_id},
          except,
        ))
      ) {
        await repository.withdrawInvitation(created.id);
        log.info('extra_access.lost_answer_withdrawn', {
          sessionId: row.session_id,
          key: row.repository_key,
          invitationId: created.id,
        });
      }
    } catch (err) {
      if (err instanceof GitHubFailure)
        throw err.transient ? new RetryableError(err.message, err.retryAfterMs) : new PermanentError(err.message);
      throw err;
    }
  }
  // Only the grant as it was read: a re-send (extraExpiryResends.ts) may have replaced its
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
  log.info('extra_access.revoked', {
    sessionId: row.session_id,
    key: row.repository_key,
    reason,
    invitationId: row.invitation_id,
  });
}

async function removeAccount(repository: Repository, githubUserId: number) {
  const login = await repository.loginOf(githubUserId);
  if (login) await repository.removeCollaborator(login);
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
    try {
      const repository = repositoryFor(context, stale.repository);
      if (!(await repository.withdrawInvitation(stale.invitationId)) && stale.githubUserId !== null) {
        // Gone: accepted before the withdrawal (or withdrawn by hand). The account it let in is
        // removed, unless a live grant of the repository holds that account now (its own purchase
        // invited it again since, or another purchase of the same account).
        if (!(await holderOf(context, repository.fullName, {githubUserId: stale.githubUserId}))) {
          await removeAccount(repository, stale.githubUserId);
        }
      }
    } catch (err) {
      if (err instanceof GitHubFailure)
        throw err.transient ? new RetryableError(err.message, err.retryAfterMs) : new PermanentError(err.message);
      throw err;
    }
    log.info('extra_access.stale_invitation_withdrawn', {
      sessionId: stale.sessionId,
      key: stale.key,
      invitationId: stale.invitationId,
    });
  },
  gaveUp: async (_context, stale, error) => {
    // An invitation of this worker's may still be open on GitHub: the console lists the failed job.
    log.error('extra_access.stale_withdrawal_failed', {
      sessionId: stale.sessionId,
      key: stale.key,
      invitationId: stale.invitationId,
      error,
    });
  },
});
