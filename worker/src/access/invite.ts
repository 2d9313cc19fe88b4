import type {Context} from '../context';
import {enqueue, hasPendingJobs, PermanentError, RetryableError} from '../jobs';
import {log} from '../log';
import {seatMail} from '../mail';
import {registerJob, runJob} from '../outbox';
import {SEND_CLAIM_MS, whileClaimed} from './claims';
import {reconcileExtraGrantsSoon} from './extraGrants';
import {GitHubFailure, type Invitation, type InviteResult, repositoryFor} from './github';
import {type AccessResult, type Grant, isTakenById, readGrant, refusalFor, resultOf, TAKEN} from './grants';
import {giveBackSlot, leaveQueue, takeSlot, waitInQueue, windowFullFor} from './invitationQueue';
import {sentAt} from './lostAnswer';
import {removeNowOrLater} from './removal';

/**
 * Sending a grant's invitation: at once when GitHub takes it and the cap allows, else later (the
 * outbox's `github-invite` job for a GitHub that is busy, the invitation queue for the cap).
 */

/** Tries the invitation now; a transient failure leaves it to the outbox and answers `queued`. */
export async function inviteNowOrLater(
  context: Context,
  grant: Grant,
  {checked}: {checked: boolean},
): Promise<AccessResult> {
  try {
    return await performInvite(context, grant.session_id, grant.version, {checked});
  } catch (err) {
    if (err instanceof RetryableError) {
      await enqueue(context.db, {
        key: `invite:${grant.session_id}:${grant.version}`,
        kind: 'github-invite',
        sessionId: grant.session_id,
        payload: {sessionId: grant.session_id, version: grant.version},
        runAfter: Date.now() + (err.retryAfterMs ?? 60_000),
      });
      log.warn('access.invite_queued', {sessionId: grant.session_id, reason: err.message});
      return {status: 'queued', retryAfterMs: err.retryAfterMs};
    }
    throw err;
  }
}

/**
 * Sends the invitation for one version of a grant, within GitHub's cap: with no slot left in the
 * last 24 hours (or invitations queued before it), or when GitHub refuses it for the cap, it waits
 * in the invitation queue and answers `queued`; drainQueue.ts sends it when its turn comes.
 * Throws RetryableError for transient failures and PermanentError (after recording the grant as
 * failed) for the rest. The outbox's `github-invite` job and the queue's drain call this too,
 * unchecked: time has passed, so it checks the account again.
 */
export async function performInvite(
  context: Context,
  sessionId: string,
  version: number,
  {checked = false}: {checked?: boolean} = {},
): Promise<AccessResult> {
  const {db} = context;
  const grant = await readGrant(db, sessionId);
  if (!grant || grant.version !== version || grant.status !== 'queued') {
    return grant ? resultOf(grant) : {status: 'queued'};
  }
  if (await hasPendingJobs(db, `remove:${sessionId}:`)) {
    throw new RetryableError('Waiting for the previous GitHub account to be removed', 30_000);
  }
  return whileClaimed(
    db,
    {session_id: sessionId, repository_key: 'kit', version},
    {status: 'queued'},
    () => sendClaimed(context, grant, {checked}),
    () => {
      throw new RetryableError('Another request is sending this invitation', SEND_CLAIM_MS);
    },
  );
}

/** The invitation of a grant this caller has claimed (see performInvite). */
async function sendClaimed(context: Context, grant: Grant, {checked}: {checked: boolean}): Promise<AccessResult> {
  const {db, settings} = context;
  const {session_id: sessionId, version} = grant;
  const repository = repositoryFor(context);
  const repositoryName = settings.GITHUB_REPO!;
  const slot = await takeSlot(context, repositoryName, {sessionId, key: 'kit'});
  if (slot === null) {
    await waitInQueue(db, {sessionId, key: 'kit'});
    log.info('access.invite_waits', {sessionId});
    return {status: 'queued'};
  }
  // Given back unless GitHub took the invitation.
  let giveBack = true;
  try {
    let github = {login: grant.github_username, id: grant.github_user_id};
    if (github.id === null) {
      const user = await repository.lookupUser(grant.github_username);
      if (!user) return await recordFailure(db, grant, `GitHub user ${grant.github_username} was not found`);
      github = user;
    } else if (!checked) {
      // Time has passed (the queue, the outbox): the account may have been renamed meanwhile, and
      // GitHub invites by login. The numeric id says who it is now.
      const login = await repository.loginOf(github.id);
      if (!login) return await recordFailure(db, grant, `GitHub user ${grant.github_username} no longer exists`);
      github = {login, id: github.id};
    }
    // An invitation that an earlier attempt of this grant created, whose answer was lost, is taken
    // as that attempt's answer (lostAnswer.ts). A checked send is a new version's first: it has none.
    let adopted: Invitation | null = null;
    if (!checked) {
      const found = await refusalFor(
        context,
        sessionId,
        {login: github.login, id: github.id!},
        null,
        grant.invite_attempted_at,
      );
      if (found && 'refusal' in found) return await recordFailure(db, grant, found.refusal);
      adopted = found?.adopt ?? null;
    }
    if (adopted) {
      log.warn('access.lost_answer_adopted', {sessionId, githubUserId: github.id, invitationId: adopted.id});
    } else {
      await db
        .prepare(
          `UPDATE grants SET invite_attempted_at = ?3 WHERE repository_key = 'kit' AND session_id = ?1 AND version = ?2 AND status = 'queued'`,
        )
        .bind(sessionId, version, Date.now())
        .run();
    }
    const outcome: InviteResult = adopted
      ? {state: 'invited', invitationId: adopted.id}
      : await repository.invite(github.login);
    giveBack = outcome.state !== 'invited';
    if (outcome.state === 'active') {
      // It became a collaborator between the check and the invitation: not ours to record.
      log.warn('access.already_collaborator', {sessionId, githubUserId: github.id});
      return await recordFailure(db, grant, TAKEN.collaborator(github.login));
    }
    let recorded: Grant | null;
    try {
      recorded = await db
        .prepare(
          `UPDATE grants SET status = 'pending', invitation_id = ?3, github_user_id = ?4, github_username = ?6, updated_at = ?5,
             checked_at = ?5, invitation_expired = 0, invited_at = ?7, invite_attempted_at = NULL
           WHERE repository_key = 'kit' AND session_id = ?1 AND version = ?2 AND status = 'queued'
             AND EXISTS (SELECT 1 FROM purchases WHERE session_id = ?1 AND status = 'paid')
           RETURNING *`,
        )
        .bind(sessionId, version, outcome.invitationId, github.id, Date.now(), github.login, sentAt(adopted))
        .first<Grant>();
    } catch (err) {
      if (!isTakenById(err)) throw err;
      recorded = null;
    }
    if (!recorded) {
      // The grant changed, the purchase was revoked, or another purchase took the account while
      // GitHub answered: withdraw this invitation.
      await removeNowOrLater(
        context,
        {...grant, github_user_id: github.id, invitation_id: outcome.invitationId},
        'stale invitation',
      );
      // A refund or dispute that ran before this grant existed (between the request's payment check
      // and its insert) revoked nothing: the grant is revoked here, or it would wait queued for ever
      // and hold the account from every other purchase. A dispute won restores it as any other.
      await db
        .prepare(
          `UPDATE grants SET status = 'revoked', detail = 'the purchase is not paid', version = version + 1, updated_at = ?3, waiting_at = NULL
           WHERE repository_key = 'kit' AND session_id = ?1 AND version = ?2 AND status = 'queued'
             AND NOT EXISTS (SELECT 1 FROM purchases WHERE session_id = ?1 AND status = 'paid')`,
        )
        .bind(sessionId, version, Date.now())
        .run();
      const now = await readGrant(db, sessionId);
      return now ? resultOf(now) : {status: 'queued'};
    }
    const waited = await leaveQueue(db, {sessionId, key: 'kit'});
    log.info('access.invited', {sessionId, githubUserId: github.id, waited});
    await tellOwner(context, recorded, {waited});
    // The same account gets the extra repositories the plan grants (extraGrants.ts).
    await reconcileExtraGrantsSoon(context, sessionId, `seat:${recorded.version}`);
    return resultOf(recorded);
  } catch (err) {
    if (!(err instanceof GitHubFailure)) throw err;
    if (err.transient) throw new RetryableError(err.message, err.retryAfterMs);
    if (err.capReached) {
      // GitHub counts invitations this worker did not send (the seller's own): its word wins.
      await waitInQueue(db, {sessionId, key: 'kit'});
      await giveBackSlot(db, slot);
      giveBack = false;
      await windowFullFor(db, repositoryName);
      log.warn('access.invite_cap_refused', {sessionId, error: err.message});
      return {status: 'queued'};
    }
    log.warn('access.github_refused', {sessionId, error: err.message});
    return recordFailure(db, grant, 'GitHub refused the invitation.');
  } finally {
    if (giveBack) await giveBackSlot(db, slot);
  }
}

/**
 * E-mails the purchase's address which GitHub account holds its seat now (one e-mail per grant
 * version), through the outbox: the invitation stands whether or not the e-mail goes at once.
 */
export async function tellOwner(context: Context, grant: Grant, {waited = false}: {waited?: boolean} = {}) {
  const purchase = await context.db
    .prepare('SELECT email FROM purchases WHERE session_id = ?1')
    .bind(grant.session_id)
    .first<{email: string | null}>();
  if (!purchase?.email) return;
  const id = await enqueue(context.db, {
    key: `seat:${grant.session_id}:${grant.version}`,
    kind: 'mail',
    sessionId: grant.session_id,
    payload: seatMail(context.settings, {
      to: purchase.email,
      login: grant.github_username,
      repository: context.settings.GITHUB_REPO!,
      waited,
      ...(grant.resent_after_expiry === 1 && {resent: grant.expiry_resends}),
    }),
  });
  if (id !== null) await runJob(context, id);
}

/** Records why an invitation failed, in our words (GitHub's own text stays in the logs). */
async function recordFailure(db: D1Database, grant: Grant, reason: string): Promise<never> {
  await db
    .prepare(
      `UPDATE grants SET status = 'failed', detail = ?3, updated_at = ?4, invite_attempted_at = NULL, waiting_at = NULL
       WHERE repository_key = 'kit' AND session_id = ?1 AND version = ?2 AND status = 'queued'`,
    )
    .bind(grant.session_id, grant.version, reason, Date.now())
    .run();
  log.warn('access.invite_failed', {sessionId: grant.session_id, reason});
  throw new PermanentError(reason);
}

registerJob<{sessionId: string; version: number}>('github-invite', {
  run: async (context, {sessionId, version}) => {
    await performInvite(context, sessionId, version);
  },
});
