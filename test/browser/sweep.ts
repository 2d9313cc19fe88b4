/**
 * The sweep: a list of built pages opened in Chromium, a few side by side, and what went wrong on
 * each. Every page is checked under the Content-Security-Policy its build wrote to `_headers`
 * (served as Cloudflare serves it, test/browser/globalSetup.ts): the policy it came with, whether
 * it hydrated, the scripts its policy refused, the console errors, the tracking scripts it asked
 * for; and, where the caller asks, what axe finds on it. One load of a page serves every check:
 * the sweep of every built page (everyBuiltPage.test.ts) and the tracked build's kinds of page
 * (contentSecurityPolicy.test.ts) are this code.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import type {Browser, BrowserContext, Page, Request} from 'playwright-core';
import {BACKENDS} from '../../src/components/docs/backends';
import {headersForPath, parseHeadersFile} from '../../src/buildTime/headersFile';
import {isTokenPage, ROUTES} from '../../src/config';
import {THIRD_PARTY_SCRIPTS} from '../../src/lib/tracking/thirdParty';
import {axeViolations} from './axe';
import {emptyStorage, eventually, lanes, recordPopupScript, siteUrl, watchPage} from './helpers';

export type Build = 'TEST_SITE_URL' | 'TEST_TRACKED_SITE_URL';
export const DIRS: Record<Build, string> = {
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

/** Pages a sweep has open at once, each in its own lane: a page mostly waits on its renderer. */
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
export const TRACKING_ORIGINS = [
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
export async function standIns(context: BrowserContext): Promise<Asked[]> {
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

export async function watchViolations(context: BrowserContext): Promise<void> {
  await context.addInitScript(recordViolations);
}

const hydrated = (page: Page, timeout?: number) =>
  page.waitForFunction(() => document.documentElement.dataset.hasHydrated === 'true', undefined, {timeout});

const [, otherBackend] = BACKENDS;

/** Whether the built page in `file` offers the docs' backend tabs: then axe reads it on each backend. */
export function hasBackendTabs(file: string): boolean {
  return new RegExp(`role=tab\\b[^>]*>${otherBackend.label}<`).test(readFileSync(file, 'utf8'));
}

/** What axe is to read on a page: nothing, the page, or the page and its other backend's tabs. */
export type AxeCheck = 'none' | 'page' | 'page and backend tabs';

/**
 * Axe on the page as the visitor sees it, with no violation of any impact; where it has the
 * backend tabs, the tabs again on the other backend. Every tab group on the page follows the one
 * choice, and axe skips hidden panels: checking the groups again reads the other backend's text.
 */
async function axeFindings(page: Page, url: string, check: AxeCheck): Promise<unknown[]> {
  // The dashboard sends a signed-out visitor to sign in, and back to it after: check where they stay.
  // The router changes the address before it draws the page: axe reads it once its heading is drawn
  // (or, where none comes, reads what is there and says so).
  if (url === ROUTES.dashboard) {
    await page.waitForURL(`${siteUrl(ROUTES.signIn)}?next=${encodeURIComponent(ROUTES.dashboard)}`);
    await page
      .getByRole('heading', {level: 1})
      .first()
      .waitFor({timeout: 15_000})
      .catch(() => undefined);
  }
  const found: unknown[] = await axeViolations(page);
  if (check === 'page and backend tabs') {
    await page.getByRole('tab', {name: otherBackend.label}).first().click();
    await eventually(
      () => page.getByRole('tab', {name: otherBackend.label, selected: false}).count(),
      (unselected) => expect(unselected).toBe(0),
    );
    for (const violation of await axeViolations(page, {within: '.tabs-container'}))
      found.push({...violation, backend: otherBackend.label});
  }
  return found;
}

/**
 * Opens each page of `urls` in `build` and returns what went wrong on each: the policy it was
 * served with (when it is not the one `_headers` gives its path), whether it hydrated, the reports
 * of refused scripts, the console errors, the tracking scripts it asked for when that is not all
 * three on a page of the tracked build that holds no token, none everywhere else, and what axe
 * found where `axe` asks for it. Five broken pages say enough: the sweep stops there.
 */
export async function sweep(
  browser: Browser,
  build: Build,
  urls: string[],
  axe: (url: string) => AxeCheck = () => 'none',
): Promise<Record<string, unknown>> {
  const wrong: Record<string, unknown> = {};
  await Promise.all(lanes(urls, SWEEP_LANES).map((lane) => sweepLane(browser, build, lane, axe, wrong)));
  return wrong;
}

/**
 * One lane of `sweep`: its pages in turn, in one tab of a profile of its own (a tab per page would
 * start a renderer process per page, which costs more than the page), its storage emptied between
 * two pages; what went wrong added to `wrong`.
 */
async function sweepLane(
  browser: Browser,
  build: Build,
  urls: string[],
  axe: (url: string) => AxeCheck,
  wrong: Record<string, unknown>,
): Promise<void> {
  const rules = parseHeadersFile(readFileSync(path.join(DIRS[build], '_headers'), 'utf8'));
  const context = await browser.newContext();
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
      if (Object.keys(wrong).length >= 5) break;
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
      const check = didHydrate ? axe(url) : 'none';
      const axeFound = check === 'none' ? [] : await axeFindings(page, url, check);
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
        axe: axeFound,
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
        thirdPartyWrong ||
        axeFound.length > 0
      )
        wrong[url] = found;
    }
  } finally {
    await context.close();
  }
}
