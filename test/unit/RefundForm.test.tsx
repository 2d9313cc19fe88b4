/**
 * The console's refund form against the admin stand-in: one refund per click of Confirm, never a
 * second one on the same figures, and what Stripe's confirmation does shown as it arrives.
 */
import React, {useState} from 'react';
import {screen, waitFor, within} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import RefundForm, {type RefundablePayment, type RefundEffects} from '../../src/components/screens/Admin/RefundForm';
import {adminPath, ADMIN_PATHS} from '../../src/config/api';
import {renderWithSite} from '../support/render';
import {useAdminWorkerStub} from '../stubs/adminWorkerStub';

const worker = useAdminWorkerStub();
// Typing, clicking and Stripe's confirmation read every 2 s, on a busy machine.
jest.setTimeout(30_000);

const EFFECTS: RefundEffects = {
  full: 'their access to the repository ends',
  partial: 'they keep their access',
  summary: 'A full refund ends access; a partial one keeps it.',
  afterFull: 'Access ends once Stripe confirms it.',
  confirmed: 'Stripe confirmed it: access has ended.',
};

/** The stand-in's purchase as the form takes it, with the figures the page last read. */
function paymentOf(): RefundablePayment {
  const found = worker().store.purchases[0]!;
  return {...found, refunded: found.state === 'refunded', settled: found.state === 'refunded'};
}

/** The form on a page whose `reload` reads the stand-in again only when the test says so. */
function Page({readOnReload}: {readOnReload: boolean}) {
  const [payment, setPayment] = useState(paymentOf);
  const reload = () => {
    // As the console's page does: a read of the purchase from the worker (where Stripe's webhook shows).
    if (readOnReload)
      void fetch(`${worker().url}${adminPath(ADMIN_PATHS.purchase, {sessionId: payment.sessionId})}`).then(() =>
        setPayment(paymentOf()),
      );
  };
  return (
    <>
      <RefundForm payment={payment} effects={EFFECTS} reload={reload} />
      <button type="button" onClick={() => setPayment(paymentOf())}>
        Read again
      </button>
    </>
  );
}

function render(readOnReload = false) {
  renderWithSite(<Page readOnReload={readOnReload} />, {env: {WORKER_URL: worker().url}});
}

const refunds = () =>
  worker()
    .actions()
    .filter((seen) => seen.path.endsWith('/refund'));

it('a double click on Confirm sends one refund, named by the figures the page shows; none again on those figures until the page reads what Stripe refunded', async () => {
  render();
  await userEvent.clear(screen.getByLabelText('Amount (USD)'));
  await userEvent.type(screen.getByLabelText('Amount (USD)'), '10');
  await userEvent.click(screen.getByRole('button', {name: 'Refund'}));
  await userEvent.dblClick(within(screen.getByRole('group', {name: 'Refund'})).getByRole('button', {name: 'Confirm'}));
  expect(await screen.findByText('Refunded $10.00. $89.00 is left, and they keep their access.')).toHaveAttribute(
    'role',
    'status',
  );
  expect(refunds().map((seen) => seen.body)).toEqual([
    {amount: 1000, reason: 'requested_by_customer', refundedBefore: 0},
  ]);
  // The answer is in, the page not read again yet: the same figures would name the same refund.
  expect(screen.getByRole('button', {name: 'Refund'})).toBeDisabled();
  await userEvent.click(screen.getByRole('button', {name: 'Refund'}));
  expect(screen.queryByRole('group', {name: 'Refund'})).toBeNull();
  expect(refunds()).toHaveLength(1);

  await userEvent.click(screen.getByRole('button', {name: 'Read again'}));
  expect(await screen.findByText(/\$10\.00 refunded so far; \$89\.00 can still be refunded/)).toBeInTheDocument();
  expect(screen.getByRole('button', {name: 'Refund'})).toBeEnabled();
  await userEvent.click(screen.getByRole('button', {name: 'Refund'}));
  await userEvent.click(screen.getByRole('button', {name: 'Confirm'}));
  await screen.findByText(/^Refunded \$89\.00 in full\./);
  expect(refunds().map((seen) => seen.body)).toEqual([
    {amount: 1000, reason: 'requested_by_customer', refundedBefore: 0},
    {reason: 'requested_by_customer', refundedBefore: 1000},
  ]);
});

it('after a full refund, reads the page again until Stripe confirms it, then says what followed', async () => {
  // Stripe's confirmation waits for the test: the waiting line is read while it is surely there
  // (with a confirmation a few reads later, a loaded machine could miss its seconds on screen).
  worker().reset({confirmationAfterReads: Infinity});
  render(true);
  await userEvent.click(screen.getByRole('button', {name: 'Refund'}));
  await userEvent.click(screen.getByRole('button', {name: 'Confirm'}));
  expect(await screen.findByText('Refunded $99.00 in full. Access ends once Stripe confirms it.')).toBeInTheDocument();
  expect(await screen.findByText(/^Waiting for Stripe to confirm the refund/)).toBeInTheDocument();
  // The page reads the purchase again on its own while it waits, and no refund is sent again.
  const reads = () => worker().requests.filter((seen) => seen.method === 'GET' && seen.route === ADMIN_PATHS.purchase);
  const before = reads().length;
  await waitFor(() => expect(reads().length).toBeGreaterThan(before));
  worker().confirmRefunds();
  expect(
    await screen.findByText('Refunded $99.00 in full. Stripe confirmed it: access has ended.', {}, {timeout: 10_000}),
  ).toHaveAttribute('role', 'status');
  await waitFor(() => expect(screen.queryByText(/^Waiting for Stripe/)).toBeNull());
  expect(refunds()).toHaveLength(1);
});
