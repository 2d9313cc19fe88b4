import React from 'react';
import {screen, waitFor} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import OwnRefund from '../../src/components/screens/Dashboard/OwnRefund';
import {appConfig, formatDay} from '../../src/config';
import {API_PATHS} from '../../src/config/api';
import {guaranteeWords, withdrawalWords} from '../../src/config/guarantee';
import {useJsonWorker} from '../support/jsonWorker';
import {renderWithSite} from '../support/render';

const worker = useJsonWorker();
const UNTIL = Date.UTC(2026, 11, 9, 12);

function show(onRefunded = jest.fn(), props: Partial<React.ComponentProps<typeof OwnRefund>> = {}) {
  renderWithSite(<OwnRefund kind="guarantee" until={UNTIL} onRefunded={onRefunded} {...props} />, {
    env: {WORKER_URL: worker().url},
  });
  return onRefunded;
}

describe('the money-back guarantee on the dashboard', () => {
  it('says until when, and refunds only on the second step, with the reason given', async () => {
    worker().answer(`POST ${API_PATHS.refundPurchase}`, 200, {status: 'refunded', amount: 9900, currency: 'usd'});
    const onRefunded = show();
    expect(screen.getByText(guaranteeWords.offer(UNTIL))).toBeInTheDocument();
    expect(guaranteeWords.offer(UNTIL)).toContain(formatDay(UNTIL));

    await userEvent.click(screen.getByRole('button', {name: guaranteeWords.button}));
    expect(worker().calls).toEqual([]);
    expect(screen.getByText(guaranteeWords.confirmText)).toHaveTextContent(appConfig.appName);
    await userEvent.type(screen.getByRole('textbox', {name: guaranteeWords.reasonLabel}), '  Too much for me  ');
    await userEvent.click(screen.getByRole('button', {name: guaranteeWords.confirm}));

    await waitFor(() => expect(onRefunded).toHaveBeenCalledTimes(1));
    expect(worker().calls).toEqual([
      {route: `POST ${API_PATHS.refundPurchase}`, body: {kind: 'guarantee', reason: 'Too much for me'}},
    ]);
  });

  it('keeps the purchase when the buyer steps back: nothing is sent', async () => {
    const onRefunded = show();
    await userEvent.click(screen.getByRole('button', {name: guaranteeWords.button}));
    await userEvent.click(screen.getByRole('button', {name: guaranteeWords.keep}));
    expect(screen.getByRole('button', {name: guaranteeWords.button})).toBeInTheDocument();
    expect(screen.queryByRole('button', {name: guaranteeWords.confirm})).toBeNull();
    expect(worker().calls).toEqual([]);
    expect(onRefunded).not.toHaveBeenCalled();
  });

  it("shows the worker's refusal in its words, and the purchase stands", async () => {
    const refusal = `You have had a refund of another purchase already, so this one goes through support. Write to ${appConfig.support.email} and we will sort it out with you.`;
    worker().answer(`POST ${API_PATHS.refundPurchase}`, 409, {error: refusal, code: 'REFUND_BY_SUPPORT'});
    const onRefunded = show();
    await userEvent.click(screen.getByRole('button', {name: guaranteeWords.button}));
    await userEvent.click(screen.getByRole('button', {name: guaranteeWords.confirm}));
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal);
    expect(worker().calls).toEqual([{route: `POST ${API_PATHS.refundPurchase}`, body: {kind: 'guarantee'}}]);
    expect(onRefunded).not.toHaveBeenCalled();
  });
});

describe('the withdrawal from the contract on the dashboard', () => {
  it('is labelled as the law asks, asks no reason, and withdraws only on "Confirm withdrawal"', async () => {
    worker().answer(`POST ${API_PATHS.refundPurchase}`, 200, {status: 'refunded', amount: 9900, currency: 'usd'});
    const onRefunded = show(jest.fn(), {kind: 'withdrawal'});
    expect(screen.getByRole('heading', {name: withdrawalWords.heading})).toBeInTheDocument();
    expect(screen.getByText(withdrawalWords.offer(UNTIL))).toHaveTextContent(formatDay(UNTIL));

    await userEvent.click(screen.getByRole('button', {name: 'Withdraw from contract here'}));
    expect(worker().calls).toEqual([]);
    expect(screen.queryByRole('textbox')).toBeNull();
    await userEvent.click(screen.getByRole('button', {name: 'Confirm withdrawal'}));

    await waitFor(() => expect(onRefunded).toHaveBeenCalledTimes(1));
    expect(worker().calls).toEqual([{route: `POST ${API_PATHS.refundPurchase}`, body: {kind: 'withdrawal'}}]);
  });

  it('names in its second step what is withdrawn from, and where the acknowledgement goes', async () => {
    const purchase = {
      product: `${appConfig.appName} Advanced`,
      boughtAt: Date.UTC(2026, 11, 2, 9),
      email: 'ada@example.com',
    };
    show(jest.fn(), {kind: 'withdrawal', purchase});
    await userEvent.click(screen.getByRole('button', {name: withdrawalWords.button}));
    const details = screen.getByText(withdrawalWords.details(purchase));
    expect(details).toHaveTextContent(`${appConfig.appName} Advanced, bought on 2 December 2026`);
    expect(details).toHaveTextContent('ada@example.com');
  });

  it('says that delivery ends the right where the buyer asked for the code at once', () => {
    show(jest.fn(), {kind: 'withdrawal', endsOnDelivery: true});
    expect(screen.getByText(withdrawalWords.offer(UNTIL, true))).toHaveTextContent(/as you asked at checkout/);
  });
});
