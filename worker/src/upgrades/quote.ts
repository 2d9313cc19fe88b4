import {
  appConfig,
  findStoredPlan,
  type Plan,
  PLAN_CURRENCY,
  SMALLEST_CHARGE,
  TEAM_WORDS,
  upgradeAmountFor,
  upgradesFrom,
} from '../../../src/config';
import type {BuyerPlan, UpgradeOffer} from '../../../src/config/api';
import type {AuthUser} from '../auth/user';
import {HttpError} from '../errors';
import {type GivenFairPrice, heldFairPrice} from '../payments/fairPriceCheckout';
import {bestPaidPurchaseOf, hasRevokedPurchase, type Purchase} from '../purchases';
import {revokedBySeller} from '../access/grants/sellerRevocation';

/**
 * What an upgrade costs, decided from the worker's own records: the buyer's paid purchase as D1
 * holds it, the plan it gives now (its paid upgrades included), and the config's current prices.
 * Nothing the browser sends names the purchase, its plan or an amount.
 */
export interface UpgradeQuote {
  purchase: Purchase;
  from: Plan;
  to: Plan;
  /** Cents: the higher plan's price for this buyer less what they paid for theirs (`upgradeAmountFor`). */
  amount: number;
  currency: string;
  /** The fair-price discount the upgrade is sold at (the purchase's, `heldFairPrice`), or null at list prices. */
  fairPrice: GivenFairPrice | null;
}

/**
 * The user's paid purchase that gives the most now (bestPaidPurchaseOf), and its plan, or null
 * without one, or when its plan is no longer in the config. A buyer may hold two (a guest purchase
 * found by their e-mail, and one made signed in): upgrades are offered above the better, never to
 * a plan they already have.
 */
export async function planOf(db: D1Database, user: AuthUser): Promise<{purchase: Purchase; plan: Plan} | null> {
  const purchase = await bestPaidPurchaseOf(db, user);
  const plan = purchase ? findStoredPlan(purchase.plan) : undefined;
  return purchase && plan ? {purchase, plan} : null;
}

/** What the upgrade from the purchase's plan to `to` costs its buyer, from D1's record of the purchase. */
function amountFor(purchase: Purchase, from: Plan, to: Plan): number {
  const percentOff = heldFairPrice(purchase)?.percentOff ?? null;
  return upgradeAmountFor(from, to, {paid: purchase.amount_total, refunded: purchase.amount_refunded ?? 0, percentOff});
}

/** GET /upgrades: what the dashboard shows, priced here. */
export async function buyerPlan(db: D1Database, user: AuthUser): Promise<BuyerPlan> {
  const current = await planOf(db, user);
  if (!current) return {plan: null, upgrades: []};
  // The seller ended the purchase's right to the code: a higher plan of it would give nothing. A
  // team's upgrade would be one seat's difference for every seat: not sold yet (quoteUpgrade).
  if (current.purchase.revoked_by_seller_at !== null || (current.purchase.seats ?? 1) > 1)
    return {plan: {id: current.plan.id, name: current.plan.name}, upgrades: []};
  const upgrades: UpgradeOffer[] = upgradesFrom(current.plan)
    .map((to) => ({
      planId: to.id,
      name: to.name,
      amount: amountFor(current.purchase, current.plan, to),
      currency: PLAN_CURRENCY,
    }))
    .filter((offer) => offer.amount >= SMALLEST_CHARGE);
  return {plan: {id: current.plan.id, name: current.plan.name}, upgrades};
}

/**
 * The upgrade of the user's paid purchase to `planId`, or the 4xx that says why there is none:
 * an unknown plan, no paid purchase (or one refunded or disputed), a purchase whose access the
 * seller revoked, an upgrade to that plan already paid, or a purchase already on that plan or a
 * higher one.
 */
export async function quoteUpgrade(db: D1Database, user: AuthUser, planId: string): Promise<UpgradeQuote> {
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
  // Priced per seat, it would give every seat the higher plan for one seat's difference.
  if ((purchase.seats ?? 1) > 1)
    throw new HttpError(409, TEAM_WORDS.noTeamUpgrade(appConfig.support.email), 'CONFLICT');
  const paid = await db
    .prepare(`SELECT 1 AS found FROM upgrades WHERE purchase_session_id = ?1 AND to_plan = ?2 AND status = 'paid'`)
    .bind(purchase.session_id, to.id)
    .first();
  if (paid) throw new HttpError(409, `You have already paid for the upgrade to ${to.name}.`, 'CONFLICT');
  if (!upgradesFrom(from).some((plan) => plan.id === to.id)) {
    throw new HttpError(409, `Your purchase is ${from.name}: ${to.name} is not an upgrade of it.`, 'CONFLICT');
  }
  const amount = amountFor(purchase, from, to);
  if (amount < SMALLEST_CHARGE) {
    throw new HttpError(
      409,
      `What you paid covers ${to.name} already, within Stripe's smallest charge: please contact support to move up.`,
      'CONFLICT',
    );
  }
  return {purchase, from, to, amount, currency: PLAN_CURRENCY, fairPrice: heldFairPrice(purchase)};
}
