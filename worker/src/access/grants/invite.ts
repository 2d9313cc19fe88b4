import type {Context} from '../../context';
import {enqueue, hasPendingJobs, PermanentError, RetryableError} from '../../jobs';
import {log} from '../../log';
import {registerJob} from '../../outbox';
import {SEND_CLAIM_MS, whileClaimed} from './claims';
import {
  type AccessResult,
  OWNER_SEAT,
  type Seat,
  type SeatRef,
  readGrant,
  resultOf,
  seatPath,
  seatRef,
} from './records';
import {sendClaimed, type SendOptions} from './sendInvitation';

/**
 * Sending a grant's invitation: at once when GitHub takes it and the cap allows, else later (the
 * outbox's `github-invite` job for a GitHub that is busy, the invitation queue for the cap).
 */

/** Tries the invitation now; a transient failure leaves it to the outbox and answers `queued`. */
export async function inviteNowOrLater(context: Context, grant: Seat, options: SendOptions): Promise<AccessResult> {
  try {
    return await performInvite(context, grant, grant.version, options);
  } catch (err) {
    if (err instanceof RetryableError) {
      await enqueue(context.db, {
        key: `invite:${seatPath(grant)}:${grant.version}`,
        kind: 'github-invite',
        sessionId: grant.session_id,
        payload: {sessionId: grant.session_id, seat: grant.seat, version: grant.version},
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
  at: SeatRef | string,
  version: number,
  options: SendOptions = {},
): Promise<AccessResult> {
  const {db} = context;
  const grant = await readGrant(db, at);
  if (!grant || grant.version !== version || grant.status !== 'queued') {
    return grant ? resultOf(grant) : {status: 'queued'};
  }
  if (await hasPendingJobs(db, `remove:${seatPath(seatRef(at))}:kit:`)) {
    throw new RetryableError('Waiting for the previous GitHub account to be removed', 30_000);
  }
  return whileClaimed(
    db,
    {id: grant.id, version},
    {status: 'queued'},
    () => sendSeat(context, grant, options),
    () => {
      throw new RetryableError('Another request is sending this invitation', SEND_CLAIM_MS);
    },
  );
}

/** The invitation of a seat this caller has claimed (see performInvite), as the buyer's request answers it. */
async function sendSeat(context: Context, grant: Seat, options: SendOptions): Promise<AccessResult> {
  const outcome = await sendClaimed(context, grant, options);
  switch (outcome.kind) {
    case 'queued':
      return {status: 'queued'};
    case 'active':
    case 'failed':
      throw new PermanentError(outcome.detail);
    case 'stale': {
      const now = await readGrant(context.db, grant);
      return now ? resultOf(now) : {status: 'queued'};
    }
    case 'invited':
      return resultOf(outcome.sent.row);
  }
}

/** `seat` is absent on a job queued before migration 0035: the buyer's own. */
registerJob<{sessionId: string; seat?: number; version: number}>('github-invite', {
  run: async (context, {sessionId, seat = OWNER_SEAT, version}) => {
    await performInvite(context, {session_id: sessionId, seat}, version);
  },
});
