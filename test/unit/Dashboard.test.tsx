/**
 * The dashboard says what became of the buyer's purchase, in each state the worker reports
 * (GET /accessStatus's `payment` and `otherEnded`): refunded in full, disputed, reversed by a lost
 * dispute, partly refunded, another purchase refunded, revoked by the seller, and never bought. And
 * the Get the code card says what the plan held gets of the code.
 */
import React from 'react';
import {screen, waitFor, within} from '@testing-library/react';
import {SignedInDashboard} from '../../src/components/screens/Dashboard';
import {
  afterPurchase,
  appConfig,
  type AccessStatus,
  API_PATHS,
  type PaymentStanding,
  type UpgradeStanding,
} from '../../src/config';
import {renderWithSite} from '../support/render';
import {useJsonWorker} from '../support/jsonWorker';

const worker = useJsonWorker();
const {appName} = appConfig;
const [starter, advanced] = appConfig.plans;

const BOUGHT = Date.UTC(2026, 4, 3, 10);
const LATER = Date.UTC(2026, 4, 5, 23, 30);
const user = {uid: 'buyer-1', email: 'ada@example.com', displayName: null, photoURL: null};

function standing(overrides: Partial<PaymentStanding>): PaymentStanding {
  return {
    state: 'paid',
    plan: {id: advanced.id, name: advanced.name},
    boughtAt: BOUGHT,
    amount: 9900,
    refunded: 0,
    currency: 'usd',
    upgrades: [],
    ...overrides,
  };
}

const UPGRADED = Date.UTC(2026, 4, 4, 9);
/** A Starter purchase of $69 upgraded to Advanced for $30 on 4 May, each payment as `upgrade` and `purchase` say. */
function upgraded(purchase: Partial<PaymentStanding>, upgrade: Partial<UpgradeStanding>): PaymentStanding {
  const upgrades = [
    {
      state: 'paid',
      plan: {id: advanced.id, name: advanced.name},
      seatsAdded: 0,
      paidAt: UPGRADED,
      amount: 3000,
      refunded: 0,
      currency: 'usd',
      ...upgrade,
    } satisfies UpgradeStanding,
  ];
  const own = {plan: {id: starter.id, name: starter.name}, amount: 6900, ...purchase};
  return standing({...own, upgrades, total: {amount: 9900, refunded: (own.refunded ?? 0) + upgrades[0]!.refunded}});
}

let consoleError: jest.SpyInstance;
beforeEach(() => {
  // The plans' fair prices and the billing calls the test's worker does not answer are logged.
  consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(async () => {
  // Every card has read its answer before the next test (and the worker's close) comes.
  await waitFor(() => expect(screen.queryAllByRole('progressbar')).toEqual([]));
  consoleError.mockRestore();
});

function show(access: AccessStatus) {
  worker().answer(`GET ${API_PATHS.accessStatus}`, 200, access);
  worker().answer(`GET ${API_PATHS.receipts}`, 200, {
    receipts: [
      {
        plan: advanced.name,
        paidAt: BOUGHT,
        amount: 9900,
        currency: 'usd',
        refunded: access.payment?.refunded ?? 0,
        url: 'https://pay.stripe.com/receipts/1',
        kind: 'receipt',
      },
    ],
  });
  worker().answer(`GET ${API_PATHS.upgrades}`, 200, {plan: access.plan ?? null, upgrades: [], seats: null});
  worker().answer(`GET ${API_PATHS.releases}`, 200, {
    releases: [],
    includesUpdates: true,
    subscribed: true,
    latestTag: null,
  });
  renderWithSite(<SignedInDashboard user={user} />, {env: {WORKER_URL: worker().url}});
}

const refunded = standing({state: 'refunded', since: LATER, refunded: 9900});

describe('a purchase refunded in full', () => {
  it('says it was refunded, when and how much, that the access ended, and keeps the receipts; never that the buyer did not buy', async () => {
    show({status: 'revoked', hasPaid: false, username: 'octocat', payment: refunded});
    expect(
      await screen.findByRole('heading', {level: 1, name: `Your ${appName} purchase was refunded`}),
    ).toBeInTheDocument();
    const main = screen.getByRole('region', {name: 'What this means for you'});
    expect(main).toHaveTextContent(
      `Your ${appName} ${advanced.name} purchase of 3 May 2026 was refunded in full on 5 May 2026: $99.00 went back to the payment method you used.`,
    );
    expect(main).toHaveTextContent(
      "With the refund, its access to the code ended: @octocat's invitation to the private repository on GitHub is withdrawn, or the account removed from it, and the code can no longer be downloaded here.",
    );
    expect(main).toHaveTextContent('Your receipts stay below, the refund with them.');
    const receipts = screen.getByRole('region', {name: 'Receipts'});
    expect(await within(receipts).findByRole('link', {name: 'Receipt'})).toBeInTheDocument();
    expect(receipts).toHaveTextContent('$99.00 refunded');
    // The plans, to buy again; no form, no download, no "not bought".
    expect(screen.getByRole('article', {name: advanced.name})).toBeInTheDocument();
    expect(screen.queryByText(/You have not bought/)).toBeNull();
    expect(screen.queryByText(/has no purchase/)).toBeNull();
    expect(screen.queryByRole('textbox', {name: 'GitHub username'})).toBeNull();
    expect(screen.queryByRole('button', {name: /Download the code/})).toBeNull();
  });

  it('says no GitHub account was invited when none was', async () => {
    show({status: 'none', hasPaid: false, payment: refunded});
    expect(await screen.findByRole('region', {name: 'What this means for you'})).toHaveTextContent(
      'its access to the code ended: no GitHub account is invited for it, and the code can no longer be downloaded here.',
    );
  });
});

describe('a purchase with an upgrade, each a payment of its own', () => {
  it("refunded at Stripe with its upgrade still charged: names the plan bought, and says $69 of the $99 paid went back and the upgrade's $30 did not", async () => {
    show({
      status: 'revoked',
      hasPaid: false,
      username: 'octocat',
      payment: upgraded({state: 'refunded', since: LATER, refunded: 6900}, {}),
    });
    const main = await screen.findByRole('region', {name: 'What this means for you'});
    expect(main).toHaveTextContent(
      `Your ${appName} ${starter.name} purchase of 3 May 2026 was refunded in full on 5 May 2026, but not its upgrade to ${advanced.name} of 4 May 2026: $69.00 of the $99.00 you paid went back to the payment method you used, and the $30.00 you paid for the upgrade was not refunded. To ask for what was not refunded, write to ${appConfig.support.email}.`,
    );
  });

  it("refunded with its upgrade (the console's full refund): all $99 paid went back", async () => {
    show({
      status: 'revoked',
      hasPaid: false,
      username: 'octocat',
      payment: upgraded(
        {state: 'refunded', since: LATER, refunded: 6900},
        {state: 'refunded', since: LATER, refunded: 3000},
      ),
    });
    const main = await screen.findByRole('region', {name: 'What this means for you'});
    expect(main).toHaveTextContent(
      `Your ${appName} ${starter.name} purchase of 3 May 2026 was refunded in full on 5 May 2026, and so was its upgrade to ${advanced.name} of 4 May 2026: $99.00, all you paid, went back to the payment method you used.`,
    );
    expect(main).not.toHaveTextContent(/not refunded/);
  });

  it("disputed: the dispute is about the purchase's payment, and the upgrade's is told apart", async () => {
    show({
      status: 'revoked',
      hasPaid: false,
      username: 'octocat',
      payment: upgraded({state: 'disputed', since: LATER}, {}),
    });
    expect(await screen.findByRole('region', {name: 'What this means for you'})).toHaveTextContent(
      `A dispute asks the bank to reverse the payment, here of $69.00. The dispute does not cover its upgrade to ${advanced.name} of 4 May 2026, a payment of its own: the $30.00 you paid for it was not refunded.`,
    );
  });

  it('the upgrade refunded on its own, the purchase paid: a note says so, when, and the plan the purchase gives now', async () => {
    const payment = upgraded(
      {planNow: {id: starter.id, name: starter.name}},
      {state: 'refunded', since: LATER, refunded: 3000},
    );
    show({status: 'active', hasPaid: true, username: 'octocat', payment, plan: {id: starter.id, name: starter.name}});
    expect(await screen.findByRole('note')).toHaveTextContent(
      `The $30.00 you paid for the upgrade to ${advanced.name} of 4 May 2026 was refunded in full on 5 May 2026, so what it added was taken back: your ${appName} ${starter.name} purchase of 3 May 2026 gives the ${starter.name} plan now.`,
    );
    expect(screen.getByRole('heading', {name: 'Access active'})).toBeInTheDocument();
  });

  it('seats added and refunded: the note names the seats, never a move to the plan the team already had', async () => {
    const payment = upgraded(
      {plan: {id: advanced.id, name: advanced.name}, planNow: {id: advanced.id, name: advanced.name}},
      {state: 'refunded', since: LATER, refunded: 3000, seatsAdded: 2},
    );
    show({status: 'active', hasPaid: true, username: 'octocat', payment, plan: {id: advanced.id, name: advanced.name}});
    expect(await screen.findByRole('note')).toHaveTextContent(
      `The $30.00 you paid for the upgrade for 2 more seats of 4 May 2026 was refunded in full on 5 May 2026, so what it added was taken back`,
    );
    expect(screen.getByRole('note')).not.toHaveTextContent(`upgrade to ${advanced.name}`);
  });
});

describe('what it says of GitHub is what the grant says, and a dispute promises only what is so', () => {
  it('a removal still tried: the invitation is being withdrawn, the account may still be on the repository for now', async () => {
    show({status: 'revoked', removing: true, hasPaid: false, username: 'octocat', payment: refunded});
    const main = await screen.findByRole('region', {name: 'What this means for you'});
    expect(main).toHaveTextContent(
      "With the refund, its access to the code ended: the code can no longer be downloaded here. @octocat's invitation to the private repository on GitHub is being withdrawn, or the account removed from it: GitHub did not answer the first try, and it is tried again, so the account may still be on it for now.",
    );
    expect(main).not.toHaveTextContent(/is withdrawn/);
  });

  it('a removal that failed: the account may still be on the repository, never "withdrawn, or the account removed"', async () => {
    show({status: 'removal_failed', hasPaid: false, username: 'octocat', payment: refunded});
    const main = await screen.findByRole('region', {name: 'What this means for you'});
    expect(main).toHaveTextContent(
      'With the refund, its access to the code ended: the code can no longer be downloaded here. Removing @octocat from the private repository on GitHub failed, though, so the account may still be on it until the seller removes it. Its licence to use the code ended too',
    );
    expect(main).not.toHaveTextContent(/withdrawn|account removed/);
  });

  it('a dispute of a purchase the seller had revoked: the access does not come back by itself if the seller wins', async () => {
    show({
      status: 'revoked',
      hasPaid: false,
      username: 'octocat',
      payment: standing({state: 'disputed', since: LATER, revokedBySeller: true}),
    });
    const main = await screen.findByRole('region', {name: 'What this means for you'});
    expect(main).toHaveTextContent(
      "The seller had revoked its access to the code before the dispute: @octocat's invitation to the private repository on GitHub is withdrawn, or the account removed from it, and the code can no longer be downloaded here. If the dispute closes in the seller's favour, the purchase is paid again, but its access does not come back by itself: the seller revoked it, and only the seller can grant it again. If it closes in yours, the money is returned to you and the access ends for good.",
    );
    expect(main).not.toHaveTextContent(/comes back by itself/);
  });

  it('a refund of a purchase the seller had revoked says the seller revoked it first', async () => {
    show({status: 'revoked', hasPaid: false, username: 'octocat', payment: {...refunded, revokedBySeller: true}});
    expect(await screen.findByRole('region', {name: 'What this means for you'})).toHaveTextContent(
      "The seller had revoked its access to the code before the refund: @octocat's invitation",
    );
  });

  it('another purchase disputed after the seller revoked it: its access stays revoked, not suspended', async () => {
    const payment = standing({
      state: 'paid',
      plan: {id: starter.id, name: starter.name},
      boughtAt: Date.UTC(2026, 4, 9),
    });
    const otherEnded = standing({state: 'disputed', since: LATER, revokedBySeller: true});
    show({
      status: 'pending',
      hasPaid: true,
      username: 'octocat',
      payment,
      otherEnded,
      plan: {id: starter.id, name: starter.name},
    });
    expect(await screen.findByRole('note')).toHaveTextContent(
      `Your other ${appName} ${advanced.name} purchase of 3 May 2026 has been disputed with your bank or card issuer since 5 May 2026, so its access, which the seller had revoked before, stays revoked.`,
    );
  });
});

it('says an open dispute suspends the access until it closes, and offers no plans meanwhile', async () => {
  show({status: 'revoked', hasPaid: false, username: 'octocat', payment: standing({state: 'disputed', since: LATER})});
  expect(
    await screen.findByRole('heading', {level: 1, name: `Your ${appName} purchase is disputed`}),
  ).toBeInTheDocument();
  const main = screen.getByRole('region', {name: 'What this means for you'});
  expect(main).toHaveTextContent(
    `Your ${appName} ${advanced.name} purchase of 3 May 2026 has been disputed with your bank or card issuer since 5 May 2026.`,
  );
  expect(main).toHaveTextContent(
    "While the dispute is open, its access to the code is suspended: @octocat's invitation",
  );
  expect(main).toHaveTextContent(
    "If the dispute closes in the seller's favour, the access comes back by itself, for the same GitHub account",
  );
  expect(main).toHaveTextContent(`write to ${appConfig.support.email}`);
  expect(screen.getByRole('region', {name: 'Receipts'})).toBeInTheDocument();
  expect(screen.queryByRole('article', {name: advanced.name})).toBeNull();
});

it('says a lost dispute reversed the payment, when, and that the access ended', async () => {
  show({
    status: 'revoked',
    hasPaid: false,
    username: 'octocat',
    payment: standing({state: 'dispute_lost', since: LATER}),
  });
  expect(
    await screen.findByRole('heading', {level: 1, name: `Your ${appName} purchase was reversed`}),
  ).toBeInTheDocument();
  const main = screen.getByRole('region', {name: 'What this means for you'});
  expect(main).toHaveTextContent(
    `Your ${appName} ${advanced.name} purchase of 3 May 2026 was reversed by your bank or card issuer on 5 May 2026, when its dispute closed in your favour: the payment was returned to you.`,
  );
  expect(main).toHaveTextContent('With that, its access to the code ended');
  expect(screen.getByRole('region', {name: 'Receipts'})).toBeInTheDocument();
  expect(screen.getByRole('article', {name: advanced.name})).toBeInTheDocument();
});

it('says a partial refund keeps the purchase and its access, with the amount and the date', async () => {
  const payment = standing({state: 'partly_refunded', since: LATER, refunded: 1000});
  show({status: 'active', hasPaid: true, username: 'octocat', payment, plan: {id: advanced.id, name: advanced.name}});
  expect(await screen.findByRole('note')).toHaveTextContent(
    `$10.00 of the $99.00 you paid for your ${appName} ${advanced.name} purchase of 3 May 2026 was refunded on 5 May 2026. A partial refund keeps the purchase, its plan and its access.`,
  );
  expect(screen.getByRole('heading', {name: 'Access active'})).toBeInTheDocument();
  expect(screen.getByRole('textbox', {name: 'GitHub username'})).toBeInTheDocument();
});

it('tells a buyer who bought again after a refund that the other purchase was refunded, and that this one is paid', async () => {
  const payment = standing({state: 'paid', plan: {id: starter.id, name: starter.name}, boughtAt: Date.UTC(2026, 4, 9)});
  show({
    status: 'pending',
    hasPaid: true,
    username: 'octocat',
    payment,
    otherEnded: refunded,
    plan: {id: starter.id, name: starter.name},
  });
  expect(await screen.findByRole('note')).toHaveTextContent(
    `Your other ${appName} ${advanced.name} purchase of 3 May 2026 was refunded in full on 5 May 2026, so its access ended. Your ${appName} ${starter.name} purchase of 9 May 2026 is paid, and the access below is its own.`,
  );
  expect(screen.getByRole('heading', {name: 'Invitation pending'})).toBeInTheDocument();
});

it('a paid purchase with nothing to tell carries no note', async () => {
  show({
    status: 'active',
    hasPaid: true,
    username: 'octocat',
    payment: standing({}),
    plan: {id: advanced.id, name: advanced.name},
  });
  await screen.findByRole('heading', {name: 'Access active'});
  expect(screen.queryByRole('note')).toBeNull();
});

it("says the seller revoked the access, in the config's words, with no form to ask again", async () => {
  show({
    status: 'revoked',
    hasPaid: true,
    username: 'octocat',
    revokedBySeller: true,
    payment: standing({}),
    plan: {id: advanced.id, name: advanced.name},
  });
  expect(await screen.findByText(afterPurchase.revokedBySeller)).toBeInTheDocument();
  expect(screen.queryByRole('textbox', {name: 'GitHub username'})).toBeNull();
  expect(screen.queryByRole('note')).toBeNull();
});

it('tells an account that never bought so, with the plans', async () => {
  show({status: 'none', hasPaid: false});
  expect(
    await screen.findByRole('heading', {level: 1, name: `You have not bought ${appName} yet`}),
  ).toBeInTheDocument();
  expect(screen.getByText(/this account has no purchase/)).toBeInTheDocument();
});

describe('Get the code says what the plan gets', () => {
  it('a plan without updates: the kit as on the day of the purchase, no promise of updates, and which plan has them', async () => {
    show({
      status: 'active',
      hasPaid: true,
      username: 'octocat',
      payment: standing({plan: {id: starter.id, name: starter.name}}),
      plan: {id: starter.id, name: starter.name},
    });
    const card = await screen.findByRole('region', {name: 'Get the code'});
    await within(card).findByRole('button', {name: /Download the code/});
    expect(card).toHaveTextContent(
      `Your ${starter.name} plan includes the kit as it is on the day of your purchase, through the private repository on GitHub and the download here. It does not promise later updates: ${advanced.name} includes them, and Your plan below upgrades for the difference.`,
    );
    expect(card).not.toHaveTextContent(/updates through the repository/);
  });

  it('a plan with updates: lifetime updates, listed and e-mailed, and the latest in the repository and the download', async () => {
    show({
      status: 'active',
      hasPaid: true,
      username: 'octocat',
      payment: standing({}),
      plan: {id: advanced.id, name: advanced.name},
    });
    const card = await screen.findByRole('region', {name: 'Get the code'});
    await within(card).findByRole('button', {name: /Download the code/});
    expect(card).toHaveTextContent(
      `Your ${advanced.name} plan includes lifetime updates: each release is listed under What's new and e-mailed to you, and the private repository on GitHub and the download here hold the latest.`,
    );
  });
});
