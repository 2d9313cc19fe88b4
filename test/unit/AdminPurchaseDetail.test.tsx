import React from 'react';
import {screen, waitFor, within} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import PurchaseDetail from '../../src/components/screens/Admin/PurchaseDetail';
import {day} from '../../src/components/screens/Admin/format';
import {appConfig, endedMemberWords, seatsKeptWords} from '../../src/config';
import {renderWithSite} from '../support/render';
import {purchase, upgrade, useAdminWorkerStub} from '../stubs/adminWorkerStub';

const worker = useAdminWorkerStub();

function render(sessionId: string) {
  renderWithSite(<PurchaseDetail sessionId={sessionId} />, {
    env: {WORKER_URL: worker().url},
    url: `/admin?purchase=${sessionId}`,
  });
}

async function open(sessionId = 'cs_test_ada') {
  render(sessionId);
  await screen.findByText('Bought');
}

/** Clicks an action's button, then Confirm in the question it asks. */
async function confirm(action: string) {
  await userEvent.click(screen.getByRole('button', {name: action}));
  await userEvent.click(within(screen.getByRole('group', {name: action})).getByRole('button', {name: 'Confirm'}));
}

/** A team member who holds their seat, as the console lists them: a joined one has access. */
function heldMember(
  id: number,
  seat: number,
  state: 'joined' | 'invited',
  username: string | null,
  email: string | null,
) {
  return {
    id,
    seat,
    state,
    email,
    username,
    access: state === 'joined' ? ('active' as const) : ('none' as const),
    endReason: null,
    updatedAt: Date.UTC(2026, 5, seat),
  };
}

/** The prompts repository's grant as the console reads it (an Advanced purchase). */
const promptsGrant = {
  key: 'prompts',
  repository: 'slipway/prompts',
  status: 'pending' as const,
  username: 'ada-l',
  updatedAt: 0,
};

describe('a purchase’s page', () => {
  it('shows the purchase, its access and its history, newest first', async () => {
    await open();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(screen.getByText('cs_test_ada')).toBeInTheDocument();
    // The payment is a link to its page in Stripe's dashboard, in the worker's mode.
    expect(screen.getByRole('link', {name: /Open in Stripe/})).toHaveAttribute(
      'href',
      'https://dashboard.stripe.com/test/payments/pi_ada',
    );
    expect(screen.getByText(/moved it to another GitHub account once/)).toBeInTheDocument();
    const history = screen.getByRole('list', {name: 'History, newest first'});
    expect(
      within(history)
        .getAllByRole('listitem')
        .map((item) => item.querySelector('strong')!.textContent),
    ).toEqual(['Invited @ada-l', 'Welcome e-mail', 'Checkout completed']);
    expect(screen.getByRole('link', {name: '← All purchases'})).toHaveAttribute('href', '/admin?view=purchases');
  });

  it("lists every repository the purchase was granted, the kit's first, each with its state, repository and account", async () => {
    await open();
    const facts = screen.getAllByRole('term').map((term) => [term.textContent, term.nextElementSibling?.textContent]);
    const kit = facts.findIndex(([term]) => term === 'Kit repository');
    expect(facts.slice(kit, kit + 2)).toEqual([
      ['Kit repository', 'active · slipway/kit · @ada-l'],
      ['AI prompts (extra repository)', 'active · slipway/prompts · @ada-l'],
    ]);
  });

  it('names the launch code the purchase was paid with, the affiliate credited with it, and an upgrade’s code', async () => {
    const facts = () =>
      Object.fromEntries(
        screen.getAllByRole('term').map((term) => [term.textContent, term.nextElementSibling?.textContent]),
      );
    worker().reset({
      purchases: [
        purchase({upgrades: [upgrade()]}),
        purchase({
          sessionId: 'cs_test_coded',
          launchCode: 'LAUNCH20',
          referredBy: 'ada-links',
          upgrades: [upgrade({sessionId: 'cs_test_coded_up', launchCode: 'LOYAL10'})],
        }),
      ],
    });
    await open('cs_test_coded');
    expect(facts()).toMatchObject({'Launch code': 'LAUNCH20', 'Referred by': 'The affiliate ada-links'});
    expect(screen.getByText(/with the upgrade code LOYAL10/)).toBeInTheDocument();
  });

  it("says where a queued grant waits in its repository's line", async () => {
    worker().reset({
      purchases: [
        purchase({
          extras: [
            {
              ...promptsGrant,
              status: 'queued',
              expired: false,
              queue: {position: 3, expectedAt: Date.now() + 86_400_000},
            },
          ],
        }),
      ],
    });
    await open();
    expect(
      screen.getByText("queued: number 3 in line for GitHub's daily limit · slipway/prompts · @ada-l"),
    ).toBeInTheDocument();
  });

  it('asks before revoking, sends nothing on Cancel, and revokes on Confirm, then shows the new state', async () => {
    await open();
    await userEvent.click(screen.getByRole('button', {name: 'Revoke access'}));
    const question = screen.getByRole('group', {name: 'Revoke access'});
    expect(question).toHaveTextContent('Are you sure? @ada-l loses the repository');
    expect(within(question).getByRole('button', {name: 'Cancel'})).toHaveFocus();
    await userEvent.click(within(question).getByRole('button', {name: 'Cancel'}));
    expect(screen.queryByRole('group', {name: 'Revoke access'})).toBeNull();
    expect(worker().actions()).toEqual([]);

    await confirm('Revoke access');
    expect(await screen.findByText('Access revoked for @ada-l.')).toHaveAttribute('role', 'status');
    expect(
      worker()
        .actions()
        .map((seen) => seen.path),
    ).toEqual(['/admin/purchases/cs_test_ada/revoke']);
    // The purchase is read again: the access is revoked, and Revoke is gone.
    expect(await screen.findByText('Revoked')).toBeInTheDocument();
    expect(screen.queryByRole('button', {name: 'Revoke access'})).toBeNull();
  });

  it("names the buyer's other paid purchases that still give the code, and its Revoke says revoking this one leaves them", async () => {
    const at = (day: number) => Date.UTC(2026, 5, day, 9, 0, 0);
    worker().reset({
      purchases: [
        purchase({
          otherPaidPurchases: [
            {sessionId: 'cs_test_ada_starter', plan: 'Starter', createdAt: at(2), revokedBySellerAt: null},
            // Revoked already: it gives the buyer nothing, so it is not named.
            {sessionId: 'cs_test_ada_old', plan: 'Advanced', createdAt: at(1), revokedBySellerAt: at(3)},
          ],
        }),
      ],
    });
    await open();
    expect(screen.getByRole('link', {name: `Starter, ${day(at(2))}`})).toHaveAttribute(
      'href',
      '/admin?purchase=cs_test_ada_starter',
    );
    expect(screen.queryByRole('link', {name: new RegExp(`^Advanced, ${day(at(1))}`)})).toBeNull();
    await userEvent.click(screen.getByRole('button', {name: 'Revoke access'}));
    expect(screen.getByRole('group', {name: 'Revoke access'})).toHaveTextContent(
      `The buyer also holds another paid purchase (Starter, ${day(at(2))}), which keeps the code: revoke it too to end all of their access.`,
    );
  });

  it('says nothing of other purchases when the buyer holds none', async () => {
    await open();
    await userEvent.click(screen.getByRole('button', {name: 'Revoke access'}));
    expect(screen.getByRole('group', {name: 'Revoke access'})).not.toHaveTextContent('other paid purchase');
    expect(screen.queryByText(/other paid purchase/)).toBeNull();
  });

  it('revokes a purchase that only downloads (no GitHub account): says so, then gives it back with Grant access and no account', async () => {
    worker().reset({purchases: [purchase({access: null, extras: [], history: []})]});
    await open();
    expect(screen.getByText('Not asked for')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', {name: 'Revoke access'}));
    expect(screen.getByRole('group', {name: 'Revoke access'})).toHaveTextContent(
      'Are you sure? The buyer can no longer download the code, nor ask for an invitation, until you grant access again. Download links already made stop working.',
    );
    await userEvent.click(screen.getByRole('button', {name: 'Confirm'}));
    expect(await screen.findByText('Access revoked: the buyer can no longer download the code.')).toHaveAttribute(
      'role',
      'status',
    );
    expect(
      await screen.findByText(/by the seller: no downloads \(no GitHub account was asked for\)/),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        /^Access revoked by the seller on .+: the buyer can neither download the code nor ask for an invitation\./,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', {name: 'Revoke access'})).toBeNull();

    // Nothing typed: Grant access gives back the right alone.
    await userEvent.click(screen.getByRole('button', {name: 'Grant access'}));
    expect(screen.getByRole('group', {name: 'Grant access'})).toHaveTextContent(
      'The buyer may download the code and ask for an invitation again.',
    );
    await userEvent.click(screen.getByRole('button', {name: 'Confirm'}));
    expect(
      await screen.findByText('Access given back: the buyer may download the code and ask for an invitation.'),
    ).toHaveAttribute('role', 'status');
    expect(
      worker()
        .actions()
        .map((seen) => [seen.path, seen.body]),
    ).toEqual([
      ['/admin/purchases/cs_test_ada/revoke', {}],
      ['/admin/purchases/cs_test_ada/grant', {}],
    ]);
    expect(await screen.findByText('Not asked for')).toBeInTheDocument();
    expect(screen.getByRole('button', {name: 'Revoke access'})).toBeInTheDocument();
  });

  it('says only what the last action did: a full refund after a grant leaves no "Access granted" beside it, and the page follows Stripe until access has ended', async () => {
    worker().reset({purchases: [purchase({access: null, history: []})], confirmationAfterReads: 2});
    await open();
    await userEvent.type(screen.getByRole('textbox', {name: 'GitHub username'}), 'octocat');
    await confirm('Grant access');
    expect(await screen.findByText('Access granted to @octocat.')).toBeInTheDocument();
    expect(screen.getByText('active · slipway/prompts · @ada-l')).toBeInTheDocument();

    await confirm('Refund');
    expect(
      await screen.findByText("Refunded $99.00 in full. The buyer's access ends once Stripe confirms it."),
    ).toBeInTheDocument();
    expect(screen.queryByText('Access granted to @octocat.')).toBeNull();
    const said = () =>
      screen
        .getAllByRole('status')
        .map((status) => status.textContent!.trim())
        .filter(Boolean);
    expect(said()).toEqual([
      "Refunded $99.00 in full. The buyer's access ends once Stripe confirms it.",
      'Waiting for Stripe to confirm the refund: this page reads the purchase again until it does.',
    ]);
    // No reload: the page reads the purchase again until Stripe's confirmation shows.
    expect(
      await screen.findByText(
        "Refunded $99.00 in full. Stripe confirmed it: the buyer's access has ended.",
        {},
        {timeout: 10_000},
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('revoked · slipway/prompts · @ada-l')).toBeInTheDocument();
    expect(
      within(screen.getByText('GitHub access').nextElementSibling as HTMLElement).getByText('Revoked'),
    ).toBeInTheDocument();
    expect(screen.queryByText(/^Waiting for Stripe/)).toBeNull();
    expect(said()).toEqual(["Refunded $99.00 in full. Stripe confirmed it: the buyer's access has ended."]);
  });

  it('refunds part of the payment with its reason, once confirmed; the buyer keeps access and the page says what is left', async () => {
    await open();
    expect(screen.getByText(/\$99\.00 can still be refunded/)).toBeInTheDocument();
    const amount = screen.getByLabelText('Amount (USD)');
    expect(amount).toHaveValue('99.00');
    await userEvent.clear(amount);
    await userEvent.type(amount, '15.5');
    await userEvent.selectOptions(screen.getByLabelText('Reason'), 'A duplicate payment');
    expect(screen.getByText('A partial refund.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', {name: 'Refund'}));
    expect(screen.getByRole('group', {name: 'Refund'})).toHaveTextContent(
      '$15.50 goes back to the buyer through Stripe; they keep their access.',
    );
    expect(worker().actions()).toEqual([]);
    await userEvent.click(within(screen.getByRole('group', {name: 'Refund'})).getByRole('button', {name: 'Confirm'}));
    expect(await screen.findByText(/^Refunded \$15\.50\./)).toHaveAttribute('role', 'status');
    expect(
      worker()
        .actions()
        .map((seen) => [seen.path, seen.body]),
    ).toEqual([['/admin/purchases/cs_test_ada/refund', {amount: 1550, reason: 'duplicate', refundedBefore: 0}]]);
    expect(await screen.findByText(/\$15\.50 refunded so far; \$83\.50 can still be refunded/)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Amount (USD)')).toHaveValue('83.50'));
  });

  it('a full refund asks for all that is left, says access ends, and the page then reads refunded in full', async () => {
    await open();
    expect(screen.getByText('A full refund.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', {name: 'Refund'}));
    expect(screen.getByRole('group', {name: 'Refund'})).toHaveTextContent(
      '$99.00 goes back to the buyer through Stripe, and their access to the repository ends.',
    );
    await userEvent.click(within(screen.getByRole('group', {name: 'Refund'})).getByRole('button', {name: 'Confirm'}));
    expect(await screen.findByText('Refunded in full.')).toBeInTheDocument();
    expect(
      worker()
        .actions()
        .map((seen) => seen.body),
    ).toEqual([{reason: 'requested_by_customer', refundedBefore: 0}]);
  });

  it('refunds an upgrade by its own session, part then the rest; the page then shows it refunded and the plan before it', async () => {
    worker().reset({purchases: [purchase({amount: 6900, upgrades: [upgrade()]})]});
    await open();
    const section = screen.getByRole('region', {name: 'Upgrade: Starter → Advanced'});
    expect(section).toHaveTextContent('Paid $30.00, paid 3 Jun 2026, 14:05 UTC');
    expect(section).toHaveTextContent(
      'A full refund returns the purchase to Starter once Stripe confirms it (its access stays); a partial one keeps Advanced.',
    );
    // The purchase's own refund is apart, still all of its payment.
    expect(within(screen.getByRole('region', {name: 'Refund'})).getByLabelText('Amount (USD)')).toHaveValue('69.00');

    const amount = within(section).getByLabelText('Amount (USD)');
    await userEvent.clear(amount);
    await userEvent.type(amount, '10');
    await userEvent.selectOptions(within(section).getByLabelText('Reason'), 'A duplicate payment');
    await userEvent.click(within(section).getByRole('button', {name: 'Refund the upgrade'}));
    const question = within(section).getByRole('group', {name: 'Refund the upgrade'});
    expect(question).toHaveTextContent('$10.00 goes back to the buyer through Stripe; they keep Advanced.');
    await userEvent.click(within(question).getByRole('button', {name: 'Confirm'}));
    expect(
      await within(section).findByText('Refunded $10.00. $20.00 is left, and they keep Advanced.'),
    ).toHaveAttribute('role', 'status');
    expect(
      await within(section).findByText(/\$10\.00 refunded so far; \$20\.00 can still be refunded/),
    ).toBeInTheDocument();

    await userEvent.click(within(section).getByRole('button', {name: 'Refund the upgrade'}));
    expect(within(section).getByRole('group', {name: 'Refund the upgrade'})).toHaveTextContent(
      '$20.00 goes back to the buyer through Stripe, and the purchase returns to Starter.',
    );
    await userEvent.click(within(section).getByRole('button', {name: 'Confirm'}));
    expect(
      await within(section).findByText(
        'Refunded $20.00 in full. The purchase returns to Starter once Stripe confirms it.',
      ),
    ).toHaveAttribute('role', 'status');
    expect(
      worker()
        .actions()
        .map((seen) => [seen.path, seen.body]),
    ).toEqual([
      ['/admin/purchases/cs_test_ada_up/refund', {amount: 1000, reason: 'duplicate', refundedBefore: 0}],
      // The reason chosen stays chosen for the rest.
      ['/admin/purchases/cs_test_ada_up/refund', {reason: 'duplicate', refundedBefore: 1000}],
    ]);
    // Read again: the upgrade refunded, the purchase on Starter, its own payment untouched.
    await within(section).findByText('Refunded in full.');
    expect(within(section).getByText('Refunded', {exact: true})).toBeInTheDocument();
    expect(screen.getByText('Plan').nextElementSibling).toHaveTextContent('Starter');
    expect(within(screen.getByRole('region', {name: 'Refund'})).getByLabelText('Amount (USD)')).toHaveValue('69.00');
  });

  it('offers no refund for an upgrade that was disputed, refused or failed, and says why', async () => {
    const base = {
      fromPlan: 'Starter',
      toPlan: 'Advanced',
      label: 'Upgrade: Starter → Advanced',
      seatsAdded: 0,
      amount: 3000,
      amountRefunded: 0,
      currency: 'usd',
      paymentIntentId: 'pi_x',
      paidAt: null,
      fairPrice: null,
      launchCode: null,
    };
    worker().reset({
      purchases: [
        purchase({
          upgrades: [
            {...base, sessionId: 'cs_test_up_disputed', state: 'disputed'},
            {...base, sessionId: 'cs_test_up_refused', state: 'refused'},
            {...base, sessionId: 'cs_test_up_failed', state: 'failed', paymentIntentId: null},
          ],
        }),
      ],
    });
    await open();
    expect(screen.queryByRole('button', {name: 'Refund the upgrade'})).toBeNull();
    expect(screen.getByText(/^The buyer disputed this payment: answer the dispute in Stripe/)).toBeInTheDocument();
    expect(screen.getByText(/^Paid but never applied/)).toBeInTheDocument();
    expect(screen.getByText('The payment failed: nothing to refund.')).toBeInTheDocument();
  });

  it('names seats added to a team by what they are, and says a full refund takes the seats away, not the plan', async () => {
    const seats = upgrade({label: '2 more seats: Advanced', seatsAdded: 2, fromPlan: 'Advanced', toPlan: 'Advanced'});
    worker().reset({purchases: [purchase({amount: 6900, upgrades: [seats]})]});
    await open();
    const section = screen.getByRole('region', {name: '2 more seats: Advanced'});
    expect(section).toHaveTextContent(
      'A full refund takes the 2 seats away once Stripe confirms it: if the team then holds more seats than it has, its newest members lose theirs and are e-mailed why; a partial one keeps them.',
    );
    expect(section).not.toHaveTextContent('returns to Advanced');
  });

  it('shows a team purchase’s seats and every member given, held or ended, each in its own words', async () => {
    worker().reset({
      purchases: [
        purchase({
          seats: 3,
          members: [
            {
              id: 13,
              seat: 3,
              state: 'removed',
              email: null,
              username: 'grace-h',
              access: 'revoked',
              endReason: 'seats_refunded',
              updatedAt: Date.UTC(2026, 5, 3),
            },
            {
              id: 12,
              seat: 2,
              state: 'joined',
              email: 'lin@example.com',
              username: 'lin-dev',
              access: 'active',
              endReason: null,
              updatedAt: Date.UTC(2026, 5, 3),
            },
            {
              id: 14,
              seat: 4,
              state: 'invited',
              email: 'kay@example.com',
              username: null,
              access: 'none',
              endReason: null,
              updatedAt: Date.UTC(2026, 5, 3),
            },
          ],
        }),
      ],
    });
    await open();
    const team = screen.getByRole('region', {name: 'Team'});
    expect(team).toHaveTextContent("3 seats: the buyer's own and 2 for members, 2 given.");
    const members = within(team).getAllByRole('listitem');
    expect(members[0]).toHaveTextContent('@grace-h');
    expect(members[0]).toHaveTextContent(endedMemberWords('removed', 'seats_refunded'));
    expect(members[1]).toHaveTextContent('@lin-dev');
    expect(members[1]).toHaveTextContent('lin@example.com');
    expect(members[1]).toHaveTextContent('Has access to the repository.');
    expect(members[2]).toHaveTextContent('kay@example.com');
    expect(members[2]).toHaveTextContent(/^kay@example.com seat 4Invited by e-mail/);
  });

  it('refunds some of a team’s seats at the worker’s price for each, ending the members the seller picks, then the newest', async () => {
    const member = (seat: number, username: string) => heldMember(100 + seat, seat, 'joined', username, null);
    worker().reset({
      purchases: [
        purchase({
          seats: 4,
          amount: 30_000,
          members: [member(4, 'newest'), member(3, 'kept'), member(2, 'picked')],
          seatRefund: {most: 3, keeps: 1, refunded: 0, paid: 30_000, bought: 4, held: 3},
        }),
      ],
    });
    await open();
    const team = screen.getByRole('region', {name: 'Team'});
    expect(team).toHaveTextContent(
      "$75.00 a seat, the purchase's amount over the seats it bought; up to 3 seats (the buyer keeps their own).",
    );
    await userEvent.selectOptions(within(team).getByLabelText('Seats to refund'), '2 seats: $150.00');
    const pick = within(team).getByRole('group', {name: /Who loses a seat: pick up to 2/});
    await userEvent.click(within(pick).getByRole('checkbox', {name: '@picked (seat 2)'}));
    await userEvent.click(within(team).getByRole('button', {name: 'Refund seats'}));
    expect(screen.getByRole('group', {name: 'Refund seats'})).toHaveTextContent(
      '$150.00 goes back to the buyer through Stripe for 2 seats; the team keeps 2 seats, and 2 members lose theirs (seat 2, then the newest one), each told why by e-mail.',
    );
    await userEvent.click(
      within(screen.getByRole('group', {name: 'Refund seats'})).getByRole('button', {name: 'Confirm'}),
    );
    expect(await screen.findByText(/^Refunded 2 seats\./)).toHaveAttribute('role', 'status');
    expect(
      worker()
        .actions()
        .map((seen) => seen.body),
    ).toEqual([{seats: 2, reason: 'requested_by_customer', refundedBefore: 0, members: [102]}]);
    // Read again: 2 seats, the member kept holds theirs, the two others ended in the refund's words.
    await waitFor(() => expect(team).toHaveTextContent("2 seats: the buyer's own and 1 for members, 1 given."));
    const ended = within(team)
      .getAllByRole('listitem')
      .filter((item) => item.textContent!.includes(endedMemberWords('removed', 'seats_refunded')));
    expect(ended.map((item) => item.querySelector('strong')!.textContent)).toEqual(['@newest', '@picked']);
    expect(team).toHaveTextContent('up to 1 seat (the buyer keeps their own), 2 seats refunded so far.');
  });

  it('still says what the refund did once it took the last seat that could go', async () => {
    worker().reset({
      purchases: [
        purchase({
          seats: 3,
          amount: 22_500,
          members: [heldMember(61, 2, 'joined', 'kept', null)],
          seatRefund: {most: 1, keeps: 2, refunded: 0, paid: 22_500, bought: 3, held: 1},
        }),
      ],
    });
    await open();
    const team = screen.getByRole('region', {name: 'Team'});
    await confirm('Refund seats');
    // Read again, the page offers no more seats, and the refund's sentence is still there.
    await waitFor(() => expect(team).toHaveTextContent('1 seat refunded. No seat can be refunded by itself'));
    expect(within(team).getByRole('status')).toHaveTextContent(/^Refunded 1 seat\./);
  });

  it('offers no seat of a team of 2 bought at a team’s price, and says why', async () => {
    worker().reset({
      purchases: [
        purchase({
          seats: 2,
          amount: 15_800,
          members: [heldMember(51, 2, 'joined', 'pair', null)],
          seatRefund: {most: 0, keeps: 2, refunded: 0, paid: 15_800, bought: 2, held: 1},
        }),
      ],
    });
    await open();
    const team = screen.getByRole('region', {name: 'Team'});
    expect(team).toHaveTextContent(
      `No seat can be refunded by itself (${seatsKeptWords(2, appConfig.plans[1])}). Refund the whole purchase to end it.`,
    );
    expect(within(team).queryByLabelText('Seats to refund')).toBeNull();
  });

  it('counts a seat whose take-back is stuck as the worker does: a refund that leaves no room for it ends a member', async () => {
    worker().reset({
      purchases: [
        purchase({
          seats: 4,
          amount: 30_000,
          // Two members hold a seat, and a member removed before still holds the third on GitHub.
          members: [heldMember(42, 3, 'joined', 'kept', null), heldMember(41, 2, 'joined', 'older', null)],
          seatRefund: {most: 3, keeps: 1, refunded: 0, paid: 30_000, bought: 4, held: 3},
        }),
      ],
    });
    await open();
    const team = screen.getByRole('region', {name: 'Team'});
    await userEvent.selectOptions(within(team).getByLabelText('Seats to refund'), '1 seat: $75.00');
    await userEvent.click(within(team).getByRole('button', {name: 'Refund seats'}));
    expect(screen.getByRole('group', {name: 'Refund seats'})).toHaveTextContent(
      'the team keeps 3 seats, and 1 member loses their seat (the newest one)',
    );
    // More seats than there are members to lose them: only the members there are go.
    await userEvent.click(
      within(screen.getByRole('group', {name: 'Refund seats'})).getByRole('button', {name: 'Cancel'}),
    );
    await userEvent.selectOptions(within(team).getByLabelText('Seats to refund'), '3 seats: $225.00');
    await userEvent.click(within(team).getByRole('button', {name: 'Refund seats'}));
    expect(screen.getByRole('group', {name: 'Refund seats'})).toHaveTextContent(
      'the team keeps 1 seat, and 2 members lose theirs (the newest 2)',
    );
  });

  it('resends a team member’s invitation from their row, for their seat alone', async () => {
    worker().reset({
      purchases: [
        purchase({
          seats: 3,
          members: [
            {
              id: 21,
              seat: 2,
              state: 'joined',
              email: null,
              username: 'lin-dev',
              access: 'pending',
              endReason: null,
              updatedAt: Date.UTC(2026, 5, 3),
            },
            {
              id: 22,
              seat: 3,
              state: 'joined',
              email: null,
              username: 'kay-dev',
              access: 'active',
              endReason: null,
              updatedAt: Date.UTC(2026, 5, 2),
            },
          ],
        }),
      ],
    });
    await open();
    const team = screen.getByRole('region', {name: 'Team'});
    // Only a pending invitation can be renewed: the member who accepted has no such button.
    expect(within(team).queryByRole('button', {name: "Resend @kay-dev's invitation"})).toBeNull();
    await confirm("Resend @lin-dev's invitation");
    expect(await within(team).findByText(/^Invitation resent to @lin-dev\./)).toHaveAttribute('role', 'status');
    expect(
      worker()
        .actions()
        .map((seen) => [seen.path, seen.body]),
    ).toEqual([['/admin/purchases/cs_test_ada/resend', {key: 'kit', seat: 2}]]);
  });

  it('moves a team member’s seat to another account, and takes another’s back, from their rows: each named by their record', async () => {
    worker().reset({
      purchases: [
        purchase({
          seats: 4,
          members: [
            heldMember(33, 4, 'invited', null, 'kay@example.com'),
            heldMember(32, 3, 'joined', 'old-lin', 'lin@example.com'),
            heldMember(31, 2, 'joined', 'grace-h', null),
          ],
        }),
      ],
    });
    await open();
    const team = screen.getByRole('region', {name: 'Team'});
    // An invitation not taken has no account to move: it can only be withdrawn.
    expect(within(team).queryByLabelText("Move kay@example.com's seat to the GitHub account")).toBeNull();
    await userEvent.type(within(team).getByLabelText("Move @old-lin's seat to the GitHub account"), '@new-lin');
    const moves = within(team).getAllByRole('button', {name: 'Move seat'});
    // Only the field filled moves its seat.
    expect(moves.map((button) => (button as HTMLButtonElement).disabled)).toEqual([false, true]);
    await userEvent.click(moves[0]!);
    expect(screen.getByRole('group', {name: 'Move seat'})).toHaveTextContent(
      '@new-lin is invited to the repository for seat 3, and @old-lin loses it once the invitation is sent.',
    );
    await userEvent.click(
      within(screen.getByRole('group', {name: 'Move seat'})).getByRole('button', {name: 'Confirm'}),
    );
    expect(await within(team).findByText(/^Seat 3 moved to @new-lin\./)).toHaveAttribute('role', 'status');
    await waitFor(() => expect(within(team).getAllByRole('listitem')[1]).toHaveTextContent('@new-lin'));

    await confirm("Take back @grace-h's seat");
    expect(await within(team).findByText(/^@grace-h's seat taken back\./)).toHaveAttribute('role', 'status');
    await confirm("Withdraw kay@example.com's invitation");
    expect(await within(team).findByText(/^Invitation to kay@example.com withdrawn\./)).toHaveAttribute(
      'role',
      'status',
    );
    expect(
      worker()
        .actions()
        .map((seen) => [seen.path, seen.body]),
    ).toEqual([
      ['/admin/purchases/cs_test_ada/grant', {username: 'new-lin', member: 32}],
      ['/admin/purchases/cs_test_ada/take-back-member', {member: 31}],
      ['/admin/purchases/cs_test_ada/take-back-member', {member: 33}],
    ]);
    // Read again: each ended in the seller's words, with no action left on it.
    await waitFor(() => expect(team).toHaveTextContent(endedMemberWords('withdrawn', 'seller')));
    expect(team).toHaveTextContent(endedMemberWords('removed', 'seller'));
    expect(within(team).queryByRole('button', {name: "Take back @grace-h's seat"})).toBeNull();
    expect(team).toHaveTextContent("4 seats: the buyer's own and 3 for members, 1 given.");
  });

  it('shows no team for a purchase of one seat', async () => {
    await open();
    expect(screen.queryByRole('region', {name: 'Team'})).toBeNull();
  });

  it('shows no upgrades section for a purchase never upgraded', async () => {
    await open();
    expect(screen.queryByRole('heading', {name: 'Upgrades'})).toBeNull();
  });

  it('will not send an amount that is not one, or more than is left; says what it takes', async () => {
    await open();
    const amount = screen.getByLabelText('Amount (USD)');
    for (const typed of ['100', '0', '12.345', 'ten']) {
      await userEvent.clear(amount);
      await userEvent.type(amount, typed);
      expect(amount).toHaveAttribute('aria-invalid', 'true');
      expect(screen.getByText('Enter an amount from $0.01 to $99.00.')).toBeInTheDocument();
      expect(screen.getByRole('button', {name: 'Refund'})).toBeDisabled();
    }
  });

  it('closes the question on Escape without sending anything', async () => {
    await open();
    await userEvent.click(screen.getByRole('button', {name: 'Revoke access'}));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('group', {name: 'Revoke access'})).toBeNull();
    expect(screen.getByRole('button', {name: 'Revoke access'})).toHaveFocus();
    expect(worker().actions()).toEqual([]);
  });

  it('grants access to the username typed, once confirmed', async () => {
    worker().reset({purchases: [purchase({access: null, history: []})]});
    await open();
    expect(screen.getByText('Not asked for')).toBeInTheDocument();
    expect(screen.getByRole('button', {name: 'Grant access'})).toBeDisabled();
    await userEvent.type(screen.getByRole('textbox', {name: 'GitHub username'}), '@octocat');
    await userEvent.click(screen.getByRole('button', {name: 'Grant access'}));
    expect(screen.getByRole('group', {name: 'Grant access'})).toHaveTextContent(
      '@octocat is invited to the repository for this purchase.',
    );
    expect(worker().actions()).toEqual([]);
    await userEvent.click(screen.getByRole('button', {name: 'Confirm'}));
    expect(await screen.findByText('Access granted to @octocat.')).toHaveAttribute('role', 'status');
    expect(
      worker()
        .actions()
        .map((seen) => [seen.path, seen.body]),
    ).toEqual([['/admin/purchases/cs_test_ada/grant', {username: 'octocat'}]]);
    expect(await screen.findByText('Invitation pending')).toBeInTheDocument();
    expect(screen.getByText('Granted @octocat')).toBeInTheDocument();
  });

  it('resends an invitation GitHub says expired and resets the username changes, each once confirmed', async () => {
    worker().reset({
      purchases: [purchase({access: {status: 'pending', username: 'ada-l', usernameChanges: 3}, seatExpired: true})],
    });
    await open();
    expect(screen.getByText("GitHub says @ada-l's invitation expired before it was accepted.")).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', {name: 'Resend invitation'}));
    expect(worker().actions()).toEqual([]);
    await userEvent.click(screen.getByRole('button', {name: 'Confirm'}));
    expect(await screen.findByText('Invitation resent to @ada-l.')).toHaveAttribute('role', 'status');

    await userEvent.click(screen.getByRole('button', {name: 'Reset username changes'}));
    expect(screen.getByRole('group', {name: 'Reset username changes'})).toHaveTextContent('3 times');
    expect(worker().actions()).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', {name: 'Confirm'}));
    expect(await screen.findByText('Username changes reset.')).toBeInTheDocument();
    expect(
      worker()
        .actions()
        .map((seen) => seen.path),
    ).toEqual(['/admin/purchases/cs_test_ada/resend', '/admin/purchases/cs_test_ada/reset-username-changes']);
    expect(worker().actions()[0]!.body).toEqual({key: 'kit'});
    // Read again: no changes left to reset, and the fresh invitation is not one to send again.
    await waitFor(() => expect(screen.queryByText(/moved it to another GitHub account/)).toBeNull());
    expect(screen.queryByRole('button', {name: 'Reset username changes'})).toBeNull();
    expect(screen.queryByRole('button', {name: 'Resend invitation'})).toBeNull();
  });

  it("says an extra repository's removal failed for good, never that it was taken off", async () => {
    worker().reset({
      purchases: [purchase({extras: [{...promptsGrant, status: 'removal_failed', expired: false}]})],
    });
    await open();
    expect(
      screen.getByText(
        'removal failed: the account may still be on it (Retry under Failures) · slipway/prompts · @ada-l',
      ),
    ).toBeInTheDocument();
  });

  it("resends an extra repository's invitation that expired after its last re-send, once confirmed, and none that has not", async () => {
    const prompts = promptsGrant;
    worker().reset({purchases: [purchase({extras: [{...prompts, expired: true}]})]});
    await open();
    expect(screen.getByText('pending, expired · slipway/prompts · @ada-l')).toBeInTheDocument();
    const {name} = appConfig.extraRepositories.prompts;
    await confirm(`Resend ${name} invitation`);
    expect(await screen.findByText(`Invitation to ${name} resent to @ada-l.`)).toHaveAttribute('role', 'status');
    expect(
      worker()
        .actions()
        .map((seen) => [seen.path, seen.body]),
    ).toEqual([['/admin/purchases/cs_test_ada/resend', {key: 'prompts'}]]);
    // Read again: the fresh invitation is not one to send again.
    await waitFor(() => expect(screen.queryByRole('button', {name: `Resend ${name} invitation`})).toBeNull());
    expect(screen.getByText('pending · slipway/prompts · @ada-l')).toBeInTheDocument();
  });

  it('offers no resend for an invitation GitHub still honours, and says when it will', async () => {
    worker().reset({
      purchases: [purchase({access: {status: 'pending', username: 'ada-l', usernameChanges: 0}})],
    });
    await open();
    expect(screen.getByText('Invitation pending')).toBeInTheDocument();
    expect(
      screen.getByText(
        '@ada-l has not accepted the invitation yet. GitHub honours one for seven days; once it expires, it can be sent again here.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', {name: 'Resend invitation'})).toBeNull();
    expect(screen.getByRole('button', {name: 'Revoke access'})).toBeInTheDocument();
  });

  it.each(['active', 'failed', 'queued', 'revoked'] as const)(
    'offers no resend for access that is %s, only for a pending invitation',
    async (status) => {
      worker().reset({purchases: [purchase({access: {status, username: 'ada-l', usernameChanges: 0}})]});
      await open();
      expect(screen.queryByRole('button', {name: 'Resend invitation'})).toBeNull();
      expect(screen.getByRole('button', {name: 'Grant access'})).toBeInTheDocument();
    },
  );

  it('shows the worker’s error when an action is refused', async () => {
    worker().refuse('/admin/purchases/:sessionId/revoke', 503, {
      error: 'GitHub is not answering right now.',
      code: 'GITHUB_UNAVAILABLE',
    });
    await open();
    await confirm('Revoke access');
    expect(await screen.findByRole('alert')).toHaveTextContent('GitHub is not answering right now.');
  });

  it('says so when there is no such purchase', async () => {
    render('cs_test_missing');
    expect(await screen.findByRole('alert')).toHaveTextContent('No such purchase.');
  });

  it('shows a fair-price purchase whose card is from elsewhere as flagged, and clears the flag once Accept is confirmed', async () => {
    worker().reset({
      purchases: [purchase({fairPrice: {country: 'BR', percentOff: 40, cardCountry: 'US', review: 'flagged'}})],
    });
    await open();
    expect(screen.getByText('Card from US, priced for BR')).toBeInTheDocument();
    const section = screen.getByRole('region', {name: 'Fair price'});
    expect(section).toHaveTextContent(
      'Priced for Brazil (BR): 40% off. The card that paid is from United States (US).',
    );
    await confirm('Accept');
    expect(await screen.findByText('Accepted: the flag is cleared.')).toHaveAttribute('role', 'status');
    expect(
      worker()
        .actions()
        .map((seen) => seen.path),
    ).toEqual(['/admin/purchases/cs_test_ada/accept-card-country']);
    expect(await screen.findByText("Accepted by an admin despite the card's country.")).toBeInTheDocument();
    expect(screen.queryByRole('button', {name: 'Accept'})).toBeNull();
    expect(screen.queryByText('Card from US, priced for BR')).toBeNull();
  });

  it('flags a fair-price purchase paid by a method that tells no country, and says there was nothing to compare', async () => {
    worker().reset({
      purchases: [purchase({fairPrice: {country: 'BR', percentOff: 40, cardCountry: '', review: 'flagged'}})],
    });
    await open();
    expect(screen.getByText('No card country, priced for BR')).toBeInTheDocument();
    const section = screen.getByRole('region', {name: 'Fair price'});
    expect(section).toHaveTextContent(
      'It was paid by a method that tells no country (not a card), so the price could not be checked against it.',
    );
    expect(section).toHaveTextContent(
      'Nothing shows the buyer is in the country of the price. Accept the purchase as it is, or refund it below.',
    );
  });

  it('tells a card Stripe never let the worker read from a payment that tells no country, and says how to read it again', async () => {
    worker().reset({
      purchases: [purchase({fairPrice: {country: 'BR', percentOff: 40, cardCountry: null, review: 'flagged'}})],
    });
    await open();
    expect(screen.getByText('Card never read, priced for BR')).toBeInTheDocument();
    const section = screen.getByRole('region', {name: 'Fair price'});
    expect(section).toHaveTextContent(
      `Stripe never answered when asked where the card is from. Retry its "Card's country" job under Failures once Stripe answers, or decide without it.`,
    );
    expect(section).not.toHaveTextContent('tells no country');
    expect(screen.getByRole('button', {name: 'Accept'})).toBeEnabled();
  });

  it("shows an upgrade paid with a card from elsewhere as flagged, on the purchase and on the upgrade, and accepts that upgrade's payment by its own session", async () => {
    const flagged = {country: 'BR', percentOff: 40, cardCountry: 'US', review: 'flagged' as const};
    // The purchase's own card matched: only the upgrade's is flagged.
    const own = {country: 'BR', percentOff: 40, cardCountry: 'BR', review: null};
    worker().reset({
      purchases: [
        purchase({fairPrice: own, flaggedUpgrade: flagged, upgrades: [upgrade({amount: 1800, fairPrice: flagged})]}),
      ],
    });
    await open();
    expect(screen.getByText('State').nextElementSibling).toHaveTextContent('Upgrade: Card from US, priced for BR');
    expect(
      within(screen.getByRole('region', {name: 'Fair price'})).getByText(/The card that paid is from Brazil \(BR\)\./),
    ).toBeInTheDocument();
    const section = screen.getByRole('region', {name: 'Upgrade: Starter → Advanced'});
    const review = within(section).getByRole('region', {name: "Fair price of the upgrade's payment"});
    expect(review).toHaveTextContent('Priced for Brazil (BR): 40% off. The card that paid is from United States (US).');
    expect(review).toHaveTextContent('accept the upgrade as it is, or refund it below.');

    await userEvent.click(within(review).getByRole('button', {name: 'Accept'}));
    expect(within(review).getByRole('group', {name: 'Accept'})).toHaveTextContent(
      'The upgrade keeps its price and the flag clears',
    );
    await userEvent.click(within(review).getByRole('button', {name: 'Confirm'}));
    expect(await within(review).findByText('Accepted: the flag is cleared.')).toHaveAttribute('role', 'status');
    expect(
      worker()
        .actions()
        .map((seen) => seen.path),
    ).toEqual(['/admin/purchases/cs_test_ada_up/accept-card-country']);
    expect(await within(section).findByText("Accepted by an admin despite the card's country.")).toBeInTheDocument();
    expect(screen.queryByText(/Card from US, priced for BR/)).toBeNull();
    expect(screen.queryByRole('button', {name: 'Accept'})).toBeNull();
  });

  it('shows nothing of fair prices for a purchase at the list price', async () => {
    await open();
    expect(screen.queryByRole('region', {name: 'Fair price'})).toBeNull();
    expect(screen.queryByRole('button', {name: 'Accept'})).toBeNull();
  });
});
