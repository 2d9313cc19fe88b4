/**
 * The site as `npm start` serves it: the Docusaurus dev server, what a buyer of the kit opens
 * first and what a seller edits the docs on (issue 23). It sends every page without its HTML and
 * draws it in the browser, so code that counts on the server's markup breaks here alone; the
 * other browser tests read the build. One `npm start -- --local`, one Chromium, pages in turn.
 */
import http, {type IncomingHttpHeaders} from 'node:http';
import {LOCAL_CRON_EVERY_MS} from '../../scripts/local/cron';
import versions from '../../versions.json';
import {builtPages, frozenVersionOf} from '../support/builtPages';
import {afterPurchase, appConfig, landing} from '../../src/config';
import {eventually, lanes} from './helpers';
import {useLocalSession, type LocalTab} from './localSession';
import {ask, focusSearchBar, watchSearchWorker} from './searchBar';

jest.setTimeout(600_000);

/**
 * A GET with the headers a browser sends: Node's fetch adds `Cache-Control: no-cache` to a request
 * with a condition (as a browser's Reload does), which asks the server to ignore the condition.
 */
function get(url: string, headers: Record<string, string> = {}) {
  return new Promise<{status: number; headers: IncomingHttpHeaders; body: string}>((resolve, reject) => {
    http
      .get(url, {headers}, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({status: response.statusCode!, headers: response.headers, body}));
      })
      .on('error', reject);
  });
}

const session = useLocalSession();

/** Tabs that open the docs' sections side by side. */
const WALK_TABS = 3;

/** The current docs (what a seller edits), or a frozen version (versions.json). */
const CURRENT = 'current';

/**
 * Every docs page the build has of `version`, which the dev server must draw too; the current
 * docs' /docs/get-started is an address that sends the reader on (a test of its own, below).
 */
function docsRoutes(version: string): string[] {
  const dir = process.env.TEST_SITE_DIR;
  if (!dir) throw new Error('TEST_SITE_DIR is not set: the browser project builds the site first.');
  return builtPages(dir)
    .map(({url}) => url)
    .filter((url) => url === '/docs' || url.startsWith('/docs/'))
    .filter((url) => (frozenVersionOf(url) ?? CURRENT) === version && url !== '/docs/get-started')
    .sort();
}

/** What is wrong with the page open in `tab` now: the error screen, or what it logged (the start of each). */
async function problems({page, errors}: LocalTab): Promise<string[]> {
  const found = errors.map((error) => error.replace(/\s+/g, ' ').slice(0, 300));
  const errorScreen = page.getByRole('heading', {name: 'Something went wrong'});
  const heading = page.getByRole('main').getByRole('heading', {level: 1}).first();
  // An address that sends the reader on (/docs/get-started) draws its page only after the router
  // has moved and loaded that page's code: wait for one outcome or the other, not a fixed time.
  await errorScreen
    .or(heading)
    .first()
    .waitFor({timeout: 30_000})
    .catch(() => undefined);
  if (await errorScreen.isVisible()) found.unshift('the error screen');
  else if (!(await heading.isVisible())) found.unshift('no page heading');
  return found;
}

describe('the dev server (npm start)', () => {
  it("opens the current docs' front page and each section's directly, with no error screen and nothing in the console", async () => {
    // A section's front page is /docs/<section>; each is the first page its own bundles draw.
    const fronts = docsRoutes(CURRENT).filter((route) => route.split('/').length <= 3);
    expect(fronts.length).toBeGreaterThan(5);
    const failed: string[] = [];
    // A page's load is mostly waiting (the dev server's answers, one renderer's parse of its
    // bundles): a few tabs, each with its own share of the pages, keep both cores busy.
    await Promise.all(
      lanes(fronts, WALK_TABS).map(async (lane) => {
        const tab = await session.open('/docs');
        for (const route of lane) {
          tab.errors.length = 0;
          // Drawn once hydrated; the page's images need not have loaded.
          await tab.page.goto(`${session.stack().siteUrl}${route}`, {waitUntil: 'domcontentloaded'});
          await tab.page.waitForFunction(() => document.documentElement.dataset.hasHydrated === 'true');
          const found = await problems(tab);
          if (found.length > 0) failed.push(`${route}: ${found.join(' | ')}`);
        }
      }),
    );
    expect(failed.sort()).toEqual([]);
  });

  it.each([CURRENT, ...versions])(
    "draws every page of the %s docs, read in order from the front page with each page's Next link",
    async (version) => {
      // Every page is drawn in the browser, by the code a direct load runs (the test above opens
      // each section so), at a fraction of a full load of the dev bundles each: 52 direct loads
      // were about 75 core-s, the walk through them a fifth of it (measured: issue 39).
      const routes = docsRoutes(version);
      expect(routes.length).toBeGreaterThan(20);
      const tab = await session.open(routes[0]!);
      const {page} = tab;
      const drawn = new Set<string>();
      const failed: string[] = [];
      const check = async () => {
        const route = new URL(page.url()).pathname.replace(/\/$/, '');
        const found = await problems(tab);
        if (found.length > 0) failed.push(`${route}: ${found.join(' | ')}`);
        drawn.add(route);
        tab.errors.length = 0;
      };
      await check();
      const pagination = page.getByRole('navigation', {name: 'Docs pages'});
      for (;;) {
        const next = pagination.getByRole('link', {name: /^Next/});
        if ((await next.count()) === 0 || failed.length > 0) break;
        const target = new URL((await next.getAttribute('href'))!, page.url()).pathname.replace(/\/$/, '');
        if (drawn.has(target)) break;
        const from = new URL(page.url()).pathname;
        await next.click();
        // Drawn once its own pagination points back at the page the reader came from, or failed.
        await page
          .getByRole('heading', {name: 'Something went wrong'})
          .or(pagination.locator(`a[href="${from}"]`))
          .first()
          .waitFor();
        await check();
      }
      expect(failed).toEqual([]);
      // The version's sidebar leads through all of its pages: none is left unread.
      expect(routes.filter((route) => !drawn.has(route))).toEqual([]);
    },
    600_000,
  );

  it('answers a page load that asks whether its bundles changed with 304 Not Modified, as long as they have not', async () => {
    // As a browser asks for a page: the dev server answers every path that accepts HTML with the app's page.
    const page = await get(`${session.stack().siteUrl}/docs`, {accept: 'text/html'});
    const bundles = [...page.body.matchAll(/<script[^>]* src="([^"]+\.js)"/g)].map((match) => match[1]!);
    expect(bundles).toContain('/main.js');
    for (const bundle of bundles) {
      const first = await get(`${session.stack().siteUrl}${bundle}`, {'accept-encoding': 'gzip'});
      expect([bundle, first.status, first.headers.etag]).toEqual([bundle, 200, expect.any(String)]);
      // Uncompressed: on a local connection gzip costs both ends more than it saves (src/plugins/devServerCache.ts).
      expect(first.headers['content-encoding']).toBeUndefined();
      const again = await get(`${session.stack().siteUrl}${bundle}`, {'if-none-match': first.headers.etag!});
      expect([bundle, again.status, again.body]).toEqual([bundle, 304, '']);
    }
  });

  it('keeps a docs page with code working on Reload and on Back, and its code wraps on request', async () => {
    const tab = await session.open('/docs');
    const {page} = tab;
    const block = page
      .getByRole('main')
      .locator('.theme-code-block')
      .filter({hasText: `const appName = '${appConfig.appName}';`});
    await block.waitFor();
    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.hasHydrated === 'true');
    expect(await problems(tab)).toEqual([]);
    await session.goto(page, '/signin');
    await page.goBack();
    await page.waitForFunction(() => document.documentElement.dataset.hasHydrated === 'true');
    expect(await problems(tab)).toEqual([]);
    // The theme's word-wrap button acts on the block's <code>, which a client-drawn block must have.
    await block.hover();
    await block.getByRole('button', {name: 'Toggle word wrap'}).click();
    await eventually(
      () => block.locator('code').evaluate((element) => getComputedStyle(element).whiteSpace),
      (whiteSpace) => expect(whiteSpace).toBe('pre-wrap'),
    );
    expect(await problems(tab)).toEqual([]);
  });

  it('keeps word wrap on when the highlighted code arrives after the reader turned it on', async () => {
    const tab = await session.open('/signin');
    const {page} = tab;
    // Prism's chunk is held back, so the block shows its plain code until it is let through.
    let letPrismThrough: () => void = () => undefined;
    const prismHeld = new Promise<void>((resolve) => {
      letPrismThrough = resolve;
    });
    const held: string[] = [];
    // Under the dev server, webpack names the chunk after its modules: Prism's languages and ./Highlighted.
    await page.route(/prism.*\.js$/, async (route) => {
      held.push(route.request().url());
      await prismHeld;
      await route.continue();
    });
    await session.goto(page, '/docs');
    await page.waitForFunction(() => document.documentElement.dataset.hasHydrated === 'true');
    const block = page
      .getByRole('main')
      .locator('.theme-code-block')
      .filter({hasText: `const appName = '${appConfig.appName}';`});
    await eventually(
      () => held.length,
      (count) => expect(count).toBeGreaterThan(0),
      60_000,
    );
    expect(await block.locator('.token').count()).toBe(0);
    await block.hover();
    await block.getByRole('button', {name: 'Toggle word wrap'}).click();
    letPrismThrough();
    // Highlighted: Prism's tokens are drawn, in a <code> that was not there at the click.
    await block.locator('.token').first().waitFor();
    expect(await block.locator('code').evaluate((element) => getComputedStyle(element).whiteSpace)).toBe('pre-wrap');
    await block.getByRole('button', {name: 'Toggle word wrap'}).click();
    await eventually(
      () => block.locator('code').evaluate((element) => getComputedStyle(element).whiteSpace),
      (whiteSpace) => expect(whiteSpace).toBe('pre'),
    );
    expect(await problems(tab)).toEqual([]);
  });

  it('says in the search box that search needs the production build', async () => {
    const tab = await session.open('/docs');
    // The helpers that read the dropdown count the search worker's calls from the page's start.
    await tab.page.context().addInitScript(watchSearchWorker);
    await session.goto(tab.page, '/docs');
    const input = await focusSearchBar(tab.page);
    const {suggestions, empty} = await ask(tab.page, input, 'stripe webhook');
    expect(suggestions).toEqual([]);
    expect(empty).toMatch(/no search index/);
    expect(empty).toContain('npm start -- --built');
    expect(tab.errors).toEqual([]);
  });

  it("opens the Get started page from /docs/get-started, its file's address, query and fragment kept", async () => {
    const {page, errors} = await session.open('/docs/get-started?backend=supabase#environment-files');
    await page.waitForURL(`${session.stack().siteUrl}/docs?backend=supabase#environment-files`);
    await page.getByRole('main').getByRole('heading', {name: 'Get started', level: 1}).waitFor();
    expect(errors).toEqual([]);
  });

  it('thanks nobody on /success opened with no checkout: it says there is no purchase to confirm here', async () => {
    const {page, errors, workerCalls} = await session.open('/success');
    const copy = afterPurchase.successPage;
    await page.getByRole('heading', {name: copy.none.title}).waitFor();
    expect(await page.getByRole('heading', {name: copy.paid.title}).count()).toBe(0);
    expect(await page.getByText(afterPurchase.email).count()).toBe(0);
    expect(workerCalls.filter((call) => call.includes('checkoutStatus'))).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('lands at the pricing when /#pricing is opened directly', async () => {
    const {page, errors} = await session.open('/#pricing');
    const pricing = page.getByRole('region', {name: landing.pricing.title});
    await eventually(
      () => pricing.evaluate((element) => Math.round(element.getBoundingClientRect().top)),
      // At the top of the window, under the sticky header at most.
      (top) => expect(Math.abs(top)).toBeLessThan(120),
    );
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });

  it("keeps the docs' Project folders table readable: its first column's words whole on a desktop, its heading on a phone", async () => {
    for (const [viewport, rows] of [
      [{width: 1280, height: 900}, 'tr'],
      [{width: 390, height: 844}, 'thead tr'],
    ] as const) {
      const {page, errors} = await session.open('/docs', {viewport});
      const table = page.getByRole('table').filter({has: page.getByRole('columnheader', {name: 'Folder'})});
      const broken = await table.evaluate((element, selector) => {
        const found: string[] = [];
        for (const row of element.querySelectorAll(selector)) {
          const walker = document.createTreeWalker(row.firstElementChild!, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const match of node.textContent!.matchAll(/\S+/g)) {
              const range = document.createRange();
              range.setStart(node, match.index);
              range.setEnd(node, match.index + match[0].length);
              // One box per line the word is drawn on.
              if (new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size > 1)
                found.push(match[0]);
            }
          }
        }
        return found;
      }, rows);
      expect({width: viewport.width, broken}).toEqual({width: viewport.width, broken: []});
      expect(errors).toEqual([]);
    }
  });

  it('draws every button in the same font as the text around it', async () => {
    for (const path of ['/', '/docs', '/signin']) {
      const {page, errors} = await session.open(path);
      const odd = await page.evaluate(() => {
        const body = getComputedStyle(document.body).fontFamily;
        return [...document.querySelectorAll('button')]
          .filter((button) => button.getClientRects().length > 0)
          .map((button) => ({
            label: button.textContent!.trim() || button.getAttribute('aria-label'),
            font: getComputedStyle(button).fontFamily,
          }))
          .filter(({font}) => font !== body)
          .map(({label, font}) => `${label}: ${font} (the text: ${body})`);
      });
      expect({path, odd}).toEqual({path, odd: []});
      expect(errors).toEqual([]);
    }
  });
});

describe("npm start's cron (wrangler dev runs none)", () => {
  // No test asks the shared stack for a cron run (journey.test.ts and admin.test.ts ask their own
  // stacks, to send a release now), and this file keeps it busy for well over a minute: the run
  // below is npm start's own, read from its terminal without waiting.
  it("runs the worker's scheduled handler each minute, as Cloudflare runs it deployed", async () => {
    await session.stack().waitForLine(/\[wrangler:info\] GET \/__scheduled 200/, LOCAL_CRON_EVERY_MS + 30_000);
  });
});
