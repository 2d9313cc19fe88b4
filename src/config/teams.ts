/**
 * A team purchase's facts and words (issue 41), read by the pricing section, the worker's answers
 * and e-mails, the dashboard and the console: one seat reads as the plan alone, as before teams.
 */
import type {TeamMember} from './api';
import {DAY_MS} from './dates';
import type {FaqItem, Plan} from './types';
import {ROUTES} from './links';
import {appConfig} from './app';
import {FEWEST_TEAM_SEATS, seatPriceOf, soldInTiers, teamTiersOf} from './plans';
import type {SEAT_END_REASON_KEYS} from './apiPaths';

/**
 * The FAQ's answer on teams, for the plans sold for teams (`Plan.team`), or null when none is: then
 * the FAQ says nothing of teams, as the product sells none (the committed config sells Advanced for teams).
 */
export function teamFaq(plans: readonly Plan[]): FaqItem | null {
  const sold = plans.filter((plan) => plan.team);
  if (sold.length === 0) return null;
  // Each seat's price for a team: the team's own (`team.seatPrice`), else the plan's; or each tier's.
  const names = sold.map((plan) => `${plan.name} (${teamPriceWords(plan)})`).join(' and ');
  const tiered = sold.filter((plan) => soldInTiers(plan)).length;
  const grow =
    tiered === sold.length
      ? 'move to a larger team later for the difference in price'
      : `add seats later for the price of the seats alone${tiered > 0 ? ' (where teams come in fixed sizes, move to a larger one for the difference)' : ''}`;
  return {
    question: 'Can I buy it for my team?',
    answer: `Yes: ${names} ${sold.length === 1 ? 'is' : 'are'} sold for teams, in one checkout. You hold the first seat. From your dashboard you give each other seat to a developer, by e-mail (a link that works once, for ${TEAM_LINK_DAYS} days, for that address) or by GitHub username, and each gets their own invitation to every private repository of the plan; GitHub's daily limit of invitations is shared in turn, first come, first served. Remove a developer and their access is taken back; the seat is free for the next one. You can ${grow}${
      // A move up is offered only to a plan sold for as many seats: said only where there is one.
      sold.some((plan) => sold.some((higher) => higher.price > plan.price))
        ? `, and move the whole team to a higher plan for the difference${tiered === sold.length ? '' : ' on each seat'}`
        : ''
    }.`,
  };
}

/** How a plan is priced for teams: "up to 10 developers, $79 a seat", or "5 developers for $299, or 10 for $499". */
function teamPriceWords(plan: Plan): string {
  const tiers = teamTiersOf(plan);
  if (tiers.length > 0)
    return tiers
      .map((tier, index) => `${tier.seats}${index === 0 ? ' developers' : ''} for $${tier.amount / 100}`)
      .join(', or ');
  return `up to ${plan.team!.maxSeats} developers, $${seatPriceOf(plan, FEWEST_TEAM_SEATS).amount / 100} a seat`;
}

/** A plan's team offer, at its team's price for each seat: "Advanced for teams". */
export function planForTeams(planName: string): string {
  return `${planName} for teams`;
}

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
/** Why, when the seat was one of those a refund or a dispute of added seats took away (the newest members go). */
export const TEAM_SEATS_REFUNDED_REASON = 'the team’s owner no longer pays for the seat (a refund or a dispute)';
/** Why, when the seller took the seat back from the console (one member, not the whole purchase). */
export const TEAM_SELLER_REASON = 'taken back by the seller';

/**
 * Why a member's seat ended (team_members.end_reason): their owner removed them, refunded seats, or
 * the seller took the seat back.
 */
export type SeatEndReason = (typeof SEAT_END_REASON_KEYS)[number];

/** The reason a seat's grant records when it is taken back, in the words the member reads. */
export const SEAT_END_REASONS: Record<SeatEndReason, string> = {
  removed: TEAM_REMOVED_REASON,
  seats_refunded: TEAM_SEATS_REFUNDED_REASON,
  seller: TEAM_SELLER_REASON,
};

/**
 * What a refund of `seats` of a team purchase's own payment gives back: what it paid for each seat
 * (its amount over the seats it bought, fair price and tax included), rounded down, so the seats
 * refunded never come to more than was paid. Cents.
 */
export function seatRefundAmount(amountPaid: number, seatsBought: number, seats: number): number {
  return Math.floor((amountPaid * seats) / seatsBought);
}

/**
 * The fewest of its own seats a team purchase keeps through a refund of some seats: the buyer's
 * own, or 2 where a team's seat costs less than the plan alone (`team.seatPrice`): one seat left at
 * a team's price would be the plan for less than its price. A team tier (`team.tiers`) keeps all
 * it `bought`: it is one price, and fewer seats would be no tier. A refund of the whole purchase ends it.
 */
export function seatsKept(plan: Plan | undefined, bought: number): number {
  if (plan && soldInTiers(plan)) return bought;
  return plan && seatPriceOf(plan, FEWEST_TEAM_SEATS).amount < seatPriceOf(plan, 1).amount ? FEWEST_TEAM_SEATS : 1;
}

/** Why a seat refund stops at `keeps` seats of a purchase of `plan`, as the console and the worker's refusals say it. */
export function seatsKeptWords(keeps: number, plan: Plan | undefined): string {
  if (plan && soldInTiers(plan)) return `a team of ${keeps} is sold as one price, so its seats go back only together`;
  return keeps === 1
    ? 'the buyer keeps their own'
    : `a team keeps ${keeps}: one seat alone costs the plan's price, more than a team's seat`;
}

/** What the worker answers a team's owner and its members, in one place. */
export const TEAM_WORDS = {
  noTeam: 'You own no team purchase: buy a plan for your team to give your developers their own access.',
  secondTeam:
    'You own a team already: add seats to it, or move it to a higher plan, from your dashboard. A second team would be one your dashboard cannot manage.',
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
  soldAlone: (plan: string) => `${plan} is sold for one developer: seats cannot be added to it.`,
  seatsOverMost: (plan: string, most: number, now: number) =>
    now >= most
      ? `${plan} is sold for teams of up to ${most} seats, and yours has ${most} already.`
      : `${plan} is sold for teams of up to ${most} seats, and yours has ${now}: add ${most - now} or fewer.`,
  tierPaid: (seats: number) =>
    `What you paid covers a team of ${seats} already, within Stripe's smallest charge: please contact support to grow your team.`,
  teamTooBig: (plan: string, seats: number) =>
    `${plan} is not sold for a team of ${seats}: your whole team moves up together, so it cannot move to ${plan}.`,
  teamEnded: 'This team’s purchase was refunded or disputed, so its seats give no access. Ask its owner.',
  seatEnded: 'Your seat of the team has ended: its owner removed you, so this link no longer gives the code.',
} as const;

/** A team member as the owner's list reads them (GET /team's `members`). */
export type ShownMember = Pick<TeamMember, 'state' | 'email' | 'username' | 'access' | 'expired' | 'linkExpiresAt'>;

/** Who the member is, for the owner: their GitHub account once named, else the address invited. */
export function memberName(member: Pick<ShownMember, 'username' | 'email'>): string {
  return member.username ? `@${member.username}` : (member.email ?? 'A member');
}

/** Where a member's access stands, in the owner's words: one state each, nothing promised that is not so. */
export function memberStateWords(member: ShownMember, now = Date.now()): string {
  if (member.state === 'invited') {
    return member.linkExpiresAt !== undefined && member.linkExpiresAt <= now
      ? 'The link has expired before it was used: send a new one.'
      : 'Invited by e-mail: the seat is theirs once they open the link and sign in with that address.';
  }
  switch (member.access) {
    case 'none':
      return 'Joined: has not named a GitHub account yet.';
    case 'queued':
      return "Waiting for GitHub's daily limit of invitations: the invitation goes out in turn.";
    case 'pending':
      if (!member.expired) return 'Invited on GitHub: waiting for them to accept.';
      // A member who joined by e-mail has a dashboard of their own; one named by username has not.
      return member.email
        ? "GitHub's invitation expired before it was accepted: they can ask for a new one from their dashboard."
        : "GitHub's invitation expired before it was accepted: remove them and give the seat again to invite them anew.";
    case 'active':
      return 'Has access to the repository.';
    case 'failed':
      return 'The invitation could not be sent: remove the member and give the seat again.';
    case 'revoked':
      return 'Access taken back.';
    case 'removal_failed':
      return 'Access taken back, but GitHub has not removed the account yet: it is tried again.';
  }
}

/** How the seller's console says a seat ended: an invitation withdrawn, or a member removed, and by what. */
export function endedMemberWords(state: 'withdrawn' | 'removed', reason: SeatEndReason): string {
  if (reason === 'seats_refunded')
    return state === 'withdrawn'
      ? 'Invitation ended: its seat was refunded or disputed.'
      : 'Seat ended: it was refunded or disputed, and the access taken back.';
  if (reason === 'seller')
    return state === 'withdrawn'
      ? 'Invitation withdrawn by the seller.'
      : 'Seat taken back by the seller, and the access with it.';
  return state === 'withdrawn'
    ? 'Invitation withdrawn by the team’s owner.'
    : 'Removed by the team’s owner, and the access taken back.';
}

/** What a member reads on their dashboard of whose team their access comes from. */
export function memberOfTeam(owner: string, plan: string): string {
  return `Your access is a seat of ${owner}'s team (${plan}). Billing, receipts and the team are theirs.`;
}

/** Why a member's seat ended, as a sentence's start: "Ana removed you from the team". */
export function seatEndedBecause(owner: string, reason: SeatEndReason): string {
  const who = owner || 'The team’s owner';
  if (reason === 'seller') return `${appConfig.appName}'s seller took back your seat of ${who}'s team`;
  return reason === 'seats_refunded'
    ? `${who} no longer pays for some of the team's seats (a refund or a dispute), and yours was one of them`
    : `${who} removed you from the team`;
}

/** Whom a member whose seat ended asks about it: the seller's support for the seller's act, else the owner. */
export function askAboutEndedSeat(owner: string, reason: SeatEndReason): string {
  return reason === 'seller'
    ? `If this is a mistake, write to ${appConfig.support.email}.`
    : `If this is a mistake, ask ${owner || 'the team’s owner'} to give you a seat again.`;
}

/** What a removed member reads: their seat ended, and why. */
export function seatEndedWords(owner: string, reason: SeatEndReason = 'removed'): {title: string; text: string} {
  return {
    title: 'Your seat of the team has ended',
    text: `${seatEndedBecause(owner, reason)}, so your access to the repository was taken back and your download links no longer work. ${
      reason === 'seller'
        ? `Write to ${appConfig.support.email} if you think it is a mistake`
        : 'Ask them for a seat again'
    }, or buy your own.`,
  };
}

/** The owner's move to a larger team tier (GET /upgrades `seats.tiers`): "Move to a team of 10 for $200". */
export function largerTierLabel(seats: number, price: string): string {
  return `Move to a team of ${seats} for ${price}`;
}

/** The owner's offer of more seats (GET /upgrades `seats`): "Add 2 seats for $298". */
export function addSeatsLabel(added: number, price: string): string {
  return `Add ${added} ${added === 1 ? 'seat' : 'seats'} for ${price}`;
}
