/**
 * Plans sold in fixed team tiers (`team.tiers`), as the site and the worker read them from the config:
 * what each size costs, what growing and moving up cost, what may not be bought, what the pricing
 * card, the FAQ and the structured data say, and what the config test refuses.
 */
import React from 'react';
import {screen, waitFor, within} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Pricing from '../../src/components/landing/Pricing';
import {
  appConfig,
  findPlanByPriceId,
  type Plan,
  planPrices,
  saleOf,
  seatsKept,
  seatsKeptWords,
  seatsRefusal,
  teamFaq,
  teamProblems,
  upgradeAmount,
  upgradeAmountFor,
} from '../../src/config';
import {productJsonLd} from '../../src/seo/structuredData';
import {TIERED_PLANS} from '../../scripts/support/tieredPlans';
import {renderWithSite} from '../support/render';
import {listPrices, startWorkerStub, type WorkerStub} from '../stubs/workerStub';

const [starter, advanced] = TIERED_PLANS as [Plan, Plan];
const tierOf = (plan: Plan, seats: number) => plan.team!.tiers!.find((tier) => tier.seats === seats)!;

describe('what a tiered plan sells, and for how much', () => {
  it('sells a tier once for all its seats, and the buyer alone at the plan’s price', () => {
    expect(saleOf(advanced, 5)).toEqual({
      price: expect.objectContaining({seats: 5, priceId: tierOf(advanced, 5).priceId}),
      quantity: 1,
      amount: tierOf(advanced, 5).price * 100,
    });
    expect(saleOf(advanced, 1)).toMatchObject({quantity: 1, amount: advanced.price * 100});
    expect(saleOf(advanced, 1).price.priceId).toEqual(advanced.priceId);
  });

  it('lists each tier as a price of its plan of its own, and names where the config sets it', () => {
    const tier = tierOf(advanced, 10);
    expect(planPrices(advanced).map(({name, seats, at}) => ({name, seats, at}))).toEqual([
      {name: advanced.name, seats: 1, at: ''},
      {name: `${advanced.name}, a team of 5`, seats: 5, at: 'team.tiers[0].'},
      {name: `${advanced.name}, a team of 10`, seats: 10, at: 'team.tiers[1].'},
      {name: `${advanced.name}, a team of 20`, seats: 20, at: 'team.tiers[2].'},
    ]);
    // findPlanByPriceId reads the committed config: a tier's id there is no plan's.
    expect(findPlanByPriceId(tier.priceId.test)).toBeUndefined();
  });

  it('refuses a number of seats that is no tier, and more than the largest', () => {
    expect(seatsRefusal(advanced, 1)).toBeNull();
    expect(seatsRefusal(advanced, 10)).toBeNull();
    expect(seatsRefusal(advanced, 7)).toBe(`${advanced.name} is sold for teams of 5, 10 or 20: choose one of those.`);
    expect(seatsRefusal(advanced, 40)).toBe(`${advanced.name} is sold for teams of 5, 10 or 20: choose one of those.`);
  });

  it('moves a team up tier for tier, and grows it to a larger tier credited what it paid', () => {
    const paidFor = (cents: number) => ({paid: cents, refunded: 0, percentOff: null});
    const five = tierOf(starter, 5).price * 100;
    expect(upgradeAmount(starter, advanced, 5)).toBe((tierOf(advanced, 5).price - tierOf(starter, 5).price) * 100);
    expect(upgradeAmountFor(starter, advanced, paidFor(five), 5)).toBe(tierOf(advanced, 5).price * 100 - five);
    // Grown from one seat: the tier less the plan's price paid; the next tier less both payments.
    expect(upgradeAmountFor(advanced, advanced, paidFor(advanced.price * 100), 1, 5)).toBe(
      (tierOf(advanced, 5).price - advanced.price) * 100,
    );
    expect(upgradeAmountFor(advanced, advanced, paidFor(tierOf(advanced, 5).price * 100), 5, 10)).toBe(
      (tierOf(advanced, 10).price - tierOf(advanced, 5).price) * 100,
    );
    // A fair-price buyer pays the tier at their percent, credited what they paid.
    expect(upgradeAmountFor(advanced, advanced, {paid: 5940, refunded: 0, percentOff: 40}, 1, 5)).toBe(
      Math.round(tierOf(advanced, 5).price * 100 * 0.6) - 5940,
    );
  });

  it('keeps a tier whole through a seat refund, and says why', () => {
    expect(seatsKept(advanced, 10)).toBe(10);
    expect(seatsKeptWords(10, advanced)).toBe('a team of 10 is sold as one price, so its seats go back only together');
    // Sold by the seat at the plan's price, the buyer keeps their own alone.
    const bySeat = {...advanced, team: {maxSeats: 10}};
    expect(seatsKept(bySeat, 10)).toBe(1);
    expect(seatsKeptWords(1, bySeat)).toBe('the buyer keeps their own');
  });
});

describe('what the config test refuses of a team', () => {
  it('finds nothing wrong with the committed config, nor with tiers set right', () => {
    expect((appConfig.plans as readonly Plan[]).flatMap(teamProblems)).toEqual([]);
    expect(TIERED_PLANS.flatMap(teamProblems)).toEqual([]);
  });

  it.each([
    [
      'tiers beside a seat price',
      {seatPrice: {price: 79, priceId: advanced.priceId}},
      'set tiers or seatPrice, not both',
    ],
    [
      'tiers out of order',
      {tiers: [...advanced.team!.tiers!].reverse()},
      'tiers must be teams of 2 or more seats, smallest first, each size once',
    ],
    ['a tier of one', {tiers: [{...tierOf(advanced, 5), seats: 1}, tierOf(advanced, 20)]}, 'tiers must be teams of 2'],
    ['a largest tier under maxSeats', {maxSeats: 30}, 'its largest tier (20 seats) must be its maxSeats (30)'],
    ['a tier without a price', {tiers: [{...tierOf(advanced, 20), price: 0}]}, 'the tier of 20 needs a price'],
  ])('refuses %s', (_, change, problem) => {
    const plan = {...advanced, team: {...advanced.team!, ...change}};
    expect(teamProblems(plan).join('\n')).toContain(problem);
  });
});

describe('what the site says of tiers', () => {
  let worker: WorkerStub;
  beforeAll(async () => {
    worker = await startWorkerStub();
    worker.prices(listPrices());
  });
  afterAll(() => worker.close());

  it('offers the buyer alone and each tier on the card, priced as the worker charges, and names the tiers', async () => {
    worker.answer({kind: 'url', url: 'http://localhost/#tier-checkout'});
    renderWithSite(<Pricing plans={TIERED_PLANS} />, {env: {WORKER_URL: worker.url}});
    const card = within(screen.getByRole('article', {name: advanced.name}));
    const picker = card.getByRole('combobox', {name: 'Developers'});
    expect(
      within(picker)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Just me', 'A team of 5', 'A team of 10', 'A team of 20']);
    expect(picker).toHaveAccessibleDescription(
      `Teams: 5 developers for $${tierOf(advanced, 5).price}, 10 developers for $${tierOf(advanced, 10).price}, 20 developers for $${tierOf(advanced, 20).price}`,
    );
    await userEvent.selectOptions(picker, 'A team of 10');
    expect(card.getByText(`$${tierOf(advanced, 10).price}`, {exact: false, selector: 'span'})).toBeInTheDocument();
    expect(card.getByText('One-time payment for a team of 10')).toBeInTheDocument();
    await userEvent.click(
      card.getByRole('button', {name: `Get ${appConfig.appName} ${advanced.name} for a team of 10`}),
    );
    await waitFor(() => expect(window.location.hash).toBe('#tier-checkout'));
    expect(worker.requests).toEqual([expect.objectContaining({priceId: advanced.priceId.production, seats: 10})]);
  });

  it('names each tier’s price in the FAQ, and a move to a larger team for the difference', () => {
    const {answer} = teamFaq(TIERED_PLANS)!;
    expect(answer).toContain(
      `${advanced.name} (5 developers for $${tierOf(advanced, 5).price}, or 10 for $${tierOf(advanced, 10).price}, or 20 for $${tierOf(advanced, 20).price})`,
    );
    expect(answer).toContain('move to a larger team later for the difference in price');
    expect(answer).toContain('move the whole team to a higher plan for the difference.');
    expect(answer).not.toContain('a seat');
  });

  it('gives each tier an offer of its own in the structured data, at the whole team’s price, with no seat count read as per seat', () => {
    const offers = productJsonLd(undefined, [advanced]).offers.map(({name, price, eligibleQuantity}) => ({
      name,
      price,
      seats: eligibleQuantity ? [eligibleQuantity.minValue, eligibleQuantity.maxValue] : null,
    }));
    expect(offers).toEqual([
      {name: advanced.name, price: advanced.price.toFixed(2), seats: null},
      ...[5, 10, 20].map((seats) => ({
        name: `${advanced.name} for a team of ${seats}`,
        price: tierOf(advanced, seats).price.toFixed(2),
        seats: null,
      })),
    ]);
  });
});
