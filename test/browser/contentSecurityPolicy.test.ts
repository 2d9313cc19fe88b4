/**
 * Every built page under the Content-Security-Policy its build wrote to `_headers`, served as
 * Cloudflare serves it (test/browser/globalSetup.ts): no script is refused and nothing is logged
 * as an error, in the plain build and in the one with tracking ids. And the policy refuses what it
 * is there to refuse: an inline script it does not name, a tracking host on a page that holds a
 * token, and a frame on another site.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import type {Browser, BrowserContext, Page, Request} from 'playwright-core';
import {launchChromium} from '../../scripts/support/chromium';
import {headersForPath, parseHeadersFile} from '../../src/buildTime/headersFile';
import {appConfig, isTokenPage, ROUTES, TOKEN_PAGES} from '../../src/config';
import {THIRD_PARTY_SCRIPTS} from '../../src/lib/tracking/thirdParty';
import {builtPages} from '../support/builtPages';
import {emptyStorage, eventually, lanes, recordPopupScript, siteUrl, useBrowser, watchPage} from './helpers';
import {focusSearchBar} from './searchBar';

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

type Build = 'TEST_SITE_URL' | 'TEST_TRACKED_SITE_URL';
const DIRS: Record<Build, string> = {
  TEST_SITE_URL: process.env.TEST_SITE_DIR!,
  TEST_TRACKED_SITE_URL: process.env.TEST_TRACKED_SITE_DIR!,
};

interface Violation {
  directive: string;
  blocked: string;
}

declare global {
  interface Window {
    cspViolations?: Violation[];
    reportCspViolation?: (violation: Violation) => void;
    injected?: boolean;
  }
}

/** A sweep opens a hundred pages, each to hydration: two minutes here, ten on a busy machine. */
const SWEEP_MS = 600_000;
/** Pages a sweep has open at once, each in its own lane. */
const SWEEP_LANES = 3;

/** Records every report of the page's policy, from the first byte on (an init script). */
function recordViolations(): void {
  window.cspViolations = [];
  document.addEventListener('securitypolicyviolation', (event) => {
    const violation = {directive: event.effectiveDirective, blocked: event.blockedURI};
    window.cspViolations!.push(violation);
    // The sweep's own record, which outlives a page that moves on by itself (a signed-out visitor of the dashboard is sent on).
    window.reportCspViolation?.(violation);
  });
}

/** The tracking scripts' hosts. */
const TRACKING_ORIGINS = [
  THIRD_PARTY_SCRIPTS.metaPixel.src,
  THIRD_PARTY_SCRIPTS.googleAnalytics.src,
  THIRD_PARTY_SCRIPTS.crisp.src,
].map((src) => new URL(src).origin);

/** A tracking script asked for, with the path of the document that asked for it. */
interface Asked {
  script: string;
  page: string;
}

const asked = (request: Request): Asked => ({script: request.url(), page: new URL(request.frame().url()).pathname});

/** Answers every tracking script with an empty one (the tests run offline), and records each. */
async function standIns(context: BrowserContext): Promise<Asked[]> {
  const loaded: Asked[] = [];
  for (const origin of TRACKING_ORIGINS) {
    await context.route(`${origin}/**`, (route) => {
      loaded.push(asked(route.request()));
      return route.fulfill({status: 200, contentType: 'text/javascript', body: '/* stand-in */'});
    });
  }
  return loaded;
}

/**
 * Records every request for a tracking script, answering none, for a build that must make none.
 * Unlike `standIns` it routes nothing: Playwright turns Chromium's HTTP cache off in a context
 * that routes, and then every page compiles all its scripts afresh (twice the processor a page).
 */
function trackingRequests(context: BrowserContext): Asked[] {
  const seen: Asked[] = [];
  context.on('request', (request) => {
    if (TRACKING_ORIGINS.includes(new URL(request.url()).origin)) seen.push(asked(request));
  });
  return seen;
}

async function watchViolations(context: BrowserContext): Promise<void> {
  await context.addInitScript(recordViolations);
}

const hydrated = (page: Page, timeout?: number) =>
  page.waitForFunction(() => document.documentElement.dataset.hasHydrated === 'true', undefined, {timeout});

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

  /**
   * Opens each built page in a tab of its own, and returns what went wrong on each:
   * the policy it was served with (when it is not the one `_headers` gives its path), whether it
   * hydrated, the reports of refused scripts, the console errors, and the tracking scripts it asked
   * for when that is not all three on a page of the tracked build that holds no token, none
   * everywhere else.
   */
  async function sweep(build: Build, urls: string[]): Promise<Record<string, unknown>> {
    const wrong: Record<string, unknown> = {};
    // A page's load is mostly waiting on its renderer: a few lanes side by side keep both cores
    // busy. Each lane has its own profile, tab and records, and opens its pages one after the other.
    await Promise.all(lanes(urls, SWEEP_LANES).map((lane) => sweepLane(build, lane, wrong)));
    return wrong;
  }

  /**
   * One lane of `sweep`: its pages in turn, in one tab of a profile of its own (a tab per page would
   * start a renderer process per page, which costs more than the page), its storage emptied between
   * two pages; what went wrong added to `wrong`.
   */
  async function sweepLane(build: Build, urls: string[], wrong: Record<string, unknown>): Promise<void> {
    const rules = parseHeadersFile(readFileSync(path.join(DIRS[build], '_headers'), 'utf8'));
    const context = await sweeper.newContext();
    const violations: Violation[] = [];
    await context.exposeFunction('reportCspViolation', (violation: Violation) => violations.push(violation));
    await watchViolations(context);
    // The tracked build's scripts are answered. The plain build asks for none, and no route keeps
    // the cache on; on a desktop /signin asks for no Google popup script either (helpers.ts).
    const tracked = build === 'TEST_TRACKED_SITE_URL';
    const loaded = tracked ? await standIns(context) : trackingRequests(context);
    if (tracked) await recordPopupScript(context);
    const page = await context.newPage();
    const {errors} = watchPage(page);
    try {
      for (const url of urls) {
        if (page.url() !== 'about:blank') await emptyStorage(page);
        errors.length = 0;
        const [loadedBefore, violationsBefore] = [loaded.length, violations.length];
        const response = await page.goto(siteUrl(url, build));
        // A page whose scripts are refused never hydrates: what was refused says why.
        const didHydrate = await hydrated(page, 15_000).then(
          () => true,
          () => false,
        );
        // With tracking ids, the pixel, gtag.js and Crisp load on every page but those that hold a token.
        if (tracked && !isTokenPage(url)) {
          await eventually(
            () => loaded.length - loadedBefore,
            (count) => expect(count).toBe(TRACKING_ORIGINS.length),
          ).catch(() => undefined);
        }
        const policy = response!.headers()['content-security-policy'];
        const expected = headersForPath(rules, url)['Content-Security-Policy'];
        const found = {
          policy: policy === expected && policy.includes("frame-ancestors 'none'") ? undefined : policy,
          hydrated: didHydrate,
          violations: violations.slice(violationsBefore),
          errors: [...errors],
          // A page that moves on by itself (the signed-out dashboard) may load tracking where it lands:
          // only a document on a page that holds a token must load none.
          thirdParty: loaded
            .slice(loadedBefore)
            .filter((entry) => !isTokenPage(url) || isTokenPage(entry.page))
            .map((entry) => entry.script),
        };
        const thirdPartyWrong =
          isTokenPage(url) || !tracked
            ? found.thirdParty.length > 0
            : found.thirdParty.length !== TRACKING_ORIGINS.length;
        if (
          found.policy !== undefined ||
          !didHydrate ||
          found.violations.length > 0 ||
          found.errors.length > 0 ||
          thirdPartyWrong
        )
          wrong[url] = found;
        // Five broken pages say enough, and a page that never hydrates waits out its timeout.
        if (Object.keys(wrong).length >= 5) break;
      }
    } finally {
      await context.close();
    }
  }

  it(
    'runs every built page with no script refused and no console error',
    async () => {
      const urls = builtPages(DIRS.TEST_SITE_URL).map((page) => page.url);
      expect(urls).toEqual(expect.arrayContaining([...TOKEN_PAGES, ...KINDS_OF_PAGE]));
      expect(await sweep('TEST_SITE_URL', urls)).toEqual({});
    },
    SWEEP_MS,
  );

  // The tracked build's pages hold the same inline scripts; its policy adds the tracking hosts. One
  // page of each kind shows them allowed where they run and absent where they do not.
  it(
    'with tracking ids: runs each kind of page too, the tracking scripts loading on every page but those that hold a token',
    async () => {
      expect(await sweep('TEST_TRACKED_SITE_URL', [...TOKEN_PAGES, ...KINDS_OF_PAGE])).toEqual({});
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
