import {appConfig} from '../../../src/config';
import type {Context} from '../context';
import {PermanentError, RetryableError} from '../jobs';
import {log} from '../log';
import {SUBREQUESTS_PER} from '../subrequests';
import {readGrant} from './grants';
import {performInvite} from './invite';
import {queueHead} from './invitationQueue';

/**
 * Sends the invitation queue's head, oldest first, while the window has slots: from the cron, and
 * from a dashboard read once a buyer's turn is due. At most `max` a call, and only as many as the
 * invocation's subrequests allow (Cloudflare's Free plan: 50); the next call carries on where this
 * one stopped. Stops at the first invitation that has to wait (the window is full, or GitHub says
 * so) or that GitHub cannot take now. Answers how many went out.
 */
export async function drainInvitationQueue(
  context: Context,
  max: number = appConfig.repository.queueBatch,
): Promise<number> {
  const {db, settings} = context;
  if (!settings.GITHUB_REPO || !settings.GITHUB_TOKEN) return 0;
  let sent = 0;
  for (const entry of await queueHead(context, settings.GITHUB_REPO, max)) {
    // An extra repository's grant in the kit's repository's line is sent by its own drain.
    if (entry.repository_key !== 'kit') break;
    if (!context.subrequests.has(SUBREQUESTS_PER.invitation)) break;
    const grant = await readGrant(db, entry.session_id);
    if (grant?.status !== 'queued') continue; // ended since the head was read
    try {
      // The grant's current version: a later request of the purchase kept the entry's place.
      const result = await performInvite(context, grant.session_id, grant.version);
      if (result.status === 'queued') break;
      sent += 1;
    } catch (err) {
      if (err instanceof PermanentError) continue; // recorded on the grant, out of the queue
      if (err instanceof RetryableError) {
        log.warn('access.queue_paused', {sessionId: grant.session_id, reason: err.message});
        break;
      }
      throw err;
    }
  }
  if (sent > 0) log.info('access.queue_drained', {sent});
  return sent;
}
