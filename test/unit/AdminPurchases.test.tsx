import React from 'react';
import {screen, within} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Purchases from '../../src/components/screens/Admin/Purchases';
import {renderWithSite} from '../support/render';
import {purchase, upgrade, useAdminWorkerStub} from '../stubs/adminWorkerStub';

const worker = useAdminWorkerStub();
const show = (url = '/admin?view=purchases') => renderWithSite(<Purchases />, {env: {WORKER_URL: worker().url}, url});

describe('the Purchases panel', () => {
  it('lists each purchase: date, buyer, plan, amount, state and GitHub access with its state', async () => {
    show();
    const table = await screen.findByRole('table', {name: 'Purchases, newest first'});
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Date', 'Buyer', 'Plan', 'Amount', 'State', 'GitHub access']);
    const [, ada, bob] = within(table).getAllByRole('row');
    expect(
      within(ada!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['29 Jun 2026, 12:00 UTC', 'ada@example.com', 'Advanced', '$99.00', 'Paid', '@ada-l Active']);
    expect(
      within(bob!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['28 Jun 2026, 12:00 UTC', 'bob@example.com', 'Starter', '$69.00', 'Refunded', '@bobby Removal failed']);
    expect(within(ada!).getByRole('link', {name: 'ada@example.com'})).toHaveAttribute(
      'href',
      '/admin?purchase=cs_test_ada',
    );
  });

  it('searches by what the seller types and asks the worker for the first page', async () => {
    show();
    await screen.findByRole('table');
    await userEvent.type(screen.getByRole('searchbox', {name: 'E-mail, GitHub username or session id'}), 'bobby');
    await userEvent.click(screen.getByRole('button', {name: 'Search'}));
    const table = await screen.findByRole('table', {name: 'Purchases matching bobby, newest first'});
    expect(within(table).getAllByRole('row')).toHaveLength(2);
    expect(within(table).getByText('bob@example.com')).toBeInTheDocument();
    const last = worker().requests.at(-1)!;
    expect([last.path, last.query.get('q'), last.query.get('page')]).toEqual(['/admin/purchases', 'bobby', '1']);
  });

  it('filters by state and plan and sorts, at once, in the address and at the worker; Clear filters undoes them', async () => {
    show();
    await screen.findByRole('table', {name: 'Purchases, newest first'});
    await userEvent.selectOptions(screen.getByLabelText('State'), 'Refunded');
    const refunded = await screen.findByRole('table', {name: 'Purchases that match the filters, newest first'});
    expect(
      within(refunded)
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getAllByRole('cell')[1]!.textContent),
    ).toEqual(['bob@example.com']);
    expect(worker().requests.at(-1)!.query.get('state')).toBe('refunded');

    await userEvent.selectOptions(screen.getByLabelText('State'), 'All states');
    await userEvent.selectOptions(screen.getByLabelText('Plan'), 'Advanced');
    await userEvent.selectOptions(screen.getByLabelText('Order'), 'Lowest amount first');
    await screen.findByRole('table', {name: 'Purchases that match the filters, lowest amount first'});
    const last = worker().requests.at(-1)!;
    expect([last.query.get('state'), last.query.get('plan'), last.query.get('sort'), last.query.get('page')]).toEqual([
      null,
      'Advanced',
      'amount_low',
      '1',
    ]);
    expect(screen.getByRole('link', {name: 'Clear filters'})).toHaveAttribute(
      'href',
      '/admin?view=purchases&sort=amount_low',
    );
  });

  it('downloads the purchases the filters match as CSV, with the same filters', async () => {
    show('/admin?view=purchases&state=paid&plan=Advanced');
    await screen.findByRole('table');
    const saved: string[] = [];
    const createObjectURL = jest.fn((blob: Blob) => {
      void blob.text().then((text) => saved.push(text));
      return 'blob:purchases';
    });
    Object.assign(URL, {createObjectURL, revokeObjectURL: jest.fn()});
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    await userEvent.click(screen.getByRole('button', {name: 'Download CSV'}));
    expect(await screen.findByText('The matching purchases were downloaded as CSV.')).toHaveAttribute('role', 'status');
    const asked = worker().requests.at(-1)!;
    expect([asked.path, asked.query.get('state'), asked.query.get('plan')]).toEqual([
      '/admin/purchases.csv',
      'paid',
      'Advanced',
    ]);
    expect(saved).toEqual(['email,state\nada@example.com,paid\n']);
    expect(click).toHaveBeenCalledTimes(1);
    click.mockRestore();
  });

  it('flags a purchase whose removal failed on an extra repository, and says so beside its kit access', async () => {
    worker().reset({
      purchases: [
        purchase({
          sessionId: 'cs_test_cy',
          email: 'cy@example.com',
          state: 'refunded',
          access: {status: 'revoked', username: 'cy-gh', usernameChanges: 0},
          extras: [
            {
              key: 'prompts',
              repository: 'slipway/prompts',
              status: 'removal_failed',
              username: 'cy-gh',
              updatedAt: 0,
              expired: false,
            },
          ],
        }),
        purchase({sessionId: 'cs_test_dee', email: 'dee@example.com'}),
      ],
    });
    show();
    const table = await screen.findByRole('table', {name: 'Purchases, newest first'});
    const [, cy, dee] = within(table).getAllByRole('row');
    expect(within(cy!).getAllByRole('cell')[5]!.textContent).toBe(
      '@cy-gh Revoked · Removal failed on another repository',
    );
    expect(cy).toHaveClass('flagged');
    expect(within(dee!).getAllByRole('cell')[5]!.textContent).toBe('@ada-l Active');
    expect(dee).not.toHaveClass('flagged');
  });

  it("lists under Flagged a purchase whose own card, or whose upgrade's card, is from another country than its price, each marked for which", async () => {
    const flagged = {country: 'BR', percentOff: 40, cardCountry: 'US', review: 'flagged' as const};
    worker().reset({
      purchases: [
        purchase({sessionId: 'cs_test_ada', email: 'ada@example.com', fairPrice: flagged}),
        purchase({sessionId: 'cs_test_bob', email: 'bob@example.com'}),
        purchase({
          sessionId: 'cs_test_cy',
          email: 'cy@example.com',
          fairPrice: {...flagged, cardCountry: 'BR', review: null},
          flaggedUpgrade: flagged,
          upgrades: [upgrade({sessionId: 'cs_test_cy_up', fairPrice: flagged})],
        }),
      ],
    });
    show('/admin?view=purchases&flagged=card_country');
    const table = await screen.findByRole('table', {name: 'Purchases that match the filters, newest first'});
    const states = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [
        within(row).getAllByRole('cell')[1]!.textContent,
        within(row).getAllByRole('cell')[4]!.textContent,
      ]);
    expect(states).toEqual([
      ['ada@example.com', 'Paid Card from US, priced for BR'],
      ['cy@example.com', 'Paid Upgrade: Card from US, priced for BR'],
    ]);
  });

  it('says when nothing matches', async () => {
    show('/admin?view=purchases&q=nobody');
    expect(await screen.findByText('No purchase matches “nobody”.')).toBeInTheDocument();
  });

  it('pages through the purchases, keeping the search', async () => {
    const many = Array.from({length: 5}, (_, index) =>
      purchase({sessionId: `cs_test_${index}`, email: `buyer${index}@example.com`}),
    );
    worker().reset({purchases: many, pageSize: 2});
    show('/admin?view=purchases&q=buyer&page=2');
    const pages = await screen.findByRole('navigation', {name: 'Pages of purchases'});
    expect(pages).toHaveTextContent('Page 2 of 3, 5 purchases');
    expect(within(pages).getByRole('link', {name: 'Previous'})).toHaveAttribute(
      'href',
      '/admin?view=purchases&q=buyer',
    );
    expect(within(pages).getByRole('link', {name: 'Next'})).toHaveAttribute(
      'href',
      '/admin?view=purchases&q=buyer&page=3',
    );
    expect(
      screen
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getAllByRole('cell')[1]!.textContent),
    ).toEqual(['buyer2@example.com', 'buyer3@example.com']);
    expect(worker().requests.at(-1)!.query.get('page')).toBe('2');
  });
});
