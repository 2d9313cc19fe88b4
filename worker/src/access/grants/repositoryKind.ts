import type {Context} from '../../context';
import {tellExtraResent, tellOwner} from './grantMail';
import {GRANT_DETAIL, type Grant, isSeat, TAKEN} from './records';
import {reconcileSoon} from './reconcileSoon';

/**
 * What differs between the repositories a purchase holds, said once: the kit's, whose grant is
 * the purchase's seat (the buyer chooses its account, which no other purchase's seat may hold),
 * and a plan's extra ones, which follow the seat's account. The send (sendInvitation.ts) and the
 * re-send (expiryResends.ts) are one for every repository; they ask the grant's kind here.
 */
export interface RepositoryKind {
  /** The repository's full name. */
  repository: string;
  /** The grant is the purchase's seat: what the buyer hears when another purchase's seat holds the account. Null for an extra repository. */
  seat: {otherPurchase: (login: string) => string} | null;
  /**
   * An account that is a collaborator already: the seat's buyer chooses another (false), while an
   * extra repository's grant records it active, as not its own to remove (true).
   */
  collaboratorIsActive: boolean;
  /** Why it was not invited, in the buyer's and the seller's words. */
  words: {
    notFound: (login: string) => string;
    gone: (login: string) => string;
    collaborator: (login: string) => string;
    invited: (login: string) => string;
    refused: string;
    /** Kept as the grant's detail while it waits for the cap, or null to say nothing. */
    waiting: string | null;
  };
  /** What follows an invitation recorded: the buyer's e-mail, and after the seat's, the other repositories follow its account. */
  invited: (
    context: Context,
    recorded: Grant,
    sent: {login: string; invitationId: number; waited: boolean},
  ) => Promise<void>;
  /** The buyer's e-mail: the invitation went again as the last one expired. */
  tellResent: (context: Context, recorded: Grant, sent: {login: string; invitationId: number}) => Promise<void>;
}

/** The repository a grant row is for: the kit's row names none (it is GITHUB_REPO). Null when it is not set. */
export function repositoryOf(
  {settings}: Pick<Context, 'settings'>,
  row: {repository_key: string; repository: string | null},
): string | null {
  return (row.repository_key === 'kit' ? settings.GITHUB_REPO : row.repository) ?? null;
}

/** The kind of a grant row's repository (its repository must be set). */
export function kindOf(
  context: Pick<Context, 'settings'>,
  row: {repository_key: string; repository: string | null},
): RepositoryKind {
  const repository = repositoryOf(context, row)!;
  if (row.repository_key === 'kit')
    return {
      repository,
      seat: {otherPurchase: TAKEN.otherPurchase},
      collaboratorIsActive: false,
      words: {
        notFound: (login) => `GitHub user ${login} was not found`,
        gone: (login) => `GitHub user ${login} no longer exists`,
        collaborator: TAKEN.collaborator,
        invited: TAKEN.invited,
        refused: 'GitHub refused the invitation.',
        waiting: null,
      },
      invited: async (context, recorded, {waited}) => {
        if (isSeat(recorded)) await tellOwner(context, recorded, {waited});
        // The same account gets the extra repositories the plan grants (reconcile.ts).
        await reconcileSoon(context, recorded, `seat:${recorded.version}`);
      },
      tellResent: async (context, recorded) => {
        if (isSeat(recorded)) await tellOwner(context, recorded);
      },
    };
  return {
    repository,
    seat: null,
    collaboratorIsActive: true,
    words: {
      notFound: () => GRANT_DETAIL.accountGone,
      gone: () => GRANT_DETAIL.accountGone,
      collaborator: GRANT_DETAIL.alreadyCollaborator,
      invited: GRANT_DETAIL.openInvitation,
      refused: GRANT_DETAIL.refused,
      waiting: GRANT_DETAIL.waitsForCap,
    },
    // A re-send of an expiring invitation that had to wait (expiryResends.ts `invitationLost`, which
    // counts it): the buyer hears of the new invitation as of any re-send.
    invited: async (context, recorded, {login, invitationId}) => {
      if (recorded.expiry_resends > 0)
        await tellExtraResent(context, recorded, {login, count: recorded.expiry_resends, invitationId});
    },
    tellResent: (context, recorded, {login, invitationId}) =>
      tellExtraResent(context, recorded, {login, count: recorded.expiry_resends, invitationId}),
  };
}
