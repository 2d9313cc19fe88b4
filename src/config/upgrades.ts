/**
 * Upgrading a paid purchase to a higher plan, for the difference. The site and the worker read the
 * same rules: which plans a purchase may move up to, what that costs, and how a sale of it reads.
 * The worker alone decides the amount it charges (from its own record of the purchase's plan).
 */
import {appConfig} from './app';
import {extraRepositoriesAdded, FEWEST_TEAM_SEATS, planAmount, saleOf, seatPriceOf, soldInTiers} from './plans';
import type {Plan} from './types';

const plans: readonly Plan[] = appConfig.plans;

/** The plans a buyer of `from` may upgrade to: those priced higher now, cheapest first. */
export function upgradesFrom(from: Plan, list: readonly Plan[] = plans): Plan[] {
  return list.filter((plan) => plan.price > from.price).sort((a, b) => a.price - b.price);
}

/**
 * What an upgrade costs at list prices, in cents: the difference between the two plans' current
 * prices, or for a team the difference between what its seats cost on each (`saleOf`: each seat's
 * price times the seats, or a team tier's price).
 */
export function upgradeAmount(from: Plan, to: Plan, seats = 1): number {
  return saleOf(to, seats).amount - saleOf(from, seats).amount;
}

/** What the buyer paid for the purchase being upgraded, as the worker recorded it. */
export interface PaidForPlan {
  /** Cents Stripe charged (null on a purchase recorded before the worker kept it). */
  paid: number | null;
  /** Cents refunded since. */
  refunded: number;
  /** The fair-price percent the purchase was sold at, or null at the list price. */
  percentOff: number | null;
}

/**
 * What an upgrade costs this buyer, in cents: the higher plan at the price they were sold at (the
 * list price, or less the fair-price percent their purchase got), less a credit of what they paid
 * for the plan they hold, never more than that plan's price now. So a buyer at list prices pays
 * the difference (`upgradeAmount`); a fair-price buyer the difference of fair prices; and a
 * purchase paid less (a promotion code, a price since raised, a partial refund) is credited only
 * what it paid. A purchase recorded without its amount is credited the plan's price. A team moves
 * up every seat at once: the difference for its `seats`, credited what it paid for them all.
 * `toSeats` more than `seats` is a team moving to a larger tier of its plan (`team.tiers`), priced
 * the same way: the larger tier, credited what the smaller was paid.
 */
export function upgradeAmountFor(from: Plan, to: Plan, bought: PaidForPlan, seats = 1, toSeats = seats): number {
  return saleAmount(to, toSeats, bought.percentOff) - upgradeCreditFor(from, bought, seats);
}

/**
 * The credit an upgrade from `from` gives (`upgradeAmountFor`): what the purchase paid and kept for
 * its `seats`, never more than they cost at list prices now; a purchase recorded without its amount
 * is credited that list price.
 */
export function upgradeCreditFor(from: Plan, bought: PaidForPlan, seats = 1): number {
  const listed = listedFor(from, seats);
  return bought.paid === null ? listed : Math.min(listed, Math.max(0, bought.paid - bought.refunded));
}

/**
 * The most `seats` of the plan cost at list prices now, the cap of an upgrade's credit: bought as one
 * team (`saleOf`), or as one seat at the plan's price and the rest added later at a team's, which
 * costs more where a team's seat costs less (`team.seatPrice`). A team tier grown from fewer seats
 * paid the larger tier's price in all, each move credited what was paid before.
 */
function listedFor(plan: Plan, seats: number): number {
  const whole = saleOf(plan, seats).amount;
  return seats > 1 && !soldInTiers(plan)
    ? Math.max(whole, planAmount(plan) + seatPriceOf(plan, FEWEST_TEAM_SEATS).amount * (seats - 1))
    : whole;
}

/**
 * What `added` more seats of a plan sold by the seat cost: a team's price for each (`seatPriceOf`:
 * the team's own price where the plan has one, as the purchase then holds a team's seats), at the
 * price the purchase was sold at (less its fair-price percent, if any). Nothing is credited: the
 * seats are new. A plan sold in tiers grows by a move to a larger tier (`upgradeAmountFor`).
 */
export function addedSeatsAmount(plan: Plan, added: number, percentOff: number | null): number {
  return percentPrice(seatPriceOf(plan, FEWEST_TEAM_SEATS).amount, percentOff) * added;
}

/** `seats` of the plan bought at once (`saleOf`), less a fair-price percent, as Stripe rounds a percent off each unit. */
function saleAmount(plan: Plan, seats: number, percentOff: number | null): number {
  const {price, quantity} = saleOf(plan, seats);
  return percentPrice(price.amount, percentOff) * quantity;
}

function percentPrice(cents: number, percentOff: number | null): number {
  return Math.round((cents * (100 - (percentOff ?? 0))) / 100);
}

/**
 * Why the worker gave back a paid upgrade it did not apply, each reason as the payer's e-mail says
 * it (upgrades/fulfilment.ts `refundRefused`) and as the console shows the reason (its key).
 */
export const UPGRADE_REFUSALS = {
  duplicate: 'it was a second payment for an upgrade you had already paid for.',
  'purchase not paid': 'the purchase it upgrades was refunded or is disputed.',
  'access revoked': 'access to the purchase it upgrades has been revoked.',
  stale:
    'your purchase changed after this upgrade was priced (another upgrade, seats added, or a refund), so its price was no longer right. Your dashboard offers it again at today’s price.',
  'another buyer': 'it was paid from an account that does not own the purchase it upgrades.',
  'amount mismatch': 'the amount paid was not the amount the upgrade was priced at.',
  'too many seats':
    'with the seats bought meanwhile, it would have taken your team past the most seats the plan is sold for.',
  'seats not sold': 'the plan is no longer sold for a team of that size. Your dashboard shows what it offers now.',
  'credited a payment taken back':
    'its price took an earlier payment of yours off as a credit, and that payment has since been refunded or reversed by your bank.',
} as const;

/** A reason the worker gives a paid upgrade back (`UPGRADE_REFUSALS`). */
export type UpgradeRefusal = keyof typeof UPGRADE_REFUSALS;

/**
 * The console's answer to a refund of an upgrade that a later one was priced on (credited its
 * payment): refunded alone, it would leave the later upgrade paid for with money given back (a
 * team of 1 moved to 5 then to 10 would keep 6 seats, a number no team size has).
 */
export const CREDITED_LATER_REFUSAL =
  'A later upgrade was credited this payment: refund that upgrade first, or the whole purchase. Refunded alone, this one would leave the later upgrade paid for with money given back.';

/**
 * Stripe's smallest charge in US dollars (50 cents): an upgrade that would cost less is not sold
 * through Checkout (Stripe refuses the session).
 */
export const SMALLEST_CHARGE = 50;

/** What an upgrade does to a team's seats: `added` more (0 for a move up), of `of` before it. */
export interface UpgradeSeats {
  added: number;
  of: number;
}

/**
 * How the seller's console and the receipts name an upgrade: "Upgrade: Starter → Advanced", a
 * team's "Upgrade: Starter → Advanced, 5 seats", or seats added "2 more seats: Advanced".
 */
export function upgradeLabel(fromName: string, toName: string, seats: UpgradeSeats = {added: 0, of: 1}): string {
  if (seats.added > 0) return `${seats.added} more ${seats.added === 1 ? 'seat' : 'seats'}: ${toName}`;
  return `Upgrade: ${fromName} → ${toName}${seats.of > 1 ? `, ${seats.of} seats` : ''}`;
}

/** How the console's sales name seats added to teams of a plan, whatever their number: "More seats: Advanced". */
export function moreSeatsLabel(toName: string): string {
  return `More seats: ${toName}`;
}

/**
 * The credit line on the upgrade's Stripe receipt (a coupon's name: at most 40 characters), so the
 * buyer reads the plan's price, then what takes it down to theirs. For a fair-price buyer the one
 * coupon holds the fair-price percent too (Checkout takes one discount), and the line says so:
 * "Credit for your Starter purchase" would pass the whole discount off as the credit. An upgrade
 * code's discount is in it too, and named: "Starter credit and code SPRING" (a fair price and a
 * code never combine).
 */
export function upgradeCreditName(from: Plan, percentOff: number | null = null, code: string | null = null): string {
  if (code !== null) {
    const codePart = ` credit and code ${code}`;
    return `${from.name.slice(0, Math.max(0, 40 - codePart.length))}${codePart}`.slice(0, 40);
  }
  if (!percentOff) return `Credit for your ${from.name} purchase`.slice(0, 40);
  // A long plan name is cut, never the percent.
  const fairPart = ` credit and ${percentOff}% fair price`;
  return `${from.name.slice(0, 40 - fairPart.length)}${fairPart}`;
}

/** The credit line on seats added to a fair-price purchase (at list price there is none): "Your 40% fair price". */
export function fairPriceCreditName(percentOff: number): string {
  return `Your ${percentOff}% fair price`;
}

/**
 * How the upgrade offer says where what it adds arrives, for the extra repositories the higher plan
 * grants: "AI prompts (prompts for the terms of service and privacy policy) come in a private
 * repository of their own, and the GitHub account that has the code is invited to it." Null when
 * the upgrade adds none.
 */
export function addedRepositoriesLine(from: Plan, to: Plan): string | null {
  const described = appConfig.extraRepositories as Record<string, {name: string; holds: string}>;
  const names = extraRepositoriesAdded(from, to).map((key) =>
    described[key] ? `${described[key].name} (${described[key].holds.toLowerCase()})` : key,
  );
  if (names.length === 0) return null;
  const one = names.length === 1;
  return `${names.join(' and ')} ${one ? 'comes in a private repository of its own' : 'come in private repositories of their own'}, and the GitHub account that has the code is invited to ${one ? 'it' : 'them'}.`;
}
