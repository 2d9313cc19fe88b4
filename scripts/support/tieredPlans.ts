/**
 * The committed plans as a seller who sells teams in fixed tiers would set them (`team.tiers`), for
 * the tests of that choice: the worker's (a bundle built with them, teamPlans.ts) and the site's.
 */
import {appConfig, type Plan, type TeamTier} from '../../src/config';

/** A tier's Stripe ids in TIERED_PLANS: made up, as the committed plans' are. */
function tier(planName: string, seats: number, price: number): TeamTier {
  const name = `price_1Q${planName}Team${seats}`;
  return {seats, price, priceId: {test: `${name}Test`, production: `${name}Live`}};
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
      tier(plan.name, 5, index === 0 ? 149 : 299),
      tier(plan.name, 10, index === 0 ? 249 : 499),
      tier(plan.name, 20, index === 0 ? 449 : 899),
    ],
  },
}));
