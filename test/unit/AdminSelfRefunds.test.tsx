import React from 'react';
import {screen, within} from '@testing-library/react';
import SelfRefunds from '../../src/components/screens/Admin/SelfRefunds';
import {appConfig, PLAN_CURRENCY, planAmount} from '../../src/config';
import type {AdminSelfRefund} from '../../src/config/api';
import {formatMoney} from '../../src/config/money';
import {guaranteeWords, withdrawalWords} from '../../src/config/guarantee';
import {renderWithSite} from '../support/render';
import {NOW, useAdminWorkerStub} from '../stubs/adminWorkerStub';

const worker = useAdminWorkerStub();

/** What the featured plan costs, as Stripe refunds it and the console writes it. */
const PAID = planAmount(appConfig.plans[1]!);
const PAID_TEXT = formatMoney(PAID, PLAN_CURRENCY);

const refund = (overrides: Partial<AdminSelfRefund>): AdminSelfRefund => ({
  sessionId: 'cs_test_ada',
  email: 'ada@example.com',
  kind: 'guarantee',
  reason: null,
  amount: PAID,
  currency: PLAN_CURRENCY,
  refundId: 're_1',
  at: NOW,
  ...overrides,
});

const rowsOf = async () =>
  within(await screen.findByRole('table', {name: 'Refunds buyers made themselves'}))
    .getAllByRole('row')
    .slice(1);

describe("the console's Buyer refunds", () => {
  it('lists each refund with the right used, what Stripe refunded and the reason, each linked to its purchase', async () => {
    worker().reset({
      selfRefunds: [
        refund({reason: 'Not what I needed'}),
        refund({sessionId: 'cs_test_bob', email: 'bob@example.com', kind: 'withdrawal', at: NOW - 3_600_000}),
      ],
    });
    renderWithSite(<SelfRefunds />, {env: {WORKER_URL: worker().url}, url: '/admin?view=selfRefunds'});
    const [ada, bob] = await rowsOf();
    expect(ada).toHaveTextContent(`ada@example.com${guaranteeWords.heading}${PAID_TEXT}Not what I needed`);
    expect(within(ada!).getByRole('link', {name: 'ada@example.com'})).toHaveAttribute(
      'href',
      '/admin?purchase=cs_test_ada',
    );
    expect(bob).toHaveTextContent(`bob@example.com${withdrawalWords.heading}${PAID_TEXT}—`);
    expect(worker().requests.at(-1)!.path).toBe('/admin/self-refunds');
  });

  it('says when Stripe did not refund a claim, so the seller settles it', async () => {
    worker().reset({selfRefunds: [refund({amount: null, currency: null, refundId: null})]});
    renderWithSite(<SelfRefunds />, {env: {WORKER_URL: worker().url}, url: '/admin?view=selfRefunds'});
    const [row] = await rowsOf();
    expect(row).toHaveTextContent('No refund recorded');
  });

  it('says so when no buyer has refunded yet', async () => {
    worker().reset({selfRefunds: []});
    renderWithSite(<SelfRefunds />, {env: {WORKER_URL: worker().url}, url: '/admin?view=selfRefunds'});
    expect(await screen.findByText('No buyer has refunded a purchase themselves yet.')).toBeInTheDocument();
  });
});
