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
  /** What a person reads for it: "Advanced", "Advanced, each seat of a team" or "Advanced, a team of 5". */
  name: string;
  /** Cents, one-time. */
  amount: number;
  priceId: Record<StripeMode, string>;
  /** The seats one of it buys: 1, or a team tier's size. Stripe's quantity times this is what was bought. */
  seats: number;
  /** Where src/config/app.ts sets it on the plan: "" (its own `price`), "team.seatPrice." or "team.tiers[0].". */
  at: string;
}

/**
 * Every Stripe price that sells the plan: its own, then its team's for each seat (`team.seatPrice`)
 * or its team tiers (`team.tiers`), if it has them. The seller makes each in Stripe; the preflight
 * checks each, and the local Stripe sells each.
 */
export function planPrices(plan: Plan): PlanPrice[] {
  const {seatPrice, tiers = []} = plan.team ?? {};
  return [
    {name: plan.name, amount: planAmount(plan), priceId: plan.priceId, seats: 1, at: ''},
    ...(seatPrice
      ? [
          {
            name: `${plan.name}, each seat of a team`,
            amount: seatPrice.price * 100,
            priceId: seatPrice.priceId,
            seats: 1,
            at: 'team.seatPrice.',
          },
        ]
      : []),
    ...tiers.map((tier, index) => ({
      name: `${plan.name}, a team of ${tier.seats}`,
      amount: tier.price * 100,
      priceId: tier.priceId,
      seats: tier.seats,
      at: `team.tiers[${index}].`,
    })),
  ];
}

/** The plan's price with this id, in either mode, and its plan: undefined for a price of none of them. */
export function findPlanPrice(priceId: string): {plan: Plan; price: PlanPrice} | undefined {
  for (const plan of plans) {
    const price = planPrices(plan).find((sold) => Object.values(sold.priceId).includes(priceId));
    if (price) return {plan, price};
  }
  return undefined;
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
 * What each seat costs when `seats` of the plan are bought together, for a plan sold by the seat:
 * the team's own price (`team.seatPrice`) for 2 seats or more where the plan has one, else the
 * plan's. `amount` is in cents; `priceId` the Stripe price that charges it, in each mode. A plan
 * sold in fixed tiers is priced by `saleOf`.
 */
export function seatPriceOf(plan: Plan, seats: number): PlanPrice {
  const [own, ...others] = planPrices(plan);
  const team = others.find((price) => price.at === 'team.seatPrice.');
  return seats >= FEWEST_TEAM_SEATS && team ? team : own!;
}

/** The plan's fixed team tiers (`team.tiers`), smallest first, or an empty list for a plan sold by the seat. */
export function teamTiersOf(plan: Plan): PlanPrice[] {
  return planPrices(plan).filter((price) => price.seats > 1);
}

/** Whether the plan's team is sold in fixed tiers (`team.tiers`) rather than by the seat. */
export function soldInTiers(plan: Plan): boolean {
  return teamTiersOf(plan).length > 0;
}

/** How Stripe sells `seats` of a plan bought at once: one price, how many of it, and the whole, in cents. */
export interface SeatsSale {
  price: PlanPrice;
  quantity: number;
  amount: number;
}

/**
 * How `seats` of the plan bought at once are sold: a team tier of that size once, else each seat's
 * price (`seatPriceOf`) times the seats. The checkout, seats added later and a team's move up all
 * charge this (a move credited what was paid), and the pricing card shows it. A plan sold in tiers
 * sells only the buyer alone and its tiers (`seatsRefusal`).
 */
export function saleOf(plan: Plan, seats: number): SeatsSale {
  const tier = teamTiersOf(plan).find((price) => price.seats === seats);
  if (tier) return {price: tier, quantity: 1, amount: tier.amount};
  const price = seatPriceOf(plan, seats);
  return {price, quantity: seats, amount: price.amount * seats};
}

/** How many seats a checkout may buy of the plan: 1, or up to its team's `maxSeats`. */
export function maxSeatsOf(plan: Plan): number {
  return plan.team ? plan.team.maxSeats : 1;
}

/**
 * What is wrong with how the plan is sold for teams, in words for the seller (none when right): a
 * `maxSeats` under 2; tiers beside a `seatPrice`; a tier under 2 seats, out of order, or past
 * `maxSeats`; a largest tier that is not `maxSeats`. The config test and the preflight ask it.
 */
export function teamProblems(plan: Plan): string[] {
  const team = plan.team;
  if (!team) return [];
  const problems: string[] = [];
  const where = `${plan.name}'s team`;
  if (!Number.isInteger(team.maxSeats) || team.maxSeats < FEWEST_TEAM_SEATS)
    problems.push(`${where}: maxSeats must be a whole number of ${FEWEST_TEAM_SEATS} or more`);
  const sizes = (team.tiers ?? []).map((tier) => tier.seats);
  if (sizes.length === 0) return problems;
  if (team.seatPrice) problems.push(`${where}: set tiers or seatPrice, not both`);
  if (
    sizes.some(
      (seats, index) => !Number.isInteger(seats) || seats < FEWEST_TEAM_SEATS || seats <= (sizes[index - 1] ?? 0),
    )
  )
    problems.push(
      `${where}: tiers must be teams of ${FEWEST_TEAM_SEATS} or more seats, smallest first, each size once`,
    );
  if (sizes.at(-1) !== team.maxSeats)
    problems.push(`${where}: its largest tier (${sizes.at(-1)} seats) must be its maxSeats (${team.maxSeats})`);
  for (const tier of team.tiers ?? [])
    if (!Number.isInteger(tier.price) || tier.price <= 0)
      problems.push(`${where}: the tier of ${tier.seats} needs a price in whole dollars`);
  return problems;
}

/** "5", "5 or 10", "5, 10 or 20". */
function orList(counts: number[]): string {
  return counts.length > 1 ? `${counts.slice(0, -1).join(', ')} or ${counts.at(-1)}` : String(counts[0]);
}

/**
 * Why a checkout may not buy `seats` of the plan, in words for the buyer, or null when it may. The
 * worker asks it of every checkout, seats added and move up: the number comes from the browser,
 * the limit from here.
 */
export function seatsRefusal(plan: Plan, seats: number): string | null {
  const most = maxSeatsOf(plan);
  const tiers = teamTiersOf(plan).map((tier) => tier.seats);
  if (seats > 1 && tiers.length > 0 && !tiers.includes(seats))
    return `${plan.name} is sold for teams of ${orList(tiers)}: choose one of those.`;
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
