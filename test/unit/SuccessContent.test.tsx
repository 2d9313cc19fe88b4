import React from 'react';
import {screen, within} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {afterPurchase, appConfig, type CheckoutStatus} from '../../src/config';
import {API_PATHS} from '../../src/config/api';
import SuccessContent from '../../src/components/screens/SuccessContent';
import {readCheckoutSession, takeCheckoutSessionFromUrl} from '../../src/lib/checkoutSession';
import {renderWithSite} from '../support/render';
import {useJsonWorker} from '../support/jsonWorker';

const copy = afterPurchase.successPage;
const STATUS = `POST ${API_PATHS.checkoutStatus}`;
const CLAIM = 'q1W2e3R4t5Y6u7I8o9P0a1S2d3F4g5H6j7K8l9Z0x1-';
const SESSION = 'cs_test_success1';
const worker = useJsonWorker();

/**
 * Opens the page at `url` as a browser does: the <head> script takes the id and the claim out of
 * the address (checkoutSession.test.tsx) before the page renders, against the test's worker.
 */
function open(url: string) {
  window.history.replaceState(null, '', url);
  takeCheckoutSessionFromUrl();
  const {pathname, search} = window.location;
  renderWithSite(<SuccessContent />, {url: `${pathname}${search}`, env: {WORKER_URL: worker().url}});
}

let consoleError: jest.SpyInstance;
beforeEach(() => {
  consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  consoleError.mockRestore();
  window.sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});

/** Nothing on the page thanks the visitor or says an e-mail was sent. */
function expectNoThanks() {
  expect(screen.queryByRole('heading', {name: copy.paid.title})).toBeNull();
  expect(screen.queryByText(new RegExp(afterPurchase.email))).toBeNull();
  expect(screen.queryByRole('list', {name: 'Get the code'})).toBeNull();
}

describe('the success page', () => {
  it('thanks the buyer once the worker says the checkout is paid, and sends them to the dashboard with the query kept', async () => {
    worker().answer(STATUS, 200, {status: 'paid'});
    open(`/success?utm_source=mail&claim=${CLAIM}&sessionId=${SESSION}&plan=advanced`);
    // Until the worker answers, it says it is checking, and thanks nobody.
    expect(screen.getByRole('heading', {name: copy.checking})).toBeInTheDocument();
    expectNoThanks();

    expect(await screen.findByRole('heading', {name: copy.paid.title})).toBeInTheDocument();
    // The welcome e-mail links to the dashboard, never to the repository: the page says so, and the steps there.
    expect(screen.getByText(new RegExp(afterPurchase.email))).toBeInTheDocument();
    expect(screen.queryByText(/link to the private repository/i)).toBeNull();
    const steps = within(screen.getByRole('list', {name: 'Get the code'})).getAllByRole('listitem');
    expect(steps.map((step) => step.textContent)).toEqual(afterPurchase.steps);
    expect(screen.getByText(/a minute or two/i)).toBeInTheDocument();
    expect(screen.getByRole('link', {name: copy.actions.dashboard})).toHaveAttribute(
      'href',
      '/dashboard?utm_source=mail&plan=advanced',
    );
    // The id and its claim went in the body, never in an address; they still wait for the dashboard's exchange.
    expect(worker().calls).toEqual([{route: STATUS, body: {sessionId: SESSION, claim: CLAIM}}]);
    expect(readCheckoutSession()).toEqual({sessionId: SESSION, claim: CLAIM});
  });

  it('opened with no checkout, thanks nobody, asks nothing, and offers the dashboard, the plans and support', async () => {
    open('/success');
    expect(await screen.findByRole('heading', {name: copy.none.title})).toBeInTheDocument();
    expectNoThanks();
    expect(screen.getByText(copy.none.text)).toBeInTheDocument();
    expect(screen.getByText(copy.signInHint)).toBeInTheDocument();
    expect(screen.getByRole('link', {name: copy.actions.dashboard})).toHaveAttribute(
      'href',
      appConfig.auth.callbackUrl,
    );
    expect(screen.getByRole('link', {name: copy.actions.plans})).toHaveAttribute('href', '/#pricing');
    expect(screen.getByRole('link', {name: copy.actions.support})).toHaveAttribute(
      'href',
      `mailto:${appConfig.support.email}`,
    );
    expect(worker().calls).toEqual([]);
  });

  it('with an id but no claim (an old or copied link), thanks nobody and leaves the id for the dashboard to refuse', async () => {
    open(`/success?sessionId=${SESSION}`);
    expect(await screen.findByRole('heading', {name: copy.none.title})).toBeInTheDocument();
    expectNoThanks();
    expect(worker().calls).toEqual([]);
    expect(readCheckoutSession()).toEqual({sessionId: SESSION, claim: ''});
  });

  it.each<[CheckoutStatus, {title: string; text: string}, 'kept' | 'cleared']>([
    ['processing', copy.processing, 'kept'],
    ['unpaid', copy.unpaid, 'cleared'],
    ['failed', copy.failed, 'cleared'],
    ['revoked', copy.revoked, 'cleared'],
  ])(
    'a checkout the worker says is %s: says so, thanks nobody, and the id is %s',
    async (status, {title, text}, kept) => {
      worker().answer(STATUS, 200, {status});
      open(`/success?claim=${CLAIM}&sessionId=${SESSION}`);
      expect(await screen.findByRole('heading', {name: title})).toBeInTheDocument();
      expect(screen.getByText(text)).toBeInTheDocument();
      expectNoThanks();
      expect(readCheckoutSession()).toEqual(kept === 'kept' ? {sessionId: SESSION, claim: CLAIM} : null);
    },
  );

  it('a checkout the worker refuses (unknown, or not this claim): no purchase here, and the id is forgotten', async () => {
    worker().answer(STATUS, 409, {error: 'This link does not confirm a purchase.', code: 'SIGN_IN_REQUIRED'});
    open(`/success?claim=${CLAIM}&sessionId=${SESSION}`);
    expect(await screen.findByRole('heading', {name: copy.none.title})).toBeInTheDocument();
    expectNoThanks();
    expect(readCheckoutSession()).toBeNull();
  });

  it('no answer: says it could not check and why, thanks nobody, and asks again on Try again', async () => {
    worker().answer(STATUS, 503, {
      error: 'Stripe could not be reached. Try again in a minute.',
      code: 'PAYMENT_PROVIDER',
    });
    open(`/success?claim=${CLAIM}&sessionId=${SESSION}`);
    expect(await screen.findByRole('heading', {name: copy.unchecked.title})).toBeInTheDocument();
    expect(screen.getByText('Stripe could not be reached. Try again in a minute.')).toBeInTheDocument();
    expectNoThanks();
    // Kept: the worker may take the same id in a moment.
    expect(readCheckoutSession()).toEqual({sessionId: SESSION, claim: CLAIM});

    worker().answer(STATUS, 200, {status: 'paid'});
    await userEvent.click(screen.getByRole('button', {name: copy.actions.retry}));
    expect(await screen.findByRole('heading', {name: copy.paid.title})).toBeInTheDocument();
    expect(worker().calls.map((call) => call.route)).toEqual([STATUS, STATUS]);
  });
});
