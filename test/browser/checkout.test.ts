import type {BrowserContext} from 'playwright-core';
import {afterPurchase, appConfig, featuredPlan, landing} from '../../src/config';
import {startWorkerStub, type WorkerStub} from '../stubs/workerStub';
import {eventually, siteUrl, useBrowser} from './helpers';

/**
 * The checkout button on the built site against a stand-in worker on the
 * port the build was pointed at (the real worker comes with issue 3).
 */
const workerUrl = () => `http://127.0.0.1:${process.env.TEST_WORKER_PORT}`;
/** A claim as Stripe's redirect brings it (the worker writes it into the success URL). */
const CLAIM = 'q1W2e3R4t5Y6u7I8o9P0a1S2d3F4g5H6j7K8l9Z0x1-';

describe('checkout from the landing page in Chromium', () => {
  const browser = useBrowser();
  let worker: WorkerStub;
  beforeAll(async () => {
    worker = await startWorkerStub(Number(process.env.TEST_WORKER_PORT));
  });
  afterAll(() => worker.close());
  beforeEach(() => {
    worker.requests.length = 0;
    worker.statusRequests.length = 0;
  });

  it('creates a session for the featured plan, follows the URL it gets back, and thanks the buyer once the worker says it is paid', async () => {
    worker.answer({kind: 'url', url: siteUrl(`/success?sessionId=cs_test_browser&claim=${CLAIM}&utm_source=mail`)});
    worker.checkoutStatus({status: 'paid'});
    const {page, errors} = await browser().open('/');
    await page.getByRole('button', {name: landing.cta.button}).click();
    await page.getByRole('heading', {name: afterPurchase.successPage.paid.title}).waitFor();
    expect(worker.requests).toEqual([
      {priceId: featuredPlan().priceId.production, successUrl: siteUrl('/success'), cancelUrl: siteUrl('/')},
    ]);
    // The success page asked with the id and its claim, in the body.
    expect(worker.statusRequests).toEqual([{sessionId: 'cs_test_browser', claim: CLAIM}]);
    // The session id and its claim leave the address bar (tracking.test.ts follows them to the dashboard).
    await page.waitForURL(siteUrl('/success?utm_source=mail'));
    // The link takes the query once the page has hydrated.
    const dashboardLink = page.getByRole('link', {name: 'Go to Dashboard'});
    await eventually(
      () => dashboardLink.getAttribute('href'),
      (href) => expect(href).toBe('/dashboard?utm_source=mail'),
    );
    expect(errors).toEqual([]);
  });

  it('back from a checkout the worker says is not paid: says so, thanks nobody, and offers the plans again', async () => {
    worker.checkoutStatus({status: 'unpaid'});
    const {page, errors} = await browser().open(`/success?sessionId=cs_test_unpaid&claim=${CLAIM}`);
    const copy = afterPurchase.successPage;
    await page.getByRole('heading', {name: copy.unpaid.title}).waitFor();
    await page.getByText(copy.unpaid.text).waitFor();
    expect(await page.getByRole('heading', {name: copy.paid.title}).count()).toBe(0);
    expect(await page.getByText(afterPurchase.email).count()).toBe(0);
    expect(await page.getByRole('link', {name: copy.actions.plans}).getAttribute('href')).toBe('/#pricing');
    expect(worker.statusRequests).toEqual([{sessionId: 'cs_test_unpaid', claim: CLAIM}]);
    expect(errors).toEqual([]);
  });

  it.each([
    [410, 'SESSION_USED', 'This checkout was already used to sign in. Sign in with the e-mail you paid with.'],
    [
      409,
      'SIGN_IN_REQUIRED',
      'An account already uses this e-mail. Sign in with it (magic link or Google) to reach your purchase.',
    ],
  ])(
    'on a %d %s from the exchange, sends the buyer to sign in with the worker’s message, once',
    async (status, code, message) => {
      const exchanges: string[] = [];
      const exchange = async (context: BrowserContext) => {
        await context.route(`${workerUrl()}/retrieveUserFromCheckoutSession**`, (route) => {
          exchanges.push(route.request().url());
          return route.fulfill({
            status,
            contentType: 'application/json',
            headers: {'Access-Control-Allow-Origin': '*'},
            body: JSON.stringify({error: message, code}),
          });
        });
      };
      const {page, errors} = await browser().open(`/dashboard?sessionId=cs_test_spent&claim=${CLAIM}`, {
        prepare: exchange,
      });
      await page.getByRole('status').getByText(message).waitFor();
      await page.waitForURL(siteUrl(appConfig.auth.loginUrl));
      expect(exchanges).toEqual([
        `${workerUrl()}/retrieveUserFromCheckoutSession?sessionId=cs_test_spent&claim=${CLAIM}`,
      ]);

      // The id is spent: back on the dashboard, nothing is exchanged and the visitor is sent to sign in.
      await page.goto(siteUrl('/dashboard'));
      await page.waitForURL(siteUrl(`${appConfig.auth.loginUrl}?next=${encodeURIComponent('/dashboard')}`));
      expect(exchanges).toHaveLength(1);
      // Logged, as §8 asks: the failed response by the browser, the refusal by the dashboard.
      expect(
        errors.filter(
          (error) =>
            !error.startsWith('Signing in from the checkout failed:') && !error.includes(`status of ${status}`),
        ),
      ).toEqual([]);
    },
  );

  it('sends a buyer who came back without the claim to sign in with the purchase e-mail, and exchanges nothing', async () => {
    const exchanges: string[] = [];
    const {page, errors} = await browser().open('/dashboard?sessionId=cs_test_withoutclaim', {
      prepare: async (context) => {
        await context.route(`${workerUrl()}/retrieveUserFromCheckoutSession**`, (route) => {
          exchanges.push(route.request().url());
          return route.abort();
        });
      },
    });
    await page.getByRole('status').getByText('Sign in with the e-mail you paid with to reach your purchase.').waitFor();
    await page.waitForURL(siteUrl(appConfig.auth.loginUrl));
    expect(exchanges).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('shows the loading state while waiting, and the snack bar when the worker fails', async () => {
    worker.answer({kind: 'hold'});
    const {page, errors} = await browser().open('/');
    const starter = page
      .getByRole('article', {name: 'Starter'})
      .getByRole('button', {name: `Get ${appConfig.appName} Starter`});
    await starter.click();
    await page.getByRole('progressbar', {name: 'Opening checkout'}).waitFor();
    expect(await starter.isDisabled()).toBe(true);

    await worker.waitForHeld();
    worker.answer({kind: 'error', status: 400, body: {error: 'Price ID is required'}});
    worker.release('not a url');
    await page.getByText('Error: The server sent no checkout URL').waitFor();
    await page.getByRole('progressbar').waitFor({state: 'detached'});
    expect(await starter.isEnabled()).toBe(true);

    await starter.click();
    const snack = page.getByRole('status').getByText('Error: Price ID is required');
    await snack.waitFor();
    await page.getByRole('status').getByRole('button', {name: 'Close'}).click();
    await snack.waitFor({state: 'detached'});
    expect(page.url()).toBe(siteUrl('/'));
    // The failures are logged, as §8 asks: the 400 by the browser, both by the button.
    expect(errors.filter((error) => !error.startsWith('Checkout failed:') && !error.includes('status of 400'))).toEqual(
      [],
    );
    expect(errors.filter((error) => error.startsWith('Checkout failed:'))).toHaveLength(2);
  });

  it('keeps motion down for a visitor who asks for less: a slower spinner, a snack bar without the slide', async () => {
    worker.answer({kind: 'hold'});
    const {page} = await browser().open('/');
    const animation = (element: Element) => ({
      name: getComputedStyle(element).animationName,
      duration: getComputedStyle(element).animationDuration,
    });
    const starter = page
      .getByRole('article', {name: 'Starter'})
      .getByRole('button', {name: `Get ${appConfig.appName} Starter`});
    await starter.click();
    const spinner = page.getByRole('progressbar', {name: 'Opening checkout'});
    await spinner.waitFor();
    const normalSpin = await spinner.evaluate(animation);
    await page.emulateMedia({reducedMotion: 'reduce'});
    const reducedSpin = await spinner.evaluate(animation);
    expect(reducedSpin.name).toBe(normalSpin.name);
    expect(parseFloat(reducedSpin.duration)).toBeGreaterThan(parseFloat(normalSpin.duration) * 2);

    await worker.waitForHeld();
    worker.answer({kind: 'error', status: 400, body: {error: 'Price ID is required'}});
    worker.release('not a url');
    const snack = page.getByRole('status').getByText('Error: The server sent no checkout URL');
    await snack.waitFor();
    expect(await snack.evaluate((element) => getComputedStyle(element.parentElement!).animationName)).toBe('none');
    await page.emulateMedia({reducedMotion: 'no-preference'});
    expect(await snack.evaluate((element) => getComputedStyle(element.parentElement!).animationName)).not.toBe('none');
  });

  it('tells the visitor when the worker cannot be reached', async () => {
    await worker.close();
    try {
      const {page} = await browser().open('/');
      await page
        .getByRole('banner')
        .getByRole('button', {name: `Get ${appConfig.appName}`})
        .click();
      await page.getByText('Error: Could not reach the server. Check your connection and try again.').waitFor();
    } finally {
      worker = await startWorkerStub(Number(process.env.TEST_WORKER_PORT));
    }
  });
});
