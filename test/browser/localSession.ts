/**
 * Chromium against `npm start -- --local`, for the tests that walk the whole local stack (the
 * buyer's journey, the seller's console): one browser per test file and the run's shared stack
 * or one of the file's own, a fresh profile per tab, and the steps a person takes that several
 * tests share (a guest checkout on the local page, Request Access, a magic-link sign-in read from
 * the terminal).
 */
import type {Browser, Locator, Page} from 'playwright-core';
import {dashboardPlan, type Plan} from '../../src/config';
import {launchChromium} from '../../scripts/support/chromium';
import {
  buyAsGuest,
  escapeRegExp,
  followMagicLink,
  startLocalStack,
  type LocalStack,
} from '../../scripts/support/localStack';
import {watchPage} from './helpers';
import {recycledContexts, type RecycledContexts} from './recycledContexts';
import {runEmulatorHost} from '../support/runAuthEmulator';
import {migratedLocalD1} from './migratedLocalD1';
import {sharedLocalStack} from './sharedStack';

export interface LocalTab {
  page: Page;
  errors: string[];
  /** `METHOD path` of every request the page made to the worker (at its own port or under /api). */
  workerCalls: string[];
}

export interface LocalSession {
  stack: () => LocalStack;
  /**
   * A browser profile as a first visit has it, on a site path (or a full URL): emptied after the
   * test, for the next (`recycledContexts`), unless `keep` holds it for several tests in turn.
   */
  open: (path: string, options?: {viewport?: {width: number; height: number}; keep?: boolean}) => Promise<LocalTab>;
  goto: (page: Page, path: string) => Promise<void>;
  /**
   * Asks for a magic link, reads it from the terminal (printed from the emulator), opens it. From
   * the sign-in page it lands on the dashboard (its account menu named `name`); `from` a private
   * page, that page sends the visitor to sign in, where the line `why` says so, and the link brings
   * them back to it.
   */
  signInByMagicLink: (
    tab: LocalTab,
    email: string,
    options?: {name?: string; from?: string; why?: string},
  ) => Promise<void>;
  /**
   * From the pricing to the dashboard as a guest: checkout on the local page, pay, the success
   * page once the signed webhook and the welcome e-mail are through, then Go to Dashboard, signed
   * in by the session exchange. The dashboard's plan unless `chosen` names another.
   */
  checkoutAsGuest: (tab: LocalTab, email: string, chosen?: Plan) => Promise<void>;
  /** Request Access on the dashboard, until the stand-in prints the invitation. */
  requestAccess: (tab: LocalTab, username: string) => Promise<void>;
  /**
   * Waits for `locator` like `locator.waitFor()`; if it never shows, the error also says what the
   * page showed instead, what it logged and what the stack printed last, for a failure seen only
   * on another machine.
   */
  waitToSee: (tab: LocalTab, locator: Locator) => Promise<void>;
}

export const plan = dashboardPlan();

let counter = 0;
export const uniqueEmail = (name: string) => `${name}.${Date.now().toString(36)}${counter++}@example.com`;
export {escapeRegExp};

/**
 * Chromium and a local stack for the file's tests, both stopped after. With no option the stack is
 * the run's shared one (`sharedStack.ts`), which the file must only add to, reading the terminal
 * from where each step began. Any option starts a stack of the file's own:
 * `own`: for a file that stops the stack or floods its rate limits.
 * `seed`: that many demo purchases in the local D1 first, as `npm run seed:local` makes them.
 * `country`: the country the worker takes every visitor to be in (`npm start -- --country`).
 * `env`: the site's settings on top of the local ones, as `.env` would set them (tracking ids).
 */
export function useLocalSession({
  own = false,
  sameOrigin = false,
  seed,
  country,
  env,
}: {
  own?: boolean;
  sameOrigin?: boolean;
  seed?: number;
  country?: string;
  env?: Record<string, string>;
} = {}): LocalSession {
  const shared = !own && !sameOrigin && seed === undefined && country === undefined && env === undefined;
  // One more go for a test that fails, its first errors printed. wrangler dev (4.86) puts a proxy
  // in front of the worker. When the proxy's connection to the worker drops, it takes that for a
  // restart (it compares the request's URL, path and all, with the worker's bare origin) and
  // answers a POST or a preflight 503 "Your worker restarted mid-request", which the worker never
  // sent. Rare (one preflight in a whole CI run, on a busy machine) and the dev tool's, not the
  // product's: a failure of the product's fails both goes. A second go opens new tabs with emptied
  // profiles; what the first changed on the stack (a purchase, a fix) stays.
  // Every go used is listed, with the first go's error, after the run (test/support/summaryReporter.cjs).
  // At once, not after the file's last test (jest's default): journey.test.ts's last test stops its
  // stack, so a go put off until then met a refused connection (a full run, 2026-12-04).
  jest.retryTimes(1, {logErrorsBeforeRetry: true, retryImmediately: true});
  let stack: LocalStack | undefined;
  let browser: Browser | undefined;
  let contexts: RecycledContexts | undefined;

  beforeAll(
    async () => {
      browser = await launchChromium({offline: true});
      contexts = recycledContexts(() => browser!);
      stack = shared
        ? await sharedLocalStack()
        : await startLocalStack({
            flags: [...(sameOrigin ? ['--same-origin'] : []), ...(country ? ['--country', country] : [])],
            seed,
            env,
            // The run's emulator (test/support/runAuthEmulator.ts), but for a file that stops the stack: it shows
            // npm start stopping the one it started.
            emulatorHost: own ? undefined : runEmulatorHost(),
            // The run's migrated D1, but for the file that shows a first `npm start` (migratedLocalD1.ts).
            stateFrom: own ? undefined : migratedLocalD1(),
          });
      // Seeding writes the rows through wrangler first: up to two more minutes on a busy machine.
    },
    seed === undefined ? 300_000 : 420_000,
  );

  afterEach(() => contexts?.giveBack());

  afterAll(async () => {
    await contexts?.closeAll();
    await browser?.close();
    // The shared stack runs on for the files after this one; the suite's teardown stops it.
    if (!shared) await stack?.interrupt();
  });

  const running = () => {
    if (!stack) throw new Error('The local stack is not started yet: call it inside a test.');
    return stack;
  };

  async function goto(page: Page, path: string) {
    await page.goto(path.startsWith('http') ? path : `${running().siteUrl}${path}`);
    await page.waitForFunction(() => document.documentElement.dataset.hasHydrated === 'true');
  }

  async function open(
    path: string,
    {
      viewport = {width: 1280, height: 900},
      keep = false,
    }: {viewport?: {width: number; height: number}; keep?: boolean} = {},
  ): Promise<LocalTab> {
    const {page} = await contexts!.take({viewport}, {keep});
    const {errors} = watchPage(page);
    const workerCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(running().apiBase) && request.method() !== 'OPTIONS') {
        workerCalls.push(`${request.method()} ${new URL(request.url()).pathname}`);
      }
    });
    // A worker call that fails in the browser (a refused preflight, a dropped connection) fails
    // the test anyway through the console; this adds what the worker printed, to say why.
    page.on('requestfailed', (request) => {
      // ERR_ABORTED: the page went elsewhere first, which is no failure of the worker's.
      if (!request.url().startsWith(running().apiBase) || request.failure()?.errorText === 'net::ERR_ABORTED') return;
      const path = new URL(request.url()).pathname;
      // Its lines for the path, and any that say why it answered no worker of ours: wrangler
      // reloading the worker, a refusal by the settings. A 503 to an OPTIONS with neither is wrangler's
      // proxy losing its connection to the worker (see jest.retryTimes above).
      const why = /Reloading local server|restarted mid-request|settings\.refused/;
      const printed = running()
        .output()
        .split('\n')
        .filter((line) => line.includes(path) || why.test(line))
        .slice(-8);
      errors.push(
        `${request.method()} ${path} failed (${request.failure()?.errorText}); the worker printed:\n${printed.join('\n')}`,
      );
    });
    await goto(page, path);
    return {page, errors, workerCalls};
  }

  async function signInByMagicLink(
    tab: LocalTab,
    email: string,
    {name = email.split('@')[0]!, from, why}: {name?: string; from?: string; why?: string} = {},
  ) {
    const {page} = tab;
    await goto(page, from ?? '/signin');
    if (from) await page.waitForURL(`${running().siteUrl}/signin?next=${encodeURIComponent(from)}`);
    if (why) await page.getByText(why).waitFor();
    await followMagicLink(page, running(), email);
    if (from) {
      await page.waitForURL(`${running().siteUrl}${from}`);
      return;
    }
    await page.waitForURL(`${running().siteUrl}/dashboard`);
    // A buyer is greeted and an account without a purchase is shown the plans; both have the menu.
    await page.getByRole('banner').getByRole('button', {name}).waitFor();
  }

  async function checkoutAsGuest(tab: LocalTab, email: string, chosen: Plan = plan) {
    const {page} = tab;
    await buyAsGuest(page, running(), email, chosen);
    await page.getByRole('link', {name: 'Go to Dashboard'}).click();
    await page.getByRole('heading', {name: `Welcome, ${email.split('@')[0]}`}).waitFor();
  }

  async function waitToSee(tab: LocalTab, locator: Locator) {
    try {
      await locator.waitFor();
    } catch (error) {
      const shown = await tab.page
        .locator('body')
        .innerText({timeout: 1000})
        .catch(() => '(the page could not be read)');
      const printed = running().output().trim().split('\n').slice(-15).join('\n');
      throw new Error(
        `${(error as Error).message}\nAt ${tab.page.url()} the page showed:\n${shown}\nIt logged:\n${tab.errors.join('\n') || '(nothing)'}\nThe stack printed last:\n${printed}`,
        {cause: error},
      );
    }
  }

  async function requestAccess(tab: LocalTab, username: string) {
    const {page} = tab;
    await page.getByLabel('GitHub username').fill(username);
    await page.getByRole('button', {name: 'Request Access'}).click();
    await page.getByText('Check your email!').waitFor();
    await running().waitForLine(new RegExp(`\\[github\\] +invited @${username} `));
    await page.getByRole('heading', {name: 'Invitation pending'}).waitFor();
  }

  return {stack: running, open, goto, signInByMagicLink, checkoutAsGuest, requestAccess, waitToSee};
}
