import type {AccessResult as AccessAnswer, GrantStatus} from '../../../../src/config/api';
import type {Context} from '../../context';
import {HttpError} from '../../errors';
import {type Invitation, type Repository, repositoryFor} from '../github';
import {LIVE} from './liveGrants';
import {lostAnswerInvitation} from './lostAnswer';

/**
 * Repository access, granted and revoked by one module (as Polar does for GitHub benefits): this
 * file is the grant's record and its rules, seat.ts what happens to it. D1 is the record: one GitHub account per purchase, GitHub's numeric user id, the invitation id and a
 * status. Every change bumps `version`, so a GitHub answer that arrives after the grant changed
 * (a refund, another username) is recognised as stale and undone rather than recorded.
 *
 * The worker touches only what it created: it never invites an account that is already on the
 * repository (GitHub's PUT would silently change that collaborator's permission), and it removes
 * only the invitation it received, or the account it invited, by GitHub's numeric id.
 */
export type {Context, GrantStatus};

export interface Grant {
  session_id: string;
  /** 'kit' */
  repository_key: string;
  /** Null: the kit's row names no repository (it is GITHUB_REPO). */
  repository: string | null;
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
  /** When the current invitation was sent (ms): GitHub expires it 7 days later. */
  invited_at: number | null;
  /** How many times the cron sent this account's invitation again as it expired (expiryResends.ts). */
  expiry_resends: number;
  /** 1 when this version's invitation is such a re-send: the buyer's e-mail says so. */
  resent_after_expiry: number;
  /** When this version's invitation was last asked of GitHub, until it is recorded (lostAnswer.ts). */
  invite_attempted_at: number | null;
  /** Its place in the line for GitHub's daily cap, while it waits there (invitationQueue.ts). */
  waiting_at: number | null;
}

export type AccessResult = AccessAnswer & {retryAfterMs?: number};

/** A seat that is not free: live, or one whose removal failed and is still on GitHub. */
const HELD = `('queued', 'pending', 'active', 'removal_failed')`;

/**
 * The kit's row of `grants` (migration 0028), keyed 'kit': the kit's repository is the first of
 * every plan. That row is also the purchase's seat, the GitHub account every other repository
 * follows; every statement of this file, seat.ts, invite.ts, status.ts and removal.ts names it.
 */
export function readGrant(db: D1Database, sessionId: string) {
  return db
    .prepare(`SELECT * FROM grants WHERE session_id = ?1 AND repository_key = 'kit'`)
    .bind(sessionId)
    .first<Grant>();
}

export function grantForUser(db: D1Database, userId: string) {
  return db
    .prepare(`SELECT * FROM grants WHERE user_id = ?1 AND repository_key = 'kit' ORDER BY updated_at DESC LIMIT 1`)
    .bind(userId)
    .first<Grant>();
}

/** Whether a grant's row (the kit's or an extra's) is live. */
export const isLive = <T extends {status: GrantStatus}>(grant: T | null): grant is T =>
  grant !== null && LIVE.includes(grant.status);

/** Whether the grant is for this GitHub account: by numeric id when both are known. */
export function isFor(grant: Grant | null, github: {login: string; id: number | null}): boolean {
  if (grant === null) return false;
  return grant.github_user_id !== null && github.id !== null
    ? grant.github_user_id === github.id
    : grant.github_username.toLowerCase() === github.login.toLowerCase();
}

export function resultOf(grant: Grant): AccessResult {
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
    `@${login} already has access through another purchase. Choose another GitHub account.`,
};

/** The unique index on live GitHub ids answered: another purchase holds this account. */
export function isTakenById(err: unknown): boolean {
  return err instanceof Error && /UNIQUE constraint failed: grants\.github_user_id/.test(err.message);
}

/** Why an account may not be invited for a purchase: a key of TAKEN. */
export type Refusal = keyof typeof TAKEN;

/**
 * Why this purchase may not invite this account to `repository`, or null when it may: another
 * purchase's seat holds it (asked only for a seat, `seatOf` the purchase), it is already a
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
  }: {seatOf: string | null; ownInvitationId: number | null; attemptedAt: number | null},
): Promise<{refusal: Refusal} | {adopt: Invitation} | null> {
  if (seatOf !== null) {
    const other = await context.db
      .prepare(
        `SELECT 1 AS found FROM grants
         WHERE github_user_id = ?1 AND repository_key = 'kit' AND session_id != ?2 AND status IN ${HELD}`,
      )
      .bind(github.id, seatOf)
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

/** checkAccount for the purchase's seat on the kit's repository, its refusal in the buyer's words (TAKEN). */
export async function refusalFor(
  context: Context,
  sessionId: string,
  github: {login: string; id: number},
  ownInvitationId: number | null,
  attemptedAt: number | null,
): Promise<{refusal: string} | {adopt: Invitation} | null> {
  const found = await checkAccount(context, repositoryFor(context), github, {
    seatOf: sessionId,
    ownInvitationId,
    attemptedAt,
  });
  return found && 'refusal' in found ? {refusal: TAKEN[found.refusal](github.login)} : found;
}
