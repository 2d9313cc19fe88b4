import crypto from 'node:crypto';
import type {BrowserContext, Page} from 'playwright-core';
import {TRACKING_IDS} from './globalSetup';
import {eventually, siteUrl, useBrowser} from './helpers';

/**
 * The pixel, Google Analytics and Crisp load third-party scripts that cannot
 * be reached offline; stand-ins answer those URLs with an empty script, so
 * the site's own code (queues, events, visibility) runs for real.
 */
const THIRD_PARTY = ['https://connect.facebook.net/**', 'https://www.googletagmanager.com/**', 'https://client.crisp.chat/**'];

async function standInScripts(context: BrowserContext, loaded: string[]) {
  for (const pattern of THIRD_PARTY) {
    await context.route(pattern, (route) => {
      loaded.push(route.request().url());
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

/** Everything tracking holds or sent, for a test to search for the checkout session id. */
async function trackingSaw(page: Page, requests: string[], loaded: string[]) {
  const ownOrigins = [siteUrl('', 'TEST_TRACKED_SITE_URL'), workerUrl()];
  return {
    pixel: await page.evaluate(() => window.fbq!.queue),
    analytics: await page.evaluate(() => JSON.stringify(window.dataLayer!.map((entry) => [...(entry as IArguments)]))),
    thirdPartyRequests: [...requests.filter((url) => !ownOrigins.some((origin) => url.startsWith(origin))), ...loaded],
  };
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

  it('makes no request outside the site when no id is configured', async () => {
    const {page, requests, errors} = await browser().open('/');
    await page.getByRole('link', {name: 'Terms of Service'}).click();
    await page.getByRole('heading', {name: 'Terms of Service', level: 1}).waitFor();
    await page.getByRole('link', {name: 'Back'}).click();
    await page.getByRole('heading', {level: 1}).first().waitFor();
    const outside = requests.filter((url) => !url.startsWith(siteUrl('')) && !url.startsWith('data:'));
    expect(outside).toEqual([]);
    expect(await page.evaluate(() => [typeof window.fbq, typeof window.gtag, typeof window.$crisp])).toEqual(['undefined', 'undefined', 'undefined']);
    expect(errors).toEqual([]);
  });

  it('with ids: loads each script once, sends PageView on every navigation and shows the chat only on /', async () => {
    const loaded: string[] = [];
    const {page, errors} = await browser().open('/', {tracked: true, prepare: (context) => standInScripts(context, loaded)});
    const home = siteUrl('/', 'TEST_TRACKED_SITE_URL');
    await page.waitForFunction(() => (window.fbq?.queue ?? []).some((call) => call[1] === 'PageView'));

    await page.getByRole('contentinfo').getByRole('link', {name: 'Privacy Policy'}).click();
    await page.getByRole('heading', {name: 'Privacy Policy', level: 1}).waitFor();
    await page.getByRole('banner').getByRole('button', {name: 'Get Slipway'}).waitFor();

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
    await page.getByRole('button', {name: 'Get Slipway Now'}).click();
    await page.waitForFunction(() => window.fbq!.queue.some((call) => call[1] === 'CheckoutButtonClicked'));
    // LCP is final once the visitor interacts; the page load time comes after the load event.
    await page.waitForFunction(() => {
      const labels = window.dataLayer!.map((entry) => [...(entry as IArguments)]).filter((call) => call[1] === 'web_vitals').map((call) => (call[2] as {event_label: string}).event_label);
      return labels.includes('PageLoadTime') && labels.includes('LCP');
    });
    const vitals = await page.evaluate(() =>
      window.dataLayer!.map((entry) => [...(entry as IArguments)]).filter((call) => call[1] === 'web_vitals').map((call) => call[2]),
    );
    for (const event of vitals as Array<{event_category: string; value: number; non_interaction: boolean}>) {
      expect(event).toMatchObject({event_category: 'Web Vitals', non_interaction: true});
      expect(Number.isInteger(event.value)).toBe(true);
    }
  });

  it('with ids: never reports the checkout session id or its claim, from /success through Go to Dashboard to the exchange', async () => {
    const sessionId = newSessionId();
    const claim = newClaim();
    const loaded: string[] = [];
    const exchanges: string[] = [];
    const {page, errors, requests} = await browser().open(`/success?sessionId=${sessionId}&claim=${claim}&utm_source=mail`, {
      tracked: true,
      prepare: async (context) => {
        await standInScripts(context, loaded);
        await holdExchange(context, exchanges);
      },
    });
    const home = siteUrl('/', 'TEST_TRACKED_SITE_URL');
    const addresses = [page.url()];
    page.on('framenavigated', (frame) => frame === page.mainFrame() && addresses.push(frame.url()));

    const dashboardLink = page.getByRole('link', {name: 'Go to Dashboard'});
    await eventually(() => dashboardLink.getAttribute('href'), (href) => expect(href).toBe('/dashboard?utm_source=mail'));
    await dashboardLink.click();
    await page.getByRole('progressbar', {name: 'Loading'}).waitFor();
    await page.waitForFunction(() => window.fbq!.queue.length === 3);
    addresses.push(page.url());

    // The exchange goes out once the sign-in SDK has loaded.
    await eventually(() => exchanges, (seen) => expect(seen).toEqual([`${workerUrl()}/retrieveUserFromCheckoutSession?sessionId=${sessionId}&claim=${claim}`]));
    const saw = await trackingSaw(page, requests, loaded);
    expect(saw.pixel).toEqual([
      ['init', TRACKING_IDS.META_PIXEL_ID],
      ['track', 'PageView', {url: `${home}success?utm_source=mail`}],
      ['track', 'PageView', {url: `${home}dashboard?utm_source=mail`}],
    ]);
    for (const secret of [sessionId, claim]) {
      expect(saw.analytics).not.toContain(secret);
      expect(saw.thirdPartyRequests.filter((url) => url.includes(secret))).toEqual([]);
      expect(addresses.filter((url) => url.includes(secret))).toEqual([]);
    }
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
    await page.waitForFunction(() => window.fbq!.queue.length === 2);

    expect(page.url()).toBe(siteUrl('/dashboard#access', 'TEST_TRACKED_SITE_URL'));
    // The exchange goes out once the sign-in SDK has loaded.
    await eventually(() => exchanges, (seen) => expect(seen).toEqual([`${workerUrl()}/retrieveUserFromCheckoutSession?sessionId=${sessionId}&claim=${claim}`]));
    const saw = await trackingSaw(page, requests, loaded);
    expect(saw.pixel).toEqual([
      ['init', TRACKING_IDS.META_PIXEL_ID],
      ['track', 'PageView', {url: siteUrl('/dashboard#access', 'TEST_TRACKED_SITE_URL')}],
    ]);
    for (const secret of [sessionId, claim]) {
      expect(saw.analytics).not.toContain(secret);
      expect(saw.thirdPartyRequests.filter((url) => url.includes(secret))).toEqual([]);
    }
    expect(errors).toEqual([]);
  });

  it('a deferred script in <head>, as a Plausible `scripts` entry adds, never sees the id either', async () => {
    const sessionId = newSessionId();
    const {page, errors} = await browser().open(`/success?sessionId=${sessionId}`, {
      tracked: true,
      prepare: async (context) => {
        await standInScripts(context, []);
        // Serve the page with the tag docs/features/analytics.mdx tells a seller to add.
        await context.route(/\/success(\?|$)/, async (route) => {
          const response = await route.fetch();
          const html = (await response.text()).replace(
            '</head>',
            '<script defer src="https://plausible.io/js/script.js" data-domain="slipway.dev"></script></head>',
          );
          await route.fulfill({response, body: html});
        });
        await context.route('https://plausible.io/js/script.js', (route) =>
          route.fulfill({status: 200, contentType: 'text/javascript', body: 'window.plausibleSaw = location.href;'}),
        );
      },
    });
    const saw = await page.evaluate(() => (window as unknown as {plausibleSaw?: string}).plausibleSaw);
    expect(saw).toBe(siteUrl('/success', 'TEST_TRACKED_SITE_URL'));
    expect(errors).toEqual([]);
  });
});
