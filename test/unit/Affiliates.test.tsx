/**
 * The affiliate programme's page in each state: a visitor reads the pitch and the terms and is
 * offered sign-in that comes back here; a signed-in user names a code and joins, or reads the
 * worker's refusal; a joined affiliate reads their link, figures and commissions; a failed read
 * offers Try again; and with no programme in the config the page says there is none. When the
 * programme pays through Stripe, a joined affiliate reads where their payouts stand and is sent to
 * the Stripe link the worker answers; a refusal is said and the button works again.
 */
import React from 'react';
import {screen, waitFor, within} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {AffiliatesView} from '../../src/components/screens/Affiliates';
import {AFFILIATE_CODE_RULE, AFFILIATE_WORDS, appConfig, COMMISSION_STATES, planAmount, ROUTES} from '../../src/config';
import {API_PATHS, type AffiliateAnswer, type AffiliateCommission} from '../../src/config/api';
import {formatMoney} from '../../src/config/money';
import {renderWithSite} from '../support/render';
import {useJsonWorker} from '../support/jsonWorker';

const worker = useJsonWorker();
const GET = `GET ${API_PATHS.affiliate}`;
const JOIN = `POST ${API_PATHS.joinAffiliates}`;
const CONNECT = `POST ${API_PATHS.affiliateConnect}`;
const user = {uid: 'uid-ada', email: 'ada@example.com', displayName: null, photoURL: null};
const programme = appConfig.affiliates!;
const TERMS = {commissionPercent: programme.commissionPercent, referralDays: programme.referralDays, holdDays: 74};
const JOINED_AT = Date.UTC(2026, 4, 3, 10);
// Two sales, at the dearest and the cheapest plan's price (read from the config, so a re-price needs no edit here).
const PRICES = appConfig.plans.map(planAmount).sort((a, b) => a - b);
const [CHEAP, DEAR] = [PRICES[0]!, PRICES[PRICES.length - 1]!];
const earned = (amount: number) => Math.round((amount * programme.commissionPercent) / 100);

function commission(overrides: Partial<AffiliateCommission>): AffiliateCommission {
  return {
    paidAt: Date.UTC(2026, 4, 10),
    amount: DEAR,
    commission: earned(DEAR),
    currency: 'usd',
    state: 'pending',
    payableAt: Date.UTC(2026, 6, 23),
    ...overrides,
  };
}

const NOT_JOINED: AffiliateAnswer = {terms: TERMS, affiliate: null};
function joined(overrides: Partial<NonNullable<AffiliateAnswer['affiliate']>> = {}): AffiliateAnswer {
  return {
    terms: TERMS,
    affiliate: {
      code: 'ada',
      link: 'https://example.com/?via=ada',
      joinedAt: JOINED_AT,
      clicks: 42,
      sales: 2,
      totals: {currency: 'usd', pending: earned(DEAR), payable: earned(CHEAP), paid: 1000, owedBack: 0},
      commissions: [
        commission({}),
        commission({
          paidAt: Date.UTC(2026, 1, 1),
          amount: CHEAP,
          commission: earned(CHEAP),
          state: 'payable',
          payableAt: Date.UTC(2026, 3, 16),
        }),
      ],
      stripe: null,
      ...overrides,
    },
  };
}

function show(ready: boolean, signedIn: typeof user | null, redirect?: (url: string) => void) {
  return renderWithSite(<AffiliatesView ready={ready} user={signedIn} redirect={redirect} />, {
    env: {WORKER_URL: worker().url},
    url: ROUTES.affiliates,
  });
}

let consoleError: jest.SpyInstance;
beforeEach(() => {
  consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(async () => {
  // Every read has its answer before the next test.
  await waitFor(() => expect(screen.queryAllByRole('progressbar')).toEqual([]));
  consoleError.mockRestore();
});

/** The cells of each row of the commissions, as the affiliate reads them. */
function rows(): string[][] {
  const table = screen.getByRole('table', {name: AFFILIATE_WORDS.commissionsCaption});
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent ?? ''),
    );
}

describe('the affiliate page', () => {
  it('shows a visitor the pitch, the terms and a sign-in that comes back here, and asks the worker nothing', () => {
    show(true, null);
    expect(screen.getByRole('heading', {level: 1, name: AFFILIATE_WORDS.heading})).toBeInTheDocument();
    expect(
      screen.getByText(`Earn ${programme.commissionPercent}% of every sale you send our way.`),
    ).toBeInTheDocument();
    const terms = within(screen.getByRole('region', {name: AFFILIATE_WORDS.termsHeading})).getAllByRole('listitem');
    expect(terms.map((term) => term.textContent)).toEqual(AFFILIATE_WORDS.terms());
    expect(screen.getByText(AFFILIATE_WORDS.signInToJoin)).toBeInTheDocument();
    expect(screen.getByRole('link', {name: AFFILIATE_WORDS.signIn})).toHaveAttribute(
      'href',
      `${appConfig.auth.loginUrl}?next=${encodeURIComponent(ROUTES.affiliates)}`,
    );
    expect(screen.queryByRole('form')).toBeNull();
    expect(worker().calls).toEqual([]);
  });

  it('shows the pitch and the terms while sign-in is not yet known, and no way on', () => {
    show(false, null);
    expect(screen.getByRole('progressbar', {name: AFFILIATE_WORDS.loading})).toBeInTheDocument();
    expect(screen.getByRole('region', {name: AFFILIATE_WORDS.termsHeading})).toBeInTheDocument();
    expect(screen.queryByRole('link', {name: AFFILIATE_WORDS.signIn})).toBeNull();
  });

  it('lets a signed-in user name a code and join; the code is sent as the worker reads it, and the link shows', async () => {
    worker().answer(GET, 200, NOT_JOINED);
    worker().answer(JOIN, 201, joined({commissions: [], clicks: 0, sales: 0}));
    show(true, user);
    const form = await screen.findByRole('form', {name: AFFILIATE_WORDS.joinHeading});
    const field = within(form).getByLabelText(AFFILIATE_WORDS.codeLabel);
    const button = within(form).getByRole('button', {name: AFFILIATE_WORDS.join});
    expect(field).toHaveAccessibleDescription(`${AFFILIATE_CODE_RULE}.`);
    expect(button).toBeDisabled();

    // A code of the wrong form is refused before anything is sent.
    await userEvent.type(field, 'a_b');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(button).toBeDisabled();

    await userEvent.clear(field);
    await userEvent.type(field, ' Ada ');
    expect(field).toHaveAttribute('aria-invalid', 'false');
    await userEvent.click(button);

    expect(await screen.findByRole('textbox', {name: AFFILIATE_WORDS.linkLabel})).toHaveValue(
      'https://example.com/?via=ada',
    );
    expect(worker().calls.map((call) => [call.route, call.body])).toEqual([
      [GET, null],
      [JOIN, {code: 'ada'}],
    ]);
    expect(screen.getByText(AFFILIATE_WORDS.noCommissions)).toBeInTheDocument();
  });

  it.each([
    [409, {error: AFFILIATE_WORDS.codeTaken, code: 'CONFLICT'}],
    [403, {error: 'Verify your e-mail address first: open the link we sent you.', code: 'EMAIL_NOT_VERIFIED'}],
    [400, {error: AFFILIATE_CODE_RULE, code: 'BAD_REQUEST'}],
  ])("shows the worker's refusal (%s) in its words, and keeps the form", async (status, body) => {
    worker().answer(GET, 200, NOT_JOINED);
    worker().answer(JOIN, status, body);
    show(true, user);
    const form = await screen.findByRole('form', {name: AFFILIATE_WORDS.joinHeading});
    await userEvent.type(within(form).getByLabelText(AFFILIATE_WORDS.codeLabel), 'taken-code');
    await userEvent.click(within(form).getByRole('button', {name: AFFILIATE_WORDS.join}));
    expect(await within(form).findByRole('alert')).toHaveTextContent(body.error);
    expect(within(form).getByRole('button', {name: AFFILIATE_WORDS.join})).toBeEnabled();
    expect(within(form).getByLabelText(AFFILIATE_WORDS.codeLabel)).toHaveValue('taken-code');
  });

  it('after a 409 that says the user already joined (another tab), shows their link', async () => {
    worker().answer(GET, 200, NOT_JOINED);
    worker().answer(JOIN, 409, {error: AFFILIATE_WORDS.alreadyJoined, code: 'CONFLICT'});
    show(true, user);
    const form = await screen.findByRole('form', {name: AFFILIATE_WORDS.joinHeading});
    worker().answer(GET, 200, joined());
    await userEvent.type(within(form).getByLabelText(AFFILIATE_WORDS.codeLabel), 'ada');
    await userEvent.click(within(form).getByRole('button', {name: AFFILIATE_WORDS.join}));
    expect(await screen.findByRole('textbox', {name: AFFILIATE_WORDS.linkLabel})).toHaveValue(
      'https://example.com/?via=ada',
    );
  });

  it('shows a joined affiliate their link with Copy, their figures, and each commission with where it stands', async () => {
    worker().answer(GET, 200, joined());
    const writeText = jest.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', {value: {writeText}, configurable: true});
    show(true, user);
    const link = await screen.findByRole('textbox', {name: AFFILIATE_WORDS.linkLabel});
    expect(link).toHaveAttribute('readonly');
    expect(screen.getByText('Your code is ada, since 3 May 2026.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', {name: AFFILIATE_WORDS.copy}));
    expect(writeText).toHaveBeenCalledWith('https://example.com/?via=ada');
    expect(await screen.findByText(AFFILIATE_WORDS.copied)).toHaveAttribute('role', 'status');

    const figures = within(screen.getByRole('region', {name: AFFILIATE_WORDS.figuresHeading}));
    const figure = (label: string) => figures.getByText(label).nextElementSibling?.textContent;
    expect(figure(AFFILIATE_WORDS.clicks)).toBe('42');
    expect(figure(AFFILIATE_WORDS.sales)).toBe('2');
    expect(figure(AFFILIATE_WORDS.pending)).toBe(formatMoney(earned(DEAR), 'usd'));
    expect(figure(AFFILIATE_WORDS.payable)).toBe(formatMoney(earned(CHEAP), 'usd'));
    expect(figure(AFFILIATE_WORDS.paid)).toBe(formatMoney(1000, 'usd'));
    // Nothing is owed back: neither the figure nor its note shows.
    expect(figures.queryByText(AFFILIATE_WORDS.owedBack)).toBeNull();
    expect(screen.queryByText(AFFILIATE_WORDS.owedBackNote)).toBeNull();

    expect(rows()).toEqual([
      [
        '10 May 2026',
        formatMoney(DEAR, 'usd'),
        formatMoney(earned(DEAR), 'usd'),
        COMMISSION_STATES.pending,
        '23 July 2026',
      ],
      [
        '1 February 2026',
        formatMoney(CHEAP, 'usd'),
        formatMoney(earned(CHEAP), 'usd'),
        COMMISSION_STATES.payable,
        '16 April 2026',
      ],
    ]);
    expect(screen.queryByRole('form')).toBeNull();
  });

  it('shows what is owed back, and a commission refunded after it was paid in its own words', async () => {
    worker().answer(
      GET,
      200,
      joined({
        totals: {currency: 'usd', pending: 0, payable: 0, paid: 1000, owedBack: earned(CHEAP)},
        commissions: [commission({amount: 0, commission: 0, state: 'refundedAfterPayout'})],
      }),
    );
    show(true, user);
    const figures = within(await screen.findByRole('region', {name: AFFILIATE_WORDS.figuresHeading}));
    expect(figures.getByText(AFFILIATE_WORDS.owedBack).nextElementSibling?.textContent).toBe(
      formatMoney(earned(CHEAP), 'usd'),
    );
    expect(figures.getByText(AFFILIATE_WORDS.owedBackNote)).toBeInTheDocument();
    expect(rows()[0]).toContain(COMMISSION_STATES.refundedAfterPayout);
  });

  it('says so when the browser refuses to copy', async () => {
    worker().answer(GET, 200, joined());
    const writeText = jest.fn().mockRejectedValue(new Error('NotAllowedError'));
    Object.defineProperty(navigator, 'clipboard', {value: {writeText}, configurable: true});
    show(true, user);
    await userEvent.click(await screen.findByRole('button', {name: AFFILIATE_WORDS.copy}));
    expect(await screen.findByRole('alert')).toHaveTextContent(AFFILIATE_WORDS.copyFailed);
  });

  it('says when the account could not be read, and reads it again on Try again', async () => {
    worker().answer(GET, 500, {error: 'Internal error'});
    show(true, user);
    expect(await screen.findByRole('alert')).toHaveTextContent(AFFILIATE_WORDS.loadFailed);
    expect(consoleError).toHaveBeenCalledWith('Reading the affiliate account failed:', expect.anything());
    worker().answer(GET, 200, NOT_JOINED);
    await userEvent.click(screen.getByRole('button', {name: AFFILIATE_WORDS.tryAgain}));
    expect(await screen.findByRole('form', {name: AFFILIATE_WORDS.joinHeading})).toBeInTheDocument();
  });

  it('says there is no programme when the worker runs none (404)', async () => {
    worker().answer(GET, 404, {error: AFFILIATE_WORDS.noProgramme, code: 'NOT_FOUND'});
    show(true, user);
    expect(await screen.findByRole('alert')).toHaveTextContent(AFFILIATE_WORDS.noProgramme);
    expect(screen.queryByRole('button', {name: AFFILIATE_WORDS.tryAgain})).toBeNull();
  });

  it('with no programme in the config, says there is none, and shows no terms nor sign-in', () => {
    const config = appConfig as {affiliates?: typeof programme};
    config.affiliates = undefined;
    try {
      show(true, null);
      expect(screen.getByRole('heading', {level: 1, name: AFFILIATE_WORDS.heading})).toBeInTheDocument();
      expect(screen.getByText(AFFILIATE_WORDS.noProgramme)).toBeInTheDocument();
      expect(screen.queryByRole('link', {name: AFFILIATE_WORDS.signIn})).toBeNull();
      expect(screen.queryByRole('region')).toBeNull();
    } finally {
      config.affiliates = programme;
    }
  });

  describe('payouts through Stripe', () => {
    const STRIPE_LINK = 'https://connect.stripe.com/setup/e/acct_1Test/AbCd';
    const payouts = () => screen.findByRole('region', {name: AFFILIATE_WORDS.payoutsHeading});

    it.each(['unconnected', 'onboarding', 'ready'] as const)(
      'says where payouts stand (%s) and offers the one way on to Stripe',
      async (state) => {
        worker().answer(GET, 200, joined({stripe: state}));
        show(true, user);
        const section = within(await payouts());
        expect(section.getByRole('heading', {level: 2, name: AFFILIATE_WORDS.payoutsHeading})).toBeInTheDocument();
        expect(section.getByText(AFFILIATE_WORDS.stripeStates[state])).toBeInTheDocument();
        expect(section.getAllByRole('button').map((button) => button.textContent)).toEqual([
          AFFILIATE_WORDS.connectActions[state],
        ]);
        expect(section.getByRole('button')).toBeEnabled();
        // Nothing is asked of Stripe before the press: its link is single-use.
        expect(worker().calls.map((call) => call.route)).toEqual([GET]);
      },
    );

    it.each([
      ['unconnected', 'onboarding'],
      ['ready', 'dashboard'],
    ] as const)(
      'on the press (%s), asks the worker for a link and sends the browser to it, the button saying so meanwhile',
      async (state, kind) => {
        worker().answer(GET, 200, joined({stripe: state}));
        worker().answer(CONNECT, 200, {url: STRIPE_LINK, kind});
        const redirect = jest.fn();
        show(true, user, redirect);
        await userEvent.click(
          within(await payouts()).getByRole('button', {name: AFFILIATE_WORDS.connectActions[state]}),
        );
        await waitFor(() => expect(redirect).toHaveBeenCalledWith(STRIPE_LINK));
        expect(redirect).toHaveBeenCalledTimes(1);
        expect(worker().calls.map((call) => call.route)).toEqual([GET, CONNECT]);
        // The browser is leaving: the button stays busy, so a second press sends nothing.
        const button = within(await payouts()).getByRole('button', {name: AFFILIATE_WORDS.connecting});
        expect(button).toBeDisabled();
        expect(screen.queryByRole('alert')).toBeNull();
      },
    );

    it.each([
      [
        'a refusal in its words',
        502,
        {error: 'Stripe is not answering: try again in a moment.', code: 'PAYMENT_PROVIDER'},
      ],
      ['its own words for a failure the worker did not explain', 500, {error: 'Internal error'}],
      ['its own words for an answer with no link', 200, {kind: 'onboarding'}],
    ])('shows %s, and the button works again', async (_, status, body) => {
      worker().answer(GET, 200, joined({stripe: 'onboarding'}));
      worker().answer(CONNECT, status, body);
      const redirect = jest.fn();
      show(true, user, redirect);
      const action = AFFILIATE_WORDS.connectActions.onboarding;
      await userEvent.click(within(await payouts()).getByRole('button', {name: action}));
      const said = 'code' in body ? body.error : AFFILIATE_WORDS.connectFailed;
      expect(await within(await payouts()).findByRole('alert')).toHaveTextContent(said);
      expect(consoleError).toHaveBeenCalledWith('Opening Stripe for payouts failed:', expect.anything());
      expect(redirect).not.toHaveBeenCalled();

      worker().answer(CONNECT, 200, {url: STRIPE_LINK, kind: 'onboarding'});
      const button = within(await payouts()).getByRole('button', {name: action});
      expect(button).toBeEnabled();
      await userEvent.click(button);
      await waitFor(() => expect(redirect).toHaveBeenCalledWith(STRIPE_LINK));
      expect(screen.queryByRole('alert')).toBeNull();
      expect(worker().calls.map((call) => call.route)).toEqual([GET, CONNECT, CONNECT]);
    });

    it.each([
      ['the programme does not pay through it (null)', null],
      ['a worker from before it sends no state', undefined],
      ['the state is one the page has no words for', 'paused'],
    ])('shows nothing of Stripe when %s', async (_, stripe) => {
      worker().answer(GET, 200, joined({stripe: stripe as never}));
      show(true, user);
      await screen.findByRole('textbox', {name: AFFILIATE_WORDS.linkLabel});
      expect(screen.queryByRole('heading', {name: AFFILIATE_WORDS.payoutsHeading})).toBeNull();
      for (const words of [
        ...Object.values(AFFILIATE_WORDS.stripeStates),
        ...Object.values(AFFILIATE_WORDS.connectActions),
      ])
        expect(screen.queryByText(words)).toBeNull();
      expect(screen.queryByText(/Stripe/)).toBeNull();
    });
  });
});
