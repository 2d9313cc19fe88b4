import type {Context} from '../../context';
import {RetryableError} from '../../jobs';
import {log} from '../../log';
import {step} from '../../cronStep';
import {SUBREQUESTS_PER} from '../../subrequests';
import {reconcileGrants, reconcileUnplacedExtraGrants} from './reconcile';
import {readGrant, type SeatRef} from './records';
import {entitlementOf} from './entitlement';
import {queueHead} from './invitationQueue';

/** What sending one grant from the head of its line came to. */
type Outcome = 'sent' | 'waits' | 'ended' | 'paused';

/**
 * The cron's one step for the lines of grants that wait for GitHub's cap: every repository's, the
 * kit's first (on a launch day it is what buyers wait for), then each extra repository's, each up
 * to `max`, and then the extra grants that lost their place on the way (`reconcileUnplacedExtraGrants`,
 * up to `unplaced`). Bounded by the invocation's subrequests (Cloudflare's Free plan: 50); the next
 * run carries on where this one stopped. Answers how many invitations went out.
 */
export async function drainQueues(context: Context, max: number, unplaced: number): Promise<number> {
  const {settings} = context;
  if (!settings.GITHUB_TOKEN) return 0;
  let sent = 0;
  // One line that fails (a grant at its head that throws) never holds back the others.
  for (const repository of [settings.GITHUB_REPO, ...Object.values(settings.extraRepos)]) {
    if (repository)
      sent += (await step(`invitation_queue ${repository}`, () => drainLine(context, repository, max))) ?? 0;
  }
  await step('invitation_queue unplaced extra grants', () => reconcileUnplacedExtraGrants(context, unplaced));
  if (sent > 0) log.info('access.queue_drained', {sent});
  return sent;
}

/**
 * Sends a repository's line's head, oldest first, while its window has slots: from the cron, and
 * from a dashboard read once a buyer's turn is due. At most `max`, and only as many as the
 * invocation's subrequests allow. Stops at the first grant that has to wait (the window is full,
 * or GitHub says so) or that GitHub cannot take now. Answers how many went out.
 */
export async function drainLine(context: Context, repository: string, max: number): Promise<number> {
  if (!context.settings.GITHUB_TOKEN) return 0;
  let sent = 0;
  for (const entry of await queueHead(context, repository, max)) {
    if (!context.subrequests.has(SUBREQUESTS_PER.invitation)) break;
    const outcome = await sendFromLine(context, entry, entry.repository_key);
    if (outcome === 'sent') sent += 1;
    if (outcome === 'waits' || outcome === 'paused') break;
  }
  return sent;
}

/**
 * One grant at the head of its line, sent by its purchase's reconcile, the same for every
 * repository (the seat's send records a refusal on it, out of the line). GitHub not answering
 * pauses the line until the next run.
 */
async function sendFromLine(context: Context, at: SeatRef, key: string): Promise<Outcome> {
  const sessionId = at.session_id;
  try {
    await reconcileGrants(context, sessionId);
  } catch (err) {
    // Another grant of the purchase (another repository's) may be what GitHub could not take:
    // its own reconcile retries it, and this line goes on if its head went.
    if (err instanceof RetryableError && sentNow(await readGrant(context.db, at, key))) return 'sent';
    if (err instanceof RetryableError) {
      log.warn('access.queue_paused', {sessionId, key, reason: err.message});
      return 'paused';
    }
    // The reconcile may fail on another of the purchase's grants, where nothing records it.
    log.error('access.reconcile_failed', {sessionId, error: err instanceof Error ? err.message : String(err)});
    return 'ended';
  }
  const row = await readGrant(context.db, at, key);
  // A seat queued for a purchase not entitled now (the seller's Grant access before its lift) is
  // sent by the reconcile the lift queues: the line goes on past it.
  if (row?.status === 'queued')
    return (await entitlementOf(context.db, at, row.member_id)).standing === 'entitled' ? 'waits' : 'ended';
  return sentNow(row) ? 'sent' : 'ended';
}

const sentNow = (row: {status: string} | null) => row?.status === 'pending' || row?.status === 'active';
