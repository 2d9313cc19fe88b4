import {appConfig} from '../../../src/config';
import type {AccessResult as AccessAnswer, GrantStatus} from '../../../src/config/api';
import {HttpError} from '../errors';
import {enqueue, hasPendingJobs, PermanentError, RetryableError} from '../jobs';
import {log} from '../log';
import {seatMail} from '../mail';
import type {Settings} from '../settings';
import {GitHubFailure, type InviteResult, repositoryFor} from './github';

/**
 * Repository access, granted and revoked in one place (as Polar does for GitHub benefits). D1 is
 * the record: one GitHub account per purchase, GitHub's numeric user id, the invitation id and a
 * status. Every change bumps `version`, so a GitHub answer that arrives after the grant changed
 * (a refund, another username) is recognised as stale and undone rather than recorded.
 *
 * The worker touches only what it created: it never invites an account that is already on the
 * repository (GitHub's PUT would silently change that collaborator's permission), and it removes
 * only the invitation it received, or the account it invited, by GitHub's numeric id.
 */
export type {GrantStatus};

export interface Grant {
  session_id: string;
  user_id: string;
  github_username: string;
  github_user_id: number | null;
  invitation_id: number | null;
  status: GrantStatus;
  detail: string | null;
  version: number;
  username_changes: number;
  checked_at: number | null;
  invitation_expired: number;
  /** 1 when the verified owner of the purchase's e-mail (or the seller) chose this account. */
  chosen_by_owner: number;
}

export type AccessResult = AccessAnswer & {retryAfterMs?: number};

/** What access needs: the database, the settings, and a way to run an outbox job at once. */
export interface Context {
  db: D1Database;
  settings: Settings;
  runJob(id: number): Promise<void>;
}

/** Polling the dashboard must not spend the token's quota: GitHub is read once a minute per grant. */
export const CHECK_EVERY_MS = 60_000;

const LIVE: readonly GrantStatus[] = ['queued', 'pending', 'active'];
/** A seat that is not free: live, or one whose removal failed and is still on GitHub. */
const HELD = `('queued', 'pending', 'active', 'removal_failed')`;

export function readGrant(db: D1Database, sessionId: string) {
  return db.prepare('SELECT * FROM access_grants WHERE session_id = ?1').bind(sessionId).first<Grant>();
}

export function grantForUser(db: D1Database, userId: string) {
  return db
    .prepare('SELECT * FROM access_grants WHERE user_id = ?1 ORDER BY updated_at DESC LIMIT 1')
    .bind(userId)
    .first<Grant>();
}

const live = (grant: Grant | null): grant is Grant => grant !== null && LIVE.includes(grant.status);

/** Whether the grant is for this GitHub account: by numeric id when both are known. */
function isFor(grant: Grant | null, github: {login: string; id: number | null}): boolean {
  if (grant === null) return false;
  return grant.github_user_id !== null && github.id !== null
    ? grant.github_user_id === github.id
    : grant.github_username.toLowerCase() === github.login.toLowerCase();
}

function resultOf(grant: Grant): AccessResult {
  return {status: grant.status === 'active' ? 'active' : grant.status === 'pending' ? 'invited' : 'queued'};
}

function taken(message: string) {
  return new HttpError(409, message, 'GITHUB_ACCOUNT_TAKEN');
}

const TAKEN = {
  collaborator: (login: string) =>
    `@${login} is already a collaborator on the repository, so it needs no invitation from this purchase. Choose another GitHub account.`,
  invited: (login: string) => `@${login} already has a pending invitation to the repository. Choose another GitHub account.`,
  otherPurchase: (login: string) => `@${login} already has access through another purchase. Choose another GitHub account.`,
};

/** The unique index on live GitHub ids answered: another purchase holds this account. */
function isTakenById(err: unknown): boolean {
  return err instanceof Error && /UNIQUE constraint failed: access_grants\.github_user_id/.test(err.message);
}

/**
 * Why this purchase may not invite this account, or null when it may: another purchase holds it,
 * it is already a collaborator, or someone else's invitation for it is open.
 */
async function refusalFor(
  context: Context,
  sessionId: string,
  github: {login: string; id: number},
  ownInvitationId: number | null,
): Promise<string | null> {
  const other = await context.db
    .prepare(`SELECT 1 AS found FROM access_grants WHERE github_user_id = ?1 AND session_id != ?2 AND status IN ${HELD}`)
    .bind(github.id, sessionId)
    .first();
  if (other) return TAKEN.otherPurchase(github.login);
  const repository = repositoryFor(context.settings);
  if (await repository.isCollaborator(github.login)) return TAKEN.collaborator(github.login);
  const open = (await repository.invitations()).find(
    (invitation) => invitation.inviteeId === github.id && !invitation.expired && invitation.id !== ownInvitationId,
  );
  return open ? TAKEN.invited(github.login) : null;
}

/**
 * Points the purchase's access at `github` and invites that account. A different account that holds
 * the seat on GitHub keeps it until the new one is invited (moveSeat).
 * Refuses, changing nothing: an account this worker may not touch (409), and a move of the seat
 * past the config's limit (429). `github.id` is null only when GitHub could not be asked; the
 * outbox then checks before it invites.
 *
 * `byOwner`: the caller is the verified owner of the purchase's e-mail. Whoever else held the
 * purchase (the checkout's creator, a payer's session) may have chosen the seat's account; the
 * owner takes such a seat back whatever the count of moves, and that move is not counted.
 */
export async function requestAccess(
  context: Context,
  request: {sessionId: string; userId: string; github: {login: string; id: number | null}; byOwner?: boolean},
  {byAdmin = false}: {byAdmin?: boolean} = {},
): Promise<AccessResult> {
  const {db} = context;
  const current = await readGrant(db, request.sessionId);
  const sameAccount = isFor(current, request.github);
  if (live(current) && sameAccount) return resultOf(current);

  // Moving the seat away from an account this worker invited is what the limit counts; the
  // seller's own moves do not.
  const takeBack = request.byOwner === true && current !== null && current.chosen_by_owner === 0;
  const move = !byAdmin && !takeBack && current !== null && current.invitation_id !== null && !sameAccount;
  const max = appConfig.repository.maxUsernameChanges;
  if (move && current.username_changes >= max) {
    throw new HttpError(
      429,
      `This purchase has already moved to another GitHub account ${max} times, the most it may. Write to ${appConfig.support.email} to change it again.`,
      'SWAP_LIMIT',
    );
  }
  if (request.github.id !== null) {
    const refusal = await refusalFor(
      context,
      request.sessionId,
      {login: request.github.login, id: request.github.id},
      current?.invitation_id ?? null,
    );
    if (refusal) {
      // A request of this purchase running alongside may have invited the account a moment ago.
      const now = await readGrant(db, request.sessionId);
      if (live(now) && isFor(now, request.github)) return resultOf(now);
      throw taken(refusal);
    }
  } else if (live(current)) {
    // Unchecked, a move could give up a working seat for an account we may not touch.
    throw new HttpError(503, 'GitHub is not answering right now. Your current access is unchanged; try again in a few minutes.', 'GITHUB_UNAVAILABLE');
  }

  const chosenByOwner = byAdmin || request.byOwner === true ? 1 : 0;
  if (live(current) && current.invitation_id !== null && !sameAccount) {
    // A seat GitHub knows of moves only once the new account is invited (its id is known here).
    return moveSeat(context, current, {...request, github: {login: request.github.login, id: request.github.id!}}, {counted: move, chosenByOwner});
  }
  const now = Date.now();
  let claimed: Grant | null;
  try {
    claimed = current
      ? await db
          .prepare(
            `UPDATE access_grants SET github_username = ?2, github_user_id = ?3, invitation_id = NULL,
               status = 'queued', detail = NULL, version = version + 1, user_id = ?5, updated_at = ?6,
               username_changes = username_changes + ?7, checked_at = NULL, invitation_expired = 0, chosen_by_owner = ?8
             WHERE session_id = ?1 AND version = ?4
             RETURNING *`,
          )
          .bind(request.sessionId, request.github.login, request.github.id, current.version, request.userId, now, move ? 1 : 0, chosenByOwner)
          .first<Grant>()
      : await db
          .prepare(
            `INSERT INTO access_grants (session_id, user_id, github_username, github_user_id, status, updated_at, chosen_by_owner)
             VALUES (?1, ?2, ?3, ?4, 'queued', ?5, ?6)
             ON CONFLICT (session_id) DO NOTHING
             RETURNING *`,
          )
          .bind(request.sessionId, request.userId, request.github.login, request.github.id, now, chosenByOwner)
          .first<Grant>();
  } catch (err) {
    if (isTakenById(err)) throw taken(TAKEN.otherPurchase(request.github.login));
    throw err;
  }
  if (!claimed) {
    // Another request changed the grant first; report what it decided.
    const winner = await readGrant(db, request.sessionId);
    return winner ? resultOf(winner) : {status: 'queued'};
  }
  if (current?.status === 'failed') {
    // What a failed grant left on GitHub (an expired invitation) goes before the new invitation.
    await removeNowOrLater(context, current, 'invitation replaced');
  }
  return inviteNowOrLater(context, claimed, {checked: request.github.id !== null});
}

/**
 * Moves a seat GitHub knows of (an invitation sent, or accepted) to another account. The new account
 * is invited first; only once GitHub has taken that invitation does the record change and the old
 * account go. A move GitHub refuses, or cannot take now, changes nothing: the old account keeps its
 * access, and the caller hears so.
 */
async function moveSeat(
  context: Context,
  current: Grant,
  request: {sessionId: string; userId: string; github: {login: string; id: number}},
  {counted, chosenByOwner}: {counted: boolean; chosenByOwner: number},
): Promise<AccessResult> {
  const {db} = context;
  const keeps = `@${current.github_username} keeps access.`;
  let outcome: InviteResult;
  try {
    outcome = await repositoryFor(context.settings).invite(request.github.login);
  } catch (err) {
    if (!(err instanceof GitHubFailure)) throw err;
    if (err.transient) {
      throw new HttpError(503, `GitHub is not answering right now. ${keeps} Try again in a few minutes.`, 'GITHUB_UNAVAILABLE');
    }
    log.warn('access.github_refused', {sessionId: current.session_id, error: err.message});
    throw new PermanentError(`GitHub refused to invite @${request.github.login}. ${keeps}`);
  }
  // It became a collaborator between the check and the invitation: not this purchase's to take.
  if (outcome.state === 'active') throw taken(TAKEN.collaborator(request.github.login));
  const now = Date.now();
  let recorded: Grant | null;
  try {
    recorded = await db
      .prepare(
        `UPDATE access_grants SET github_username = ?2, github_user_id = ?3, invitation_id = ?4, status = 'pending',
           detail = NULL, version = version + 1, user_id = ?5, updated_at = ?6, username_changes = username_changes + ?7,
           checked_at = ?6, invitation_expired = 0, chosen_by_owner = ?8
         WHERE session_id = ?1 AND version = ?9 AND EXISTS (SELECT 1 FROM purchases WHERE session_id = ?1 AND status = 'paid')
         RETURNING *`,
      )
      .bind(current.session_id, request.github.login, request.github.id, outcome.invitationId, request.userId, now, counted ? 1 : 0, chosenByOwner, current.version)
      .first<Grant>();
  } catch (err) {
    if (!isTakenById(err)) throw err;
    recorded = null;
  }
  if (!recorded) {
    // The grant changed while GitHub answered (a refund, another request): this invitation is stale.
    await removeNowOrLater(context, {...current, github_user_id: request.github.id, invitation_id: outcome.invitationId}, 'stale invitation');
    const winner = await readGrant(db, current.session_id);
    return winner ? resultOf(winner) : {status: 'queued'};
  }
  log.info('access.moved', {sessionId: current.session_id, githubUserId: request.github.id});
  await removeNowOrLater(context, current, 'replaced by another GitHub account');
  await tellOwner(context, recorded);
  return resultOf(recorded);
}

/** Tries the invitation now; a transient failure leaves it to the outbox and answers `queued`. */
async function inviteNowOrLater(context: Context, grant: Grant, {checked}: {checked: boolean}): Promise<AccessResult> {
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
 * Sends the invitation for one version of a grant. Throws RetryableError for transient failures
 * and PermanentError (after recording the grant as failed) for the rest. The outbox's
 * `github-invite` job calls this too, unchecked: time has passed, so it checks the account again.
 */
export async function performInvite(
  context: Context,
  sessionId: string,
  version: number,
  {checked = false}: {checked?: boolean} = {},
): Promise<AccessResult> {
  const {db, settings} = context;
  const grant = await readGrant(db, sessionId);
  if (!grant || grant.version !== version || grant.status !== 'queued') {
    return grant ? resultOf(grant) : {status: 'queued'};
  }
  if (await hasPendingJobs(db, `remove:${sessionId}:`)) {
    throw new RetryableError('Waiting for the previous GitHub account to be removed', 30_000);
  }
  const repository = repositoryFor(settings);
  try {
    let github = {login: grant.github_username, id: grant.github_user_id};
    if (github.id === null) {
      const user = await repository.lookupUser(grant.github_username);
      if (!user) return await recordFailure(db, grant, `GitHub user ${grant.github_username} was not found`);
      github = user;
    }
    if (!checked) {
      const refusal = await refusalFor(context, sessionId, {login: github.login, id: github.id!}, null);
      if (refusal) return await recordFailure(db, grant, refusal);
    }
    const outcome = await repository.invite(github.login);
    if (outcome.state === 'active') {
      // It became a collaborator between the check and the invitation: not ours to record.
      log.warn('access.already_collaborator', {sessionId, githubUserId: github.id});
      return await recordFailure(db, grant, TAKEN.collaborator(github.login));
    }
    let recorded: Grant | null;
    try {
      recorded = await db
        .prepare(
          `UPDATE access_grants SET status = 'pending', invitation_id = ?3, github_user_id = ?4, updated_at = ?5,
             checked_at = ?5, invitation_expired = 0
           WHERE session_id = ?1 AND version = ?2 AND status = 'queued'
             AND EXISTS (SELECT 1 FROM purchases WHERE session_id = ?1 AND status = 'paid')
           RETURNING *`,
        )
        .bind(sessionId, version, outcome.invitationId, github.id, Date.now())
        .first<Grant>();
    } catch (err) {
      if (!isTakenById(err)) throw err;
      recorded = null;
    }
    if (!recorded) {
      // The grant changed, the purchase was revoked, or another purchase took the account while
      // GitHub answered: withdraw this invitation.
      await removeNowOrLater(context, {...grant, github_user_id: github.id, invitation_id: outcome.invitationId}, 'stale invitation');
      const now = await readGrant(db, sessionId);
      return now ? resultOf(now) : {status: 'queued'};
    }
    log.info('access.invited', {sessionId, githubUserId: github.id});
    await tellOwner(context, recorded);
    return resultOf(recorded);
  } catch (err) {
    if (!(err instanceof GitHubFailure)) throw err;
    if (err.transient) throw new RetryableError(err.message, err.retryAfterMs);
    log.warn('access.github_refused', {sessionId, error: err.message});
    return recordFailure(db, grant, 'GitHub refused the invitation.');
  }
}

/**
 * E-mails the purchase's address which GitHub account holds its seat now (one e-mail per grant
 * version), through the outbox: the invitation stands whether or not the e-mail goes at once.
 */
async function tellOwner(context: Context, grant: Grant) {
  const purchase = await context.db.prepare('SELECT email FROM purchases WHERE session_id = ?1').bind(grant.session_id).first<{email: string | null}>();
  if (!purchase?.email) return;
  const id = await enqueue(context.db, {
    key: `seat:${grant.session_id}:${grant.version}`,
    kind: 'mail',
    sessionId: grant.session_id,
    payload: seatMail(context.settings, {to: purchase.email, login: grant.github_username, repository: context.settings.GITHUB_REPO!}),
  });
  if (id !== null) await context.runJob(id);
}

/** Records why an invitation failed, in our words (GitHub's own text stays in the logs). */
async function recordFailure(db: D1Database, grant: Grant, reason: string): Promise<never> {
  await db
    .prepare(
      `UPDATE access_grants SET status = 'failed', detail = ?3, updated_at = ?4
       WHERE session_id = ?1 AND version = ?2`,
    )
    .bind(grant.session_id, grant.version, reason, Date.now())
    .run();
  log.warn('access.invite_failed', {sessionId: grant.session_id, reason});
  throw new PermanentError(reason);
}

/** Takes access away for a purchase (refund, dispute): the record at once, GitHub through the outbox. */
export async function revokeAccess(context: Context, sessionId: string, reason: string) {
  const revoked = await context.db
    .prepare(
      `UPDATE access_grants SET status = 'revoked', detail = ?2, version = version + 1, updated_at = ?3
       WHERE session_id = ?1 AND status IN ('queued', 'pending', 'active', 'failed')
       RETURNING *`,
    )
    .bind(sessionId, reason, Date.now())
    .first<Grant>();
  if (revoked) await removeNowOrLater(context, revoked, reason);
}

/**
 * A dispute won: the purchase's account gets its seat back. A seat that was removed is invited
 * again; one whose removal failed was never taken away, and the next status read says how it is.
 */
export async function restoreAccess(context: Context, sessionId: string) {
  const grant = await readGrant(context.db, sessionId);
  if (!grant || (grant.status !== 'revoked' && grant.status !== 'removal_failed')) return;
  const back = grant.status === 'revoked' ? 'queued' : 'pending';
  let restored: Grant | null;
  try {
    restored = await context.db
      .prepare(
        `UPDATE access_grants SET status = ?3, detail = NULL, version = version + 1, updated_at = ?4, checked_at = NULL,
           invitation_id = CASE WHEN ?3 = 'queued' THEN NULL ELSE invitation_id END
         WHERE session_id = ?1 AND version = ?2
         RETURNING *`,
      )
      .bind(sessionId, grant.version, back, Date.now())
      .first<Grant>();
  } catch (err) {
    if (!isTakenById(err)) throw err;
    log.warn('access.not_restored', {sessionId, reason: 'another purchase holds the account'});
    return;
  }
  log.info('access.restored', {sessionId, status: back});
  if (restored?.status !== 'queued') return;
  try {
    await inviteNowOrLater(context, restored, {checked: false});
  } catch (err) {
    // Recorded on the grant; the buyer sees it and can ask again.
    log.warn('access.restore_invite_failed', {sessionId, error: err instanceof Error ? err.message : String(err)});
  }
}

export interface RemovalPayload {
  sessionId: string;
  version: number;
  invitationId: number;
  githubUserId: number | null;
}

/**
 * Queues the removal of what this worker created for a grant (its invitation, and the account
 * that accepted it) and tries it at once; the cron retries failures. A grant with no invitation
 * created nothing on GitHub, so there is nothing to remove.
 */
async function removeNowOrLater(context: Context, grant: Grant, reason: string) {
  if (grant.invitation_id === null) return;
  const payload: RemovalPayload = {
    sessionId: grant.session_id,
    version: grant.version,
    invitationId: grant.invitation_id,
    githubUserId: grant.github_user_id,
  };
  const id = await enqueue(context.db, {
    key: `remove:${grant.session_id}:${grant.version}:${grant.invitation_id}`,
    kind: 'github-remove',
    sessionId: grant.session_id,
    payload,
  });
  log.info('access.removal_queued', {sessionId: grant.session_id, reason, jobId: id});
  if (id !== null) await context.runJob(id);
}

/**
 * The live grant (queued, pending or active) that holds this GitHub account or this invitation,
 * other than `except` (the grant version a removal is for), or null. A removal retried after its
 * invitation went may meet the same account invited since by another purchase, or by this one
 * moved away and back: that seat is not the removal's to take.
 */
export async function liveHolderOf(
  db: D1Database,
  github: {githubUserId?: number | null; invitationId?: number | null},
  except: {sessionId: string; version: number} = {sessionId: '', version: -1},
): Promise<string | null> {
  const holder = await db
    .prepare(
      `SELECT session_id FROM access_grants
       WHERE status IN ('queued', 'pending', 'active')
         AND (github_user_id = ?1 OR invitation_id = ?2) AND NOT (session_id = ?3 AND version = ?4)
       LIMIT 1`,
    )
    .bind(github.githubUserId ?? null, github.invitationId ?? null, except.sessionId, except.version)
    .first<{session_id: string}>();
  return holder?.session_id ?? null;
}

/**
 * The outbox's `github-remove` job: withdraws the invitation; if it was no longer open, the
 * invitee accepted it (or it is gone), so the account with that numeric id is removed. Another
 * live grant's invitation or account is left alone (`liveHolderOf`): the job ends done, logged.
 */
export async function performRemoval({db, settings}: Pick<Context, 'db' | 'settings'>, payload: RemovalPayload) {
  const skip = (heldBy: string) =>
    log.warn('access.removal_skipped', {sessionId: payload.sessionId, githubUserId: payload.githubUserId, heldBy});
  try {
    const repository = repositoryFor(settings);
    // GitHub answers a second invitation of an account with its open one: it may be another grant's now.
    const invitationHolder = await liveHolderOf(db, {invitationId: payload.invitationId}, payload);
    if (invitationHolder) return skip(invitationHolder);
    if (await repository.withdrawInvitation(payload.invitationId)) return;
    if (payload.githubUserId === null) return;
    const accountHolder = await liveHolderOf(db, {githubUserId: payload.githubUserId}, payload);
    if (accountHolder) return skip(accountHolder);
    const login = await repository.loginOf(payload.githubUserId);
    if (login) await repository.removeCollaborator(login);
  } catch (err) {
    if (err instanceof GitHubFailure) {
      throw err.transient ? new RetryableError(err.message, err.retryAfterMs) : new PermanentError(err.message);
    }
    throw err;
  }
}

/** A removal that had failed for good went through after all (a retry): the grant is revoked. */
export async function removalSucceeded(db: D1Database, payload: RemovalPayload) {
  await db
    .prepare(
      `UPDATE access_grants SET status = 'revoked', detail = NULL, updated_at = ?3
       WHERE session_id = ?1 AND version = ?2 AND status = 'removal_failed'`,
    )
    .bind(payload.sessionId, payload.version, Date.now())
    .run();
}

/**
 * The outbox gave up on a removal: a refunded buyer may still be on GitHub, so the grant must not
 * look removed. A removal for an account the purchase already moved away from has no grant row
 * left to mark; the failed job and the error log are its record.
 */
export async function removalGaveUp(db: D1Database, payload: RemovalPayload, error: string) {
  const marked = await db
    .prepare(
      `UPDATE access_grants SET status = 'removal_failed', detail = 'The GitHub account could not be removed', updated_at = ?3
       WHERE session_id = ?1 AND version = ?2 AND status = 'revoked'
       RETURNING session_id`,
    )
    .bind(payload.sessionId, payload.version, Date.now())
    .first();
  log.error('access.removal_failed', {
    sessionId: payload.sessionId,
    githubUserId: payload.githubUserId,
    invitationId: payload.invitationId,
    grantMarked: marked !== null,
    error,
  });
}

export interface ObservedGrant {
  status: GrantStatus;
  username: string;
  detail?: string;
  expired: boolean;
  usernameChanges: number;
  usernameChangesLeft: number;
}

/** A GitHub read that failed is tried again after this, not at the next poll. */
export const RETRY_FAILED_READ_MS = 15_000;

/**
 * A grant as GitHub sees it: an accepted invitation becomes `active`, and a pending one says
 * whether it expired. GitHub is asked at most once a minute per grant (`fresh` asks now), by the
 * one request whose conditional UPDATE claims the read in D1; requests alongside it, and those
 * within the minute, show the stored state. If GitHub cannot answer, the stored state is shown
 * and GitHub is asked again after RETRY_FAILED_READ_MS.
 */
export async function observeGrant({db, settings}: Context, grant: Grant, {fresh = false} = {}): Promise<ObservedGrant> {
  const base = {
    status: grant.status,
    username: grant.github_username,
    detail: grant.detail ?? undefined,
    expired: grant.invitation_expired === 1,
    usernameChanges: grant.username_changes,
    usernameChangesLeft: Math.max(0, appConfig.repository.maxUsernameChanges - grant.username_changes),
  };
  if (grant.status !== 'pending') return {...base, expired: false};
  const now = Date.now();
  if (!fresh && grant.checked_at !== null && now - grant.checked_at < CHECK_EVERY_MS) return base;
  const claimed = await db
    .prepare(
      `UPDATE access_grants SET checked_at = ?3
       WHERE session_id = ?1 AND version = ?2 AND status = 'pending'
         AND (?4 = 1 OR checked_at IS NULL OR checked_at <= ?3 - ?5)
       RETURNING session_id`,
    )
    .bind(grant.session_id, grant.version, now, fresh ? 1 : 0, CHECK_EVERY_MS)
    .first();
  if (!claimed) return base; // another request is asking GitHub, or just did
  try {
    const repository = repositoryFor(settings);
    if (await repository.isCollaborator(grant.github_username)) {
      await db
        .prepare(
          `UPDATE access_grants SET status = 'active', checked_at = ?3, invitation_expired = 0, updated_at = ?3
           WHERE session_id = ?1 AND version = ?2 AND status = 'pending'`,
        )
        .bind(grant.session_id, grant.version, now)
        .run();
      return {...base, status: 'active', expired: false};
    }
    const invitation = (await repository.invitations()).find((candidate) => candidate.id === grant.invitation_id);
    const expired = invitation === undefined || invitation.expired;
    await db
      .prepare(
        `UPDATE access_grants SET checked_at = ?3, invitation_expired = ?4
         WHERE session_id = ?1 AND version = ?2 AND status = 'pending'`,
      )
      .bind(grant.session_id, grant.version, now, expired ? 1 : 0)
      .run();
    return {...base, expired};
  } catch (err) {
    log.warn('access.status_unread', {sessionId: grant.session_id, error: err instanceof Error ? err.message : String(err)});
    // The claim holds for RETRY_FAILED_READ_MS instead of the minute.
    await db
      .prepare(`UPDATE access_grants SET checked_at = ?4 WHERE session_id = ?1 AND version = ?2 AND checked_at = ?3`)
      .bind(grant.session_id, grant.version, now, now - CHECK_EVERY_MS + RETRY_FAILED_READ_MS)
      .run();
    return base;
  }
}

/**
 * Whether the grant's invitation is one to send again: pending, not accepted, and expired, as
 * GitHub says now. Anything else (accepted, still valid, failed, revoked) must be left as it is:
 * resending marks the grant failed before it invites again.
 */
export async function invitationExpired(context: Context, grant: Grant): Promise<boolean> {
  if (grant.status !== 'pending') return false;
  const seen = await observeGrant(context, grant, {fresh: true});
  return seen.status === 'pending' && seen.expired;
}

/** A fresh invitation for the same account after the last one expired; the old one is withdrawn. */
export async function resendInvitation(
  context: Context,
  grant: Grant,
  userId: string,
  options: {byAdmin?: boolean} = {},
): Promise<AccessResult> {
  await context.db
    .prepare(
      `UPDATE access_grants SET status = 'failed', detail = 'invitation expired', updated_at = ?3
       WHERE session_id = ?1 AND version = ?2`,
    )
    .bind(grant.session_id, grant.version, Date.now())
    .run();
  // The same account, so whoever chose it still has: a resend neither grants nor spends a take-back.
  return requestAccess(
    context,
    {sessionId: grant.session_id, userId, github: {login: grant.github_username, id: grant.github_user_id}, byOwner: grant.chosen_by_owner === 1},
    options,
  );
}
