import type {AccessResult as AccessAnswer, GrantStatus} from '../../../../src/config/api';
import type {Context} from '../../context';
import {HttpError} from '../../errors';
import {log} from '../../log';
import {INVITATION_LIFETIME_MS, type Invitation, type Repository, repositoryFor} from '../github';
import {LIVE} from './liveGrants';
import {lostAnswerInvitation} from './lostAnswer';

/**
 * The grant's record and its rules, for every repository a purchase holds (what happens to a grant
 * is in the other files of this folder). D1 is the record: one row per repository of a purchase,
 * with GitHub's numeric user id, the invitation id and a status. Every change bumps `version`, so
 * a GitHub answer that arrives after the grant changed (a refund, another username) is recognised
 * as stale and undone rather than recorded.
 *
 * The worker touches only what it created: it never invites an account that is already on the
 * repository (GitHub's PUT would silently change that collaborator's permission), and it removes
 * only the invitation it received, or the account it invited, by GitHub's numeric id.
 */
export type {Context, GrantStatus};

/**
 * A row of `grants` (migration 0028): one repository of one purchase. The kit's repository is the
 * key 'kit', the first of every plan; a plan's extra repository keeps its key of src/config.
 */
export interface Grant {
  /** The row's own id: what a statement that changes one grant names it by. */
  id: number;
  session_id: string;
  /** Which seat of the purchase holds it (migration 0035): 1, the buyer's own; 2 and up, a team's. */
  seat: number;
  /** A team seat's member it is for (team_members, migration 0038); null on the buyer's own seat. */
  member_id: number | null;
  /** 'kit', or a key of src/config's `Plan.extraRepositories`. */
  repository_key: string;
  /** An extra's owner/name once it is invited; null on the kit's row (it is GITHUB_REPO) and while a key has none set. */
  repository: string | null;
  /** The kit's row (the seat): who pointed it. Null on an extra's row. */
  user_id: string | null;
  github_username: string | null;
  github_user_id: number | null;
  /** The invitation this worker created: the only one it withdraws. */
  invitation_id: number | null;
  status: GrantStatus;
  /** Why it is as it is, in our words (GRANT_DETAIL); GitHub's own text stays in the logs. */
  detail: string | null;
  /**
   * Bumped by every change of the kit's row, and by a re-send, activation or take-back of any row:
   * a GitHub answer that arrives after the grant changed is recognised as stale and undone.
   */
  version: number;
  /** The kit's row: moves of the seat to another invited account. */
  username_changes: number;
  /** A claim to send the invitation, so that two runs never both do (claims.ts). */
  sending_at: number | null;
  checked_at: number | null;
  /** 1 when GitHub last said the pending invitation expired (or was declined): status.ts `observeGrant`. */
  invitation_expired: number;
  /** The kit's row: 1 when the verified owner of the purchase's e-mail (or the seller) chose this account. */
  chosen_by_owner: number;
  /** An extra's row: when it was queued. */
  queued_at: number | null;
  /** When the current invitation was sent (ms): GitHub expires it 7 days later. */
  invited_at: number | null;
  /** How many times the cron sent this account's invitation again as it expired (expiryResends.ts). */
  expiry_resends: number;
  /** The kit's row: 1 when this version's invitation is such a re-send, and the buyer's e-mail says so. */
  resent_after_expiry: number;
  /** When this version's invitation was last asked of GitHub, until it is recorded (lostAnswer.ts). */
  invite_attempted_at: number | null;
  /** Its place in the repository's line for GitHub's daily cap, while it waits there (invitationQueue.ts). */
  waiting_at: number | null;
  updated_at: number;
}

/**
 * The buyer's own seat of a purchase. A grant's key is (purchase, seat, repository); team seats
 * (issue 41) will number 2 and up.
 */
export const OWNER_SEAT = 1;

/** One seat of a purchase: whose grants a read, a request or a reconcile is about (a grant's row is one). */
export interface SeatRef {
  session_id: string;
  seat: number;
}

/**
 * A seat as job keys name it: the purchase's session id for the buyer's own (as keys were before
 * seats), then `/` and the seat's number for another.
 */
export const seatPath = (at: SeatRef) => (at.seat === OWNER_SEAT ? at.session_id : `${at.session_id}/${at.seat}`);

/** A seat as a caller names it: a row of it, or a purchase's session id for the buyer's own seat. */
export const seatRef = (at: SeatRef | string): SeatRef =>
  typeof at === 'string' ? {session_id: at, seat: OWNER_SEAT} : {session_id: at.session_id, seat: at.seat};

/** The kit's row, which is also the purchase's seat: the GitHub account every other repository follows. */
export interface Seat extends Grant {
  user_id: string;
  github_username: string;
}

export type AccessResult = AccessAnswer & {retryAfterMs?: number};

/** A seat that is not free: live, or one whose removal failed and is still on GitHub. */
const HELD = `('queued', 'pending', 'active', 'removal_failed')`;

/**
 * A seat's grant of one repository: the seat's account (the kit's row, every statement of seat.ts,
 * invite.ts and removal.ts names it) or an extra repository's. `at` names the seat only: a row
 * given without `key` reads its seat's kit row, whatever repository the row is of.
 */
export function readGrant(db: D1Database, at: SeatRef | string): Promise<Seat | null>;
export function readGrant(db: D1Database, at: SeatRef | string, key: string): Promise<Grant | null>;
export function readGrant(db: D1Database, at: SeatRef | string, key = 'kit') {
  const {session_id, seat} = seatRef(at);
  return db
    .prepare('SELECT * FROM grants WHERE session_id = ?1 AND seat = ?2 AND repository_key = ?3')
    .bind(session_id, seat, key)
    .first<Grant>();
}

/** Every grant of a seat: the kit's first, then its extra repositories' by key. */
export async function grantsOf(db: D1Database, at: SeatRef | string): Promise<Grant[]> {
  const {session_id, seat} = seatRef(at);
  const {results} = await db
    .prepare(
      `SELECT * FROM grants WHERE session_id = ?1 AND seat = ?2 ORDER BY repository_key <> 'kit', repository_key`,
    )
    .bind(session_id, seat)
    .all<Grant>();
  return results;
}

export function grantForUser(db: D1Database, userId: string) {
  return db
    .prepare(`SELECT * FROM grants WHERE user_id = ?1 AND repository_key = 'kit' ORDER BY updated_at DESC LIMIT 1`)
    .bind(userId)
    .first<Seat>();
}

/** The kit's row is the seat: it names who pointed it and the account it was pointed at. */
export const isSeat = (row: Grant): row is Seat => row.repository_key === 'kit';

/** Whether a grant's row (the kit's or an extra's) is live. */
export const isLive = <T extends {status: GrantStatus}>(grant: T | null): grant is T =>
  grant !== null && LIVE.includes(grant.status);

/** Whether the grant is for this GitHub account: by numeric id when both are known. */
export function isFor(grant: Seat | null, github: {login: string; id: number | null}): boolean {
  if (grant === null) return false;
  return grant.github_user_id !== null && github.id !== null
    ? grant.github_user_id === github.id
    : grant.github_username.toLowerCase() === github.login.toLowerCase();
}

export function resultOf(grant: Pick<Grant, 'status'>): AccessResult {
  return {status: grant.status === 'active' ? 'active' : grant.status === 'pending' ? 'invited' : 'queued'};
}

export function taken(message: string) {
  return new HttpError(409, message, 'GITHUB_ACCOUNT_TAKEN');
}

export const TAKEN = {
  collaborator: (login: string) =>
    `@${login} is already a collaborator on the repository, so it needs no invitation from this purchase. Choose another GitHub account.`,
  invited: (login: string) =>
    `@${login} already has a pending invitation to the repository. Choose another GitHub account.`,
  otherPurchase: (login: string) =>
    `@${login} already has access through another purchase or team seat. Choose another GitHub account.`,
};

/** The unique index on live GitHub ids answered: another purchase holds this account. */
export function isTakenById(err: unknown): boolean {
  return err instanceof Error && /UNIQUE constraint failed: grants\.github_user_id/.test(err.message);
}

/**
 * The login a grant's account has today, looked up by its numeric id (the stored one when none is
 * known): GitHub invites by login, and a login changes hands when its account renames. An account
 * GitHub no longer knows is refused, 404 `GITHUB_USER_NOT_FOUND`, before anything changes.
 */
export async function loginToday(context: Pick<Context, 'settings' | 'subrequests'>, grant: Grant): Promise<string> {
  if (grant.github_user_id === null) return grant.github_username ?? '';
  const login = await repositoryFor(context, grant.repository ?? undefined).loginOf(grant.github_user_id);
  if (login !== null) return login;
  log.warn('access.resend_skipped', {
    sessionId: grant.session_id,
    key: grant.repository_key,
    reason: 'the GitHub account is gone',
  });
  throw new HttpError(
    404,
    `The GitHub account @${grant.github_username} no longer exists: nobody was invited.`,
    'GITHUB_USER_NOT_FOUND',
  );
}

/** Why an account may not be invited for a purchase: a key of TAKEN. */
export type Refusal = keyof typeof TAKEN;

/**
 * Why this purchase may not invite this account to `repository`, or null when it may: another
 * seat holds it (asked only for a seat, `seatOf` that seat), it is already a
 * collaborator, or someone else's invitation for it is open. For a send that asked GitHub before
 * (`attemptedAt`, the grant's `invite_attempted_at`), an open invitation that attempt created,
 * whose answer was lost, is not someone else's but the worker's own: `adopt` it (lostAnswer.ts).
 */
export async function checkAccount(
  context: Context,
  repository: Repository,
  github: {login: string; id: number},
  {
    seatOf,
    ownInvitationId,
    attemptedAt,
  }: {seatOf: SeatRef | null; ownInvitationId: number | null; attemptedAt: number | null},
): Promise<{refusal: Refusal} | {adopt: Invitation} | null> {
  if (seatOf !== null) {
    const other = await context.db
      .prepare(
        `SELECT 1 AS found FROM grants
         WHERE github_user_id = ?1 AND repository_key = 'kit' AND NOT (session_id = ?2 AND seat = ?3) AND status IN ${HELD}`,
      )
      .bind(github.id, seatOf.session_id, seatOf.seat)
      .first();
    if (other) return {refusal: 'otherPurchase'};
  }
  if (await repository.isCollaborator(github.login)) return {refusal: 'collaborator'};
  const invitations = (await repository.invitations()).filter((invitation) => invitation.id !== ownInvitationId);
  const lost = lostAnswerInvitation(invitations, github.id, attemptedAt);
  if (lost) return {adopt: lost};
  const open = invitations.find((invitation) => invitation.inviteeId === github.id && !invitation.expired);
  return open ? {refusal: 'invited'} : null;
}

/** checkAccount for a seat on the kit's repository, its refusal in the buyer's words (TAKEN). */
export async function refusalFor(
  context: Context,
  at: SeatRef | string,
  github: {login: string; id: number},
  ownInvitationId: number | null,
  attemptedAt: number | null,
): Promise<{refusal: string} | {adopt: Invitation} | null> {
  const found = await checkAccount(context, repositoryFor(context), github, {
    seatOf: seatRef(at),
    ownInvitationId,
    attemptedAt,
  });
  return found && 'refusal' in found ? {refusal: TAKEN[found.refusal](github.login)} : found;
}

/** Why a grant is as it is, in the buyer's and the seller's words (GitHub's own text stays in the logs). */
export const GRANT_DETAIL = {
  notConfigured: (key: string) =>
    `No repository is set for "${key}" (the worker's GITHUB_EXTRA_REPOS), so nothing was sent.`,
  /** A queued grant waiting in the repository's line for its window of invitations to free. */
  waitsForCap: "Waiting for GitHub's daily limit of invitations to this repository.",
  alreadyCollaborator: (login: string) =>
    `@${login} was already a collaborator: this worker did not add the account and will not remove it.`,
  openInvitation: (login: string) =>
    `@${login} already has an invitation this worker did not send; accept it on GitHub, or ask the seller.`,
  accountGone: 'The GitHub account no longer exists.',
  refused: 'GitHub refused the invitation.',
} as const;

/**
 * A pending grant, of any repository, whose account is a collaborator now: only while it still
 * holds the invitation the caller read, and as a new version (a seat move or a Resend that read
 * the pending grant then changes nothing: with `notOurs` it would remove an account the seller
 * added). `notOurs`: not by the invitation this worker recorded (it withdrew it), so the grant
 * forgets it, and a take-back never removes the account.
 */
export async function markActive<G extends Pick<Grant, 'id' | 'invitation_id'>>(
  db: D1Database,
  row: G,
  login: string,
  {notOurs = false} = {},
): Promise<G | null> {
  return db
    .prepare(
      `UPDATE grants SET status = 'active', github_username = ?2, updated_at = ?3, invitation_expired = 0,
         activated_at = COALESCE(activated_at, ?3),
         version = version + 1, invite_attempted_at = NULL,
         invitation_id = CASE WHEN ?4 = 1 THEN NULL ELSE invitation_id END, detail = CASE WHEN ?4 = 1 THEN ?5 ELSE detail END
       WHERE id = ?1 AND status = 'pending' AND invitation_id IS ?6 RETURNING *`,
    )
    .bind(row.id, login, Date.now(), notOurs ? 1 : 0, GRANT_DETAIL.alreadyCollaborator(login), row.invitation_id)
    .first<G>();
}

/**
 * Whether a pending grant's invitation, of any repository, is one GitHub no longer honours: as
 * GitHub last said (expired, or gone and not accepted: status.ts `observeGrant`), or past GitHub's
 * 7 days by the worker's own record of when it went. The buyer may then ask for a new one.
 */
export function invitationLapsed(
  row: Pick<Grant, 'invited_at' | 'invitation_expired'> & {status: string},
  now = Date.now(),
): boolean {
  return (
    row.status === 'pending' &&
    (row.invitation_expired === 1 || (row.invited_at !== null && row.invited_at + INVITATION_LIFETIME_MS <= now))
  );
}
