import {TEAM_REMOVED_REASON} from '../../../../src/config';
import type {Context} from '../../context';
import {PermanentError, RetryableError} from '../../jobs';
import {log} from '../../log';
import {registerJob} from '../../outbox';
import {ENTITLED, entitlementOf} from './entitlement';
import {NextRun, SUBREQUESTS_PER} from '../../subrequests';
import {whileClaimed} from './claims';
import {sendClaimed, waitForCap} from './sendInvitation';
import {
  GRANT_DETAIL,
  type Grant,
  grantsOf,
  isLive,
  isSeat,
  isTakenById,
  OWNER_SEAT,
  readGrant,
  type Seat,
  type SeatRef,
  seatRef,
} from './records';
import {LIVE_SQL} from './liveGrants';
import {takeBack} from './removal';
import {performInvite} from './invite';

/**
 * Every repository a purchase's plan grants (src/config: the kit's, then `Plan.extraRepositories`,
 * mapped to GitHub by the worker's GITHUB_EXTRA_REPOS), kept in step with the purchase by one
 * function, `reconcileGrants`. What is wanted follows from the records alone: the purchase is
 * entitled to the code (entitlement.ts: paid, not revoked by the seller, its plan now lists the
 * key) and its seat (the 'kit' row of grants) names a GitHub account.
 *
 * The seat first: one taken back while the purchase was not entitled (a dispute, now won) is given
 * back to its account, and one queued is sent in its turn. The seat's account is chosen by a
 * request (seat.ts: the buyer's Request Access, the seller's Grant access), which sends it at once
 * where it can. Then the extra repositories: whatever is granted and no longer wanted (an upgrade
 * refunded, the seat moved to another account) is taken back (the invitation this worker created
 * is withdrawn, or the account it invited removed; an account it did not invite is never touched),
 * and the seat's account is invited to each wanted one. A refund, a dispute and the seller's revoke
 * take every grant back at once (removal.ts `takeBackEvery`). Every repository's invitation is
 * sent, and sent again as it expires, by the same functions (sendInvitation.ts, expiryResends.ts).
 *
 * Every event queues one (reconcileSoon.ts); the cron's drain of each repository's line runs it
 * for the grant at the line's head (drainQueue.ts). The record and its shared writes are in
 * records.ts, the take-back in removal.ts, and what the dashboard and the console read in status.ts.
 */

export interface Wanted {
  /** The keys the purchase's plan now grants, or none when it grants nothing (not paid, no seat). */
  keys: string[];
  account: {id: number; login: string} | null;
  /**
   * Whether a new grant may be made now: the seat's own invitation is out (invited or active).
   * While the seat waits in the kit's line again for the same account (a Resend, a re-send whose
   * answer was lost), what the account holds is kept, and only that goes on.
   */
  send: boolean;
  /** A team seat's member the seat's grants are for (the kit row's `member_id`); null on the buyer's own. */
  memberId: number | null;
}

/** What a seat of the purchase should hold now, from D1 alone (a purchase's session id: the buyer's own seat). */
export async function wantedFor(db: D1Database, at: SeatRef | string): Promise<Wanted> {
  const {session_id: sessionId, seat: seatNumber} = seatRef(at);
  const nothing: Wanted = {keys: [], account: null, send: false, memberId: null};
  const seat = await db
    .prepare(
      `SELECT status, github_user_id, github_username, member_id FROM grants WHERE session_id = ?1 AND seat = ?2 AND repository_key = 'kit'`,
    )
    .bind(sessionId, seatNumber)
    .first<{status: string; github_user_id: number | null; github_username: string; member_id: number | null}>();
  // A purchase the seller revoked wants nothing, whatever its seat's row says (a restore that
  // raced the revocation may have left it live); nor does a team's seat its member left.
  const {repositories} = await entitlementOf(db, at, seat?.member_id ?? null);
  if (repositories.length === 0) return nothing;
  const invited = seat?.status === 'pending' || seat?.status === 'active';
  if (!seat || !(invited || seat.status === 'queued') || seat.github_user_id === null) return nothing;
  return {
    keys: repositories.filter((key) => key !== 'kit'),
    account: {id: seat.github_user_id, login: seat.github_username},
    send: invited,
    memberId: seat.member_id,
  };
}

/** Whether a live grant is still what the purchase should hold: its key, its account, the repository set for the key now. */
export function stillWanted(wanted: Wanted, settings: Context['settings'], row: Grant): boolean {
  return (
    wanted.keys.includes(row.repository_key) &&
    row.github_user_id === wanted.account?.id &&
    row.repository === (settings.extraRepos[row.repository_key] ?? null)
  );
}

/**
 * Makes the purchase's extra grants what its records call for: takes back each one no longer
 * wanted (or for another account, or another repository than GITHUB_EXTRA_REPOS names now), then
 * invites the seat's account to each wanted repository it is not invited to yet, within the
 * repository's daily cap (past it the grant stays queued: the cron sends it later). Safe to run
 * any number of times, from anywhere. Throws RetryableError when GitHub cannot answer now, and
 * NextRun when this invocation's subrequests are spent; what was done is recorded either way.
 */
export async function reconcileGrants(context: Context, sessionId: string): Promise<void> {
  const {results} = await context.db
    .prepare('SELECT DISTINCT seat FROM grants WHERE session_id = ?1 UNION SELECT ?2 ORDER BY seat')
    .bind(sessionId, OWNER_SEAT)
    .all<{seat: number}>();
  for (const {seat} of results) await reconcileSeatGrants(context, {session_id: sessionId, seat});
}

/** reconcileGrants for one seat of the purchase: its own account, and the repositories it holds. */
async function reconcileSeatGrants(context: Context, at: SeatRef): Promise<void> {
  const {db, settings} = context;
  await reconcileSeat(context, at);
  const wanted = await wantedFor(db, at);
  for (const row of await grantsOf(db, at)) {
    // The seat is the purchase's own request's (seat.ts), never a reconcile's to take back.
    if (isSeat(row) || !isLive(row)) continue;
    if (!context.subrequests.has(SUBREQUESTS_PER.fix))
      throw new NextRun(`This run cannot fit taking back ${row.repository}`);
    if (stillWanted(wanted, settings, row)) continue;
    const reason = wanted.keys.includes(row.repository_key)
      ? 'the seat moved to another GitHub account'
      : 'no longer in the plan';
    // Only the grant as it was read: a re-send (expiryResends.ts) may have replaced its invitation
    // meanwhile, or a status read made it active; this run then reads it again.
    if (!(await takeBack(context, row, reason, row)) && isLive(await readGrant(db, at, row.repository_key)))
      throw new RetryableError(
        `The grant to ${row.repository} changed while it was taken back; it is taken back again`,
        0,
      );
  }
  for (const key of wanted.keys) {
    const account = wanted.account!;
    const repository = settings.extraRepos[key];
    const row = await readGrant(db, at, key);
    // While the seat's invitation waits in the kit's line, what the account holds goes on (a grant
    // in its repository's line keeps its place) and nothing new is granted: that waits for the
    // seat's send, which reconciles.
    if (!wanted.send && !isLive(row)) continue;
    if (!repository) {
      // Fail closed: a key with no repository grants nothing, and the record says why.
      await record(db, at, key, {
        status: 'failed',
        repository: null,
        account,
        memberId: wanted.memberId,
        detail: GRANT_DETAIL.notConfigured(key),
      });
      continue;
    }
    if (isLive(row) && row.status !== 'queued') continue;
    if (!context.subrequests.has(SUBREQUESTS_PER.invitation))
      throw new NextRun(`This run cannot fit the invitation to ${repository}`);
    // A grant made live meanwhile by another run is read as it is now.
    const queued = isLive(row)
      ? row
      : ((await record(db, at, key, {
          status: 'queued',
          repository,
          account,
          memberId: wanted.memberId,
          detail: null,
        })) ?? (await readGrant(db, at, key)));
    if (!queued) continue;
    // While grants of the repository queued before this one are still queued (waiting in line, or
    // being sent), this one waits in line behind them, even if a slot has just freed: the cron's
    // drain sends the line in turn, a batch a run, which also spares GitHub's limit on requests
    // that create content at a launch.
    if (await queuedAhead(db, repository, queued)) {
      await waitForCap(db, queued, GRANT_DETAIL.waitsForCap);
      continue;
    }
    await sendIfClaimed(context, queued);
  }
}

/**
 * The seat's part of the reconcile: one taken back while the purchase was not entitled is given
 * back now that it is (restoreSeat), and a queued one is sent in its turn (invite.ts
 * `performInvite`: within the kit's line and cap, once the removal of an account it held before is
 * done). A refusal is recorded on the seat, which the buyer reads.
 */
async function reconcileSeat(context: Context, at: SeatRef) {
  let seat = await readGrant(context.db, at);
  if (seat && isLive(seat) && (await entitlementOf(context.db, at, seat.member_id)).standing === 'seat_ended') {
    // A team's seat whose member was removed, and whose take-back did not finish then: it does now.
    await takeBack(context, seat, TEAM_REMOVED_REASON, seat);
    return;
  }
  if (seat?.status === 'revoked' || seat?.status === 'removal_failed') seat = await restoreSeat(context, seat);
  if (seat?.status !== 'queued') return;
  // A purchase not entitled sends nothing: a seat queued by the seller's Grant access waits for the
  // lift that follows it (its own request sends it), and one a refund races is taken back there.
  if ((await entitlementOf(context.db, at, seat.member_id)).standing !== 'entitled') return;
  if (!context.subrequests.has(SUBREQUESTS_PER.invitation))
    throw new NextRun("This run cannot fit the seat's invitation");
  try {
    await performInvite(context, at, seat.version);
  } catch (err) {
    if (!(err instanceof PermanentError)) throw err;
  }
}

/**
 * A seat taken back (a dispute, a refund) whose purchase is entitled again (the dispute won): its
 * account gets it back. One removed is queued to be invited again, at the back of the kit's line;
 * one whose removal failed was never taken off, so it is pending again, and the next status read
 * says how it is. The update asks the entitlement itself: the seller's revocation is not a
 * dispute's to overrule, even one landing meanwhile. Answers the seat as it is now.
 */
async function restoreSeat(context: Context, seat: Seat): Promise<Seat | null> {
  const back = seat.status === 'revoked' ? 'queued' : 'pending';
  let restored: Seat | null;
  try {
    restored = await context.db
      .prepare(
        `UPDATE grants SET status = ?3, detail = NULL, version = version + 1, updated_at = ?4, checked_at = NULL, waiting_at = NULL,
           resent_after_expiry = 0, invite_attempted_at = NULL, invitation_id = CASE WHEN ?3 = 'queued' THEN NULL ELSE invitation_id END
         WHERE id = ?5 AND version = ?2
           AND EXISTS (SELECT 1 FROM purchases p WHERE p.session_id = ?1 AND ${ENTITLED('p', 'grants')})
         RETURNING *`,
      )
      .bind(seat.session_id, seat.version, back, Date.now(), seat.id)
      .first<Seat>();
  } catch (err) {
    if (!isTakenById(err)) throw err;
    log.warn('access.not_restored', {sessionId: seat.session_id, reason: 'another purchase holds the account'});
    return seat;
  }
  if (!restored) return readGrant(context.db, seat);
  log.info('access.restored', {sessionId: seat.session_id, status: back});
  return restored;
}

/** Whether another grant of the repository was queued before this one and still is. */
async function queuedAhead(
  db: D1Database,
  repository: string,
  grant: Pick<Grant, 'id' | 'queued_at'>,
): Promise<boolean> {
  const ahead = await db
    .prepare(
      `SELECT 1 AS found FROM grants o
       WHERE o.repository = ?1 AND o.status = 'queued' AND o.queued_at < ?3 AND o.id <> ?2
       LIMIT 1`,
    )
    .bind(repository, grant.id, grant.queued_at)
    .first();
  return ahead !== null;
}

/**
 * Writes a grant that holds nothing on GitHub (queued, or failed before any invitation), for this
 * account: a new version, so that a removal of what the row held before (waiting, or failed and
 * retried by the seller) never leaves this one out of its check for a live holder.
 */
async function record(
  db: D1Database,
  at: SeatRef,
  key: string,
  {
    status,
    repository,
    account,
    memberId,
    detail,
  }: {
    status: 'queued' | 'failed';
    repository: string | null;
    account: {id: number; login: string};
    memberId: number | null;
    detail: string | null;
  },
) {
  const now = Date.now();
  return db
    .prepare(
      `INSERT INTO grants (session_id, seat, repository_key, repository, github_user_id, github_username, status, detail, queued_at, updated_at, member_id)
       VALUES (?1, ?9, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, ?10)
       ON CONFLICT (session_id, seat, repository_key) DO UPDATE SET repository = excluded.repository, github_user_id = excluded.github_user_id,
         member_id = excluded.member_id,
         github_username = excluded.github_username, invitation_id = NULL, status = excluded.status, detail = excluded.detail,
         queued_at = excluded.queued_at, invited_at = NULL, checked_at = NULL, sending_at = NULL, expiry_resends = 0, invite_attempted_at = NULL,
         waiting_at = NULL, updated_at = excluded.updated_at, version = grants.version + 1
       WHERE grants.status NOT IN ${LIVE_SQL}
       RETURNING *`,
    )
    .bind(at.session_id, key, repository, account.id, account.login, status, detail, now, at.seat, memberId)
    .first<Grant>();
}

/**
 * Sends a queued grant's invitation, by the one run that claims it (a request, the outbox and the
 * cron can reach the same grant together, and two sends would each take a slot of the day's cap).
 */
async function sendIfClaimed(context: Context, grant: Grant) {
  const {db} = context;
  await whileClaimed(
    db,
    {id: grant.id},
    {status: 'queued'},
    async () => {
      await sendClaimed(context, (await readGrant(db, grant, grant.repository_key))!);
    },
    () => undefined,
  );
}

/**
 * The cron's part for the extra grants no line of drainQueue.ts reaches: queued with no place in
 * their repository's line (a run that ran out of subrequests before it could send or place them),
 * queued for a repository the seller no longer sets for their key (its reconcile takes the grant
 * back and queues it for the repository set now), and those refused only for a key the seller has
 * set a repository for since: their purchases reconciled, oldest first, at most `max` a run and as
 * many as the invocation's subrequests allow.
 */
export async function reconcileUnplacedExtraGrants(context: Context, max: number): Promise<number> {
  const {db, settings} = context;
  const {results} = await db
    .prepare(
      `SELECT session_id FROM grants g
       WHERE g.repository_key <> 'kit'
         AND ((g.status = 'queued' AND (g.waiting_at IS NULL
                OR NOT EXISTS (SELECT 1 FROM json_each(?1) set_now WHERE set_now.key = g.repository_key AND set_now.value = g.repository)))
           OR (g.status = 'failed' AND g.repository IS NULL AND g.repository_key IN (SELECT key FROM json_each(?1))
             -- A refunded purchase's refusal stays as it is: picked every run, it would fill the batch.
             AND EXISTS (SELECT 1 FROM purchases p WHERE p.session_id = g.session_id AND p.status = 'paid')))
       GROUP BY g.session_id ORDER BY MIN(g.queued_at), MIN(g.id) LIMIT ?2`,
    )
    .bind(JSON.stringify(settings.extraRepos), max)
    .all<{session_id: string}>();
  let done = 0;
  for (const {session_id: sessionId} of results) {
    if (!context.subrequests.has(SUBREQUESTS_PER.invitation)) break;
    try {
      await reconcileGrants(context, sessionId);
      done += 1;
    } catch (err) {
      if (err instanceof RetryableError) {
        log.warn('access.reconcile_paused', {sessionId, reason: err.message});
        break;
      }
      log.error('access.reconcile_failed', {sessionId, error: err instanceof Error ? err.message : String(err)});
    }
  }
  return done;
}

const reconcileJob = {
  run: (context: Context, {sessionId}: {sessionId: string}) => reconcileGrants(context, sessionId),
  gaveUp: async (_context: Context, {sessionId}: {sessionId: string}, error: string) => {
    // The grants stay as recorded (a live one may still be on GitHub): the console lists the failed job.
    log.error('access.reconcile_gave_up', {sessionId, error});
  },
};
registerJob('reconcile', reconcileJob);
// Queued before the job took its name, when it reconciled the extra repositories only.
registerJob('extra-grants', reconcileJob);
