import type {Context} from '../../context';
import {extraResentMail, mailOnce, type MailMessage, seatMail} from '../../mail';
import {memberAt} from '../../team/members';
import {memberSeatMail} from '../../team/teamMail';
import {OWNER_SEAT, type Seat, seatPath} from './records';

/**
 * What a grant's buyer is e-mailed, to the purchase's address, through the outbox: one e-mail per
 * key however often its event comes, and the invitation stands whether or not the e-mail goes at once.
 */
async function tellBuyer(context: Context, sessionId: string, key: string, compose: (to: string) => MailMessage) {
  const purchase = await context.db
    .prepare('SELECT email FROM purchases WHERE session_id = ?1')
    .bind(sessionId)
    .first<{email: string | null}>();
  if (!purchase?.email) return;
  await mailOnce(context, key, compose(purchase.email), sessionId);
}

/** Which GitHub account holds the purchase's seat now: one e-mail per grant version. */
export async function tellOwner(context: Context, grant: Seat, {waited = false}: {waited?: boolean} = {}) {
  if (grant.seat !== OWNER_SEAT) {
    // A team member's seat: the member invited by e-mail hears it at that address. One the owner
    // named by GitHub username has GitHub's own e-mail, and no address here.
    const member = await memberAt(context.db, grant.session_id, grant.seat);
    if (!member?.email) return;
    return mailOnce(
      context,
      `seat:${seatPath(grant)}:${grant.version}`,
      memberSeatMail({to: member.email, login: grant.github_username, repository: context.settings.GITHUB_REPO!}),
      grant.session_id,
    );
  }
  return tellBuyer(context, grant.session_id, `seat:${grant.session_id}:${grant.version}`, (to) =>
    seatMail(context.settings, {
      to,
      login: grant.github_username,
      repository: context.settings.GITHUB_REPO!,
      waited,
      ...(grant.resent_after_expiry === 1 && {resent: grant.expiry_resends}),
    }),
  );
}

/**
 * That the invitation to an extra repository went again, replacing the one the buyer may be
 * looking for: sent by the cron's re-send as it expires (expiryResends.ts), and by the
 * queue's send when such a re-send had to wait (reconcile.ts). One e-mail per invitation.
 */
export function tellExtraResent(
  context: Context,
  grant: {session_id: string; seat: number; repository_key: string; repository: string | null},
  {login, count, invitationId}: {login: string; count: number; invitationId: number},
) {
  // A team member's repository: GitHub's own e-mail tells their account; the owner is not told of it.
  if (grant.seat !== OWNER_SEAT) return Promise.resolve();
  return tellBuyer(
    context,
    grant.session_id,
    `extra-resent:${grant.session_id}:${grant.repository_key}:${invitationId}`,
    (to) => extraResentMail({to, login, repository: grant.repository!, key: grant.repository_key, count}),
  );
}
