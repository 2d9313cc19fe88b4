/**
 * What a higher plan adds is one list (`planAdds`, from the plans in src/config): the pricing card
 * (below its "Everything in" line) and the dashboard's upgrade offer say the same items, and so does
 * the upgrade e-mail (test/worker/upgrades.test.ts, which sends it). A surface that reads anything
 * else fails here or there.
 */
import React from 'react';
import {screen, within} from '@testing-library/react';
import Pricing from '../../src/components/landing/Pricing';
import YourPlan from '../../src/components/screens/Dashboard/YourPlan';
import {
  appConfig,
  planAdds,
  planFeatureNames,
  PLAN_CURRENCY,
  type Plan,
  upgradeAmount,
  upgradesFrom,
  UPDATES_FEATURE,
} from '../../src/config';
import {API_PATHS} from '../../src/config/api';
import {renderWithSite} from '../support/render';
import {useJsonWorker} from '../support/jsonWorker';

const worker = useJsonWorker();
const lower = [...appConfig.plans].sort((a, b) => a.price - b.price)[0]!;
const higher = upgradesFrom(lower)[0]!;

let consoleError: jest.SpyInstance;
beforeEach(() => {
  // The pricing's fair prices, which the test's worker does not answer, are logged.
  consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => consoleError.mockRestore());

/** The higher plan's card lines, after its "Everything in <lower>" line. */
function pricingAdds(): string[] {
  renderWithSite(<Pricing />, {env: {WORKER_URL: worker().url}});
  const lines = within(screen.getByRole('article', {name: higher.name}))
    .getAllByRole('listitem')
    .map((item) => item.textContent ?? '');
  document.body.innerHTML = '';
  expect(lines[0]).toBe(`Everything in ${lower.name}`);
  return lines.slice(1);
}

/** The items of the dashboard's "<higher> adds: a; b; c." */
async function dashboardAdds(): Promise<string[]> {
  worker().answer(`GET ${API_PATHS.upgrades}`, 200, {
    plan: {id: lower.id, name: lower.name},
    upgrades: [{planId: higher.id, name: higher.name, amount: upgradeAmount(lower, higher), currency: PLAN_CURRENCY}],
  });
  renderWithSite(<YourPlan redirect={() => {}} />, {env: {WORKER_URL: worker().url}});
  const line = (await screen.findByText(new RegExp(`^${higher.name} adds: `))).textContent!;
  document.body.innerHTML = '';
  return line.replace(`${higher.name} adds: `, '').replace(/\.$/, '').split('; ');
}

test('the pricing card and the dashboard offer list the same additions, all of them', async () => {
  const adds = planAdds(lower, higher);
  expect(pricingAdds()).toEqual(adds);
  expect(await dashboardAdds()).toEqual(adds);
  // More than the repository it grants: its every feature, and the updates it includes.
  expect(adds).toEqual([...higher.features.map((feature) => feature.name), UPDATES_FEATURE]);
  expect(adds.length).toBeGreaterThan(1);
});

test("a plan that includes another adds only what the other lacks; its card spells the other's name", () => {
  const base: Plan = {
    id: 'solo',
    priceId: {test: 'price_solo_test', production: 'price_solo_live'},
    name: 'Solo',
    price: 10,
    includesUpdates: false,
    features: [{name: 'The kit'}],
  };
  const team: Plan = {
    ...base,
    id: 'team',
    name: 'Team',
    price: 30,
    includesUpdates: true,
    includesPlan: 'solo',
    features: [{name: 'Five seats'}],
  };
  const list = [base, team];
  expect(planFeatureNames(team, list)).toEqual(['Everything in Solo', 'Five seats', UPDATES_FEATURE]);
  expect(planAdds(base, team, list)).toEqual(['Five seats', UPDATES_FEATURE]);
  // A plan that lists the same line again adds nothing by it.
  expect(planAdds(base, {...team, features: [{name: 'The kit'}, {name: 'Five seats'}]}, list)).toEqual([
    'Five seats',
    UPDATES_FEATURE,
  ]);
  expect(planAdds(team, base, list)).toEqual([]);
});
