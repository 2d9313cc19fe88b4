import type {Context} from '../context';
import {enqueue} from '../jobs';
import {extraResentMail} from '../mail';
import {runJob} from '../outbox';

/**
 * E-mails the purchase's address that its invitation to an extra repository went again, through
 * the outbox (one e-mail per invitation). Sent by the cron's re-send as an invitation expires
 * (extraExpiryResends.ts), and by the queue's send when such a re-send had to wait for the
 * repository's cap or for GitHub (extraGrants.ts): either way a new invitation replaced the one the
 * buyer may be looking for.
 */
export async function tellExtraResent(
  context: Context,
  // The grant's row (extraGrantRecords.ts `ExtraGrant`), as far as the e-mail needs it.
  grant: {session_id: string; repository_key: string; repository: string | null},
  {login, count, invitationId}: {login: string; count: number; invitationId: number},
) {
  const purchase = await context.db
    .prepare('SELECT email FROM purchases WHERE session_id = ?1')
    .bind(grant.session_id)
    .first<{email: string | null}>();
  if (!purchase?.email) return;
  const id = await enqueue(context.db, {
    key: `extra-resent:${grant.session_id}:${grant.repository_key}:${invitationId}`,
    kind: 'mail',
    sessionId: grant.session_id,
    payload: extraResentMail({
      to: purchase.email,
      login,
      repository: grant.repository!,
      key: grant.repository_key,
      count,
    }),
  });
  if (id !== null) await runJob(context, id);
}
