/**
 * The console's Affiliates view: each affiliate with their figures and last payout, the totals,
 * Mark paid for what is payable (a reference asked, the amount confirmed, nothing sent before
 * Confirm, the amount shown sent), the worker's 409 in its words, and every commission as CSV. When
 * the programme pays through Stripe: each affiliate's Stripe state, Pay through Stripe for one ready
 * with something payable (no reference; the worker's answer, made or still sending, or its refusal),
 * and a last payout still sending.
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
    totals: {currency: 'usd', pending: 2970, payable: 4140, paid: 2070, owedBack: 0},
    lastPayout: {amount: 2070, reference: 'SEPA-0042', at: Date.UTC(2026, 4, 2), method: 'marked', state: 'made'},
    stripe: null,
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
  totals: {currency: 'usd', pending: 0, payable: 0, paid: 0, owedBack: 0},
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
const rowOf = async (email: string) =>
  within(await screen.findByRole('table', {name: AFFILIATE_WORDS.consoleCaption}))
    .getAllByRole('row')
    .find((row) => row.textContent?.includes(email))!;
const adaRow = () => rowOf('ada@example.com');

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
    expect(screen.queryByText(AFFILIATE_WORDS.totalOwedBack)).toBeNull();
  });

  it('says what an affiliate owes back from refunds after a payout, beside what is payable, and in the totals', async () => {
    worker().reset({
      affiliates: [
        ADA,
        affiliate({...GRACE, totals: {currency: 'usd', pending: 0, payable: 0, paid: 900, owedBack: 300}}),
      ],
    });
    show();
    await screen.findByRole('table', {name: AFFILIATE_WORDS.consoleCaption});
    expect(rows()[1]![6]).toBe(AFFILIATE_WORDS.payableOwing(usd(0), usd(300)));
    expect(rows()[0]![6]).toBe(usd(4140));
    expect(screen.getByText(AFFILIATE_WORDS.totalOwedBack).nextElementSibling?.textContent).toBe(usd(300));
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
    worker().store.affiliates = [
      affiliate({totals: {currency: 'usd', pending: 0, payable: 7110, paid: 2070, owedBack: 0}}),
    ];
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

  describe('paying through Stripe', () => {
    const STATES = AFFILIATE_WORDS.consoleStripeStates;
    const READY = affiliate({stripe: 'ready'});
    /** Another affiliate, named by their code, with nothing paid to them yet unless said. */
    const other = (code: string, stripe: AdminAffiliate['stripe'], payable: number, overrides = {}) =>
      affiliate({
        id: `aff_${code.padEnd(8, '0')}`,
        code,
        email: `${code}@example.com`,
        totals: {currency: 'usd', pending: 0, payable, paid: 0, owedBack: 0},
        lastPayout: null,
        stripe,
        ...overrides,
      });
    const UNCONNECTED = other('grace', 'unconnected', 1200);
    const ONBOARDING = other('mary', 'onboarding', 600);
    // Ready, nothing payable: their last payout is a transfer Stripe has not answered yet.
    const SENDING = other('lin', 'ready', 0, {
      totals: {currency: 'usd', pending: 0, payable: 0, paid: 900, owedBack: 0},
      lastPayout: {amount: 900, reference: '', at: Date.UTC(2026, 5, 29), method: 'stripe', state: 'sending'},
    });
    const buttons = async (email: string) =>
      within(await rowOf(email))
        .queryAllByRole('button')
        .map((button) => button.textContent);

    it("says each affiliate's Stripe state, and offers Pay through Stripe only to one with an account and something payable", async () => {
      worker().reset({stripeConnect: true, affiliates: [READY, UNCONNECTED, ONBOARDING, SENDING]});
      show();
      const table = await screen.findByRole('table', {name: AFFILIATE_WORDS.consoleCaption});
      expect(
        within(table).getByRole('columnheader', {name: AFFILIATE_WORDS.consoleColumns.stripe}),
      ).toBeInTheDocument();
      expect(rows().map((cells) => [cells[0], cells[1], cells[9]])).toEqual([
        ['ada', STATES.ready, `${usd(2070)} on 2 May 2026 (SEPA-0042)`],
        ['grace', STATES.unconnected, '—'],
        ['mary', STATES.onboarding, '—'],
        ['lin', STATES.ready, AFFILIATE_WORDS.lastPayoutSending(900, 'usd', '29 Jun 2026')],
      ]);
      expect(await buttons('ada@example.com')).toEqual([AFFILIATE_WORDS.markPaid, AFFILIATE_WORDS.payThroughStripe]);
      expect(await buttons('grace@example.com')).toEqual([AFFILIATE_WORDS.markPaid]);
      // Still onboarding as D1 last saw it: the worker asks Stripe again when the seller pays.
      expect(await buttons('mary@example.com')).toEqual([AFFILIATE_WORDS.markPaid, AFFILIATE_WORDS.payThroughStripe]);
      expect(await buttons('lin@example.com')).toEqual([]);
      // Not ready at Stripe either: the worker's 409 says so, and nothing is paid.
      await userEvent.click(
        within(await rowOf('mary@example.com')).getByRole('button', {name: AFFILIATE_WORDS.payThroughStripe}),
      );
      await userEvent.click(screen.getByRole('button', {name: 'Confirm'}));
      expect(await screen.findByText(AFFILIATE_WORDS.stripeNotReady)).toHaveAttribute('role', 'alert');
    });

    it('shows nothing of Stripe when the programme does not pay through it, whatever an affiliate says', async () => {
      worker().reset({stripeConnect: false, affiliates: [READY]});
      show();
      const table = await screen.findByRole('table', {name: AFFILIATE_WORDS.consoleCaption});
      expect(within(table).queryByRole('columnheader', {name: AFFILIATE_WORDS.consoleColumns.stripe})).toBeNull();
      expect(screen.queryByText(STATES.ready)).toBeNull();
      expect(await buttons('ada@example.com')).toEqual([AFFILIATE_WORDS.markPaid]);
    });

    it("sends what is payable once confirmed, with no reference, and shows the worker's answer", async () => {
      worker().reset({stripeConnect: true, affiliates: [READY, UNCONNECTED]});
      show();
      await userEvent.click(within(await adaRow()).getByRole('button', {name: AFFILIATE_WORDS.payThroughStripe}));
      const question = screen.getByRole('group', {name: AFFILIATE_WORDS.payThroughStripe});
      expect(question).toHaveTextContent(
        `Are you sure? ${AFFILIATE_WORDS.payThroughStripeQuestion(4140, 'usd', 'ada')}`.replace(/\s+/g, ' '),
      );
      // The transfer's id is its reference: nothing to type.
      expect(within(question).queryByRole('textbox')).toBeNull();
      expect(within(question).getByRole('button', {name: 'Cancel'})).toHaveFocus();
      expect(worker().actions()).toEqual([]);
      await userEvent.click(within(question).getByRole('button', {name: 'Confirm'}));

      expect(await screen.findByText(AFFILIATE_WORDS.transferMade(4140, 'usd', 'tr_stub0001'))).toHaveAttribute(
        'role',
        'status',
      );
      const [sent] = worker().actions();
      expect(sent!.path).toBe('/admin/affiliates/aff_ada00001/payout');
      expect(sent!.body).toStrictEqual({amount: 4140, method: 'stripe', asOf: expect.any(Number)});
      // Read again: paid, the transfer is the last payout, and nothing is left to pay.
      await waitFor(() =>
        expect(rows()[0]!.slice(7)).toEqual([usd(0), usd(6210), `${usd(4140)} on 30 Jun 2026 (tr_stub0001)`, '—']),
      );
    });

    it('says so when Stripe has not answered yet (202), and the last payout reads as sending', async () => {
      worker().reset({stripeConnect: true, stripeTransfer: 'sending', affiliates: [READY]});
      show();
      await userEvent.click(within(await adaRow()).getByRole('button', {name: AFFILIATE_WORDS.payThroughStripe}));
      await userEvent.click(screen.getByRole('button', {name: 'Confirm'}));
      expect(await screen.findByText(AFFILIATE_WORDS.transferSending(4140, 'usd'))).toHaveAttribute('role', 'status');
      await waitFor(() => expect(rows()[0]![9]).toBe(AFFILIATE_WORDS.lastPayoutSending(4140, 'usd', '30 Jun 2026')));
    });

    it("shows Stripe's refusal (409) in the worker's words, and leaves the payout to do", async () => {
      worker().reset({stripeConnect: true, stripeTransfer: 'insufficient', affiliates: [READY]});
      show();
      await userEvent.click(within(await adaRow()).getByRole('button', {name: AFFILIATE_WORDS.payThroughStripe}));
      await userEvent.click(screen.getByRole('button', {name: 'Confirm'}));
      expect(
        await screen.findByText(AFFILIATE_WORDS.transferRefused(AFFILIATE_WORDS.balanceInsufficient)),
      ).toHaveAttribute('role', 'alert');
      expect(worker().actions()).toHaveLength(1);
      await waitFor(() => expect(worker().requests.filter((seen) => seen.method === 'GET')).toHaveLength(2));
      expect(rows()[0]![7]).toBe(usd(4140));
      expect(await buttons('ada@example.com')).toEqual([AFFILIATE_WORDS.markPaid, AFFILIATE_WORDS.payThroughStripe]);
    });

    it('keeps Mark paid, with its reference, for an affiliate ready with Stripe', async () => {
      worker().reset({stripeConnect: true, affiliates: [READY]});
      show();
      await userEvent.click(within(await adaRow()).getByRole('button', {name: AFFILIATE_WORDS.markPaid}));
      await userEvent.type(screen.getByLabelText(AFFILIATE_WORDS.referenceLabel), 'SEPA-0043');
      await userEvent.click(screen.getByRole('button', {name: 'Confirm'}));
      expect(await screen.findByText(AFFILIATE_WORDS.payoutMade(4140, 'usd', 'SEPA-0043'))).toBeInTheDocument();
      expect(worker().actions()[0]!.body).toStrictEqual({
        amount: 4140,
        reference: 'SEPA-0043',
        asOf: expect.any(Number),
      });
    });
  });
});
