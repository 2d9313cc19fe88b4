/**
 * A built docs page starts light (issue 23, "Docs pages start light"): once React has hydrated
 * it, the page's text is not drawn a second time, no collator is loaded, and the pages it links
 * to are prefetched in the browser's idle time, each file once. Each of these cost a phone's
 * reader blocking time before their first tap; `npm run audit` measures that time itself.
 */
import type {BrowserContext, Page} from 'playwright-core';
import {appConfig, fairPrice, PLAN_CURRENCY} from '../../src/config';
import {API_PATHS, type PricesResponse} from '../../src/config/api';
import {eventually, useBrowser} from './helpers';

const browser = useBrowser();

/** A plain page, a page with Firebase/Supabase tabs, and a component page with a live preview. */
const DOCS_PAGES = ['/docs/features/payments', '/docs/features/magic-links', '/docs/components/pricing'];

/**
 * The worker's answer to the pricing section's look-up for a visitor from a country at full price
 * (the worker's own calculation, `fairPrice`). The built site's worker is not running here, and
 * whether another file's is decided the page's fate before (a CI run saw the section drawn again).
 */
async function answerFullPrice(context: BrowserContext): Promise<void> {
  const answer: PricesResponse = {
    country: 'US',
    countryName: 'United States',
    percentOff: 0,
    currency: PLAN_CURRENCY,
    plans: appConfig.plans.map((plan) => {
      const {amount, listAmount} = fairPrice(plan, 'US');
      return {id: plan.id, amount, listAmount};
    }),
  };
  await context.route(
    (url) => url.pathname.endsWith(API_PATHS.prices),
    (route) => route.fulfill({json: answer, headers: {'Access-Control-Allow-Origin': '*'}}),
  );
}

/** In the page before it loads: counts every use of the browser's collator. */
function countCollatorUse(): void {
  const record = window as unknown as {collatorUses: number};
  record.collatorUses = 0;
  const localeCompare = String.prototype.localeCompare;
  String.prototype.localeCompare = function (this: string, ...args: Parameters<string['localeCompare']>) {
    record.collatorUses += 1;
    return localeCompare.apply(this, args);
  };
  const Collator = Intl.Collator;
  Intl.Collator = function (...args: ConstructorParameters<typeof Intl.Collator>) {
    record.collatorUses += 1;
    return new Collator(...args);
  } as unknown as typeof Intl.Collator;
}

/** In the page before it loads: keeps every idle callback until the test releases them. */
function holdIdleCallbacks(): void {
  const record = window as unknown as {held: IdleRequestCallback[]; releaseIdle: () => number};
  record.held = [];
  window.requestIdleCallback = (callback) => record.held.push(callback);
  record.releaseIdle = () => {
    let released = 0;
    // A callback may queue another one; release until none is left.
    while (record.held.length > 0) {
      const callbacks = record.held.splice(0);
      for (const callback of callbacks) callback({didTimeout: false, timeRemaining: () => 50});
      released += callbacks.length;
    }
    return released;
  };
}

/** Until the main thread has nothing left to do: the updates that follow hydration have run. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 1000)));
}

/**
 * The page's prose (the paragraphs, list items and headings of the Markdown) that React has
 * rendered again since hydration with new props: an element React only walked past keeps its props.
 */
function redrawnProse(page: Page): Promise<{redrawn: string[]; total: number}> {
  return page.evaluate(() => {
    const elements = [...document.querySelectorAll('article .markdown :is(p, li, h2, h3)')];
    const redrawn = elements.filter((element) => {
      const key = Object.keys(element).find((name) => name.startsWith('__reactFiber$'));
      const fiber = (
        element as unknown as Record<string, {alternate: {memoizedProps: unknown} | null; memoizedProps: unknown}>
      )[key!];
      return fiber?.alternate != null && fiber.alternate.memoizedProps !== fiber.memoizedProps;
    });
    return {redrawn: redrawn.map((element) => element.textContent!.slice(0, 60)), total: elements.length};
  });
}

const prefetchLinks = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLLinkElement>('link[rel="prefetch"]')].map((link) => new URL(link.href).pathname),
  );

describe('a built docs page on a phone', () => {
  it.each(DOCS_PAGES)('%s draws its text once: hydrating keeps it, and nothing draws it again', async (path) => {
    const {page, errors} = await browser().open(path, {phone: true, prepare: answerFullPrice});
    await settle(page);
    const {redrawn, total} = await redrawnProse(page);
    expect(total).toBeGreaterThan(5);
    expect(redrawn).toEqual([]);
    expect(errors).toEqual([]);
  });

  it.each(DOCS_PAGES)('%s starts without the collator', async (path) => {
    const {page, errors} = await browser().open(path, {
      phone: true,
      prepare: async (context: BrowserContext) => {
        await context.addInitScript(countCollatorUse);
      },
    });
    await settle(page);
    expect(await page.evaluate(() => (window as unknown as {collatorUses: number}).collatorUses)).toBe(0);
    expect(errors).toEqual([]);
  });

  it('prefetches the pages it links to only in idle time, each file once, and still navigates at once', async () => {
    const {page, errors} = await browser().open('/docs/features/payments', {
      width: 1280,
      prepare: async (context) => {
        await context.addInitScript(holdIdleCallbacks);
      },
    });
    await settle(page);
    // The sidebar's links are in view, and the browser has had no idle moment yet.
    expect(await prefetchLinks(page)).toEqual([]);

    expect(await page.evaluate(() => (window as unknown as {releaseIdle: () => number}).releaseIdle())).toBeGreaterThan(
      0,
    );
    await eventually(
      () => prefetchLinks(page),
      (links) => expect(links.length).toBeGreaterThan(5),
    );
    const links = await prefetchLinks(page);
    expect(new Set(links).size).toBe(links.length);
    expect(links.every((link) => link.startsWith('/assets/js/'))).toBe(true);

    await page.getByRole('navigation', {name: 'Docs sidebar'}).getByRole('link', {name: 'Magic links'}).click();
    await page.getByRole('heading', {level: 1, name: 'Magic links'}).waitFor();
    expect(errors).toEqual([]);
  });
});
