/**
 * Browser contexts used again from one test to the next, emptied between them. A fresh context is
 * a fresh profile, and Chromium starts a renderer process and a network stack for it: measured
 * here, a built page in a new context cost 1.95 core-seconds and 0.85 in a new page of a context
 * given back; a page of the dev server 2.67 and 1.27. A file of fifty tests pays that fifty times.
 *
 * A test still starts as a first visit would: when it ends (afterEach), its context's pages are
 * closed, its cookies and permissions cleared, and every kind of storage of every site a page of
 * it went to (local and session storage, IndexedDB, cache storage, service workers) emptied by
 * Chromium itself (`Storage.clearDataForOrigin`). A context that a test changed for good (an init
 * script, a route, a listener on the context, headers, a fake clock...) is closed instead, never
 * lent again. What stays is what a returning browser keeps and no test reads: the HTTP cache and
 * the renderer processes.
 */
import type {Browser, BrowserContext, BrowserContextOptions, Page} from 'playwright-core';

/** Context methods whose effect outlives the test that calls them: such a context is closed, not lent again. */
const LASTING = [
  'addInitScript',
  'exposeBinding',
  'exposeFunction',
  'route',
  'routeFromHAR',
  'routeWebSocket',
  'setGeolocation',
  'setExtraHTTPHeaders',
  'setOffline',
  'setHTTPCredentials',
  'on',
  'once',
  'addListener',
  'prependListener',
  'prependOnceListener',
] as const;
/** The same for the context's clock: once installed or moved, time in it is no longer the machine's. */
const CLOCK = ['install', 'fastForward', 'pauseAt', 'resume', 'runFor', 'setFixedTime', 'setSystemTime'] as const;

interface Held {
  context: BrowserContext;
  /** The options it was made with, as JSON: it is lent again only for the same. */
  key: string;
  /** A test changed it for good. */
  lasting: boolean;
  /** Every origin a page of it was loaded from since it was last emptied. */
  origins: Set<string>;
  /** The empty page it is lent with. */
  blank?: Page;
}

export interface RecycledContexts {
  /**
   * A context made with `options`, an emptied one if one is idle, and its one blank page. Taken in
   * a test it comes back at the test's end (`giveBack`); taken outside one (beforeAll), or with
   * `keep`, for a page that several tests read in turn, it stays the caller's until `closeAll`.
   */
  take: (options: BrowserContextOptions, how?: {keep?: boolean}) => Promise<{context: BrowserContext; page: Page}>;
  /** afterEach: the contexts lent to the test that ended, emptied, or closed if it changed them for good. */
  giveBack: () => Promise<void>;
  /** afterAll: every context closes. */
  closeAll: () => Promise<void>;
}

/** Makes `context`'s LASTING and CLOCK methods mark `held` as changed for good before they act. */
function markLasting(held: Held): void {
  const mark = <T extends object>(target: T, names: readonly string[]) => {
    for (const name of names) {
      const method = (target as Record<string, unknown>)[name];
      if (typeof method !== 'function') continue;
      (target as Record<string, unknown>)[name] = (...args: unknown[]) => {
        held.lasting = true;
        return (method as (...a: unknown[]) => unknown).apply(target, args);
      };
    }
  };
  mark(held.context, LASTING);
  mark(held.context.clock, CLOCK);
}

export function recycledContexts(browser: () => Browser): RecycledContexts {
  const idle: Held[] = [];
  const lent: Held[] = [];
  const kept: Held[] = [];

  async function make(options: BrowserContextOptions, key: string): Promise<Held> {
    const held: Held = {context: await browser().newContext(options), key, lasting: false, origins: new Set()};
    // Before markLasting wraps `on`: this listener is the recycler's own.
    held.context.on('request', (request) => {
      if (request.resourceType() === 'document' && /^https?:/.test(request.url())) {
        held.origins.add(new URL(request.url()).origin);
      }
    });
    markLasting(held);
    return held;
  }

  async function empty(held: Held): Promise<void> {
    const {context} = held;
    await Promise.all(context.pages().map((page) => page.close()));
    await context.clearCookies();
    await context.clearPermissions();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    for (const origin of held.origins) {
      await cdp.send('Storage.clearDataForOrigin', {origin, storageTypes: 'all'});
    }
    await cdp.detach();
    held.origins.clear();
    held.blank = page;
  }

  return {
    async take(options, {keep = false} = {}) {
      const key = JSON.stringify(options);
      const index = idle.findIndex((held) => held.key === key);
      const held = index >= 0 ? idle.splice(index, 1)[0]! : await make(options, key);
      const page = held.blank ?? (await held.context.newPage());
      held.blank = undefined;
      (keep || !expect.getState().currentTestName ? kept : lent).push(held);
      return {context: held.context, page};
    },
    async giveBack() {
      await Promise.all(
        lent.splice(0).map(async (held) => {
          if (held.lasting) return held.context.close();
          try {
            await empty(held);
            idle.push(held);
          } catch {
            // A context that cannot be emptied (its browser gone, a page that will not close) is not lent again.
            await held.context.close().catch(() => undefined);
          }
        }),
      );
    },
    async closeAll() {
      const all = [...idle, ...lent, ...kept];
      idle.length = lent.length = kept.length = 0;
      await Promise.all(all.map((held) => held.context.close().catch(() => undefined)));
    },
  };
}
