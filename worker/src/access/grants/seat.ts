import {appConfig} from '../../../../src/config';
import {ENTITLED} from './entitlement';
import type {Context} from '../../context';
import {HttpError} from '../../errors';
import {PermanentError} from '../../jobs';
import {log} from '../../log';
import {GitHubFailure, type Invitation, type InviteResult, repositoryFor} from '../github';
import {
  type AccessResult,
  type Seat,
  isFor,
  isTakenById,
  loginToday,
  isLive,
  readGrant,
  refusalFor,
  resultOf,
  taken,
  TAKEN,
  OWNER_SEAT,
  type SeatRef,
} from './records';
import {inviteNowOrLater} from './invite';
import {tellOwner} from './grantMail';
import {reconcileSoon} from './reconcileSoon';
import {grantKey, nextFreeSlotAt} from './invitationQueue';
import {recordAttempt, sentAt} from './lostAnswer';
import {inviteOrAdopt, type InSlot, withSlot} from './sendInvitation';
import {removeNowOrLater, takeBackEvery} from './removal';
import {isRevokedBySeller, liftSellerRevocation, recordSellerRevocation, revokedBySeller} from './sellerRevocation';

/**
 * A condition on ?1, the purchase's session: the seller has not revoked it. The statements that
 * point a seat at an account hold to it, so a request checked just before the seller's revocation
 * cannot write after it.
 */
const NOT_REVOKED_BY_SELLER =
  'NOT EXISTS (SELECT 1 FROM purchases WHERE session_id = ?1 AND revoked_by_seller_at IS NOT NULL)';

/**
 * What happens to a grant, the seat's commands in one place (its record is records.ts, what the
 * dashboard reads of it status.ts):
 * - requestAccess: a buyer (or the seller) points the seat at a GitHub account; it is invited now,
 *   or queued (invite.ts), and a seat GitHub already knows of moves only once the new account is in.
 * (A refund or dispute takes every repository back: removal.ts `takeBackEvery`; a dispute won gives
 * them back through the purchase's reconcile, reconcile.ts.)
 * - revokeBySeller / grantBySeller: the seller's Revoke access ends the purchase's right to the code
 *   (sellerRevocation.ts), its seat included; the seller's Grant access gives it back.
 * - resendInvitation: a fresh invitation for the same account after the last one expired.
 */

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
 *
 * `renewing`: the version of the grant whose invitation resendInvitation replaces. The seat is the
 * same account and stays live, so this goes on where a request for it would answer at once; a grant
 * that changed since that version is answered as it is now.
 *
 * `healing`: the daily audit invites the same account again, as the grant was: the count of
 * re-sends after expiry is kept. It is not `byAdmin`: the caller passes `byOwner` as the grant's
 * `chosen_by_owner` (resendInvitation does), so who chose the account stays as it was and a real
 * owner's later take-back of a seat someone else chose is still free.
 *
 * `liftsRevocation`: the seller's Grant access, which lifts the seller's revocation once this
 * returns: its invitation alone may be recorded for a purchase the seller revoked (sendInvitation.ts
 * `mayRecord`). The seller's other actions (a Resend, the audit's fix) may not.
 */
export async function requestAccess(
  context: Context,
  request: {
    sessionId: string;
    /** Which seat of the purchase: the buyer's own (OWNER_SEAT) unless said. */
    seat?: number;
    /** On a team's seat, the member it is for (team_members): the grant delivers while they hold it. */
    memberId?: number | null;
    userId: string;
    github: {login: string; id: number | null};
    byOwner?: boolean;
  },
  {
    byAdmin = false,
    healing = false,
    renewing,
    liftsRevocation = false,
  }: {byAdmin?: boolean; healing?: boolean; renewing?: number; liftsRevocation?: boolean} = {},
): Promise<AccessResult> {
  const {db} = context;
  const at: SeatRef = {session_id: request.sessionId, seat: request.seat ?? OWNER_SEAT};
  if (!byAdmin && (await isRevokedBySeller(db, request.sessionId))) throw revokedBySeller();
  const current = await readGrant(db, at);
  if (renewing !== undefined && current?.version !== renewing) return current ? resultOf(current) : {status: 'queued'};
  const sameAccount = isFor(current, request.github);
  if (isLive(current) && sameAccount && renewing === undefined) return resultOf(current);

  // Moving the seat away from an account this worker invited is what the limit counts; the
  // seller's own moves do not.
  const takeBack = request.byOwner === true && current !== null && current.chosen_by_owner === 0;
  // A team's seat given to another member starts again for them: their account is not a move of
  // the seat, and the seat's count of moves starts from none.
  const memberId = at.seat === OWNER_SEAT ? null : (request.memberId ?? null);
  const nextMember = at.seat !== OWNER_SEAT && current !== null && current.member_id !== memberId;
  // A seat is given to a new member only once its grant is off (team/members.ts SEATS_TAKEN): a live
  // grant of another member means this request was read before the seat changed hands (a seller's
  // move of a member removed meanwhile). It never takes the seat from whoever holds it now.
  if (nextMember && isLive(current))
    throw new HttpError(409, 'This seat changed hands meanwhile: read it again.', 'CONFLICT');
  const move =
    !byAdmin && !takeBack && !nextMember && current !== null && current.invitation_id !== null && !sameAccount;
  const max = appConfig.repository.maxUsernameChanges;
  if (move && current.username_changes >= max) {
    throw new HttpError(
      429,
      `This purchase has already moved to another GitHub account ${max} times, the most it may. Write to ${appConfig.support.email} to change it again.`,
      'SWAP_LIMIT',
    );
  }
  // A seat GitHub knows of moves only once the new account is invited (moveSeat). A move whose
  // answer GitHub lost left its attempt on the grant: the invitation it created is the move's own.
  const moving = isLive(current) && current.invitation_id !== null && !sameAccount;
  let adopted: Invitation | null = null;
  if (request.github.id !== null) {
    const found = await refusalFor(
      context,
      at,
      {login: request.github.login, id: request.github.id},
      current?.invitation_id ?? null,
      moving ? current.invite_attempted_at : null,
    );
    if (found && 'refusal' in found) {
      // A request of this purchase running alongside may have invited the account a moment ago.
      const now = await readGrant(db, at);
      if (isLive(now) && isFor(now, request.github) && now.version !== current?.version) return resultOf(now);
      throw taken(found.refusal);
    }
    adopted = found?.adopt ?? null;
  } else if (isLive(current) && renewing === undefined) {
    // Unchecked, a move could give up a working seat for an account we may not touch.
    throw new HttpError(
      503,
      'GitHub is not answering right now. Your current access is unchanged; try again in a few minutes.',
      'GITHUB_UNAVAILABLE',
    );
  }

  const chosenByOwner = byAdmin || request.byOwner === true ? 1 : 0;
  if (moving) {
    // Its id is known here: an unchecked move was refused above.
    return moveSeat(
      context,
      current,
      {...request, github: {login: request.github.login, id: request.github.id!}},
      {counted: move, chosenByOwner, adopted},
    );
  }
  const now = Date.now();
  let claimed: Seat | null;
  try {
    claimed = current
      ? await db
          .prepare(
            `UPDATE grants SET github_username = ?2, github_user_id = ?3, invitation_id = NULL,
               status = 'queued', detail = NULL, version = version + 1, user_id = ?5, updated_at = ?6,
               waiting_at = CASE WHEN status = 'queued' THEN waiting_at END,
               username_changes = CASE WHEN ?12 = 1 THEN 0 ELSE username_changes + ?7 END, checked_at = NULL, invitation_expired = 0, chosen_by_owner = ?8,
               resent_after_expiry = 0, invite_attempted_at = NULL, expiry_resends = CASE WHEN ?9 = 1 THEN expiry_resends ELSE 0 END,
               member_id = ?13
             WHERE id = ?11 AND version = ?4 AND (?10 = 1 OR ${NOT_REVOKED_BY_SELLER})
             RETURNING *`,
          )
          // The audit's re-send keeps the count of the cron's (a buyer who declines is not invited for
          // ever); any other request (the buyer's, the seller's) starts again.
          .bind(
            request.sessionId,
            request.github.login,
            request.github.id,
            current.version,
            request.userId,
            now,
            move ? 1 : 0,
            chosenByOwner,
            healing ? 1 : 0,
            byAdmin ? 1 : 0,
            current.id,
            nextMember ? 1 : 0,
            memberId,
          )
          .first<Seat>()
      : await db
          .prepare(
            `INSERT INTO grants (session_id, seat, repository_key, user_id, github_username, github_user_id, status, updated_at, chosen_by_owner, member_id)
             SELECT ?1, ?8, 'kit', ?2, ?3, ?4, 'queued', ?5, ?6, ?9 WHERE ?7 = 1 OR ${NOT_REVOKED_BY_SELLER}
             ON CONFLICT (session_id, seat, repository_key) DO NOTHING
             RETURNING *`,
          )
          .bind(
            request.sessionId,
            request.userId,
            request.github.login,
            request.github.id,
            now,
            chosenByOwner,
            byAdmin ? 1 : 0,
            at.seat,
            memberId,
          )
          .first<Seat>();
  } catch (err) {
    if (isTakenById(err)) throw taken(TAKEN.otherPurchase(request.github.login));
    throw err;
  }
  if (!claimed) {
    // The seller revoked the purchase since it was checked above.
    if (!byAdmin && (await isRevokedBySeller(db, request.sessionId))) throw revokedBySeller();
    // Another request changed the grant first; report what it decided.
    const winner = await readGrant(db, at);
    return winner ? resultOf(winner) : {status: 'queued'};
  }
  if (current && (current.status === 'failed' || renewing !== undefined)) {
    // What the grant left on GitHub (an expired invitation) goes before the new invitation.
    await removeNowOrLater(context, current, 'invitation replaced');
  }
  try {
    // This request's own send first, so that the caller hears GitHub's answer (a refusal too). Only
    // the seller's Grant access may send to a purchase they revoked: it lifts the revocation next.
    return await inviteNowOrLater(context, claimed, {checked: request.github.id !== null, bySeller: liftsRevocation});
  } finally {
    // The seat names another account: what the old one holds of the plan's other repositories goes
    // now (reconcile.ts), whether or not the new one is invited yet (it may wait in line, or fail).
    if (current && !sameAccount) await reconcileSoon(context, claimed, `moved:${claimed.version}`);
  }
}

/**
 * Moves a seat GitHub knows of (an invitation sent, or accepted) to another account. The new account
 * is invited first; only once GitHub has taken that invitation does the record change and the old
 * account go. A move GitHub refuses, or cannot take now, changes nothing: the old account keeps its
 * access, and the caller hears so.
 */
async function moveSeat(
  context: Context,
  current: Seat,
  request: {sessionId: string; userId: string; github: {login: string; id: number}},
  {counted, chosenByOwner, adopted}: {counted: boolean; chosenByOwner: number; adopted: Invitation | null},
): Promise<AccessResult> {
  const {db} = context;
  const keeps = `@${current.github_username} keeps access.`;
  // A move sends an invitation too, within the cap; it does not queue: the buyer keeps a working
  // seat, and hears when a slot frees (Retry-After, and in words).
  const repository = context.settings.GITHUB_REPO!;
  // The attempt is recorded on the grant while it is the version read, whatever its status (the
  // audit's fix may queue it again meanwhile): a retry adopts what it created.
  const attempt = (at: number | null) => recordAttempt(db, current, null, at);
  let inSlot: InSlot<InviteResult>;
  try {
    inSlot = await withSlot(context, repository, grantKey(current), async (kept) => {
      const outcome = await inviteOrAdopt(repositoryFor(context), current, request.github, adopted, () =>
        attempt(Date.now()),
      );
      if (outcome.state === 'invited') kept();
      return outcome;
    });
  } catch (err) {
    if (!(err instanceof GitHubFailure)) throw err;
    // Only a GitHub that did not answer may have created the invitation: the next request adopts
    // it. Any other failure (D1's, before or after the PUT) leaves the marker as it is, on the safe side.
    if (!err.transient) await attempt(null);
    if (err.transient && err.retryAfterMs !== undefined) {
      // GitHub's rate limits (its secondary limit on invitations, say) are a wait, not an outage:
      // the buyer hears how long, as from any limit of the worker's own.
      const seconds = Math.max(1, Math.ceil(err.retryAfterMs / 1000));
      throw new HttpError(
        429,
        `GitHub asks us to slow down for a moment. ${keeps} Try again in ${inWords(seconds)}.`,
        'RATE_LIMITED',
        {
          'Retry-After': String(seconds),
        },
      );
    }
    if (err.transient) {
      throw new HttpError(
        503,
        `GitHub is not answering right now. ${keeps} Try again in a few minutes.`,
        'GITHUB_UNAVAILABLE',
      );
    }
    log.warn('access.github_refused', {sessionId: current.session_id, error: err.message});
    throw new PermanentError(`GitHub refused to invite @${request.github.login}. ${keeps}`);
  }
  if (inSlot.kind === 'full') {
    // GitHub refused for its cap: it created nothing.
    if (inSlot.refused) await attempt(null);
    const seconds = Math.max(1, Math.ceil(((await nextFreeSlotAt(context, repository)) - Date.now()) / 1000));
    throw new HttpError(
      429,
      `GitHub's daily limit of invitations to the repository is reached. ${keeps} Try again in ${inWords(seconds)}.`,
      'INVITATION_CAP',
      {'Retry-After': String(seconds)},
    );
  }
  const outcome = inSlot.value;
  // It became a collaborator between the check and the invitation: not this purchase's to take.
  if (outcome.state === 'active') throw taken(TAKEN.collaborator(request.github.login));
  const now = Date.now();
  let recorded: Seat | null;
  try {
    recorded = await db
      .prepare(
        `UPDATE grants SET github_username = ?2, github_user_id = ?3, invitation_id = ?4, status = 'pending',
           detail = NULL, version = version + 1, user_id = ?5, updated_at = ?6, username_changes = username_changes + ?7,
           checked_at = ?6, invitation_expired = 0, chosen_by_owner = ?8, invited_at = ?10, expiry_resends = 0, resent_after_expiry = 0,
           invite_attempted_at = NULL
         WHERE id = ?11 AND version = ?9 AND EXISTS (SELECT 1 FROM purchases p WHERE p.session_id = ?1 AND ${ENTITLED('p', 'grants')})
         RETURNING *`,
      )
      .bind(
        current.session_id,
        request.github.login,
        request.github.id,
        outcome.invitationId,
        request.userId,
        now,
        counted ? 1 : 0,
        chosenByOwner,
        current.version,
        sentAt(adopted, now),
        current.id,
      )
      .first<Seat>();
  } catch (err) {
    if (!isTakenById(err)) throw err;
    recorded = null;
  }
  if (!recorded) {
    // The grant changed while GitHub answered (a refund, another request): this invitation is stale.
    await removeNowOrLater(
      context,
      {...current, github_user_id: request.github.id, invitation_id: outcome.invitationId},
      'stale invitation',
    );
    const winner = await readGrant(db, current);
    return winner ? resultOf(winner) : {status: 'queued'};
  }
  log.info('access.moved', {sessionId: current.session_id, githubUserId: request.github.id});
  await removeNowOrLater(context, current, 'replaced by another GitHub account');
  await tellOwner(context, recorded);
  // The extra repositories move with the seat: the old account's go, the new one is invited.
  await reconcileSoon(context, recorded, `seat:${recorded.version}`);
  return resultOf(recorded);
}

/**
 * The seller's Revoke access: the paid purchase loses its right to the code, however it gets it. The
 * purchase records it first, so that no new invitation or download link follows, and no link made
 * before serves; then its seat, if it has one, is taken away. False when there was nothing to
 * revoke (the purchase is not paid, or the seller revoked it already).
 */
export async function revokeBySeller(context: Context, sessionId: string): Promise<boolean> {
  if (!(await recordSellerRevocation(context.db, sessionId))) return false;
  log.info('access.revoked_by_seller', {sessionId});
  await takeBackEvery(context, sessionId, 'revoked by an admin');
  return true;
}

/**
 * The seller's Grant access: invites `github` to the purchase's seat (whatever the seat was, by the
 * seller's own right: `byAdmin`), then gives back the right a revocation of the seller's took. With
 * no account named (a purchase that never had a seat: it only downloaded) it only gives back that
 * right: the buyer may download, and ask for an invitation, again. `access` is null when nobody
 * was invited; `lifted`, whether there was a revocation to lift.
 */
export async function grantBySeller(
  context: Context,
  request: {sessionId: string; userId: string; github: {login: string; id: number} | null},
): Promise<{access: AccessResult | null; lifted: boolean}> {
  const {sessionId, userId, github} = request;
  // The invitation first: one GitHub refuses leaves the purchase as it was, revoked included.
  const access = github
    ? await requestAccess(context, {sessionId, userId, github}, {byAdmin: true, liftsRevocation: true})
    : null;
  const lifted = await liftSellerRevocation(context.db, sessionId);
  if (lifted) log.info('access.given_back_by_seller', {sessionId});
  // The extras follow the seat's account, and want nothing while the purchase is revoked: the
  // invitation above reconciled them while the revocation stood, so they are reconciled again now.
  if (lifted) await reconcileSoon(context, sessionId, `given-back:${Date.now()}`);
  return {access, lifted};
}

/**
 * A fresh invitation for the grant's own account (the last one expired, was declined, or the
 * account was taken off the repository); the old invitation is withdrawn.
 * GitHub invites by login, and a login changes hands when its account renames: the account is
 * looked up by the grant's numeric id first and invited by the login it has today, never whoever
 * took the stored one; an account GitHub no longer knows is refused (404 `GITHUB_USER_NOT_FOUND`), nobody invited.
 * A grant that changed meanwhile (the buyer moved the seat) is left as it is now and answered.
 * A GitHub that does not answer (or a run out of subrequests) leaves the grant as it was.
 * `healing`: the daily audit's (scheduledAudit.ts): see requestAccess.
 */
export async function resendInvitation(
  context: Context,
  grant: Seat,
  userId: string,
  options: {byAdmin?: boolean; healing?: boolean} = {},
): Promise<AccessResult> {
  // Still waiting in line, or on its way: nothing to send again. It goes in its turn, with the place
  // it has (a new version through requestAccess would start at the back).
  if (grant.status === 'queued') return inviteNowOrLater(context, grant, {checked: false});
  const login = await loginToday(context, grant);
  // The same account, so whoever chose it still has: a resend neither grants nor spends a take-back.
  // The grant stays as it is until the record of the new invitation replaces it (`renewing`): the
  // seat never reads as empty meanwhile, so a reconcile running alongside leaves the plan's extra
  // repositories with it, and a re-send GitHub refuses or cannot take leaves the grant as it was.
  return requestAccess(
    context,
    {
      sessionId: grant.session_id,
      seat: grant.seat,
      memberId: grant.member_id,
      userId,
      github: {login, id: grant.github_user_id},
      byOwner: grant.chosen_by_owner === 1,
    },
    {...options, renewing: grant.version},
  );
}

/** A wait as the buyer reads it: "12 minutes", "about 5 hours". */
function inWords(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.ceil(minutes / 60);
  return `about ${hours} hour${hours === 1 ? '' : 's'}`;
}
