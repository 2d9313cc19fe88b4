import React from 'react';
import {screen, within} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Sales from '../../src/components/screens/Admin/Sales';
import {ADMIN_PATHS} from '../../src/config/api';
import {renderWithSite} from '../support/render';
import {salesSummary, useAdminWorkerStub} from '../stubs/adminWorkerStub';

const worker = useAdminWorkerStub();
const show = () => renderWithSite(<Sales />, {env: {WORKER_URL: worker().url}, url: '/admin'});

describe('the Sales panel', () => {
  it('shows the revenue, the buyers, the refunds and the disputes', async () => {
    show();
    const figures = await screen.findByText('Revenue, last 30 days');
    const list = figures.closest('dl')!;
    expect(within(list).getByText('$1,234.00')).toBeInTheDocument();
    expect(within(list).getByText('14')).toBeInTheDocument();
    // The refund rate: 2 of the period's 40 payments that went through.
    expect(within(list).getByText('Refunded in full').nextElementSibling).toHaveTextContent(
      '2 ($168.00)5% of 40 payments',
    );
    expect(within(list).getByText('1 open now; 0 won, 1 lost')).toBeInTheDocument();
    expect(within(list).getByText('Buyers, last 30 days')).toBeInTheDocument();
    // One seat each: no count of seats beside the buyers.
    expect(within(list).getByText('Buyers, last 30 days').nextElementSibling).toHaveTextContent(/^14$/);
    expect(screen.getByText('Last 30 days: 1 Jun 2026 to 30 Jun 2026 (UTC).')).toBeInTheDocument();
  });

  it('counts the seats teams bought beside the buyers', async () => {
    worker().reset({sales: salesSummary({buyers: 14, seats: 23})});
    show();
    const buyers = await screen.findByText('Buyers, last 30 days');
    expect(buyers.nextElementSibling).toHaveTextContent('1423 seats');
  });

  it('counts checkouts won back by reminders once there are any, and says nothing of them before (the switch off)', async () => {
    show();
    await screen.findByText('Revenue, last 30 days');
    expect(screen.queryByText('Checkouts won back')).toBeNull();
    worker().reset({sales: salesSummary({recovered: {reminders: 7, purchases: 2, revenue: 13_800}})});
    show();
    const won = (await screen.findAllByText('Checkouts won back')).at(-1)!;
    expect(won.nextElementSibling).toHaveTextContent('2 ($138.00)7 reminders sent');
  });

  it('draws 30 days by plan as an image with a title and a description that carry the numbers', async () => {
    show();
    const chart = await screen.findByRole('img', {name: /Revenue by day and plan, last 30 days/});
    const summary = salesSummary();
    const total = summary.days.reduce((sum, day) => sum + Object.values(day.byPlan).reduce((a, b) => a + b, 0), 0);
    expect(chart).toHaveAccessibleName(
      expect.stringContaining(`$${(total / 100).toLocaleString('en-US', {minimumFractionDigits: 2})}`),
    );
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
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Day', 'Starter', 'Advanced', 'Total', 'Purchases']);
  });

  it('a period picker drives the cards and the chart together, and keeps the period in the address', async () => {
    worker().reset({
      sales: salesSummary({
        period: '12m',
        interval: 'month',
        since: Date.UTC(2025, 6, 1),
        days: [
          {day: '2026-05-01', byPlan: {Starter: 6900}, purchases: 1},
          {day: '2026-06-01', byPlan: {Advanced: 9900}, purchases: 1},
        ],
      }),
    });
    renderWithSite(<Sales />, {env: {WORKER_URL: worker().url}, url: '/admin?period=12m'});
    const picker = screen.getByRole('list', {name: 'Period'});
    expect(
      within(picker)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href'), link.getAttribute('aria-current')]),
    ).toEqual([
      ['Last 7 days', '/admin?period=7d', null],
      ['Last 30 days', '/admin', null],
      ['Last 12 months', '/admin?period=12m', 'true'],
      ['All time', '/admin?period=all', null],
    ]);
    expect(await screen.findByText('Revenue, last 12 months')).toBeInTheDocument();
    // The cards and the funnel below them, each asked once for the same period.
    expect(
      worker()
        .requests.map((seen) => [seen.route, seen.query.get('period')])
        .sort(),
    ).toEqual([
      [ADMIN_PATHS.funnel, '12m'],
      [ADMIN_PATHS.sales, '12m'],
    ]);
    const chart = screen.getByRole('img', {name: /Revenue by month and plan, last 12 months/});
    expect(chart).toHaveAccessibleName(expect.stringContaining('May 2026 to Jun 2026'));
    await userEvent.click(screen.getByText('The numbers, month by month'));
    expect(
      within(screen.getByRole('table', {name: 'Revenue by month and plan'})).getAllByRole('columnheader')[0],
    ).toHaveTextContent('Month');
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
