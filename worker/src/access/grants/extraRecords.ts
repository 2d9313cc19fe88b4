import type {GrantStatus} from '../../../../src/config/api';
import {INVITATION_LIFETIME_MS} from '../github';

/**
 * An extra repository's rows of grants (reconcile.ts keeps them in step with the purchase): a row, why a grant
 * is as it is, and the reads and writes that the send, the take-back, the status read and the
 * expiry re-send share.
 */
export interface ExtraGrant {
  session_id: string;
  repository_key: string;
  repository: string | null;
  github_user_id: number | null;
  github_username: string | null;
  invitation_id: number | null;
  status: GrantStatus;
  detail: string | null;
  /** Bumped by a new invitation of the row's own (a re-send), its activation and its take-back; a take-back leaves out its own row by it. */
  version: number;
  sending_at: number | null;
  checked_at: number | null;
  queued_at: number | null;
  /** Its place in the repository's line for GitHub's daily cap, while it waits there (invitationQueue.ts). */
  waiting_at: number | null;
  invited_at: number | null;
  /** 1 when GitHub last said the pending invitation expired (or was declined): status.ts `observeGrant`. */
  invitation_expired: number;
  /** How many times the cron sent this account's invitation again as it expired (expiryResends.ts). */
  expiry_resends: number;
  /** When the worker last asked GitHub to invite the account, until the invitation is recorded (lostAnswer.ts). */
  invite_attempted_at: number | null;
  updated_at: number;
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

export async function extraGrantsOf(db: D1Database, sessionId: string): Promise<ExtraGrant[]> {
  const {results} = await db
    .prepare(`SELECT * FROM grants WHERE session_id = ?1 AND repository_key <> 'kit' ORDER BY repository_key`)
    .bind(sessionId)
    .all<ExtraGrant>();
  return results;
}

export function readExtraGrant(db: D1Database, sessionId: string, key: string) {
  return db
    .prepare('SELECT * FROM grants WHERE session_id = ?1 AND repository_key = ?2')
    .bind(sessionId, key)
    .first<ExtraGrant>();
}

/**
 * A pending grant, of any repository, whose account is a collaborator now: only while it still
 * holds the invitation the caller read, and as a new version (a seat move or a Resend that read
 * the pending grant then changes nothing: with `notOurs` it would remove an account the seller
 * added). `notOurs`: not by the invitation this worker recorded (it withdrew it), so the grant
 * forgets it, and a take-back never removes the account.
 */
export async function markActive<G extends Pick<ExtraGrant, 'session_id' | 'repository_key' | 'invitation_id'>>(
  db: D1Database,
  row: G,
  login: string,
  {notOurs = false} = {},
): Promise<G | null> {
  return db
    .prepare(
      `UPDATE grants SET status = 'active', github_username = ?3, updated_at = ?4, invitation_expired = 0,
         version = version + 1, invite_attempted_at = NULL,
         invitation_id = CASE WHEN ?5 = 1 THEN NULL ELSE invitation_id END, detail = CASE WHEN ?5 = 1 THEN ?6 ELSE detail END
       WHERE session_id = ?1 AND repository_key = ?2 AND status = 'pending' AND invitation_id IS ?7 RETURNING *`,
    )
    .bind(
      row.session_id,
      row.repository_key,
      login,
      Date.now(),
      notOurs ? 1 : 0,
      GRANT_DETAIL.alreadyCollaborator(login),
      row.invitation_id,
    )
    .first<G>();
}

/**
 * Whether a pending grant's invitation, of any repository, is one GitHub no longer honours: as
 * GitHub last said (expired, or gone and not accepted: status.ts `observeGrant`), or past GitHub's
 * 7 days by the worker's own record of when it went. The buyer may then ask for a new one.
 */
export function invitationLapsed(
  row: Pick<ExtraGrant, 'invited_at' | 'invitation_expired'> & {status: string},
  now = Date.now(),
): boolean {
  return (
    row.status === 'pending' &&
    (row.invitation_expired === 1 || (row.invited_at !== null && row.invited_at + INVITATION_LIFETIME_MS <= now))
  );
}
