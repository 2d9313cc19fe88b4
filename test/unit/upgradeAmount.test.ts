import {
  addedSeatsAmount,
  appConfig,
  planAmount,
  seatPriceOf,
  seatsRefusal,
  upgradeAmount,
  upgradeAmountFor,
  upgradeCreditName,
  upgradeLabel,
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

describe('a team: every seat moves up, and seats added cost the seats alone', () => {
  // The committed config sells the higher plan for teams at a price of their own for each seat.
  const teamSeat = higher.team!.seatPrice!.price * 100;
  const atPlanPrice = {...higher, team: {maxSeats: higher.team!.maxSeats}};

  it("prices a team's seats at the team's own price, one seat at the plan's", () => {
    expect(seatPriceOf(higher, 1)).toMatchObject({amount: planAmount(higher), priceId: higher.priceId});
    expect(seatPriceOf(higher, 2)).toMatchObject({amount: teamSeat, priceId: higher.team!.seatPrice!.priceId});
    expect(seatPriceOf(atPlanPrice, 5)).toMatchObject({amount: planAmount(higher), priceId: higher.priceId});
    expect(seatPriceOf(lower, 5).amount).toBe(planAmount(lower));
  });

  it('moves a team of 5 up for the difference of each seat times 5, credited what it paid for all 5', () => {
    expect(upgradeAmountFor(lower, higher, {paid: planAmount(lower) * 5, refunded: 0, percentOff: null}, 5)).toBe(
      (teamSeat - planAmount(lower)) * 5,
    );
    expect(upgradeAmount(lower, higher, 5)).toBe((teamSeat - planAmount(lower)) * 5);
    // Paid less for the team (a code at checkout): credited only that, never the list price of 5.
    expect(upgradeAmountFor(lower, higher, {paid: planAmount(lower) * 4, refunded: 0, percentOff: null}, 5)).toBe(
      teamSeat * 5 - planAmount(lower) * 4,
    );
    // Sold for teams at the plan's price: the plans' difference, times 5.
    expect(upgradeAmountFor(lower, atPlanPrice, {paid: planAmount(lower) * 5, refunded: 0, percentOff: null}, 5)).toBe(
      (planAmount(higher) - planAmount(lower)) * 5,
    );
  });

  it('credits a team that grew from one seat all it paid: its own seat at the plan’s price, the rest at a team’s', () => {
    // A lower plan sold for teams at a price of their own, below its price alone.
    const lowerTeam = {...lower, team: {maxSeats: 5, seatPrice: {price: lower.price - 10, priceId: lower.priceId}}};
    const grown = planAmount(lower) + seatPriceOf(lowerTeam, 2).amount * 2;
    expect(upgradeAmountFor(lowerTeam, higher, {paid: grown, refunded: 0, percentOff: null}, 3)).toBe(
      teamSeat * 3 - grown,
    );
    // Bought as a team of 3 at once: credited what it paid, less.
    const whole = seatPriceOf(lowerTeam, 3).amount * 3;
    expect(upgradeAmountFor(lowerTeam, higher, {paid: whole, refunded: 0, percentOff: null}, 3)).toBe(
      teamSeat * 3 - whole,
    );
    // Never more than the dearest way to hold 3 seats now, whatever was paid.
    expect(upgradeAmountFor(lowerTeam, higher, {paid: grown + 5000, refunded: 0, percentOff: null}, 3)).toBe(
      teamSeat * 3 - grown,
    );
  });

  it('prices seats added at the team’s price each, less the purchase’s fair-price percent, rounded per seat', () => {
    expect(addedSeatsAmount(higher, 3, null)).toBe(teamSeat * 3);
    expect(addedSeatsAmount(higher, 3, 40)).toBe(Math.round((teamSeat * 60) / 100) * 3);
    expect(addedSeatsAmount(atPlanPrice, 3, null)).toBe(planAmount(higher) * 3);
  });

  it('names each kind on receipts and in the console', () => {
    expect(upgradeLabel(lower.name, higher.name)).toBe(`Upgrade: ${lower.name} → ${higher.name}`);
    expect(upgradeLabel(lower.name, higher.name, {added: 0, of: 5})).toBe(
      `Upgrade: ${lower.name} → ${higher.name}, 5 seats`,
    );
    expect(upgradeLabel(higher.name, higher.name, {added: 2, of: 5})).toBe(`2 more seats: ${higher.name}`);
    expect(upgradeLabel(higher.name, higher.name, {added: 1, of: 5})).toBe(`1 more seat: ${higher.name}`);
  });

  it('refuses seats of a plan sold for one developer, and more than a team plan sells', () => {
    expect(seatsRefusal(lower, 1)).toBeNull();
    expect(seatsRefusal(lower, 2)).toBe(
      `${lower.name} is sold for one developer: choose a plan sold for teams to buy seats.`,
    );
    const forTeams = {...higher, team: {maxSeats: 10}};
    expect(seatsRefusal(forTeams, 10)).toBeNull();
    expect(seatsRefusal(forTeams, 11)).toBe(`${higher.name} is sold for teams of up to 10 seats: choose 10 or fewer.`);
  });
});
