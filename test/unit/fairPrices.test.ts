/**
 * @jest-environment node
 *
 * The fair-price tiers of src/config and the one calculation the worker charges with and the
 * pricing section shows: every code a real country, none in two tiers, the cap held.
 */
import {appConfig, fairPercentOff, fairPrice, type FairPrices} from '../../src/config';
import {isoCountries} from '../../scripts/local/countries';

const {fairPrices} = appConfig;
const iso = new Set(isoCountries().map((country) => country.code));

test('every country of the tiers is an ISO 3166-1 alpha-2 code, upper case, as Cloudflare gives it', () => {
  expect(iso.size).toBe(249);
  const codes = fairPrices.tiers.flatMap((tier) => tier.countries);
  expect(codes.length).toBeGreaterThan(0);
  expect(codes.filter((code) => !iso.has(code))).toEqual([]);
});

test('no country is in two tiers', () => {
  const codes = fairPrices.tiers.flatMap((tier) => tier.countries);
  expect(codes.filter((code, index) => codes.indexOf(code) !== index)).toEqual([]);
});

test('every tier takes a whole percent off, within the cap, and the cap is at most 60%', () => {
  expect(fairPrices.capPercent).toBeLessThanOrEqual(60);
  for (const tier of fairPrices.tiers) {
    expect(Number.isInteger(tier.percentOff)).toBe(true);
    expect(tier.percentOff).toBeGreaterThan(0);
    expect(tier.percentOff).toBeLessThanOrEqual(fairPrices.capPercent);
  }
});

test('the calculation: the percent off the list price in cents, exact to the cent', () => {
  const tier = fairPrices.tiers[0]!;
  for (const plan of appConfig.plans) {
    expect(fairPrice(plan, tier.countries[0])).toEqual({
      amount: plan.price * (100 - tier.percentOff),
      listAmount: plan.price * 100,
      percentOff: tier.percentOff,
    });
    // A country in no tier, no country, and a country given in lower case.
    expect(fairPrice(plan, 'US')).toEqual({amount: plan.price * 100, listAmount: plan.price * 100, percentOff: 0});
    expect(fairPrice(plan, null).percentOff).toBe(0);
    expect(fairPrice(plan, tier.countries[0]!.toLowerCase()).percentOff).toBe(tier.percentOff);
  }
});

test('the cap holds whatever a tier says, and turning fair prices off gives everyone the list price', () => {
  const typo: FairPrices = {enabled: true, capPercent: 60, tiers: [{percentOff: 95, countries: ['BR']}]};
  expect(fairPercentOff('BR', typo)).toBe(60);
  expect(fairPercentOff('BR', {...typo, enabled: false})).toBe(0);
});
