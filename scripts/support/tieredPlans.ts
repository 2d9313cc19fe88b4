/**
 * The committed plans as a seller who sells teams in fixed tiers would set them (`team.tiers`), for
 * the tests of that choice: the worker's (a bundle built with them, teamPlans.ts) and the site's.
 */
import {appConfig, type Plan, type TeamTier} from '../../src/config';

/** A tier's Stripe ids in TIERED_PLANS: the plan's own, each with the tier's size after it. */
function tier(plan: Plan, seats: number, price: number): TeamTier {
  return {
    seats,
    price,
    priceId: {test: `${plan.priceId.test}Team${seats}`, production: `${plan.priceId.production}Team${seats}`},
  };
}

/**
 * The committed plans sold in fixed team tiers instead (`team.tiers`): Starter's teams of 5, 10 and
 * 20, and Advanced's of the same sizes, dearer, so that a team moves up tier for tier.
 */
export const TIERED_PLANS: readonly Plan[] = appConfig.plans.map((plan, index) => ({
  ...plan,
  team: {
    maxSeats: 20,
    tiers: [
      tier(plan, 5, index === 0 ? 149 : 299),
      tier(plan, 10, index === 0 ? 249 : 499),
      tier(plan, 20, index === 0 ? 449 : 899),
    ],
  },
}));
