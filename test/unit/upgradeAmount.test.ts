import {
  appConfig,
  planAmount,
  upgradeAmount,
  upgradeAmountFor,
  upgradeCreditName,
  upgradesFrom,
} from '../../src/config';

const lower = [...appConfig.plans].sort((a, b) => a.price - b.price)[0]!;
const higher = upgradesFrom(lower)[0]!;

describe('what an upgrade costs a buyer (upgradeAmountFor)', () => {
  it('is the difference of list prices for a buyer who paid the list price', () => {
    expect(upgradeAmountFor(lower, higher, {paid: planAmount(lower), refunded: 0, percentOff: null})).toBe(
      upgradeAmount(lower, higher),
    );
  });

  it('credits only what was paid: a promotion code that made the purchase free gives no credit', () => {
    expect(upgradeAmountFor(lower, higher, {paid: 0, refunded: 0, percentOff: null})).toBe(planAmount(higher));
  });

  it('credits what was kept after a refund, and never more than the plan costs now (a price since raised)', () => {
    expect(upgradeAmountFor(lower, higher, {paid: planAmount(lower), refunded: 1500, percentOff: null})).toBe(
      planAmount(higher) - planAmount(lower) + 1500,
    );
    expect(upgradeAmountFor(lower, higher, {paid: planAmount(lower) + 5000, refunded: 0, percentOff: null})).toBe(
      upgradeAmount(lower, higher),
    );
  });

  it('prices a fair-price buyer at the difference of their fair prices, not the list difference', () => {
    const fair = (cents: number) => Math.round((cents * 60) / 100);
    expect(upgradeAmountFor(lower, higher, {paid: fair(planAmount(lower)), refunded: 0, percentOff: 40})).toBe(
      fair(planAmount(higher)) - fair(planAmount(lower)),
    );
  });

  it('credits the plan price to a purchase recorded before the worker kept its amount', () => {
    expect(upgradeAmountFor(lower, higher, {paid: null, refunded: 0, percentOff: null})).toBe(
      upgradeAmount(lower, higher),
    );
  });
});

describe("the credit's line on the upgrade's receipt (upgradeCreditName)", () => {
  it('names the plan bought, and for a fair-price buyer the percent too, within the 40 characters of a coupon name', () => {
    expect(upgradeCreditName(lower)).toBe(`Credit for your ${lower.name} purchase`);
    expect(upgradeCreditName(lower, 40)).toBe(`${lower.name} credit and 40% fair price`);
    // A plan name too long for the coupon's 40 characters is cut; the percent is kept.
    const long = upgradeCreditName({...lower, name: 'Professional Lifetime Edition'}, 40);
    expect(long).toBe('Professional L credit and 40% fair price');
    expect(long).toHaveLength(40);
  });
});
