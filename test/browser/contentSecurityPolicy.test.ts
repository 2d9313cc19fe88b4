/**
 * The Content-Security-Policy of the built pages, served as Cloudflare serves it
 * (test/browser/globalSetup.ts). Every page of the plain build runs under it with no script refused
 * (everyBuiltPage.test.ts); here, a page of each kind of the build with tracking ids runs too, and
 * the policy refuses what it is there to refuse: an inline script it does not name, a tracking host
 * on a page that holds a token, and a frame on another site.
 */
import type {Browser, Page} from 'playwright-core';
import {launchChromium} from '../../scripts/support/chromium';
import {appConfig, ROUTES, TOKEN_PAGES} from '../../src/config';
import {THIRD_PARTY_SCRIPTS} from '../../src/lib/tracking/thirdParty';
import {eventually, recordPopupScript, siteUrl, useBrowser, watchPage} from './helpers';
import {focusSearchBar} from './searchBar';
import {standIns, sweep, watchViolations} from './sweep';

/** A page of each kind that holds no token: the landing page, a legal page, the error page, the search page, the 404 page, current and frozen docs. */
const KINDS_OF_PAGE = [
  ROUTES.home,
  ROUTES.terms,
  ROUTES.error,
  '/search',
  '/404',
  '/docs/features/payments',
  '/docs/1.0',
];

/** A sweep opens a page of each kind, each to hydration. */
const SWEEP_MS = 600_000;

/** Adds a script by address to the page, as a third-party script would add another, and waits for it to load or be refused. */
function inject(page: Page, src: string): Promise<'loaded' | 'refused'> {
  return page.evaluate(
    (address) =>
      new Promise<'loaded' | 'refused'>((resolve) => {
        const script = document.createElement('script');
        script.src = address;
        script.onload = () => resolve('loaded');
        script.onerror = () => resolve('refused');
        document.head.appendChild(script);
      }),
    src,
  );
}

describe('the Content-Security-Policy of the built pages', () => {
  const browser = useBrowser();
  let sweeper: Browser;
  beforeAll(async () => {
    sweeper = await launchChromium({offline: true});
  });
  afterAll(() => sweeper?.close());

  // The tracked build's pages hold the same inline scripts; its policy adds the tracking hosts. One
  // page of each kind shows them allowed where they run and absent where they do not.
  it(
    'with tracking ids: runs each kind of page too, the tracking scripts loading on every page but those that hold a token',
    async () => {
      expect(await sweep(sweeper, 'TEST_TRACKED_SITE_URL', [...TOKEN_PAGES, ...KINDS_OF_PAGE])).toEqual({});
    },
    SWEEP_MS,
  );

  it('lets the docs search run its index in a worker', async () => {
    const {page, errors} = await browser().open('/docs/features/payments', {prepare: watchViolations});
    const input = await focusSearchBar(page);
    await input.fill('stripe webhook');
    await page.getByRole('listbox').getByRole('option').first().waitFor();
    expect(await page.evaluate(() => window.cspViolations)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("refuses an inline script that is not one of the built pages' own", async () => {
    const {page} = await browser().open('/', {prepare: watchViolations});
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.injected = true';
      document.body.appendChild(script);
    });
    await eventually(
      () => page.evaluate(() => window.cspViolations),
      (seen) => expect(seen).toEqual([{directive: 'script-src-elem', blocked: 'inline'}]),
    );
    expect(await page.evaluate(() => window.injected)).toBeUndefined();
  });

  it('with tracking ids: a page that holds a token refuses the tracking hosts the other pages allow', async () => {
    const pixel = THIRD_PARTY_SCRIPTS.metaPixel.src;
    const opened = (url: string) =>
      browser().open(url, {
        tracked: true,
        prepare: async (context) => {
          await watchViolations(context);
          await standIns(context);
          await recordPopupScript(context);
        },
      });
    const home = await opened(ROUTES.home);
    expect(await inject(home.page, `${pixel}?again`)).toBe('loaded');
    for (const route of TOKEN_PAGES) {
      const {page} = await opened(route);
      expect([route, await inject(page, pixel)]).toEqual([route, 'refused']);
      expect(await page.evaluate(() => window.cspViolations)).toContainEqual({
        directive: 'script-src-elem',
        blocked: pixel,
      });
    }
  });

  it('lets no other site frame a page', async () => {
    const {page} = await browser().open('/');
    // A page of another origin (a blank page's) framing the sign-in page.
    const framing = await page.context().newPage();
    const {errors} = watchPage(framing);
    await framing.setContent(`<iframe src="${siteUrl(ROUTES.signIn)}"></iframe>`);
    await eventually(
      () => errors.join('\n'),
      (logged) => expect(logged).toMatch(/frame-ancestors 'none'/),
    );
    const frame = framing.frames()[1]!;
    expect(await frame.evaluate(() => document.title).catch(() => 'not readable')).not.toContain(appConfig.appName);
  });
});
