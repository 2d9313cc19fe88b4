import React from 'react';
import {screen, within} from '@testing-library/react';
import Receipts from '../../src/components/screens/Dashboard/Receipts';
import {appConfig, PLAN_CURRENCY} from '../../src/config';
import {API_PATHS, type BuyerReceipts, type Receipt} from '../../src/config/api';
import {formatMoney} from '../../src/config/money';
import {renderWithSite} from '../support/render';
import {type JsonWorker, startJsonWorker} from '../support/jsonWorker';

let worker: JsonWorker;
beforeAll(async () => {
  worker = await startJsonWorker();
});
afterAll(() => worker.close());

const GET = `GET ${API_PATHS.receipts}`;
const [starter, advanced] = appConfig.plans;
const receipt = (fields: Partial<Receipt>): Receipt => ({
  plan: advanced!.name,
  paidAt: Date.UTC(2026, 10, 20),
  amount: advanced!.price * 100,
  currency: PLAN_CURRENCY,
  refunded: 0,
  url: 'https://invoice.stripe.com/i/acct_1/in_1',
  kind: 'invoice',
  ...fields,
});
function show(answer: BuyerReceipts | {error: string}, status = 200) {
  worker.answer(GET, status, answer);
  renderWithSite(<Receipts />, {env: {WORKER_URL: worker.url}});
}

test("lists each purchase with Stripe's invoice or receipt link, as the worker sends them, and says what was refunded", async () => {
  show({
    receipts: [
      receipt({}),
      receipt({
        plan: starter!.name,
        paidAt: Date.UTC(2026, 9, 2),
        amount: starter!.price * 100,
        refunded: starter!.price * 100,
        url: 'https://pay.stripe.com/receipts/payment/pi_2',
        kind: 'receipt',
      }),
    ],
  });
  const items = within(await screen.findByRole('list')).getAllByRole('listitem');
  expect(items).toHaveLength(2);
  expect(items[0]).toHaveTextContent(
    `${advanced!.name}, ${formatMoney(advanced!.price * 100, PLAN_CURRENCY)}, paid on 20 November 2026`,
  );
  expect(within(items[0]!).getByRole('link', {name: 'Invoice'})).toHaveAttribute(
    'href',
    'https://invoice.stripe.com/i/acct_1/in_1',
  );
  expect(items[1]).toHaveTextContent(`${formatMoney(starter!.price * 100, PLAN_CURRENCY)} refunded`);
  expect(within(items[1]!).getByRole('link', {name: 'Receipt'})).toHaveAttribute(
    'href',
    'https://pay.stripe.com/receipts/payment/pi_2',
  );
  expect(items[0]).not.toHaveTextContent('refunded');
});

test('a receipt Stripe could not be read for says so, without a dead link', async () => {
  show({receipts: [receipt({url: null, kind: null})]});
  expect(await screen.findByText(/Stripe could not be reached/)).toBeInTheDocument();
  expect(screen.queryByRole('link')).toBeNull();
});

test('no purchase paid yet: says there are no receipts', async () => {
  show({receipts: []});
  expect(await screen.findByText('No receipts yet.')).toBeInTheDocument();
});

test('says so when the receipts cannot be read', async () => {
  const logged = jest.spyOn(console, 'error').mockImplementation(() => {});
  show({error: 'Stripe is down'}, 502);
  expect(await screen.findByRole('alert')).toHaveTextContent('Your receipts could not be loaded.');
  logged.mockRestore();
});
