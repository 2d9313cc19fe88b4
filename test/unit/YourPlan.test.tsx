import React from 'react';
import {screen, waitFor} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import YourPlan from '../../src/components/screens/Dashboard/YourPlan';
import {appConfig, planAdds, PLAN_CURRENCY, ROUTES, upgradeAmount, upgradesFrom} from '../../src/config';
import {API_PATHS, type BuyerPlan} from '../../src/config/api';
import {renderWithSite} from '../support/render';
import {useJsonWorker} from '../support/jsonWorker';

const jsonWorker = useJsonWorker();

const lower = [...appConfig.plans].sort((a, b) => a.price - b.price)[0]!;
const higher = upgradesFrom(lower)[0]!;
const offered: BuyerPlan = {
  plan: {id: lower.id, name: lower.name},
  upgrades: [{planId: higher.id, name: higher.name, amount: upgradeAmount(lower, higher), currency: PLAN_CURRENCY}],
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
  show({plan: {id: higher.id, name: higher.name}, upgrades: []});
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
