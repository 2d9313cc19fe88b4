/**
 * Upgrading a paid purchase to a higher plan, for the difference. The site and the worker read the
 * same rules: which plans a purchase may move up to, what that costs, and how a sale of it reads.
 * The worker alone decides the amount it charges (from its own record of the purchase's plan).
 */
import {appConfig} from './app';
import {planAmount} from './plans';
import type {Plan} from './types';

const plans: readonly Plan[] = appConfig.plans;

/** The plans a buyer of `from` may upgrade to: those priced higher now, cheapest first. */
export function upgradesFrom(from: Plan, list: readonly Plan[] = plans): Plan[] {
  return list.filter((plan) => plan.price > from.price).sort((a, b) => a.price - b.price);
}

/** What an upgrade costs: the difference between the two plans' current prices, in cents. */
export function upgradeAmount(from: Plan, to: Plan): number {
  return planAmount(to) - planAmount(from);
}

/** How the seller's console and the receipts name an upgrade: "Upgrade: Starter → Advanced". */
export function upgradeLabel(fromName: string, toName: string): string {
  return `Upgrade: ${fromName} → ${toName}`;
}

/**
 * The credit line on the upgrade's Stripe receipt (a coupon's name: at most 40 characters), so the
 * buyer reads the plan's price, then what their first purchase takes off it.
 */
export function upgradeCreditName(from: Plan): string {
  return `Credit for your ${from.name} purchase`.slice(0, 40);
}
