import type {Context} from '../../context';
import {PermanentError, RetryableError} from '../../jobs';
import {log} from '../../log';
import {GitHubFailure, type Repository} from '../github';
import {type GrantVersion, holderOf} from './holders';
import {lostAnswerInvitation} from './lostAnswer';

/** What a grant created on a repository, as its take-back read it. */
export interface Created {
  sessionId: string;
  /** The invitation the grant recorded; null when it recorded none. */
  invitationId: number | null;
  /** The account it invited, by GitHub's numeric id. */
  githubUserId: number | null;
  /** When it last asked GitHub for an invitation whose answer never came (lostAnswer.ts), or null. */
  attemptedAt: number | null;
}

/**
 * The GitHub half of every take-back, of any repository: takes off `repository` what the grant
 * created there, and nothing else. The invitation it recorded is withdrawn; if that was no longer
 * open (accepted, or gone), the account it invited is removed, by its numeric id. A grant whose
 * invitation's answer was lost withdraws the invitation that attempt created, if GitHub lists one
 * (one already accepted cannot be told from an account added by hand: left alone).
 *
 * An invitation or account another live grant of the repository holds now (`holderOf`; `except`
 * the grant taken back, as it was read) is left, and logged. GitHub's failures come out as the
 * outbox's: RetryableError while GitHub may answer later, PermanentError when it refused.
 */
export async function takeOffGitHub(
  context: Context,
  repository: Repository,
  created: Created,
  except: GrantVersion | null,
): Promise<void> {
  const {sessionId, invitationId, githubUserId, attemptedAt} = created;
  const heldBy = (github: {githubUserId?: number | null; invitationId?: number | null}) =>
    holderOf(context, repository.fullName, github, except);
  const skip = (holder: string) =>
    log.warn('access.take_back_skipped', {sessionId, repository: repository.fullName, githubUserId, heldBy: holder});
  try {
    if (invitationId === null) {
      if (githubUserId === null || attemptedAt === null) return;
      const lost = lostAnswerInvitation(await repository.invitations(), githubUserId, attemptedAt);
      if (!lost) return;
      const holder = await heldBy({invitationId: lost.id, githubUserId});
      if (holder) return skip(holder);
      await repository.withdrawInvitation(lost.id);
      log.info('access.lost_answer_withdrawn', {sessionId, repository: repository.fullName, invitationId: lost.id});
      return;
    }
    // GitHub answers a second invitation of an account with its open one: it may be another grant's now.
    const invitationHolder = await heldBy({invitationId});
    if (invitationHolder) return skip(invitationHolder);
    if ((await repository.withdrawInvitation(invitationId)) || githubUserId === null) return;
    const accountHolder = await heldBy({githubUserId});
    if (accountHolder) return skip(accountHolder);
    const login = await repository.loginOf(githubUserId);
    if (login) await repository.removeCollaborator(login);
  } catch (err) {
    if (err instanceof GitHubFailure)
      throw err.transient ? new RetryableError(err.message, err.retryAfterMs) : new PermanentError(err.message);
    throw err;
  }
}
