import {appConfig} from './app';
import type {Plan, StripeMode} from './types';

const plans: readonly Plan[] = appConfig.plans;

/** The plan the checkout button sells when no price is given: the featured one. */
export function featuredPlan(list: readonly Plan[] = plans): Plan {
  return list.find((plan) => plan.isFeatured) ?? list[list.length - 1]!;
}

/**
 * The plan the dashboard sells when it cannot tell whether the user has paid (their access status
 * did not load): the one marked `soldOnDashboard`, wherever it stands in the list, or else the
 * featured one. A user the worker says has not paid is shown every plan instead.
 */
export function dashboardPlan(list: readonly Plan[] = plans): Plan {
  return list.find((plan) => plan.soldOnDashboard) ?? featuredPlan(list);
}

/**
 * The plan a price id belongs to, in either Stripe mode, or undefined for a price that is not one
 * of the plans (the worker refuses those).
 */
export function findPlanByPriceId(priceId: string): Plan | undefined {
  return plans.find((plan) => planPriceIds(plan).includes(priceId));
}

/** A Stripe price that sells a plan (see planPrices). */
export interface PlanPrice {
  /** What a person reads for it: "Advanced", or "Advanced, each seat of a team". */
  name: string;
  /** Cents, one-time. */
  amount: number;
  priceId: Record<StripeMode, string>;
  /** Whether it is the team's price for each seat (`team.seatPrice`) rather than the plan's own. */
  forTeams: boolean;
}

/**
 * Every Stripe price that sells the plan: its own, then its team's for each seat (`team.seatPrice`)
 * if it has one. The seller makes each in Stripe; the preflight checks each, and the local Stripe sells each.
 */
export function planPrices(plan: Plan): PlanPrice[] {
  const team = plan.team?.seatPrice;
  return [
    {name: plan.name, amount: planAmount(plan), priceId: plan.priceId, forTeams: false},
    ...(team
      ? [{name: `${plan.name}, each seat of a team`, amount: team.price * 100, priceId: team.priceId, forTeams: true}]
      : []),
  ];
}

/** Every Stripe price id that sells the plan, in both modes: a session charging any of them bought the plan. */
export function planPriceIds(plan: Plan): string[] {
  return planPrices(plan).flatMap(({priceId}) => [priceId.test, priceId.production]);
}

/**
 * The plan a purchase's record names: by its id, or by its name for a purchase recorded before
 * the worker stored ids. Undefined for a plan no longer in the config.
 */
export function findStoredPlan(stored: string | null): Plan | undefined {
  if (!stored) return undefined;
  return plans.find((plan) => plan.id === stored) ?? plans.find((plan) => plan.name === stored);
}

/** What a person reads for a purchase's recorded plan: its name now, or what was recorded. */
export function storedPlanName(stored: string | null): string | null {
  return findStoredPlan(stored)?.name ?? stored;
}

/**
 * The price id the site sends for a plan. It names the plan; the worker charges that plan's price
 * in the mode its Stripe key decides (`sk_test_` or a live key), the one place the mode is decided.
 */
export function checkoutPriceId(plan: Plan): string {
  return plan.priceId.production;
}

/** The currency of every plan's price (Stripe's lower-case code): the site shows them in dollars. */
export const PLAN_CURRENCY = 'usd';

/** What Stripe must charge for the plan: its price in the currency's smallest unit (cents). */
export function planAmount(plan: Plan): number {
  return plan.price * 100;
}

/** The fewest seats that make a team: a team's own price for each seat starts there. */
export const FEWEST_TEAM_SEATS = 2;

/**
 * What each seat costs when `seats` of the plan are bought together: the team's own price
 * (`team.seatPrice`) for 2 seats or more where the plan has one, else the plan's. `amount` is in
 * cents; `priceId` the Stripe price that charges it, in each mode. The checkout, seats added later
 * and a team's move up all charge this price times the seats, and the pricing card shows it.
 */
export function seatPriceOf(plan: Plan, seats: number): PlanPrice {
  const [own, team] = planPrices(plan);
  return seats >= FEWEST_TEAM_SEATS && team ? team : own!;
}

/** How many seats a checkout may buy of the plan: 1, or up to its team's `maxSeats`. */
export function maxSeatsOf(plan: Plan): number {
  return plan.team ? plan.team.maxSeats : 1;
}

/**
 * Why a checkout may not buy `seats` of the plan, in words for the buyer, or null when it may. The
 * worker asks it of every checkout: the number comes from the browser, the limit from here.
 */
export function seatsRefusal(plan: Plan, seats: number): string | null {
  const most = maxSeatsOf(plan);
  if (seats <= most) return null;
  return most === 1
    ? `${plan.name} is sold for one developer: choose a plan sold for teams to buy seats.`
    : `${plan.name} is sold for teams of up to ${most} seats: choose ${most} or fewer.`;
}

/** The pricing card's line for a plan that includes later releases (`includesUpdates`). */
export const UPDATES_FEATURE = 'Lifetime updates';

/** The plan a plan includes (`includesPlan`), when it names one of `list`. */
function includedPlan(plan: Plan, list: readonly Plan[]): Plan | undefined {
  return plan.includesPlan === undefined
    ? undefined
    : list.find((other) => other.id === plan.includesPlan && other.id !== plan.id);
}

/**
 * What the pricing card lists for a plan: "Everything in <the plan it includes>" first, then its
 * features, then the updates it includes.
 */
export function planFeatureNames(plan: Plan, list: readonly Plan[] = plans): string[] {
  const included = includedPlan(plan, list);
  return [
    ...(included ? [`Everything in ${included.name}`] : []),
    ...plan.features.map((feature) => feature.name),
    ...(plan.includesUpdates ? [UPDATES_FEATURE] : []),
  ];
}

/** Everything a plan gives, in the card's words, the plans it includes spelled out (a loop of them stops). */
function grantedLines(plan: Plan, list: readonly Plan[], seen: ReadonlySet<string> = new Set()): string[] {
  const included = includedPlan(plan, list);
  const inherited = included && !seen.has(included.id) ? grantedLines(included, list, new Set([...seen, plan.id])) : [];
  return [
    ...new Set([
      ...inherited,
      ...plan.features.map((feature) => feature.name),
      ...(plan.includesUpdates ? [UPDATES_FEATURE] : []),
    ]),
  ];
}

/**
 * What `to` gives that `from` does not, in the pricing card's words: the one list the dashboard's
 * upgrade offer, the upgrade e-mail and the card (below its "Everything in" line) say.
 */
export function planAdds(from: Plan, to: Plan, list: readonly Plan[] = plans): string[] {
  const had = new Set(grantedLines(from, list));
  return grantedLines(to, list).filter((line) => !had.has(line));
}

/**
 * The plans whose buyers get each release: their ids, and their names (a purchase recorded before
 * the worker stored ids names its plan), as the purchases' `plan` column may hold either.
 */
export function planKeys(includesUpdates: boolean, list: readonly Plan[] = plans): string[] {
  return list.filter((plan) => plan.includesUpdates === includesUpdates).flatMap((plan) => [plan.id, plan.name]);
}

/** The keys of the extra repositories a plan grants besides the kit (`Plan.extraRepositories`). */
export function extraRepositoryKeys(plan: Plan | undefined): string[] {
  return [...(plan?.extraRepositories ?? [])];
}

/** Every repository a plan grants, by key: the kit's (`kit`) first, every plan's, then its extra ones. */
export function repositoryKeys(plan: Plan | undefined): string[] {
  return ['kit', ...extraRepositoryKeys(plan)];
}

/** The extra repositories `to` grants that `from` does not: what an upgrade adds. */
export function extraRepositoriesAdded(from: Plan, to: Plan): string[] {
  const had = new Set(extraRepositoryKeys(from));
  return extraRepositoryKeys(to).filter((key) => !had.has(key));
}
