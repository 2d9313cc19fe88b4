import React from 'react';
import {screen, within} from '@testing-library/react';
import Funnel, {duration} from '../../src/components/screens/Admin/Funnel';
import {renderWithSite} from '../support/render';
import {funnelSummary, useAdminWorkerStub} from '../stubs/adminWorkerStub';
import {FUNNEL_WORDS} from '../../src/config';

const worker = useAdminWorkerStub();
const show = (period: '7d' | '30d' | '12m' | 'all' = '30d') =>
  renderWithSite(<Funnel period={period} />, {env: {WORKER_URL: worker().url}, url: '/admin'});

/** A step's figures, as the card reads. */
async function step(label: string) {
  return (await screen.findByText(label)).nextElementSibling!.textContent;
}

describe("the console's funnel", () => {
  it('without Plausible, starts at checkout and says why; each step beside the 30 days before, with its change', async () => {
    show();
    expect(await screen.findByText(FUNNEL_WORDS.noKey)).toBeInTheDocument();
    expect(screen.queryByText('Visitors')).toBeNull();
    expect(await step('Checkouts started')).toBe('50the 30 days before: 40 (+25%)');
    expect(await step('Checkouts paid')).toBe('2040% of those startedthe 30 days before: 20 (no change)');
    expect(await step('Purchases refunded in full')).toBe('15% of 20 paymentsthe 30 days before: 2 (−50%)');
    expect(await step('Downloads')).toBe('9the 30 days before: 0 (none before)');
    expect(await step('Payment to access, median')).toBe('1 h 35 minthe 30 days before: 3 h (−47.2%)');
    expect(screen.getByRole('heading', {name: 'Funnel, last 30 days'})).toBeInTheDocument();
    expect(screen.getByText('Nothing needs a look.')).toBeInTheDocument();
  });

  it('with Plausible, starts at the visitors and gives the share of them that began a checkout', async () => {
    worker().reset({funnel: funnelSummary({visitors: {source: 'plausible', now: 1000, before: 800}})});
    show();
    expect(await step('Visitors')).toBe('1000the 30 days before: 800 (+25%)');
    expect(await step('Checkouts started')).toBe('505% of visitorsthe 30 days before: 40 (+25%)');
  });

  it('for all time, compares with nothing; a median with no access yet says so', async () => {
    worker().reset({
      funnel: funnelSummary({
        checkoutsStarted: {now: 5, before: null},
        medianToAccess: {now: null, before: null},
      }),
    });
    show('all');
    expect(await step('Checkouts started')).toBe('5');
    expect(await step('Payment to access, median')).toBe('none yet');
  });

  it('lists what needs a look, each in its own words, the card-country flags linked to the purchases flagged', async () => {
    worker().reset({
      funnel: funnelSummary({
        needsLook: {
          unaccepted: 2,
          failedGrants: 1,
          queued: 3,
          queuedSince: Date.UTC(2026, 5, 3, 12),
          cardCountryFlags: 1,
        },
      }),
    });
    show();
    const list = await screen.findByRole('list', {name: 'Needs a look, now'});
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      '2 invitations sent more than 3 days ago, not accepted yet',
      '1 grant failed for good (an invitation or a removal)',
      "3 in line for GitHub's daily cap of invitations, the first since 3 Jun 2026",
      "1 purchase flagged for the card's country",
    ]);
    expect(within(list).getByRole('link', {name: "1 purchase flagged for the card's country"})).toHaveAttribute(
      'href',
      expect.stringContaining('flagged=card_country'),
    );
  });

  it('says when recording began inside the period, and compares what was not recorded then with nothing', async () => {
    worker().reset({
      funnel: funnelSummary({
        since: Date.UTC(2026, 5, 1),
        recordedSince: Date.UTC(2026, 5, 10, 9),
        checkoutsStarted: {now: 12, before: null},
        medianToAccess: {now: 3_600_000, before: null},
      }),
    });
    show();
    expect(
      await screen.findByText('Checkouts started and invitations accepted are recorded since 10 Jun 2026.'),
    ).toBeInTheDocument();
    expect(await step('Checkouts started')).toBe('12the 30 days before: not recorded then');
    expect(await step('Payment to access, median')).toBe('1 hthe 30 days before: no code reached a buyer');
  });

  it('writes a wait in minutes, hours and days', () => {
    expect(duration(20_000)).toBe('under a minute');
    expect(duration(45 * 60_000)).toBe('45 min');
    expect(duration(3 * 3600_000)).toBe('3 h');
    expect(duration(52 * 3600_000)).toBe('2 days 4 h');
  });
});
