import {Hono} from 'hono';
import {appConfig, countryName, fairPrice, PLAN_CURRENCY} from '../../../src/config';
import {API_PATHS, type PricesResponse} from '../../../src/config/api';
import type {AppEnv} from '../app';
import {clientIp} from '../http';
import {enforceLimit, limits} from '../rateLimit';
import {visitorCountry} from './visitorCountry';

/**
 * What each plan costs the visitor, for the pricing section: the same `fairPrice` the checkout
 * charges with, for the same country (Cloudflare's). Public and the same for everyone in a
 * country, so browsers may keep it a little while; `Vary` is no help (the country is no header).
 * Counted per address like the other public routes (`limits.prices`): a script that asks in a loop
 * hears 429, and the page it would have loaded keeps its list prices.
 */
export const priceRoutes = new Hono<AppEnv>().get(API_PATHS.prices, async (c) => {
  await enforceLimit(c.env.DB, `prices:${clientIp(c)}`, limits.prices);
  const country = visitorCountry(c.env, c.req.raw);
  const plans = appConfig.plans.map((plan) => {
    const {amount, listAmount} = fairPrice(plan, country);
    return {id: plan.id, amount, listAmount};
  });
  const percentOff = appConfig.plans[0] ? fairPrice(appConfig.plans[0], country).percentOff : 0;
  c.header('Cache-Control', 'private, max-age=300');
  return c.json({
    country,
    countryName: country ? countryName(country) : null,
    percentOff,
    currency: PLAN_CURRENCY,
    plans,
  } satisfies PricesResponse);
});
