import React from 'react';
import {screen, waitFor, within} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Pricing from '../../src/components/landing/Pricing';
import {appConfig, countryName, fairPrice, type Plan, UPDATES_FEATURE} from '../../src/config';
import {renderWithSite} from '../support/render';
import {listPrices, startWorkerStub, type WorkerStub} from '../stubs/workerStub';

function card(name: string) {
  return screen.getByRole('article', {name});
}

describe('Pricing', () => {
  let worker: WorkerStub;
  beforeAll(async () => {
    worker = await startWorkerStub();
  });
  afterAll(() => worker.close());
  beforeEach(() => {
    worker.requests.length = 0;
    worker.prices(listPrices());
    window.history.replaceState(null, '', '/');
  });

  /** The pricing for a visitor from the first country of the config's first tier, once its fair prices show. */
  async function renderForFairPrices() {
    const tier = appConfig.fairPrices.tiers[0]!;
    const country = tier.countries[0]!;
    worker.prices({
      country,
      countryName: countryName(country),
      percentOff: tier.percentOff,
      currency: 'usd',
      plans: appConfig.plans.map((plan) => ({
        id: plan.id,
        amount: fairPrice(plan, country).amount,
        listAmount: plan.price * 100,
      })),
    });
    renderWithSite(<Pricing />, {env: {WORKER_URL: worker.url}});
    await screen.findByText(`Prices adjusted for ${countryName(country)}: ${tier.percentOff}% off`);
    return {tier, country};
  }

  it('shows both plans from the config with anchor price, price, features and the one-time promise', () => {
    renderWithSite(<Pricing />);
    for (const plan of appConfig.plans) {
      const planCard = within(card(plan.name));
      expect(planCard.getByText(plan.description)).toBeInTheDocument();
      expect(planCard.getByText(`$${plan.priceAnchor}`, {exact: false, selector: 's'})).toBeInTheDocument();
      expect(planCard.getByText(`$${plan.price}`, {exact: false})).toBeInTheDocument();
      expect(planCard.getByText('USD')).toBeInTheDocument();
      expect(planCard.getByText('One-time payment')).toBeInTheDocument();
      expect(planCard.getByText('Pay once. Access forever.')).toBeInTheDocument();
      // A plan that includes a lower one says so first, then lists what it adds.
      const included = appConfig.plans.find((other) => 'includesPlan' in plan && other.id === plan.includesPlan);
      expect(planCard.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
        ...(included ? [`Everything in ${included.name}`] : []),
        ...plan.features.map((feature) => feature.name),
        ...(plan.includesUpdates ? [UPDATES_FEATURE] : []),
      ]);
    }
    expect(within(card('Advanced')).getByText('MOST POPULAR')).toBeInTheDocument();
    expect(within(card('Starter')).queryByText('MOST POPULAR')).toBeNull();
  });

  it('follows the config: a changed price, a new plan and a moved badge show up', () => {
    const plans: Plan[] = [
      {...appConfig.plans[0], price: 59, isFeatured: true, includesUpdates: true},
      {...appConfig.plans[1], isFeatured: false, includesUpdates: false},
      {
        id: 'team',
        priceId: {test: 'price_team_test', production: 'price_team_live'},
        name: 'Team',
        price: 249,
        includesUpdates: false,
        features: [{name: 'Five seats'}],
      },
    ];
    renderWithSite(<Pricing plans={plans} />);
    expect(within(card('Starter')).getByText('$59', {exact: false})).toBeInTheDocument();
    expect(within(card('Starter')).queryByText(`$${appConfig.plans[0].price}`, {exact: false})).toBeNull();
    expect(within(card('Starter')).getByText('MOST POPULAR')).toBeInTheDocument();
    expect(within(card('Advanced')).queryByText('MOST POPULAR')).toBeNull();
    expect(within(card('Team')).getByText('Five seats')).toBeInTheDocument();
    // The promise of updates follows each plan's flag, not a line of its features.
    expect(within(card('Starter')).getByText(UPDATES_FEATURE)).toBeInTheDocument();
    expect(within(card('Advanced')).queryByText(UPDATES_FEATURE)).toBeNull();
    expect(within(card('Team')).queryByText(UPDATES_FEATURE)).toBeNull();
    // A plan without an anchor price shows no struck-through price.
    expect(card('Team').querySelector('s')).toBeNull();
  });

  it('sends the Starter plan from its button (the worker picks its mode) and follows the answer', async () => {
    // A same-document URL, the one kind of navigation jsdom performs, so the real redirect runs.
    worker.answer({kind: 'url', url: 'http://localhost/#checkout'});
    renderWithSite(<Pricing />, {env: {WORKER_URL: worker.url}});
    await userEvent.click(
      within(card('Starter')).getByRole('button', {name: `Get ${appConfig.appName} ${appConfig.plans[0].name}`}),
    );
    await waitFor(() => expect(window.location.hash).toBe('#checkout'));
    expect(worker.requests).toEqual([
      {
        priceId: appConfig.plans[0].priceId.production,
        successUrl: 'http://localhost/success',
        cancelUrl: 'http://localhost/',
      },
    ]);
  });

  it('sells a plan for teams: the seat picker sets the price, the button and the seats the checkout asks for', async () => {
    const advanced = appConfig.plans[1]!;
    const plans: Plan[] = [appConfig.plans[0]!, {...advanced, team: {maxSeats: 10}}];
    worker.answer({kind: 'url', url: 'http://localhost/#team-checkout'});
    renderWithSite(<Pricing plans={plans} />, {env: {WORKER_URL: worker.url}});
    // One seat is the plan as ever; a plan not sold for teams has no picker.
    expect(within(card('Starter')).queryByRole('combobox')).toBeNull();
    const picker = within(card(advanced.name)).getByRole('combobox', {name: 'Developers'});
    expect(within(picker).getAllByRole('option')).toHaveLength(10);
    await userEvent.selectOptions(picker, 'A team of 5');
    const team = within(card(advanced.name));
    expect(team.getByText(`$${advanced.price * 5}`, {exact: false})).toBeInTheDocument();
    expect(team.getByText(`One-time payment for 5 seats, $${advanced.price} each`)).toBeInTheDocument();
    // The regular price struck through is for as many seats: never one seat's beside five.
    expect(team.getByText(`$${advanced.priceAnchor! * 5}`, {exact: false, selector: 's'})).toBeInTheDocument();
    await userEvent.click(
      team.getByRole('button', {name: `Get ${appConfig.appName} ${advanced.name} for a team of 5`}),
    );
    await waitFor(() => expect(window.location.hash).toBe('#team-checkout'));
    expect(worker.requests).toEqual([expect.objectContaining({priceId: advanced.priceId.production, seats: 5})]);
  });

  it("sells a team at the team's own price for each seat, says it beside the picker, and leaves the price to the worker", async () => {
    // The committed config sells Advanced for teams at a price of their own for each seat.
    const advanced = (appConfig.plans as readonly Plan[]).find((plan) => plan.team?.seatPrice)!;
    const each = advanced.team!.seatPrice!.price;
    worker.answer({kind: 'url', url: 'http://localhost/#team-price'});
    renderWithSite(<Pricing />, {env: {WORKER_URL: worker.url}});
    const plan = within(card(advanced.name));
    const picker = plan.getByRole('combobox', {name: 'Developers'});
    // One developer pays the plan's price; the team's is said beside the picker, and describes it.
    expect(plan.getByText(`$${advanced.price}`, {exact: true})).toBeInTheDocument();
    expect(picker).toHaveAccessibleDescription(`Teams of 2 or more: $${each} a seat`);
    await userEvent.selectOptions(picker, 'A team of 4');
    expect(plan.getByText(`$${each * 4}`, {exact: true})).toBeInTheDocument();
    expect(plan.getByText(`One-time payment for 4 seats, $${each} each`)).toBeInTheDocument();
    await userEvent.click(
      plan.getByRole('button', {name: `Get ${appConfig.appName} ${advanced.name} for a team of 4`}),
    );
    await waitFor(() => expect(window.location.hash).toBe('#team-price'));
    // The button names the plan and the seats; which price charges them is the worker's to pick.
    expect(worker.requests).toEqual([expect.objectContaining({priceId: advanced.priceId.production, seats: 4})]);
  });

  it("takes a country's fair-price percent off a team's own price for each seat", async () => {
    const advanced = (appConfig.plans as readonly Plan[]).find((plan) => plan.team?.seatPrice)!;
    const {tier} = await renderForFairPrices();
    const fair = (cents: number) => cents - Math.round((cents * tier.percentOff) / 100);
    const dollars = (cents: number) => (cents % 100 === 0 ? `$${cents / 100}` : `$${(cents / 100).toFixed(2)}`);
    const each = advanced.team!.seatPrice!.price * 100;
    const plan = within(card(advanced.name));
    const picker = plan.getByRole('combobox', {name: 'Developers'});
    expect(picker).toHaveAccessibleDescription(`Teams of 2 or more: ${dollars(fair(each))} a seat`);
    await userEvent.selectOptions(picker, 'A team of 3');
    expect(plan.getByText(dollars(fair(each * 3)), {exact: true})).toBeInTheDocument();
    expect(plan.getByText(`One-time payment for 3 seats, ${dollars(fair(each))} each`)).toBeInTheDocument();
  });

  it("shows the worker's fair price for the visitor's country, says so plainly, and keeps the anchor the list's", async () => {
    const {country} = await renderForFairPrices();
    for (const plan of appConfig.plans) {
      const amount = fairPrice(plan, country).amount;
      const shown = amount % 100 === 0 ? `$${amount / 100}` : `$${(amount / 100).toFixed(2)}`;
      expect(within(card(plan.name)).getByText(shown, {exact: false})).toBeInTheDocument();
      expect(within(card(plan.name)).queryByText(`$${plan.price}`, {exact: true})).toBeNull();
      expect(
        within(card(plan.name)).getByText(`$${plan.priceAnchor}`, {exact: false, selector: 's'}),
      ).toBeInTheDocument();
    }
  });

  it('shows the list prices and no notice when the worker gives no discount, or cannot be reached', async () => {
    renderWithSite(<Pricing />, {env: {WORKER_URL: worker.url}});
    await waitFor(() => expect(worker.pricesAsked).toBeGreaterThan(0));
    expect(screen.queryByText(/Prices adjusted for/)).toBeNull();
    for (const plan of appConfig.plans)
      expect(within(card(plan.name)).getByText(`$${plan.price}`, {exact: false})).toBeInTheDocument();
  });
});
