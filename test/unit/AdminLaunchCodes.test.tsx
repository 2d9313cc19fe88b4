import React from 'react';
import {fireEvent, screen, waitFor, within} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type {AdminLaunchCode} from '../../src/config/api';
import {appConfig, LAUNCH_CODE_WORDS, launchCodeTerms, upgradesFrom} from '../../src/config';
import LaunchCodes from '../../src/components/screens/Admin/LaunchCodes';
import {renderWithSite} from '../support/render';
import {NOW, useAdminWorkerStub} from '../stubs/adminWorkerStub';

const worker = useAdminWorkerStub();
const show = () => renderWithSite(<LaunchCodes />, {env: {WORKER_URL: worker().url}, url: '/admin?view=codes'});
/** A plan the site sells, by its id and the name the seller reads. */
const plan = appConfig.plans.at(-1)!;
/** The last moment of 31 July 2026, UTC: what "Ends on 2026-07-31" sends. */
const END_OF_JULY = Date.UTC(2026, 6, 31, 23, 59, 59, 999);
/** A plan a buyer can upgrade to: the first one above the cheapest. */
const upgradedTo = upgradesFrom([...appConfig.plans].sort((a, b) => a.price - b.price)[0]!)[0]!;

function code(overrides: Partial<AdminLaunchCode>): AdminLaunchCode {
  return {
    id: 'promo_launch',
    code: 'LAUNCH-20',
    percentOff: 20,
    amountOff: null,
    currency: 'usd',
    maxUses: 5,
    endsAt: null,
    firstTimeOnly: false,
    forUpgrades: false,
    plan: null,
    createdAt: NOW - 86_400_000,
    endedAt: null,
    state: 'active',
    uses: 2,
    held: 0,
    revenue: 11_040,
    ...overrides,
  };
}

/** Shows the panel and starts a percent-off code in its Make a code form: the form, for the rest. */
async function startCode(name: string, percent: string): Promise<HTMLElement> {
  show();
  const form = await screen.findByRole('form', {name: 'Make a code'});
  await userEvent.type(within(form).getByLabelText('Code'), name);
  await userEvent.type(within(form).getByLabelText('Percent off (%)'), percent);
  return form;
}

/** The cells of each row of the codes' table, as the seller reads them. */
async function rows(): Promise<string[][]> {
  const table = await screen.findByRole('table', {name: 'Launch codes'});
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent ?? ''),
    );
}

describe('the Launch codes panel', () => {
  it('lists each code with its terms, its state, its uses and the revenue it brought', async () => {
    worker().reset({
      launchCodes: [
        code({}),
        code({
          id: 'promo_friends',
          code: 'FRIENDS',
          percentOff: null,
          amountOff: 1000,
          maxUses: null,
          endsAt: END_OF_JULY,
          firstTimeOnly: true,
          plan: plan.id,
          endedAt: NOW - 3_600_000,
          state: 'ended',
          uses: 3,
          revenue: 0,
        }),
      ],
    });
    show();
    expect(screen.getByRole('heading', {level: 2, name: 'Launch codes'})).toBeInTheDocument();
    expect(screen.getByText(/never stack with a country's fair price/)).toBeInTheDocument();
    expect(await rows()).toEqual([
      ['LAUNCH-20', '20% off, at most 5 uses', 'Active buyers can use it.', '2 / 5', '$110.40', 'End'],
      [
        'FRIENDS',
        `$10.00 off ${plan.name} only, first-time buyers only, until 31 July 2026`,
        'Ended you ended it, and no buyer can use it now.',
        '3',
        '$0.00',
        '—',
      ],
    ]);
  });

  it('makes a percent-off code with its limits, sent as the worker takes them, and lists it', async () => {
    show();
    expect(await screen.findByText('No launch codes yet: make one above.')).toBeInTheDocument();
    const form = screen.getByRole('form', {name: 'Make a code'});
    await userEvent.type(within(form).getByLabelText('Code'), 'LAUNCH-20');
    await userEvent.type(within(form).getByLabelText('Percent off (%)'), '20');
    await userEvent.type(within(form).getByLabelText('Max uses (optional)'), '5');
    // A date input takes its value whole, as the browser's picker sets it.
    fireEvent.change(within(form).getByLabelText('Ends on (optional)'), {target: {value: '2026-07-31'}});
    await userEvent.click(within(form).getByRole('checkbox', {name: 'First-time buyers only'}));
    await userEvent.selectOptions(within(form).getByLabelText('Plan'), plan.name);
    await userEvent.click(within(form).getByRole('button', {name: 'Make code'}));

    expect(
      await screen.findByText(
        `Code LAUNCH-20 made: 20% off ${plan.name} only, first-time buyers only, at most 5 uses, until 31 July 2026.`,
      ),
    ).toHaveAttribute('role', 'status');
    expect(
      worker()
        .actions()
        .map((seen) => [seen.path, seen.body]),
    ).toEqual([
      [
        '/admin/codes',
        {code: 'LAUNCH-20', percentOff: 20, maxUses: 5, endsAt: END_OF_JULY, firstTimeOnly: true, plan: plan.id},
      ],
    ]);
    // The list is read again, and shows the new code.
    expect((await rows()).map((cells) => cells.slice(0, 3))).toEqual([
      [
        'LAUNCH-20',
        `20% off ${plan.name} only, first-time buyers only, at most 5 uses, until 31 July 2026`,
        'Active buyers can use it.',
      ],
    ]);
  });

  it('empties the form after a code is made: none of its limits carry over to the next', async () => {
    const form = await startCode('ONCE', '15');
    await userEvent.type(within(form).getByLabelText('Max uses (optional)'), '3');
    await userEvent.click(within(form).getByRole('checkbox', {name: 'First-time buyers only'}));
    await userEvent.selectOptions(within(form).getByLabelText('Plan'), plan.name);
    await userEvent.click(within(form).getByRole('button', {name: 'Make code'}));
    await screen.findByText(/^Code ONCE made:/);
    // The form empties once the action has settled, which may be a moment after its sentence shows.
    await waitFor(() => expect(within(form).getByLabelText('Code')).toHaveValue(''));
    expect(within(form).getByLabelText('Percent off (%)')).toHaveValue('');
    expect(within(form).getByLabelText('Max uses (optional)')).toHaveValue('');
    expect(within(form).getByRole('checkbox', {name: 'First-time buyers only'})).not.toBeChecked();
    expect(within(form).getByLabelText('Plan')).toHaveValue('');
  });

  it('forgets the number typed when the kind of discount changes: 20 percent is not $20', async () => {
    const form = await startCode('SWITCH', '20');
    await userEvent.click(within(form).getByRole('radio', {name: 'Amount off'}));
    expect(within(form).getByLabelText('Amount off (USD)')).toHaveValue('');
    expect(within(form).getByRole('button', {name: 'Make code'})).toBeDisabled();
  });

  it('offers End only on an active code: an expired or used-up one Stripe already refuses', async () => {
    worker().reset({
      launchCodes: [
        code({id: 'promo_used', code: 'USED', state: 'used up', uses: 5}),
        code({id: 'promo_old', code: 'OLD', endsAt: NOW - 1000, state: 'expired'}),
      ],
    });
    show();
    expect((await rows()).map((cells) => [cells[0], cells[2], cells[5]])).toEqual([
      ['USED', 'Used up it has been used as many times as it allows.', '—'],
      ['OLD', 'Expired its end date has passed.', '—'],
    ]);
  });

  it('sends an amount off in cents, for every plan', async () => {
    show();
    const form = await screen.findByRole('form', {name: 'Make a code'});
    await userEvent.type(within(form).getByLabelText('Code'), 'TENOFF');
    await userEvent.click(within(form).getByRole('radio', {name: 'Amount off'}));
    await userEvent.type(within(form).getByLabelText('Amount off (USD)'), '12.50');
    await userEvent.click(within(form).getByRole('button', {name: 'Make code'}));
    expect(await screen.findByText('Code TENOFF made: $12.50 off.')).toHaveAttribute('role', 'status');
    expect(
      worker()
        .actions()
        .map((seen) => seen.body),
    ).toEqual([{code: 'TENOFF', amountOff: 1250}]);
  });

  it('sends nothing for a code with characters Stripe refuses, and says which are allowed', async () => {
    show();
    const form = await screen.findByRole('form', {name: 'Make a code'});
    const input = within(form).getByLabelText('Code');
    await userEvent.type(input, 'SUMMER SALE');
    await userEvent.type(within(form).getByLabelText('Percent off (%)'), '20');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Only letters, digits and dashes, 3 to 40 of them.');
    expect(within(form).getByRole('button', {name: 'Make code'})).toBeDisabled();
    // Enter in a field submits the form whatever the button: still nothing goes to the worker.
    fireEvent.submit(form);
    expect(worker().actions()).toEqual([]);
  });

  it('shows the worker’s refusal of a code already active, and keeps what was typed', async () => {
    worker().reset({launchCodes: [code({})]});
    const form = await startCode('launch-20', '30');
    await userEvent.click(within(form).getByRole('button', {name: 'Make code'}));
    expect(await screen.findByText(LAUNCH_CODE_WORDS.codeTaken('LAUNCH-20'))).toHaveAttribute('role', 'alert');
    expect(within(form).getByLabelText('Code')).toHaveValue('launch-20');
    expect((await rows()).map((cells) => cells[0])).toEqual(['LAUNCH-20']);
  });

  it('ends a code only after Confirm, then reads the list again', async () => {
    worker().reset({launchCodes: [code({})]});
    show();
    const [, row] = within(await screen.findByRole('table', {name: 'Launch codes'})).getAllByRole('row');
    await userEvent.click(within(row!).getByRole('button', {name: 'End'}));
    expect(worker().actions()).toEqual([]);
    const ask = screen.getByRole('group', {name: 'End'});
    expect(ask).toHaveTextContent('Stripe stops taking LAUNCH-20 at once');
    await userEvent.click(within(ask).getByRole('button', {name: 'Confirm'}));
    expect(await screen.findByText('LAUNCH-20 ended: Stripe no longer takes it.')).toHaveAttribute('role', 'status');
    expect(
      worker()
        .actions()
        .map((seen) => seen.path),
    ).toEqual(['/admin/codes/promo_launch/end']);
    await waitFor(() => expect(screen.queryByRole('button', {name: 'End'})).toBeNull());
    expect((await rows()).map((cells) => cells[2])).toEqual(['Ended you ended it, and no buyer can use it now.']);
  });

  describe('an upgrade code (past buyers only)', () => {
    it('sends forUpgrades with the plan upgraded to, and says its terms: upgrades, past buyers only', async () => {
      const form = await startCode('SPRING', '20');
      await userEvent.click(within(form).getByRole('checkbox', {name: 'Past buyers only (an upgrade code)'}));
      // The plan it is for is the plan upgraded to, and the code is typed on the dashboard, not at checkout.
      expect(within(form).getByLabelText('Code')).toHaveAccessibleDescription(
        "3 to 40 letters, digits or dashes: what past buyers type on their dashboard's upgrade card.",
      );
      await userEvent.selectOptions(within(form).getByLabelText('Plan upgraded to'), upgradedTo.name);
      await userEvent.click(within(form).getByRole('button', {name: 'Make code'}));

      const terms = `20% off upgrades to ${upgradedTo.name}, past buyers only`;
      expect(await screen.findByText(`Code SPRING made: ${terms}.`)).toHaveAttribute('role', 'status');
      expect(
        worker()
          .actions()
          .map((seen) => seen.body),
      ).toEqual([{code: 'SPRING', percentOff: 20, forUpgrades: true, plan: upgradedTo.id}]);
      expect((await rows()).map((cells) => cells.slice(0, 2))).toEqual([['SPRING', terms]]);
      await waitFor(() =>
        expect(within(form).getByRole('checkbox', {name: 'Past buyers only (an upgrade code)'})).not.toBeChecked(),
      );
    });

    it('refuses it for first-time buyers only too, and sends nothing', async () => {
      const form = await startCode('BOTH', '20');
      await userEvent.click(within(form).getByRole('checkbox', {name: 'First-time buyers only'}));
      const upgrades = within(form).getByRole('checkbox', {name: 'Past buyers only (an upgrade code)'});
      await userEvent.click(upgrades);
      expect(upgrades).toHaveAccessibleDescription(LAUNCH_CODE_WORDS.upgradeFirstTime);
      expect(within(form).getByRole('button', {name: 'Make code'})).toBeDisabled();
      fireEvent.submit(form);
      expect(worker().actions()).toEqual([]);
      // Unticking one of them is enough.
      await userEvent.click(within(form).getByRole('checkbox', {name: 'First-time buyers only'}));
      expect(within(form).getByRole('button', {name: 'Make code'})).toBeEnabled();
    });

    it('says the uses held by checkouts in progress beside those paid: they count against the limit', async () => {
      const upgradeCode = code({id: 'upcode_0123456789abcdef01234567', forUpgrades: true, uses: 1, held: 2});
      worker().reset({launchCodes: [upgradeCode, code({id: 'upcode_0123456789abcdef01234568', code: 'ONE', held: 1})]});
      show();
      expect((await rows()).map((cells) => cells[3])).toEqual([
        '1 / 5 (2 held by checkouts in progress)',
        '2 / 5 (1 held by a checkout in progress)',
      ]);
    });

    it('lists an upgrade code with its terms, and ends it in words true of it: Stripe never had it', async () => {
      const upgradeCode = code({
        id: 'upcode_0123456789abcdef01234567',
        code: 'SPRING',
        forUpgrades: true,
        plan: upgradedTo.id,
        maxUses: null,
        uses: 1,
      });
      worker().reset({launchCodes: [upgradeCode]});
      show();
      expect((await rows()).map((cells) => cells.slice(0, 2))).toEqual([['SPRING', launchCodeTerms(upgradeCode)]]);
      expect(launchCodeTerms(upgradeCode)).toBe(`20% off upgrades to ${upgradedTo.name}, past buyers only`);
      await userEvent.click(screen.getByRole('button', {name: 'End'}));
      const ask = screen.getByRole('group', {name: 'End'});
      expect(ask).toHaveTextContent('No buyer can use SPRING from then on');
      expect(ask).not.toHaveTextContent('Stripe');
      await userEvent.click(within(ask).getByRole('button', {name: 'Confirm'}));
      expect(await screen.findByText('SPRING ended: no buyer can use it now.')).toHaveAttribute('role', 'status');
      expect(
        worker()
          .actions()
          .map((seen) => seen.path),
      ).toEqual([`/admin/codes/${upgradeCode.id}/end`]);
    });
  });
});
