/**
 * A team purchase's facts and words (issue 41), read by the pricing section, the worker's answers
 * and e-mails, the dashboard and the console: one seat reads as the plan alone, as before teams.
 */
import {DAY_MS} from './dates';
import {ROUTES} from './links';

/** A plan bought for `seats`: "Advanced", or "Advanced for a team of 5". */
export function planForSeats(planName: string, seats: number): string {
  return seats > 1 ? `${planName} for a team of ${seats}` : planName;
}

/** How long a member's e-mailed link works: GitHub's own invitations last as long. */
export const TEAM_LINK_DAYS = 7;
export const TEAM_LINK_MS = TEAM_LINK_DAYS * DAY_MS;

/** The fragment that carries a member's link secret: a fragment never reaches a server or a Referer. */
export const TEAM_LINK_FRAGMENT = 'team-invitation';

/** The page a member's e-mailed link opens: the dashboard, which takes the seat once they sign in. */
export function teamLinkUrl(siteOrigin: string, token: string): string {
  return `${siteOrigin}${ROUTES.dashboard}#${TEAM_LINK_FRAGMENT}=${token}`;
}

/** Why a team seat's access was taken back, in the words its grant records and the member reads. */
export const TEAM_REMOVED_REASON = 'removed from the team by its owner';

/** What the worker answers a team's owner and its members, in one place. */
export const TEAM_WORDS = {
  noTeam: 'You own no team purchase: buy a plan for your team to give your developers their own access.',
  full: (seats: number) =>
    `Every seat of your team is taken (${seats}, yours included). Remove a member to free a seat.`,
  ownAddress: 'That is your own address: your seat is the first of the team, and it is already yours.',
  alreadyInvited: (email: string) => `${email} already has a seat of your team, or an invitation to one.`,
  noMember: (seat: number) => `Seat ${seat} has no member and no invitation.`,
  notInvited: (seat: number) => `Seat ${seat}'s member has joined: there is no link to send again.`,
  linkUnknown:
    'This invitation link is not one we sent, or a newer one replaced it. Open the latest e-mail, or ask the team’s owner.',
  linkUsed: 'This invitation link was already used to join the team.',
  linkWithdrawn: 'The team’s owner withdrew this invitation, or removed its seat. Ask them for a new one.',
  linkExpired: `This invitation link has expired (it works for ${TEAM_LINK_DAYS} days). Ask the team’s owner to send a new one.`,
  otherAddress:
    'This invitation is for another e-mail address. Sign in with the address it was sent to (a verified one).',
  ownPurchase: 'You already have your own purchase, which gives you access: this seat is left for someone else.',
  otherTeam: 'You already have a seat of a team. Ask its owner to remove you before you join another.',
  seatEnded: 'Your seat of the team has ended: its owner removed you, so this link no longer gives the code.',
} as const;
