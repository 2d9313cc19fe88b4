/**
 * Fair prices worldwide: what a plan costs a visitor from a country, from the config's tiers. The
 * one calculation the worker charges with and the pricing section shows, so the two cannot differ.
 * Plain TypeScript: the worker imports it.
 */
import {appConfig} from './app';
import {planAmount} from './plans';
import type {FairPrices, Plan} from './types';

export interface FairPrice {
  /** What Stripe charges, in cents. */
  amount: number;
  /** The list price, in cents. */
  listAmount: number;
  /** Whole percent off; 0 when the country has no discount. */
  percentOff: number;
}

/**
 * The percent off for a country (ISO 3166-1 alpha-2, any case), 0 when none applies: fair prices
 * off, no country known, or a country in no tier. Never more than the cap.
 */
export function fairPercentOff(country: string | null | undefined, config: FairPrices = appConfig.fairPrices): number {
  if (!config.enabled || !country) return 0;
  const code = country.toUpperCase();
  const tier = config.tiers.find((candidate) => candidate.countries.includes(code));
  if (!tier) return 0;
  return Math.max(0, Math.min(Math.floor(tier.percentOff), Math.floor(config.capPercent), 99));
}

/**
 * What the plan costs a visitor from `country`. Stripe takes a percent coupon off the amount and
 * rounds to the cent; prices are whole dollars, so the result is exact and both sides agree.
 */
export function fairPrice(
  plan: Plan,
  country: string | null | undefined,
  config: FairPrices = appConfig.fairPrices,
): FairPrice {
  const listAmount = planAmount(plan);
  const percentOff = fairPercentOff(country, config);
  return {amount: Math.round((listAmount * (100 - percentOff)) / 100), listAmount, percentOff};
}

/** The id of the Stripe coupon for a percent: one per percent, found again by its id. */
export function fairPriceCouponId(percentOff: number): string {
  return `fair-price-${percentOff}`;
}

/** A country's name in English ("Brazil" for BR), or the code when the runtime knows no name. */
export function countryName(country: string): string {
  try {
    return new Intl.DisplayNames(['en'], {type: 'region'}).of(country.toUpperCase()) ?? country;
  } catch {
    return country;
  }
}
