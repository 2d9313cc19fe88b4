import React from 'react';
import {screen, within} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Sales from '../../src/components/screens/Admin/Sales';
import {renderWithSite} from '../support/render';
import {salesSummary, useAdminWorkerStub} from '../stubs/adminWorkerStub';

const worker = useAdminWorkerStub();
const show = () => renderWithSite(<Sales />, {env: {WORKER_URL: worker().url}, url: '/admin'});

describe('the Sales panel', () => {
  it('shows the revenue, the buyers, the refunds and the disputes', async () => {
    show();
    const figures = await screen.findByText('Revenue');
    const list = figures.closest('dl')!;
    expect(within(list).getByText('$1,234.00')).toBeInTheDocument();
    expect(within(list).getByText('14')).toBeInTheDocument();
    expect(within(list).getByText('2 ($168.00)')).toBeInTheDocument();
    expect(within(list).getByText('1 open, 0 won, 1 lost')).toBeInTheDocument();
  });

  it('draws 30 days by plan as an image with a title and a description that carry the numbers', async () => {
    show();
    const chart = await screen.findByRole('img', {name: /Revenue by day and plan, last 30 days/});
    const summary = salesSummary();
    const total = summary.days.reduce((sum, day) => sum + Object.values(day.byPlan).reduce((a, b) => a + b, 0), 0);
    expect(chart).toHaveAccessibleName(expect.stringContaining(`$${(total / 100).toLocaleString('en-US', {minimumFractionDigits: 2})}`));
    expect(chart).toHaveAccessibleName(expect.stringMatching(/By plan: Starter \$[\d,.]+, Advanced \$[\d,.]+\./));
    // One bar a plan a day that sold it.
    const bars = summary.days.reduce((count, day) => count + Object.values(day.byPlan).filter(Boolean).length, 0);
    expect(chart.querySelectorAll('rect')).toHaveLength(bars);
  });

  it('puts every number in a table too, one row a day', async () => {
    show();
    await userEvent.click(await screen.findByText('The numbers, day by day'));
    const table = screen.getByRole('table', {name: 'Revenue by day and plan'});
    expect(within(table).getAllByRole('row')).toHaveLength(31);
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Day', 'Starter', 'Advanced', 'Total', 'Purchases']);
  });

  it('writes amounts in the summary’s currency, by its own smallest unit', async () => {
    worker().reset({sales: salesSummary({currency: 'jpy', revenue: 12_000})});
    show();
    expect(await screen.findByText('¥12,000')).toBeInTheDocument();
  });

  it('shows the worker’s message with a Try again when the sales do not load', async () => {
    worker().refuse('/admin/sales', 503, {error: 'The database is not answering.', code: 'UPSTREAM_UNAVAILABLE'});
    show();
    expect(await screen.findByRole('alert')).toHaveTextContent('The database is not answering.');
    expect(screen.getByRole('button', {name: 'Try again'})).toBeInTheDocument();
  });
});
