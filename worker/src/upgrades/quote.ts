import {
  addedSeatsAmount,
  findStoredPlan,
  maxSeatsOf,
  type Plan,
  PLAN_CURRENCY,
  type PlanPrice,
  saleOf,
  seatPriceOf,
  seatsRefusal,
  SMALLEST_CHARGE,
  TEAM_WORDS,
  soldInTiers,
  teamTiersOf,
  upgradeAmountFor,
  upgradeCreditFor,
  type UpgradeSeats,
  upgradeCodeAmount,
  upgradesFrom,
  UPGRADE_CODE_WORDS,
} from '../../../src/config';
import type {BuyerPlan, SeatsOffer, UpgradeOffer} from '../../../src/config/api';
import type {AuthUser} from '../auth/user';
import {HttpError} from '../errors';
import {type GivenFairPrice, heldFairPrice} from '../payments/fairPriceCheckout';
import {bestPaidPurchaseOf, hasRevokedPurchase, paidAndKept, type Purchase} from '../purchases';
import {revokedBySeller} from '../access/grants/sellerRevocation';
import {teamPurchaseOf} from '../team/members';
import {movePaid} from './movePaid';
import {type AppliedUpgradeCode, codeAppliesTo, upgradeCodeFor} from './upgradeCode';

/**
 * What an upgrade costs, decided from the worker's own records: the buyer's paid purchase as D1
 * holds it, the plan it gives now (its paid upgrades included), its seats now, and the config's
 * current prices. Nothing the browser sends names the purchase, its plan, its seats or an amount:
 * only which plan to move to, or how many seats to add.
 */
export interface UpgradeQuote {
  purchase: Purchase;
  from: Plan;
  to: Plan;
  /** Seats added (0 for a move to a higher plan), and the purchase's seats when priced. */
  seats: UpgradeSeats;
  /**
   * Cents: the higher plan's price for this buyer for every seat, less what they paid for theirs
   * (`upgradeAmountFor`); or the seats added at the purchase's price (`addedSeatsAmount`).
   */
  amount: number;
  currency: string;
  /** The fair-price discount the upgrade is sold at (the purchase's, `heldFairPrice`), or null at list prices. */
  fairPrice: GivenFairPrice | null;
  /**
   * Cents credited for what the purchase paid and kept (`upgradeCreditFor`), or null for seats added
   * by the seat, which are priced on their own. Fulfilment refuses a payment the purchase no
   * longer has that much for (a refund landed after the session was made).
   */
  credit: number | null;
  /**
   * The upgrade code taken off `amount` (upgradeCode.ts), or null. Its discount is no credit:
   * `credit` stays what the purchase paid, which fulfilment and refunds check is still kept.
   */
  code: AppliedUpgradeCode | null;
}

/** How many of the line item's price the session sells: the seats added, or every seat moved up. */
export function quantityOf(seats: UpgradeSeats): number {
  return seats.added > 0 ? seats.added : seats.of;
}

/**
 * What an upgrade's session sells, before its credit: a team tier of the seats it leaves (`saleOf`)
 * once, where `to` is sold in tiers; else each seat's price for that many seats, times the seats
 * added or moved up (`quantityOf`).
 */
export function upgradeLine(to: Plan, seats: UpgradeSeats): {price: PlanPrice; quantity: number} {
  const after = seats.of + seats.added;
  if (soldInTiers(to)) return saleOf(to, after);
  return {price: seatPriceOf(to, after), quantity: quantityOf(seats)};
}

/**
 * The user's paid purchase that gives the most now (bestPaidPurchaseOf), and its plan, or null
 * without one, or when its plan is no longer in the config. A buyer may hold two (a guest purchase
 * found by their e-mail, and one made signed in): upgrades are offered above the better, never to
 * a plan they already have. A team's owner grows their team purchase (team/members.ts).
 */
export async function planOf(db: D1Database, user: AuthUser): Promise<{purchase: Purchase; plan: Plan} | null> {
  const purchase = (await teamPurchaseOf(db, user)) ?? (await bestPaidPurchaseOf(db, user));
  const plan = purchase ? findStoredPlan(purchase.plan) : undefined;
  return purchase && plan ? {purchase, plan} : null;
}

/**
 * What the purchase has paid for what it holds: its own payment and every upgrade of it paid (seats
 * added, and moves to a higher plan, so a team tier that moved up is credited both on growing),
 * less what was refunded of them; null for a purchase recorded without its amount.
 */
async function paidForSeats(db: D1Database, purchase: Purchase): Promise<{paid: number | null; refunded: number}> {
  const kept = await db
    .prepare(`SELECT ${paidAndKept('p')} AS paid FROM purchases p WHERE p.session_id = ?1`)
    .bind(purchase.session_id)
    .first<{paid: number | null}>();
  return {paid: kept?.paid ?? null, refunded: 0};
}

/**
 * What the move from the purchase's plan to `to` costs its buyer, for every seat, from D1's records;
 * or, with `toSeats`, the move of a team to a larger tier of its plan.
 */
async function amountFor(
  db: D1Database,
  purchase: Purchase,
  from: Plan,
  to: Plan,
  toSeats?: number,
): Promise<{amount: number; credit: number}> {
  const bought = {...(await paidForSeats(db, purchase)), percentOff: heldFairPrice(purchase)?.percentOff ?? null};
  const seats = purchase.seats ?? 1;
  return {
    amount: upgradeAmountFor(from, to, bought, seats, toSeats ?? seats),
    credit: upgradeCreditFor(from, bought, seats),
  };
}

/**
 * The seats the purchase may still add, with one's price, or for a plan sold in tiers each larger
 * tier with what the move to it costs; null when its plan is not sold for teams.
 */
async function seatsOfferFor(db: D1Database, purchase: Purchase, plan: Plan): Promise<SeatsOffer | null> {
  if (!plan.team) return null;
  const seats = purchase.seats ?? 1;
  const tiers = teamTiersOf(plan);
  if (tiers.length > 0) {
    const larger: {seats: number; amount: number}[] = [];
    for (const tier of tiers.filter((sold) => sold.seats > seats)) {
      const {amount} = await amountFor(db, purchase, plan, plan, tier.seats);
      if (amount >= SMALLEST_CHARGE) larger.push({seats: tier.seats, amount});
    }
    return {seats, most: maxSeatsOf(plan), perSeat: null, tiers: larger, currency: PLAN_CURRENCY};
  }
  const percentOff = heldFairPrice(purchase)?.percentOff ?? null;
  return {
    seats,
    most: maxSeatsOf(plan),
    perSeat: addedSeatsAmount(plan, 1, percentOff),
    tiers: null,
    currency: PLAN_CURRENCY,
  };
}

/**
 * GET /upgrades: what the dashboard shows, priced here; with the upgrade code typed (`?code=`), its
 * standing, and each offer it takes from priced with it (`withoutCode`: the price before). Without
 * a purchase to upgrade there is nothing for a code to take from: `code` is null then too.
 */
export async function buyerPlan(db: D1Database, user: AuthUser, typed?: string): Promise<BuyerPlan> {
  const current = await planOf(db, user);
  if (!current) return {plan: null, upgrades: [], seats: null, code: null};
  const {purchase, plan} = current;
  // The seller ended the purchase's right to the code: a higher plan or more seats would give nothing.
  if (purchase.revoked_by_seller_at !== null)
    return {plan: {id: plan.id, name: plan.name}, upgrades: [], seats: null, code: null};
  const seats = purchase.seats ?? 1;
  const upgrades: UpgradeOffer[] = [];
  // A team moves up whole: only to a plan sold for as many seats (a tier of that size, where it has tiers).
  for (const to of upgradesFrom(plan).filter((higher) => seatsRefusal(higher, seats) === null)) {
    const {amount} = await amountFor(db, purchase, plan, to);
    if (amount >= SMALLEST_CHARGE)
      upgrades.push({planId: to.id, name: to.name, amount, currency: PLAN_CURRENCY, withoutCode: null});
  }
  const asked =
    typed === undefined
      ? null
      : await upgradeCodeFor(db, typed, {purchase, toPlans: upgrades.map((offer) => offer.planId)});
  const code = asked?.code ?? null;
  return {
    plan: {id: plan.id, name: plan.name},
    upgrades: upgrades.map((offer) =>
      code && codeAppliesTo(code, offer.planId)
        ? {...offer, amount: upgradeCodeAmount(offer.amount, code), withoutCode: offer.amount}
        : offer,
    ),
    seats: await seatsOfferFor(db, purchase, plan),
    code: asked?.standing ?? null,
  };
}

/**
 * The upgrade of the user's paid purchase to `planId`, or with `addSeats` that many more seats of
 * the plan it holds, or the 4xx that says why there is none: an unknown plan, no paid purchase (or
 * one refunded or disputed), a purchase whose access the seller revoked, an upgrade to that plan
 * already paid, a purchase already on that plan or a higher one, a plan not sold for the team's
 * seats, or more seats than the plan sells.
 */
export async function quoteUpgrade(
  db: D1Database,
  user: AuthUser,
  asked: {planId: string; addSeats?: number; code?: string},
): Promise<UpgradeQuote> {
  const {planId, addSeats} = asked;
  const to = findStoredPlan(planId);
  if (!to || to.id !== planId) throw new HttpError(400, `Unknown plan: "${planId}" is not one of the plans`);
  const current = await planOf(db, user);
  if (!current) {
    if (await hasRevokedPurchase(db, user)) {
      throw new HttpError(
        403,
        'Your purchase was refunded or is disputed, so it cannot be upgraded. Please contact support.',
        'NOT_PAID',
      );
    }
    throw new HttpError(402, 'You have no paid purchase to upgrade. Buy a plan instead.', 'NOT_PAID');
  }
  const {purchase, plan: from} = current;
  // Until the seller grants access again, an upgrade would be paid for and give nothing.
  if (purchase.revoked_by_seller_at !== null) throw revokedBySeller();
  const seats = purchase.seats ?? 1;
  const fairPrice = heldFairPrice(purchase);
  if (addSeats !== undefined) {
    if (asked.code !== undefined) throw new HttpError(409, UPGRADE_CODE_WORDS.seats, 'CONFLICT');
    return quoteSeats(db, purchase, from, to, addSeats, fairPrice);
  }

  const paid = await db
    .prepare(`SELECT 1 AS found WHERE ${movePaid('?1', '?2')}`)
    .bind(purchase.session_id, to.id)
    .first();
  if (paid) throw new HttpError(409, `You have already paid for the upgrade to ${to.name}.`, 'CONFLICT');
  if (!upgradesFrom(from).some((plan) => plan.id === to.id)) {
    throw new HttpError(409, `Your purchase is ${from.name}: ${to.name} is not an upgrade of it.`, 'CONFLICT');
  }
  // Every seat moves up: a plan sold for fewer (or in tiers, none of this size) would leave some behind.
  if (seatsRefusal(to, seats) !== null) throw new HttpError(409, TEAM_WORDS.teamTooBig(to.name, seats), 'CONFLICT');
  const {amount, credit} = await amountFor(db, purchase, from, to);
  if (amount < SMALLEST_CHARGE) {
    throw new HttpError(
      409,
      `What you paid covers ${to.name} already, within Stripe's smallest charge: please contact support to move up.`,
      'CONFLICT',
    );
  }
  const quote = {purchase, from, to, seats: {added: 0, of: seats}, amount, currency: PLAN_CURRENCY, fairPrice, credit};
  if (asked.code === undefined) return {...quote, code: null};
  // The code the dashboard priced the offer with, asked again: a refusal says why, as it did there.
  const {code, standing} = await upgradeCodeFor(db, asked.code, {purchase, toPlans: [to.id]});
  if (!code) throw new HttpError(409, standing.refused!, 'CONFLICT');
  return {...quote, amount: upgradeCodeAmount(amount, code), code: {id: code.id, code: code.code}};
}

/**
 * More seats of the plan the purchase holds, each at its price for this buyer, up to the plan's most;
 * or, for a plan sold in tiers, the move to the larger tier of that many seats in all, credited what
 * the purchase paid for the seats it holds.
 */
async function quoteSeats(
  db: D1Database,
  purchase: Purchase,
  from: Plan,
  to: Plan,
  added: number,
  fairPrice: GivenFairPrice | null,
): Promise<UpgradeQuote> {
  if (to.id !== from.id)
    throw new HttpError(409, `Your purchase is ${from.name}: seats are added to the plan you hold.`, 'CONFLICT');
  if (!from.team) throw new HttpError(409, TEAM_WORDS.soldAlone(from.name), 'CONFLICT');
  const seats = purchase.seats ?? 1;
  // Sold in tiers, only a tier's size may be reached (the largest is the most); else up to the most.
  const tiered = soldInTiers(from);
  const refused = tiered ? seatsRefusal(from, seats + added) : null;
  if (refused) throw new HttpError(409, refused, 'CONFLICT');
  if (seats + added > maxSeatsOf(from))
    throw new HttpError(409, TEAM_WORDS.seatsOverMost(from.name, maxSeatsOf(from), seats), 'CONFLICT');
  const {amount, credit} = tiered
    ? await amountFor(db, purchase, from, from, seats + added)
    : {amount: addedSeatsAmount(from, added, fairPrice?.percentOff ?? null), credit: null};
  if (tiered && amount < SMALLEST_CHARGE) throw new HttpError(409, TEAM_WORDS.tierPaid(seats + added), 'CONFLICT');
  return {
    purchase,
    from,
    to,
    seats: {added, of: seats},
    amount,
    currency: PLAN_CURRENCY,
    fairPrice,
    credit,
    code: null,
  };
}
