/**
 * The console's Affiliates view: each affiliate with their figures and last payout, the totals,
 * Mark paid for what is payable (a reference asked, the amount confirmed, nothing sent before
 * Confirm, the amount shown sent), the worker's 409 in its words, and every commission as CSV.
 */
import React from 'react';
import {screen, waitFor, within} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type {AdminAffiliate} from '../../src/config/api';
import {AFFILIATE_WORDS, appConfig} from '../../src/config';
import {formatMoney} from '../../src/config/money';
import Affiliates from '../../src/components/screens/Admin/Affiliates';
import {renderWithSite} from '../support/render';
import {NOW, useAdminWorkerStub} from '../stubs/adminWorkerStub';

const worker = useAdminWorkerStub();
const show = () => renderWithSite(<Affiliates />, {env: {WORKER_URL: worker().url}, url: '/admin?view=affiliates'});
const DAY_MS = 86_400_000;
const usd = (amount: number) => formatMoney(amount, 'usd');

function affiliate(overrides: Partial<AdminAffiliate>): AdminAffiliate {
  return {
    id: 'aff_ada00001',
    code: 'ada',
    email: 'ada@example.com',
    joinedAt: Date.UTC(2026, 2, 1),
    clicks: 120,
    sales: 4,
    totals: {currency: 'usd', pending: 2970, payable: 4140, paid: 2070},
    lastPayout: {amount: 2070, reference: 'SEPA-0042', at: Date.UTC(2026, 4, 2)},
    ...overrides,
  };
}
const ADA = affiliate({});
const GRACE = affiliate({
  id: 'aff_grace001',
  code: 'grace',
  email: 'grace@example.com',
  joinedAt: NOW - DAY_MS,
  clicks: 3,
  sales: 0,
  totals: {currency: 'usd', pending: 0, payable: 0, paid: 0},
  lastPayout: null,
});

/** The cells of each row of the affiliates' table, as the seller reads them. */
function rows(): string[][] {
  const table = screen.getByRole('table', {name: AFFILIATE_WORDS.consoleCaption});
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent ?? ''),
    );
}
const adaRow = async () =>
  within(await screen.findByRole('table', {name: AFFILIATE_WORDS.consoleCaption}))
    .getAllByRole('row')
    .find((row) => row.textContent?.includes('ada@example.com'))!;

describe('the Affiliates view', () => {
  it('lists each affiliate with their figures and last payout, and the totals', async () => {
    worker().reset({affiliates: [ADA, GRACE]});
    show();
    expect(screen.getByRole('heading', {level: 2, name: AFFILIATE_WORDS.heading})).toBeInTheDocument();
    await screen.findByRole('table', {name: AFFILIATE_WORDS.consoleCaption});
    expect(rows()).toEqual([
      [
        'ada',
        'ada@example.com',
        '1 Mar 2026',
        '120',
        '4',
        usd(2970),
        usd(4140),
        usd(2070),
        `${usd(2070)} on 2 May 2026 (SEPA-0042)`,
        AFFILIATE_WORDS.markPaid,
      ],
      ['grace', 'grace@example.com', '29 Jun 2026', '3', '0', usd(0), usd(0), usd(0), '—', '—'],
    ]);
    const figure = (label: string) => screen.getByText(label).nextElementSibling?.textContent;
    expect(figure(AFFILIATE_WORDS.totalPending)).toBe(usd(2970));
    expect(figure(AFFILIATE_WORDS.totalPayable)).toBe(usd(4140));
    expect(figure(AFFILIATE_WORDS.totalPaid)).toBe(usd(2070));
  });

  it('says so when nobody has joined', async () => {
    show();
    expect(await screen.findByText(AFFILIATE_WORDS.noAffiliates)).toBeInTheDocument();
  });

  it('marks a payout once the seller gave a reference and confirmed the amount, sending the amount shown', async () => {
    worker().reset({affiliates: [ADA, GRACE]});
    show();
    await userEvent.click(within(await adaRow()).getByRole('button', {name: AFFILIATE_WORDS.markPaid}));
    const question = screen.getByRole('group', {name: AFFILIATE_WORDS.markPaid});
    expect(question).toHaveTextContent(
      `Are you sure? ${AFFILIATE_WORDS.markPaidQuestion(4140, 'usd', 'ada')}`.replace(/\s+/g, ' '),
    );
    const reference = within(question).getByLabelText(AFFILIATE_WORDS.referenceLabel);
    expect(reference).toHaveFocus();
    // No reference, no payout.
    expect(within(question).getByRole('button', {name: 'Confirm'})).toBeDisabled();
    await userEvent.type(reference, '  SEPA-0043 ');
    expect(worker().actions()).toEqual([]);
    await userEvent.click(within(question).getByRole('button', {name: 'Confirm'}));

    expect(await screen.findByText(AFFILIATE_WORDS.payoutMade(4140, 'usd', 'SEPA-0043'))).toHaveAttribute(
      'role',
      'status',
    );
    expect(
      worker()
        .actions()
        .map((seen) => [seen.path, seen.body]),
    ).toEqual([
      ['/admin/affiliates/aff_ada00001/payout', {amount: 4140, reference: 'SEPA-0043', asOf: expect.any(Number)}],
    ]);
    // Read again: nothing payable, all of it paid, and the payout is the last one.
    await waitFor(() =>
      expect(rows()[0]).toEqual([
        'ada',
        'ada@example.com',
        '1 Mar 2026',
        '120',
        '4',
        usd(2970),
        usd(0),
        usd(6210),
        `${usd(4140)} on 30 Jun 2026 (SEPA-0043)`,
        '—',
      ]),
    );
  });

  it('sends nothing when the seller cancels, by the button or Escape', async () => {
    worker().reset({affiliates: [ADA]});
    show();
    const markPaid = within(await adaRow()).getByRole('button', {name: AFFILIATE_WORDS.markPaid});
    await userEvent.click(markPaid);
    await userEvent.click(screen.getByRole('button', {name: 'Cancel'}));
    expect(within(await adaRow()).getByRole('button', {name: AFFILIATE_WORDS.markPaid})).toHaveFocus();
    await userEvent.click(within(await adaRow()).getByRole('button', {name: AFFILIATE_WORDS.markPaid}));
    await userEvent.type(screen.getByLabelText(AFFILIATE_WORDS.referenceLabel), 'SEPA-1{Escape}');
    expect(screen.queryByRole('group')).toBeNull();
    expect(worker().actions()).toEqual([]);
  });

  it("shows the worker's 409 in its words when what is payable changed since the seller looked", async () => {
    worker().reset({affiliates: [ADA]});
    show();
    await userEvent.click(within(await adaRow()).getByRole('button', {name: AFFILIATE_WORDS.markPaid}));
    // Another commission became payable meanwhile.
    worker().store.affiliates = [affiliate({totals: {currency: 'usd', pending: 0, payable: 7110, paid: 2070}})];
    await userEvent.type(screen.getByLabelText(AFFILIATE_WORDS.referenceLabel), 'SEPA-0043');
    await userEvent.click(screen.getByRole('button', {name: 'Confirm'}));
    expect(await screen.findByText(AFFILIATE_WORDS.payoutChanged(7110, 'usd'))).toHaveAttribute('role', 'alert');
    expect(
      worker()
        .actions()
        .map((seen) => seen.body),
    ).toEqual([{amount: 4140, reference: 'SEPA-0043', asOf: expect.any(Number)}]);
    // The list is read again, with the amount payable now.
    await waitFor(() => expect(rows()[0]![6]).toBe(usd(7110)));
  });

  it('downloads every commission as CSV through an authorised fetch', async () => {
    worker().reset({affiliates: [ADA]});
    const saved: Blob[] = [];
    const names: string[] = [];
    URL.createObjectURL = jest.fn((blob: Blob) => {
      saved.push(blob);
      return 'blob:commissions';
    });
    URL.revokeObjectURL = jest.fn();
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      names.push(this.download);
    });
    try {
      show();
      await userEvent.click(await screen.findByRole('button', {name: 'Download CSV'}));
      expect(await screen.findByText(AFFILIATE_WORDS.csvDone)).toHaveAttribute('role', 'status');
      expect(worker().requests.at(-1)!.path).toBe('/admin/affiliates.csv');
      expect(names).toEqual([expect.stringMatching(/^commissions-\d{4}-\d{2}-\d{2}\.csv$/)]);
      expect(await saved[0]!.text()).toMatch(/^code,email,/);
    } finally {
      click.mockRestore();
    }
  });

  it("shows the worker's error when the list cannot be read, with Try again", async () => {
    worker().refuse('/admin/affiliates', 500, {error: 'Something went wrong'});
    show();
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong');
    expect(screen.getByRole('button', {name: 'Try again'})).toBeInTheDocument();
  });

  it('with no programme in the config, says so and asks the worker nothing', () => {
    const config = appConfig as {affiliates?: typeof appConfig.affiliates};
    const programme = config.affiliates;
    config.affiliates = undefined;
    try {
      show();
      expect(screen.getByText(AFFILIATE_WORDS.noProgramme)).toBeInTheDocument();
      expect(screen.queryByRole('button', {name: 'Download CSV'})).toBeNull();
      expect(worker().requests).toEqual([]);
    } finally {
      config.affiliates = programme;
    }
  });
});
