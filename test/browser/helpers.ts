import {devices, type Browser, type BrowserContext, type ConsoleMessage, type Page} from 'playwright-core';
import {launchChromium} from '../../scripts/support/chromium';
import {API_PATHS} from '../../src/config/api';
import {recycledContexts} from './recycledContexts';

export function siteUrl(path = '/', variable: 'TEST_SITE_URL' | 'TEST_TRACKED_SITE_URL' = 'TEST_SITE_URL'): string {
  const base = process.env[variable];
  if (!base)
    throw new Error(
      'TEST_SITE_URL is not set: the browser project runs through jest, which builds and serves the site first.',
    );
  return `${base}${path}`;
}

export interface Tab {
  page: Page;
  /** Console errors and uncaught exceptions seen so far. */
  errors: string[];
  /** Every URL the page requested. */
  requests: string[];
}

export interface OpenOptions {
  width?: number;
  height?: number;
  /** Installs Playwright's fake clock before the page loads, so a test can move time forward. */
  fakeClock?: boolean;
  /** The build made with tracking ids instead of the plain one. */
  tracked?: boolean;
  /** A phone (Playwright's Pixel 7: its user agent, screen and touch) instead of a desktop window. */
  phone?: boolean;
  /** Called with the fresh context before the page loads (routes, scripts). */
  prepare?: (context: BrowserContext) => Promise<void>;
  /** The tab stays open past the test that opened it, for several tests to read in turn (`recycledContexts`). */
  keep?: boolean;
}

export interface BrowserSession {
  open: (path: string, options?: OpenOptions) => Promise<Tab>;
  /** afterEach: the contexts the test opened are emptied for the next one (`recycledContexts`). */
  giveBack: () => Promise<void>;
  close: () => Promise<void>;
}

/**
 * The pricing section's look-up of the visitor's fair prices, failing because no worker answers
 * (most of these tests run the built site alone): the list prices it shows then are right, and
 * the page logs nothing of its own. Chromium still logs the failed load; only that line is let by.
 */
function unansweredPriceLookUp(message: ConsoleMessage): boolean {
  return (
    message.text().startsWith('Failed to load resource') &&
    new URL(message.location().url || 'about:blank').pathname.endsWith(API_PATHS.prices)
  );
}

/** Collects the page's console errors, uncaught exceptions and requested URLs from now on. */
export function watchPage(page: Page): Pick<Tab, 'errors' | 'requests'> {
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !unansweredPriceLookUp(message)) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`Uncaught: ${error.message}`));
  page.on('request', (request) => requests.push(request.url()));
  return {errors, requests};
}

// Firebase loads Google's gapi script and an iframe at once on phones when it is set up for
// popups, so that the Google popup opens within the tap. Only the sign-in page has that button.
const GOOGLE_POPUP_SCRIPT = 'https://apis.google.com/**';

/**
 * Answers (emptily: tests run offline) and records the requests for Google's popup script. Without
 * it, a machine whose DNS fails fast logs ERR_NAME_NOT_RESOLVED on /signin and one that waits does not.
 */
export async function recordPopupScript(context: BrowserContext): Promise<string[]> {
  const seen: string[] = [];
  await context.route(GOOGLE_POPUP_SCRIPT, (route) => {
    seen.push(route.request().url());
    return route.fulfill({status: 200, contentType: 'text/javascript', body: ''});
  });
  return seen;
}

/**
 * One Chromium per test file; each test's `open` has a context of its own, one that an earlier
 * test used and that was emptied after it (`recycledContexts`), so no state leaks between tests.
 */
export async function startBrowser(): Promise<BrowserSession> {
  const browser: Browser = await launchChromium({offline: true});
  const contexts = recycledContexts(() => browser);
  return {
    async open(
      path,
      {width = 1280, height = 800, phone = false, fakeClock = false, tracked = false, prepare, keep} = {},
    ) {
      const {context, page} = await contexts.take(phone ? devices['Pixel 7'] : {viewport: {width, height}}, {keep});
      if (fakeClock) await context.clock.install();
      await prepare?.(context);
      const {errors, requests} = watchPage(page);
      await page.goto(siteUrl(path, tracked ? 'TEST_TRACKED_SITE_URL' : 'TEST_SITE_URL'));
      await page.waitForFunction(() => document.documentElement.dataset.hasHydrated === 'true');
      return {page, errors, requests};
    },
    giveBack: () => contexts.giveBack(),
    async close() {
      await contexts.closeAll();
      await browser.close();
    },
  };
}

/** Starts one browser for the enclosing describe block and closes it after; call the result inside tests. */
export function useBrowser(): () => BrowserSession {
  let session: BrowserSession | undefined;
  beforeAll(async () => {
    session = await startBrowser();
  });
  afterEach(() => session?.giveBack());
  afterAll(() => session?.close());
  return () => {
    if (!session) throw new Error('The browser is not started yet: call the session inside a test.');
    return session;
  };
}

/** Empties the storage of the site open in `page`, so the next page it opens starts as a first visit would. */
export function emptyStorage(page: Page): Promise<void> {
  return page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
}

/**
 * At most `size` tabs, each used again from one page to the next, for a test that reads many
 * pages one by one (a sweep): a fresh profile starts a renderer process of its own, which costs
 * Chromium more than the page does (a built page here: 1.9 core-seconds in a fresh profile, 0.6
 * in a tab that had another). Between two pages a tab's storage is emptied, so a page never sees
 * what the one before it chose (a docs backend, a theme); a tab whose page failed is closed, and
 * the next page gets a fresh one.
 */
export function useTabPool(browser: () => BrowserSession, size: number) {
  const tabs: (Tab | undefined)[] = Array.from({length: size}, () => undefined);
  const free = tabs.map((_, slot) => slot);
  const waiting: (() => void)[] = [];
  return {
    /** Opens `path` in a free tab (waiting for one), and runs `use` on it. */
    async visit<T>(path: string, use: (tab: Tab) => Promise<T>): Promise<T> {
      while (free.length === 0) await new Promise<void>((resolve) => waiting.push(resolve));
      const slot = free.pop()!;
      let tab = tabs[slot];
      try {
        if (tab) {
          await emptyStorage(tab.page);
          tab.errors.length = 0;
          tab.requests.length = 0;
          await tab.page.goto(siteUrl(path));
          await tab.page.waitForFunction(() => document.documentElement.dataset.hasHydrated === 'true');
        } else {
          tab = tabs[slot] = await browser().open(path, {keep: true});
        }
        return await use(tab);
      } catch (error) {
        tabs[slot] = undefined;
        await tab?.page.context().close();
        throw error;
      } finally {
        free.push(slot);
        waiting.shift()?.();
      }
    },
  };
}

/** Reads a value until it passes the check (an `expect`), or fails with the last reading after the timeout. */
export async function eventually<T>(
  read: () => Promise<T> | T,
  check: (value: T) => void,
  timeoutMs = 5000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      check(await read());
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/**
 * `items` dealt into `count` lanes, in turn, for work done side by side (a lane each) where each
 * item is mostly waiting on a page: a lane keeps its items' order.
 */
export function lanes<T>(items: readonly T[], count: number): T[][] {
  return Array.from({length: count}, (_, lane) => items.filter((_, index) => index % count === lane));
}
