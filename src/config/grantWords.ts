/**
 * What the buyer reads of a repository's grant on the dashboard: one set of words for every
 * repository a plan grants, the kit's (the access panel) and each extra one's (the list beneath it).
 * No DOM or Node: the worker may import it.
 */
import {afterPurchase} from './afterPurchase';
import type {ExtraRepositoryAccess, QueuePlace} from './api';

/** A grant as the dashboard reads it: the kit's (AccessStatus) or an extra repository's. */
export type ShownGrant = Pick<ExtraRepositoryAccess, 'status' | 'username' | 'expired' | 'queue' | 'detail'>;

const dateTime = new Intl.DateTimeFormat('en-GB', {dateStyle: 'medium', timeStyle: 'short'});

/** When a queued invitation is expected, in the buyer's own time zone. */
export function expected(at: number): string {
  return at <= Date.now() ? 'within a few minutes' : `around ${dateTime.format(at)}`;
}

/** Its place, as the buyer reads it: "number 3 in line". */
export const inLine = (queue: QueuePlace) => `number ${queue.position} in line`;

export interface GrantWords {
  /** The state in a few words: "Invitation pending". */
  title: string;
  /** What it means, and what to do if anything. */
  text: string;
}

/**
 * The words for one grant. `repository`: how the text names it ("the repository" for the kit's, an
 * extra one by its name). `seat`: the kit's grant, the purchase's seat: the buyer chose its account
 * (so may try another), and is e-mailed when its queued invitation goes out. `revokedBySeller`: the
 * seller, not a refund or a dispute, took the access.
 */
export function grantWords(
  grant: ShownGrant,
  {repository, seat, revokedBySeller = false}: {repository: string; seat: boolean; revokedBySeller?: boolean},
): GrantWords {
  const who = grant.username ? `@${grant.username}` : 'your GitHub account';
  switch (grant.status) {
    case 'none':
      return {
        title: 'Not invited yet',
        text: 'Invited with the same GitHub account once the kit’s invitation goes out.',
      };
    case 'not_configured':
      return {title: 'Not available yet', text: 'The seller has not set up this repository. Contact support.'};
    case 'queued':
      return grant.queue
        ? {
            title: `Invitation queued: ${inLine(grant.queue)}`,
            text: `GitHub lets a repository send only so many invitations a day, and today's are used up. The invitation for ${who} is expected ${expected(grant.queue.expectedAt)}${seat ? '; we e-mail you when it goes out' : ''}. Nothing to do.`,
          }
        : {
            title: 'Invitation queued',
            text: `The invitation for ${who} goes out as soon as GitHub answers, in a few minutes; nothing to do.`,
          };
    case 'pending':
      return grant.expired
        ? {
            title: 'Invitation expired',
            text: `GitHub invitations last seven days, and the one for ${who} has run out. Send a new one.`,
          }
        : {
            title: 'Invitation pending',
            text: `An invitation for ${who} is waiting. Accept it from GitHub's e-mail or at github.com/notifications.`,
          };
    case 'active':
      return {title: 'Access active', text: `${who} can read ${repository}.`};
    // A removal GitHub has not carried out yet is still a removal to the buyer: the worker retries
    // it, and the access is not theirs to use.
    case 'revoked':
    case 'removal_failed':
      return {
        title: 'Access revoked',
        text: revokedBySeller
          ? afterPurchase.revokedBySeller
          : 'This purchase was refunded or disputed, so repository access was removed.',
      };
    case 'failed':
      return {
        title: 'Invitation failed',
        text: `${grant.detail ?? 'GitHub refused the invitation.'} ${seat ? 'Try another username or contact support.' : 'Contact support.'}`,
      };
  }
}
