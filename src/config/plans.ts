import {appConfig} from './app';
import type {Plan, StripeMode} from './types';

const plans: readonly Plan[] = appConfig.stripe.plans;

/** The plan the checkout button sells when no price is given: the featured one. */
export function featuredPlan(): Plan {
  return plans.find((plan) => plan.isFeatured) ?? plans[plans.length - 1]!;
}

/** The plan the dashboard sells to a signed-in buyer who has not paid (§7): the second one. */
export function dashboardPlan(): Plan {
  return plans[1] ?? featuredPlan();
}

/** The plan a price id belongs to in the given mode; the worker uses it to refuse foreign prices. */
export function findPlanByPriceId(priceId: string, mode: StripeMode): Plan | undefined {
  return plans.find((plan) => plan.priceId[mode] === priceId);
}
