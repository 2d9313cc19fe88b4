import React from 'react';
import {screen, waitFor, within} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import YourPlan from '../../src/components/screens/Dashboard/YourPlan';
import {
  addSeatsLabel,
  largerTierLabel,
  appConfig,
  launchCodeTerms,
  planAdds,
  PLAN_CURRENCY,
  planForSeats,
  ROUTES,
  upgradeAmount,
  UPGRADE_CODE_WORDS,
  upgradeCodeAmount,
  upgradesFrom,
} from '../../src/config';
import {formatPrice} from '../../src/config/money';
import {API_PATHS, type BuyerPlan} from '../../src/config/api';
import {renderWithSite} from '../support/render';
import {useJsonWorker} from '../support/jsonWorker';

const jsonWorker = useJsonWorker();

const lower = [...appConfig.plans].sort((a, b) => a.price - b.price)[0]!;
const higher = upgradesFrom(lower)[0]!;
const offered: BuyerPlan = {
  plan: {id: lower.id, name: lower.name},
  upgrades: [
    {
      planId: higher.id,
      name: higher.name,
      amount: upgradeAmount(lower, higher),
      currency: PLAN_CURRENCY,
      withoutCode: null,
    },
  ],
  seats: null,
  code: null,
};
function show(answer: BuyerPlan, redirect = jest.fn()) {
  const worker = jsonWorker();
  worker.answer(`GET ${API_PATHS.upgrades}`, 200, answer);
  renderWithSite(<YourPlan redirect={redirect} />, {env: {WORKER_URL: worker.url}});
  return redirect;
}
const label = `Upgrade to ${higher.name} for $${higher.price - lower.price}`;

test('shows the plan and the upgrade priced by the worker; the click sends only the plan, and follows Checkout', async () => {
  jsonWorker().answer(`POST ${API_PATHS.createUpgradeSession}`, 200, {
    url: 'https://checkout.stripe.com/c/pay/cs_test_up',
  });
  const redirect = show(offered);
  expect(await screen.findByText(lower.name)).toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', {name: label}));
  await waitFor(() => expect(redirect).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_test_up'));
  const back = `${window.location.origin}${ROUTES.dashboard}`;
  expect(jsonWorker().calls.find((call) => call.route === `POST ${API_PATHS.createUpgradeSession}`)?.body).toEqual({
    planId: higher.id,
    successUrl: back,
    cancelUrl: back,
  });
});

test("shows the worker's refusal, and leaves the button to try again", async () => {
  jsonWorker().answer(`POST ${API_PATHS.createUpgradeSession}`, 409, {
    error: `You have already paid for the upgrade to ${higher.name}.`,
    code: 'CONFLICT',
  });
  const redirect = show(offered);
  await userEvent.click(await screen.findByRole('button', {name: label}));
  expect(await screen.findByRole('alert')).toHaveTextContent(
    `You have already paid for the upgrade to ${higher.name}.`,
  );
  expect(redirect).not.toHaveBeenCalled();
  expect(screen.getByRole('button', {name: label})).toBeEnabled();
});

test('on the highest plan: the plan, and no upgrade', async () => {
  show({plan: {id: higher.id, name: higher.name}, upgrades: [], seats: null, code: null});
  expect(await screen.findByText(higher.name)).toBeInTheDocument();
  expect(screen.queryByRole('button')).toBeNull();
});

test('the upgrade offer names all the higher plan adds, and the repository what it adds comes in', async () => {
  show(offered);
  await screen.findByRole('button', {name: label});
  expect(screen.getByText(`${higher.name} adds: ${planAdds(lower, higher).join('; ')}.`)).toBeInTheDocument();
  const {name, holds} = appConfig.extraRepositories.prompts;
  expect(
    screen.getByText(
      `${name} (${holds.toLowerCase()}) comes in a private repository of its own, and the GitHub account that has the code is invited to it.`,
    ),
  ).toBeInTheDocument();
});

describe('a plan sold for teams: more seats', () => {
  const team: BuyerPlan = {
    plan: {id: higher.id, name: higher.name},
    upgrades: [],
    seats: {seats: 3, most: 10, perSeat: higher.price * 100, tiers: null, currency: PLAN_CURRENCY},
    code: null,
  };

  test('offers seats at the worker’s price each, the button priced as they are counted; the click sends only the plan and the count', async () => {
    jsonWorker().answer(`POST ${API_PATHS.createUpgradeSession}`, 200, {
      url: 'https://checkout.stripe.com/c/pay/cs_test_seats',
    });
    const redirect = show(team);
    expect(await screen.findByText(planForSeats(higher.name, 3))).toBeInTheDocument();
    const count = screen.getByRole('spinbutton', {name: 'Seats to add'});
    expect(count).toHaveAttribute('max', '7');
    await userEvent.clear(count);
    await userEvent.type(count, '2');
    await userEvent.click(screen.getByRole('button', {name: addSeatsLabel(2, `$${higher.price * 2}`)}));
    await waitFor(() => expect(redirect).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_test_seats'));
    const back = `${window.location.origin}${ROUTES.dashboard}`;
    expect(jsonWorker().calls.find((call) => call.route === `POST ${API_PATHS.createUpgradeSession}`)?.body).toEqual({
      planId: higher.id,
      addSeats: 2,
      successUrl: back,
      cancelUrl: back,
    });
  });

  test('a count past what the plan sells is held to it: the button never offers more', async () => {
    show(team);
    const count = await screen.findByRole('spinbutton', {name: 'Seats to add'});
    await userEvent.clear(count);
    await userEvent.type(count, '40');
    expect(screen.getByRole('button', {name: addSeatsLabel(7, `$${higher.price * 7}`)})).toBeInTheDocument();
  });

  test('a team with every seat the plan sells is told so, and offered none', async () => {
    show({...team, seats: {...team.seats!, seats: 10}});
    expect(await screen.findByText('Your team has every seat your plan sells (10).')).toBeInTheDocument();
    expect(screen.queryByRole('spinbutton')).toBeNull();
  });

  test('a plan sold in fixed tiers offers each larger tier at the worker’s price for the move, and sends the seats it adds', async () => {
    jsonWorker().answer(`POST ${API_PATHS.createUpgradeSession}`, 200, {
      url: 'https://checkout.stripe.com/c/pay/cs_test_tier',
    });
    const redirect = show({
      plan: {id: lower.id, name: lower.name},
      upgrades: [offered.upgrades[0]!],
      seats: {
        seats: 5,
        most: 20,
        perSeat: null,
        tiers: [
          {seats: 10, amount: 20_000},
          {seats: 20, amount: 50_000},
        ],
        currency: PLAN_CURRENCY,
      },
      code: null,
    });
    const tier = await screen.findByRole('combobox', {name: 'Grow your team to'});
    expect(screen.queryByRole('spinbutton')).toBeNull();
    expect(screen.getByRole('button', {name: largerTierLabel(10, '$200')})).toBeInTheDocument();
    await userEvent.selectOptions(tier, 'A team of 20');
    await userEvent.click(screen.getByRole('button', {name: largerTierLabel(20, '$500')}));
    // The move up says what a tier's team pays: its size's price, not each seat's.
    expect(screen.getByText(/the difference between the two plans, for a team of 5\./)).toBeInTheDocument();
    await waitFor(() => expect(redirect).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_test_tier'));
    expect(
      jsonWorker().calls.find((call) => call.route === `POST ${API_PATHS.createUpgradeSession}`)?.body,
    ).toMatchObject({planId: lower.id, addSeats: 15});
  });

  test('a team’s move up says it is paid for every seat', async () => {
    show({
      plan: {id: lower.id, name: lower.name},
      upgrades: [{...offered.upgrades[0]!, amount: upgradeAmount(lower, higher) * 3}],
      seats: {seats: 3, most: 10, perSeat: lower.price * 100, tiers: null, currency: PLAN_CURRENCY},
      code: null,
    });
    expect(
      await screen.findByRole('button', {name: `Upgrade to ${higher.name} for $${(higher.price - lower.price) * 3}`}),
    ).toBeInTheDocument();
    expect(screen.getByText(/for each of your 3 seats/)).toBeInTheDocument();
  });
});

describe('an upgrade code (past buyers only), typed on the card', () => {
  /** A code the seller made for upgrades to the higher plan: 20% off, as the worker prices it. */
  const made = {
    percentOff: 20,
    amountOff: null,
    currency: PLAN_CURRENCY,
    maxUses: null,
    endsAt: null,
    firstTimeOnly: false,
    forUpgrades: true,
    plan: higher.id,
  };
  const full = upgradeAmount(lower, higher);
  const less = upgradeCodeAmount(full, made);
  const withCode: BuyerPlan = {
    ...offered,
    upgrades: [{...offered.upgrades[0]!, amount: less, withoutCode: full}],
    code: {code: 'SPRING', terms: launchCodeTerms(made), refused: null},
  };

  /** The code field's standing: its terms, or why it is refused (the page has other live regions). */
  const codeStatus = () => within(screen.getByRole('form', {name: 'Upgrade code'})).getByRole('status');

  /** Opens the card's code field, types `code` and applies it, once the worker answers `answer`. */
  async function apply(code: string, answer: BuyerPlan) {
    await userEvent.click(await screen.findByText('Have an upgrade code?'));
    jsonWorker().answer(`GET ${API_PATHS.upgrades}`, 200, answer);
    const field = screen.getByRole('textbox', {name: 'Upgrade code'});
    await userEvent.type(field, code);
    await userEvent.click(screen.getByRole('button', {name: 'Apply'}));
    return field;
  }

  test('a code the worker takes: the lower price beside the old one struck through, its terms, and the upgrade sends it', async () => {
    jsonWorker().answer(`POST ${API_PATHS.createUpgradeSession}`, 200, {
      url: 'https://checkout.stripe.com/c/pay/cs_test_code',
    });
    const redirect = show(offered);
    const field = await apply('spring', withCode);

    // The worker is asked for the prices with the code as typed.
    expect(
      jsonWorker()
        .calls.filter((call) => call.route === `GET ${API_PATHS.upgrades}`)
        .at(-1)?.query,
    ).toEqual({
      code: 'spring',
    });
    const button = await screen.findByRole('button', {
      name: `Upgrade to ${higher.name} for ${formatPrice(less, PLAN_CURRENCY)}`,
    });
    const line = screen.getByText(`${formatPrice(less, PLAN_CURRENCY)} with code SPRING,`, {exact: false});
    expect(line).toHaveTextContent(`was ${formatPrice(full, PLAN_CURRENCY)}`);
    expect(within(line).getByText(formatPrice(full, PLAN_CURRENCY)).tagName).toBe('S');
    expect(field).toHaveAccessibleDescription(`Code SPRING: ${launchCodeTerms(made)}.`);
    expect(codeStatus()).toHaveTextContent(`Code SPRING: ${launchCodeTerms(made)}.`);

    await userEvent.click(button);
    await waitFor(() => expect(redirect).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_test_code'));
    const back = `${window.location.origin}${ROUTES.dashboard}`;
    expect(jsonWorker().calls.find((call) => call.route === `POST ${API_PATHS.createUpgradeSession}`)?.body).toEqual({
      planId: higher.id,
      code: 'SPRING',
      successUrl: back,
      cancelUrl: back,
    });
  });

  test('a code the worker refuses: its words, tied to the field, and the prices as they were', async () => {
    show(offered);
    const refused = UPGRADE_CODE_WORDS.otherPlan(higher.name);
    const field = await apply('OTHER', {...offered, code: {code: 'OTHER', terms: null, refused}});
    await waitFor(() => expect(codeStatus()).toHaveTextContent(refused));
    expect(field).toHaveAccessibleDescription(refused);
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('button', {name: label})).toBeInTheDocument();
    expect(screen.queryByText(/with code/)).toBeNull();
    expect(screen.queryByRole('button', {name: 'Remove code'})).toBeNull();
  });

  test('Remove code goes back to the prices without it, and the upgrade sends no code', async () => {
    jsonWorker().answer(`POST ${API_PATHS.createUpgradeSession}`, 200, {
      url: 'https://checkout.stripe.com/c/pay/cs_test_nocode',
    });
    const redirect = show(offered);
    const field = await apply('SPRING', withCode);
    await userEvent.click(await screen.findByRole('button', {name: 'Remove code'}));
    expect(screen.queryByText(/with code/)).toBeNull();
    expect(field).toHaveValue('');
    expect(field).toHaveFocus();
    // Nothing typed, nothing to apply.
    expect(screen.getByRole('button', {name: 'Apply'})).toBeDisabled();
    expect(codeStatus()).toBeEmptyDOMElement();
    await userEvent.click(screen.getByRole('button', {name: label}));
    await waitFor(() => expect(redirect).toHaveBeenCalled());
    expect(
      jsonWorker().calls.find((call) => call.route === `POST ${API_PATHS.createUpgradeSession}`)?.body,
    ).not.toHaveProperty('code');
  });

  test("the worker's refusal of the code at checkout (409) is shown, and nothing opens", async () => {
    const ended = UPGRADE_CODE_WORDS.ended;
    jsonWorker().answer(`POST ${API_PATHS.createUpgradeSession}`, 409, {error: ended, code: 'CONFLICT'});
    const redirect = show(offered);
    await apply('SPRING', withCode);
    await userEvent.click(
      await screen.findByRole('button', {name: `Upgrade to ${higher.name} for ${formatPrice(less, PLAN_CURRENCY)}`}),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(ended);
    expect(redirect).not.toHaveBeenCalled();
  });
});
