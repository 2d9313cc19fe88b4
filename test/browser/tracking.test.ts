import crypto from 'node:crypto';
import type {BrowserContext, Page} from 'playwright-core';
import {TRACKING_IDS} from './globalSetup';
import {API_PATHS, appConfig, isTokenPage, landing, ROUTES, TOKEN_PAGES} from '../../src/config';
import {eventually, recordPopupScript, siteUrl, useBrowser} from './helpers';

/**
 * The pixel, Google Analytics and Crisp load third-party scripts that cannot
 * be reached offline; stand-ins answer those URLs with an empty script, so
 * the site's own code (queues, events, visibility) runs for real.
 */
const THIRD_PARTY = [
  'https://connect.facebook.net/**',
  'https://www.googletagmanager.com/**',
  'https://client.crisp.chat/**',
];

/** Answers the tracking scripts; `loaded` gets each address asked for, `fromPages` the path of the page that asked. */
async function standInScripts(context: BrowserContext, loaded: string[], fromPages: string[] = []) {
  for (const pattern of THIRD_PARTY) {
    await context.route(pattern, (route) => {
      loaded.push(route.request().url());
      fromPages.push(new URL(route.request().frame().url()).pathname);
      return route.fulfill({status: 200, contentType: 'text/javascript', body: '/* stand-in */'});
    });
  }
}

const workerUrl = () => `http://127.0.0.1:${process.env.TEST_WORKER_PORT}`;

/**
 * Holds the dashboard's checkout session exchange unanswered, recording its URL: the page keeps
 * waiting for it, so nothing after it (a sign-in, an error) muddles what tracking saw.
 */
async function holdExchange(context: BrowserContext, exchanges: string[]) {
  await context.route(`${workerUrl()}/retrieveUserFromCheckoutSession**`, (route) => {
    exchanges.push(route.request().url());
  });
}

/**
 * Answers the success page's question about the checkout (POST checkoutStatus): paid. Records the
 * body, where the id and the claim go (never in an address).
 */
async function answerPaid(context: BrowserContext, bodies: string[]) {
  await context.route(`${workerUrl()}${API_PATHS.checkoutStatus}`, (route) => {
    bodies.push(route.request().postData() ?? '');
    return route.fulfill({
      status: 200,
      contentType: 'application/json',
      headers: {'Access-Control-Allow-Origin': '*'},
      body: JSON.stringify({status: 'paid'}),
    });
  });
}

/** The requests a page made outside the site and its worker, the stand-ins' included. */
async function trackingSaw(page: Page, requests: string[], loaded: string[]) {
  const ownOrigins = [siteUrl('', 'TEST_TRACKED_SITE_URL'), workerUrl()];
  return {
    thirdPartyRequests: [
      ...requests.filter((url) => !ownOrigins.some((origin) => url.startsWith(origin)) && !url.startsWith('data:')),
      ...loaded,
    ],
  };
}

/** What the pixel, Google Analytics and Crisp define on the page, by type: all 'undefined' where none started. */
function thirdPartyGlobals(page: Page): Promise<string[]> {
  return page.evaluate(() => [typeof window.fbq, typeof window.gtag, typeof window.$crisp]);
}

/** Marks the page's document, so that a test can tell a client-side navigation (the mark stays) from a page load (it is gone). */
async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => ((window as unknown as {documentMark?: boolean}).documentMark = true));
}

function sameDocument(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as {documentMark?: boolean}).documentMark === true);
}

function newSessionId(): string {
  return `cs_test_${crypto.randomBytes(16).toString('hex')}`;
}

/** The claim Stripe's redirect brings with the id (32 random bytes, base64url). */
function newClaim(): string {
  return crypto.randomBytes(32).toString('base64url');
}

describe('tracking in Chromium', () => {
  const browser = useBrowser();

  /** A page of the tracked build, the tracking scripts and Google's popup script answered by stand-ins. */
  const openTracked = (path: string, loaded: string[], fromPages: string[] = []) =>
    browser().open(path, {
      tracked: true,
      prepare: async (context) => {
        await standInScripts(context, loaded, fromPages);
        await recordPopupScript(context);
      },
    });

  it('makes no request outside the site when no id is configured', async () => {
    const {page, requests, errors} = await browser().open('/');
    await page.getByRole('link', {name: 'Terms of Service'}).click();
    await page.getByRole('heading', {name: 'Terms of Service', level: 1}).waitFor();
    await page.getByRole('link', {name: 'Back'}).click();
    await page.getByRole('heading', {level: 1}).first().waitFor();
    // The site's own worker is not outside: the pricing section asks it for the visitor's prices, and nothing else.
    const toWorker = requests.filter((url) => url.startsWith(`${workerUrl()}/`));
    expect(new Set(toWorker.map((url) => new URL(url).pathname))).toEqual(new Set([API_PATHS.prices]));
    const outside = requests.filter(
      (url) => !url.startsWith(siteUrl('')) && !url.startsWith('data:') && !toWorker.includes(url),
    );
    expect(outside).toEqual([]);
    expect(await page.evaluate(() => [typeof window.fbq, typeof window.gtag, typeof window.$crisp])).toEqual([
      'undefined',
      'undefined',
      'undefined',
    ]);
    expect(errors).toEqual([]);
  });

  it('with ids: loads each script once, sends PageView on every navigation and shows the chat only on /', async () => {
    const loaded: string[] = [];
    const {page, errors} = await browser().open('/', {
      tracked: true,
      prepare: (context) => standInScripts(context, loaded),
    });
    const home = siteUrl('/', 'TEST_TRACKED_SITE_URL');
    await page.waitForFunction(() => (window.fbq?.queue ?? []).some((call) => call[1] === 'PageView'));

    await page.getByRole('contentinfo').getByRole('link', {name: 'Privacy Policy'}).click();
    await page.getByRole('heading', {name: 'Privacy Policy', level: 1}).waitFor();
    await page
      .getByRole('banner')
      .getByRole('button', {name: `Get ${appConfig.appName}`})
      .waitFor();

    const state = await page.evaluate(() => ({
      pixel: window.fbq!.queue,
      crisp: window.$crisp!.filter((call) => call[0] === 'do'),
      crispId: window.CRISP_WEBSITE_ID,
      gtag: window.dataLayer!.map((entry) => [...(entry as IArguments)].filter((value) => !(value instanceof Date))),
    }));
    expect(state.pixel).toEqual([
      ['init', TRACKING_IDS.META_PIXEL_ID],
      ['track', 'PageView', {url: home}],
      ['track', 'PageView', {url: `${home}privacy-policy`}],
    ]);
    expect(state.crispId).toBe(TRACKING_IDS.CRISP_WEBSITE_ID);
    expect(state.crisp).toEqual([
      ['do', 'chat:show'],
      ['do', 'chat:hide'],
    ]);
    expect(state.gtag.slice(0, 2)).toEqual([['js'], ['config', TRACKING_IDS.GA_MEASUREMENT_ID]]);
    expect(loaded.sort()).toEqual([
      'https://client.crisp.chat/l.js',
      'https://connect.facebook.net/en_US/fbevents.js',
      `https://www.googletagmanager.com/gtag/js?id=${TRACKING_IDS.GA_MEASUREMENT_ID}`,
    ]);
    expect(errors).toEqual([]);
  });

  it('with ids: fires CheckoutButtonClicked on a click and reports web vitals to Google Analytics', async () => {
    const {page} = await browser().open('/', {tracked: true, prepare: (context) => standInScripts(context, [])});
    await page.getByRole('button', {name: landing.cta.button}).click();
    await page.waitForFunction(() => window.fbq!.queue.some((call) => call[1] === 'CheckoutButtonClicked'));
    // LCP is final once the visitor interacts; the page load time comes after the load event.
    await page.waitForFunction(() => {
      const labels = window
        .dataLayer!.map((entry) => [...(entry as IArguments)])
        .filter((call) => call[1] === 'web_vitals')
        .map((call) => (call[2] as {event_label: string}).event_label);
      return labels.includes('PageLoadTime') && labels.includes('LCP');
    });
    const vitals = await page.evaluate(() =>
      window
        .dataLayer!.map((entry) => [...(entry as IArguments)])
        .filter((call) => call[1] === 'web_vitals')
        .map((call) => call[2]),
    );
    for (const event of vitals as Array<{event_category: string; value: number; non_interaction: boolean}>) {
      expect(event).toMatchObject({event_category: 'Web Vitals', non_interaction: true});
      expect(Number.isInteger(event.value)).toBe(true);
    }
  });

  it('with ids: /success and the dashboard it leads to start no tracking, keep the id and its claim out of every address, and still exchange them', async () => {
    const sessionId = newSessionId();
    const claim = newClaim();
    const loaded: string[] = [];
    const exchanges: string[] = [];
    const asked: string[] = [];
    const {page, errors, requests} = await browser().open(
      `/success?sessionId=${sessionId}&claim=${claim}&utm_source=mail`,
      {
        tracked: true,
        prepare: async (context) => {
          await standInScripts(context, loaded);
          await holdExchange(context, exchanges);
          await answerPaid(context, asked);
        },
      },
    );
    const addresses = [page.url()];
    page.on('framenavigated', (frame) => frame === page.mainFrame() && addresses.push(frame.url()));
    await markDocument(page);

    const dashboardLink = page.getByRole('link', {name: 'Go to Dashboard'});
    await eventually(
      () => dashboardLink.getAttribute('href'),
      (href) => expect(href).toBe('/dashboard?utm_source=mail'),
    );
    // The success page asked the worker, the id and the claim in the body.
    expect(asked.map((body) => JSON.parse(body))).toEqual([{sessionId, claim}]);
    await dashboardLink.click();
    await page.getByRole('progressbar', {name: 'Loading'}).waitFor();
    addresses.push(page.url());

    // The exchange goes out once the sign-in SDK has loaded.
    await eventually(
      () => exchanges,
      (seen) =>
        expect(seen).toEqual([`${workerUrl()}/retrieveUserFromCheckoutSession?sessionId=${sessionId}&claim=${claim}`]),
    );
    // Both pages hold a token: the dashboard opened in the same document, and nothing third-party ran in it.
    expect(await sameDocument(page)).toBe(true);
    expect(await thirdPartyGlobals(page)).toEqual(['undefined', 'undefined', 'undefined']);
    expect((await trackingSaw(page, requests, loaded)).thirdPartyRequests).toEqual([]);
    for (const secret of [sessionId, claim]) expect(addresses.filter((url) => url.includes(secret))).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('with ids: takes the id and its claim out of /dashboard?sessionId= opened directly, and still exchanges them', async () => {
    const sessionId = newSessionId();
    const claim = newClaim();
    const loaded: string[] = [];
    const exchanges: string[] = [];
    const {page, errors, requests} = await browser().open(`/dashboard?sessionId=${sessionId}&claim=${claim}#access`, {
      tracked: true,
      prepare: async (context) => {
        await standInScripts(context, loaded);
        await holdExchange(context, exchanges);
      },
    });
    await page.getByRole('progressbar', {name: 'Loading'}).waitFor();

    expect(page.url()).toBe(siteUrl('/dashboard#access', 'TEST_TRACKED_SITE_URL'));
    // The exchange goes out once the sign-in SDK has loaded.
    await eventually(
      () => exchanges,
      (seen) =>
        expect(seen).toEqual([`${workerUrl()}/retrieveUserFromCheckoutSession?sessionId=${sessionId}&claim=${claim}`]),
    );
    expect(await thirdPartyGlobals(page)).toEqual(['undefined', 'undefined', 'undefined']);
    expect((await trackingSaw(page, requests, loaded)).thirdPartyRequests).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('with ids: Login on a tracked page loads /signin as a new page, where no third-party script runs', async () => {
    const loaded: string[] = [];
    const {page, errors} = await openTracked(ROUTES.home, loaded);
    await page.waitForFunction(
      () => typeof window.fbq === 'function' && typeof window.gtag === 'function' && Array.isArray(window.$crisp),
    );
    await markDocument(page);
    const before = loaded.length;

    await page.getByRole('banner').getByRole('link', {name: 'Login'}).click();
    await page.waitForURL(siteUrl(ROUTES.signIn, 'TEST_TRACKED_SITE_URL'));
    await page.waitForFunction(() => document.documentElement.dataset.hasHydrated === 'true');
    expect(await sameDocument(page)).toBe(false);
    expect(await thirdPartyGlobals(page)).toEqual(['undefined', 'undefined', 'undefined']);
    expect(loaded.slice(before)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it.each(TOKEN_PAGES)('with ids: %s opened directly starts no third-party script', async (route) => {
    const fromPages: string[] = [];
    const {page, errors} = await openTracked(route, [], fromPages);
    // Where tracking starts, its code arrives in a chunk of its own after the page's bundles: wait
    // until the network is quiet before looking. A signed-out visitor of the dashboard is sent on to
    // sign in (a page that holds a token too): only the requests of a page that holds a token count.
    await page.waitForLoadState('networkidle');
    if (isTokenPage(new URL(page.url()).pathname)) {
      expect(await thirdPartyGlobals(page)).toEqual(['undefined', 'undefined', 'undefined']);
    }
    expect(fromPages.filter(isTokenPage)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('with ids: leaving /signin for another page loads that page anew, with tracking', async () => {
    const loaded: string[] = [];
    const {page, errors} = await openTracked(ROUTES.signIn, loaded);
    await markDocument(page);
    await page.getByRole('contentinfo').getByRole('link', {name: 'Privacy Policy'}).click();
    await page.waitForURL(siteUrl(ROUTES.privacy, 'TEST_TRACKED_SITE_URL'));
    await page.waitForFunction(() => typeof window.fbq === 'function');
    expect(await sameDocument(page)).toBe(false);
    await eventually(
      () => loaded.length,
      (count) => expect(count).toBe(3),
    );
    expect(errors).toEqual([]);
  });

  it('without ids: Login stays a navigation inside the page', async () => {
    const {page, errors} = await browser().open(ROUTES.home);
    await markDocument(page);
    await page.getByRole('banner').getByRole('link', {name: 'Login'}).click();
    await page.waitForURL(siteUrl(ROUTES.signIn));
    await page.getByRole('heading', {level: 1}).first().waitFor();
    expect(await sameDocument(page)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('a deferred script in <head> never sees the id either', async () => {
    const sessionId = newSessionId();
    const {page, errors} = await browser().open(`/success?sessionId=${sessionId}`, {
      tracked: true,
      prepare: async (context) => {
        await standInScripts(context, []);
        // A deferred script from the site's own origin: the build takes any other out of a page that
        // holds a token, and its Content-Security-Policy would refuse one.
        await context.route(/\/success(\?|$)/, async (route) => {
          const response = await route.fetch();
          const html = (await response.text()).replace(
            '</head>',
            '<script defer src="/js/deferred.js"></script></head>',
          );
          await route.fulfill({response, body: html});
        });
        await context.route(siteUrl('/js/deferred.js', 'TEST_TRACKED_SITE_URL'), (route) =>
          route.fulfill({status: 200, contentType: 'text/javascript', body: 'window.deferredSaw = location.href;'}),
        );
      },
    });
    const saw = await page.evaluate(() => (window as unknown as {deferredSaw?: string}).deferredSaw);
    expect(saw).toBe(siteUrl('/success', 'TEST_TRACKED_SITE_URL'));
    expect(errors).toEqual([]);
  });
});
