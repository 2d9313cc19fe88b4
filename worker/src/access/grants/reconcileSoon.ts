import {extraRepositoryKeys, findStoredPlan} from '../../../../src/config';
import type {Context} from '../../context';
import {enqueue} from '../../jobs';
import {runJob} from '../../outbox';
import {effectivePlan} from '../../purchases';
import {ENTITLED} from './entitlement';
import {LIVE_SQL} from './liveGrants';
import {type Grant, type SeatRef, seatPath, seatRef} from './records';

/**
 * The events that ask for a purchase's reconcile (reconcile.ts, the outbox's `reconcile` job): a payment, an upgrade or its refund, the seat's
 * invitation sent, accepted or moved, a dispute won, the seller's Grant access. (A refund of the
 * purchase takes every grant back itself: removal.ts `takeBackEvery`.) Apart from the reconcile
 * itself, so that the send every repository shares (sendInvitation.ts) can ask for one without a
 * circle of imports.
 */

/**
 * Hands a grant its purchase no longer wants (found by the cron's re-send or a buyer's renewal) to
 * its reconcile, which the cron runs: one job per invitation, however often it is found.
 */
export async function handToReconcile(db: D1Database, grant: Pick<Grant, 'session_id' | 'invitation_id'>) {
  await enqueue(db, {
    key: `reconcile:${grant.session_id}:unwanted:${grant.invitation_id}`,
    kind: 'reconcile',
    sessionId: grant.session_id,
    payload: {sessionId: grant.session_id},
  });
}

/**
 * Queues a reconcile of the purchase's grants through the outbox and runs it at once; the cron
 * retries it, for every seat. `cause` names the event (one job per event: a webhook delivered twice
 * queues one), with `at` the seat it happened to (a row of it) or the purchase's session id.
 * Skipped when it has nothing to do: a plan that grants no extra repository, none held, and a
 * seat that is neither queued nor taken back from a purchase that is entitled (a reconcile sends
 * or gives back nothing to one that is not).
 */
export async function reconcileSoon(context: Context, at: SeatRef | string, cause: string) {
  const {db} = context;
  const seat = seatRef(at);
  const sessionId = seat.session_id;
  const found = await db
    .prepare(
      `SELECT ${effectivePlan('p')} AS plan,
         EXISTS (SELECT 1 FROM grants e WHERE e.session_id = ?1 AND e.repository_key <> 'kit' AND e.status IN ${LIVE_SQL}) AS live,
         (${ENTITLED('p')} AND EXISTS (SELECT 1 FROM grants k WHERE k.session_id = ?1 AND k.repository_key = 'kit'
           AND k.status IN ('queued', 'revoked', 'removal_failed'))) AS seat
       FROM purchases p WHERE p.session_id = ?1`,
    )
    .bind(sessionId)
    .first<{plan: string | null; live: number; seat: number}>();
  if (!found) return;
  if (found.live === 0 && found.seat === 0 && extraRepositoryKeys(findStoredPlan(found.plan)).length === 0) return;
  const id = await enqueue(db, {
    key: `reconcile:${seatPath(seat)}:${cause}`,
    kind: 'reconcile',
    sessionId,
    payload: {sessionId},
  });
  if (id !== null) await runJob(context, id);
}
