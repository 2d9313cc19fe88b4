import {TEAM_REMOVED_REASON} from '../../../../src/config';
import type {Context} from '../../context';
import {RetryableError} from '../../jobs';
import {log} from '../../log';
import {checkAccount, type Grant, isTakenById} from './records';
import {GitHubFailure, type Invitation, type InviteResult, type Repository, repositoryFor} from '../github';
import {
  giveBackSlot,
  type GrantKey,
  grantKey,
  leaveQueue,
  takeSlot,
  waitInQueue,
  windowFullFor,
} from './invitationQueue';
import {recordAttempt, sentAt} from './lostAnswer';
import {kindOf, type RepositoryKind} from './repositoryKind';
import {removeNowOrLater} from './removal';
import {ENTITLED, SEAT_HELD} from './entitlement';

/**
 * The one send of a queued grant's invitation, for every repository a purchase holds: the kit's
 * (the purchase's seat, invite.ts) and a plan's extra ones (reconcile.ts). Within the
 * repository's daily cap, to the account by its numeric id, adopting the invitation of an attempt
 * whose answer was lost, and recording it only while the grant is as it was read.
 *
 * What the caller has claimed (claims.ts `whileClaimed`) is sent here (`sendClaimed`), and what
 * follows it: a stale invitation withdrawn, the buyer's e-mail, the other repositories.
 */

/**
 * The purchase (?1) may have this grant (?2, its repository key) recorded sent, as SQL: it is
 * entitled (entitlement.ts: paid, and the seller has not revoked it), whatever the repository.
 * `bySeller`: the send is the seller's own Grant access, which invites the seat before it lifts the
 * seller's revocation (seat.ts `grantBySeller`, so that an invitation GitHub refuses leaves the
 * purchase revoked); then the kit's seat needs only paid.
 */
const mayRecord = (bySeller: boolean) => `(EXISTS (SELECT 1 FROM purchases p WHERE p.session_id = ?1
  AND (${ENTITLED('p')}${bySeller ? ` OR (?2 = 'kit' AND p.status = 'paid')` : ''})) AND ${SEAT_HELD('grants')})`;

/** How a send is asked for: `checked`, the account was checked in this request; `bySeller`, see mayRecord. */
export interface SendOptions {
  checked?: boolean;
  bySeller?: boolean;
}

/** A queued grant's row, as far as its send reads it. */
export interface QueuedGrant {
  id: number;
  session_id: string;
  seat: number;
  repository_key: string;
  /** Bumped by every change of the kit's row, and by a re-send or activation of any row: with the account, it says the grant is still as read. */
  version: number;
  /** Null only for a seat whose account GitHub could not be asked about when it was chosen. */
  github_user_id: number | null;
  github_username: string | null;
  invite_attempted_at: number | null;
}

/** The recorded invitation of a send. */
export interface Sent<G extends QueuedGrant> {
  /** The grant's row as recorded, pending. */
  row: G;
  login: string;
  invitationId: number;
  /** It had waited in its repository's line. */
  waited: boolean;
}

export type SendOutcome<G extends QueuedGrant> =
  | {kind: 'invited'; sent: Sent<G>}
  /** It waits in its repository's line for the cap. */
  | {kind: 'queued'}
  /** Recorded failed, or active for an account that was there already; `detail` says why. */
  | {kind: 'failed' | 'active'; detail: string}
  /** GitHub created the invitation, but the grant changed meanwhile: nothing recorded, the caller withdraws it. */
  | {kind: 'stale'; invitationId: number; githubUserId: number};

/**
 * Sends the claimed, queued grant's invitation. `checked`: the caller has just checked the account
 * (a seat chosen in this request), so it is not asked about again. Throws RetryableError while
 * GitHub cannot answer; every other outcome is recorded on the grant and answered.
 */
export async function sendQueued<G extends QueuedGrant>(
  context: Context,
  grant: G,
  kind: RepositoryKind,
  {checked = false, bySeller = false}: SendOptions = {},
): Promise<SendOutcome<G>> {
  const {db} = context;
  const {words} = kind;
  const key = grantKey(grant);
  let inSlot: InSlot<SendOutcome<G>>;
  try {
    inSlot = await withSlot(context, kind.repository, key, async (kept) => {
      const repository = repositoryFor(context, kind.repository);
      const named = grant.github_username ?? '';
      let github: {login: string; id: number};
      if (grant.github_user_id === null) {
        const user = await repository.lookupUser(named);
        if (!user) return await settle(db, grant, 'failed', words.notFound(named));
        github = user;
      } else if (checked) {
        github = {login: named, id: grant.github_user_id};
      } else {
        // Time has passed (the queue, the outbox): GitHub invites by login, and logins change hands;
        // the numeric id says who the account is today.
        const login = await repository.loginOf(grant.github_user_id);
        if (!login) return await settle(db, grant, 'failed', words.gone(named));
        github = {login, id: grant.github_user_id};
      }
      // GitHub's PUT would silently change an existing collaborator's permission, and answers an
      // account with an open invitation with that invitation: neither is the worker's to touch,
      // unless an earlier attempt of this grant created it and its answer was lost (lostAnswer.ts).
      // A checked send is a new version's first: it has none.
      let adopted: Invitation | null = null;
      if (!checked) {
        const found = await checkAccount(context, repository, github, {
          seatOf: kind.seat ? grant : null,
          ownInvitationId: null,
          attemptedAt: grant.invite_attempted_at,
        });
        if (found && 'refusal' in found)
          return found.refusal === 'collaborator'
            ? await alreadyThere(db, grant, kind, github.login)
            : await settle(
                db,
                grant,
                'failed',
                // Another purchase's seat is asked about only for a seat (seatOf).
                (found.refusal === 'otherPurchase' ? kind.seat!.otherPurchase : words[found.refusal])(github.login),
              );
        adopted = found?.adopt ?? null;
      }
      const outcome = await inviteOrAdopt(repository, grant, github, adopted, () => recordAttempt(db, grant, 'queued'));
      // It became a collaborator between the check and the invitation.
      if (outcome.state === 'active') return await alreadyThere(db, grant, kind, github.login);
      kept();
      const now = Date.now();
      let recorded: G | null;
      try {
        recorded = await db
          .prepare(
            `UPDATE grants SET status = 'pending', invitation_id = ?5, github_user_id = ?6, github_username = ?7, detail = NULL,
               invited_at = ?8, checked_at = ?9, updated_at = ?9, invitation_expired = 0, invite_attempted_at = NULL
             WHERE id = ?10 AND version = ?3 AND github_user_id IS ?4 AND status = 'queued'
               AND ${mayRecord(bySeller)}
             RETURNING *`,
          )
          .bind(
            grant.session_id,
            grant.repository_key,
            grant.version,
            grant.github_user_id,
            outcome.invitationId,
            github.id,
            github.login,
            sentAt(adopted, now),
            now,
            grant.id,
          )
          .first<G>();
      } catch (err) {
        // The seat's unique index on live accounts: another purchase took the account while GitHub answered.
        if (!isTakenById(err)) throw err;
        recorded = null;
      }
      // The grant changed, or its purchase is no longer paid, while GitHub answered.
      if (!recorded) return {kind: 'stale', invitationId: outcome.invitationId, githubUserId: github.id};
      const waited = await leaveQueue(db, key);
      log.info('access.invited', {
        sessionId: grant.session_id,
        key: grant.repository_key,
        githubUserId: github.id,
        waited,
      });
      return {kind: 'invited', sent: {row: recorded, login: github.login, invitationId: outcome.invitationId, waited}};
    });
  } catch (err) {
    if (!(err instanceof GitHubFailure)) throw err;
    if (err.transient) throw new RetryableError(err.message, err.retryAfterMs);
    log.warn('access.github_refused', {sessionId: grant.session_id, key: grant.repository_key, error: err.message});
    return await settle(db, grant, 'failed', words.refused);
  }
  if (inSlot.kind === 'done') return inSlot.value;
  await waitForCap(db, grant, words.waiting);
  return {kind: 'queued'};
}

/**
 * What a send within its repository's cap came to: the send's own answer, or no slot for it
 * (`refused`: GitHub refused the invitation for its cap, and created nothing).
 */
export type InSlot<T> = {kind: 'done'; value: T} | {kind: 'full'; refused: boolean};

/**
 * Runs `send` holding one of the repository's invitations of the last 24 hours (invitationQueue.ts
 * `takeSlot`), the one way every invitation the worker sends keeps GitHub's cap: a queued grant's
 * (sendQueued) and a seat's move (seat.ts). The slot is given back unless `send` says GitHub
 * created the invitation (`kept`). `full`: no slot was free (the window is full, or grants that came
 * first wait), or GitHub refused for its cap although the worker's count had room: GitHub also
 * counts the invitations the seller sent by hand, so its word wins, and the window is filled for a
 * while (`windowFullFor`). Any other failure is the caller's, its slot given back.
 */
export async function withSlot<T>(
  context: Context,
  repository: string,
  grant: GrantKey,
  send: (kept: () => void) => Promise<T>,
): Promise<InSlot<T>> {
  const {db} = context;
  const slot = await takeSlot(context, repository, grant);
  if (slot === null) return {kind: 'full', refused: false};
  let giveBack = true;
  try {
    return {kind: 'done', value: await send(() => (giveBack = false))};
  } catch (err) {
    if (!(err instanceof GitHubFailure && err.capReached)) throw err;
    await giveBackSlot(db, slot);
    giveBack = false;
    await windowFullFor(db, repository);
    log.warn('access.invite_cap_refused', {...grant, error: err.message});
    return {kind: 'full', refused: true};
  } finally {
    if (giveBack) await giveBackSlot(db, slot);
  }
}

/**
 * GitHub's invitation of `github` to the repository: the invitation of an earlier attempt whose
 * answer was lost, adopted as its answer (lostAnswer.ts), or a new one, the attempt recorded first.
 */
export async function inviteOrAdopt(
  repository: Repository,
  grant: {session_id: string; repository_key: string},
  github: {login: string; id: number},
  adopted: Invitation | null,
  recordTheAttempt: () => Promise<void>,
): Promise<InviteResult> {
  if (!adopted) {
    await recordTheAttempt();
    return repository.invite(github.login);
  }
  log.warn('access.lost_answer_adopted', {
    sessionId: grant.session_id,
    key: grant.repository_key,
    githubUserId: github.id,
    invitationId: adopted.id,
  });
  return {state: 'invited', invitationId: adopted.id};
}

/**
 * Sends the claimed, queued grant's invitation (sendQueued) and does what follows it, the same for
 * every repository: an invitation GitHub created for a grant that changed meanwhile is withdrawn,
 * and one recorded is told as the grant's kind says (`RepositoryKind.invited`).
 */
export async function sendClaimed<G extends Grant>(
  context: Context,
  grant: G,
  options: SendOptions = {},
): Promise<SendOutcome<G>> {
  const kind = kindOf(context, grant);
  const outcome = await sendQueued(context, grant, kind, options);
  if (outcome.kind === 'invited') await kind.invited(context, outcome.sent.row, outcome.sent);
  if (outcome.kind !== 'stale') return outcome;
  // The grant changed, the purchase was refunded, or another purchase took the account while GitHub
  // answered: this invitation is nobody's.
  await removeNowOrLater(
    context,
    {...grant, github_user_id: outcome.githubUserId, invitation_id: outcome.invitationId},
    'stale invitation',
  );
  // A refund, dispute or seller's revoke that ran before this grant was queued (between a request's
  // check and its insert, or a reconcile's) took nothing back: the grant is taken back here, or it
  // would wait in line for ever (and a seat would hold its account from every other purchase). A
  // dispute won, or the seller's Grant access, gives it back.
  await context.db
    .prepare(
      `UPDATE grants SET status = 'revoked', version = version + 1, updated_at = ?4, waiting_at = NULL,
         detail = CASE WHEN NOT ${SEAT_HELD('grants')} THEN '${TEAM_REMOVED_REASON}'
           WHEN EXISTS (SELECT 1 FROM purchases WHERE session_id = ?1 AND status = 'paid')
           THEN 'the seller revoked the purchase' ELSE 'the purchase is not paid' END
       WHERE id = ?5 AND version = ?3 AND status = 'queued'
         AND NOT ${mayRecord(options.bySeller ?? false)}`,
    )
    .bind(grant.session_id, grant.repository_key, grant.version, Date.now(), grant.id)
    .run();
  return outcome;
}

/**
 * A queued grant stays queued past the cap, never failed: it takes its place in the repository's
 * line (or keeps the one it has), and the cron sends it when its turn comes.
 */
export async function waitForCap(
  db: D1Database,
  grant: Pick<QueuedGrant, 'id' | 'session_id' | 'seat' | 'repository_key'>,
  detail: string | null,
) {
  const now = Date.now();
  if (detail !== null) {
    await db
      .prepare(`UPDATE grants SET detail = ?2, updated_at = ?3 WHERE id = ?1 AND status = 'queued'`)
      .bind(grant.id, detail, now)
      .run();
  }
  await waitInQueue(db, grantKey(grant), now);
  log.info('access.invite_waits', {sessionId: grant.session_id, key: grant.repository_key});
}

/** The account is a collaborator already: not the worker's to invite (nor ever to remove). */
function alreadyThere(db: D1Database, grant: QueuedGrant, kind: RepositoryKind, login: string) {
  log.warn('access.already_collaborator', {
    sessionId: grant.session_id,
    key: grant.repository_key,
    githubUserId: grant.github_user_id,
  });
  return kind.collaboratorIsActive
    ? settle(db, grant, 'active', kind.words.collaborator(login), login)
    : settle(db, grant, 'failed', kind.words.collaborator(login));
}

/**
 * Ends a queued grant without an invitation of the worker's: failed (`detail` says why, in our
 * words; GitHub's own text stays in the logs), or active for an account that was there already.
 */
async function settle(
  db: D1Database,
  grant: QueuedGrant,
  status: 'active' | 'failed',
  detail: string,
  login?: string,
): Promise<{kind: 'failed' | 'active'; detail: string}> {
  await db
    .prepare(
      `UPDATE grants SET status = ?4, detail = ?5, github_username = COALESCE(?6, github_username), updated_at = ?7,
         invite_attempted_at = NULL, waiting_at = NULL,
         activated_at = CASE WHEN ?4 = 'active' THEN COALESCE(activated_at, ?7) ELSE activated_at END
       WHERE id = ?1 AND version = ?2 AND github_user_id IS ?3 AND status = 'queued'`,
    )
    .bind(grant.id, grant.version, grant.github_user_id, status, detail, login ?? null, Date.now())
    .run();
  log.warn('access.not_invited', {sessionId: grant.session_id, key: grant.repository_key, status, detail});
  return {kind: status, detail};
}
