/**
 * axe on every page of the built site, with no violation of any impact: every page the sitemap
 * lists, the pages kept out of it that a visitor still opens, and each docs page with the
 * Firebase/Supabase switch once on each backend. The signed-in dashboard is checked on the local
 * stack, in journey.test.ts.
 */
import {readFileSync} from 'node:fs';
import {BACKENDS} from '../../src/components/docs/backends';
import {ROUTES} from '../../src/config';
import {builtPages, sitemapPaths} from '../support/builtPages';
import {axeViolations} from './axe';
import {eventually, siteUrl, useBrowser, useTabPool} from './helpers';

/** Routes a visitor reaches that the sitemap leaves out (noindex, like the docs' search page); /admin and /finish-sign-in send a signed-out visitor on. */
const OUTSIDE_SITEMAP = [ROUTES.signIn, ROUTES.error, ROUTES.leaderboard, '/search'];

const dir = process.env.TEST_SITE_DIR!;
const files = new Map(builtPages(dir).map((page) => [page.url, page.file]));
const [, other] = BACKENDS;

/** Whether the page as built offers the backend tabs: then axe reads it on each backend. */
const hasBackendTabs = (url: string) =>
  new RegExp(`role=tab\\b[^>]*>${other.label}<`).test(readFileSync(files.get(url)!, 'utf8'));

const pages = [...sitemapPaths(dir), ...OUTSIDE_SITEMAP].map((url) => ({
  url,
  tabs: files.has(url) && hasBackendTabs(url),
}));

describe('accessibility (axe-core): no violation of any impact', () => {
  const browser = useBrowser();

  it('checks the docs on both backends somewhere', () => {
    expect(pages.filter((page) => page.tabs).length).toBeGreaterThan(5);
  });

  // A page's check is mostly waiting on one renderer (its load, then axe): a few side by side keep
  // both cores busy (jest.config.mjs's maxConcurrency says how many), each in a tab of the pool.
  const pool = useTabPool(browser, 3);
  it.concurrent.each(pages)('$url (tabs: $tabs)', ({url, tabs}) =>
    pool.visit(url, async ({page, errors}) => {
      // The dashboard sends a signed-out visitor to sign in, and back to it after: check where they stay.
      if (url === ROUTES.dashboard)
        await page.waitForURL(`${siteUrl(ROUTES.signIn)}?next=${encodeURIComponent(ROUTES.dashboard)}`);
      expect(await axeViolations(page)).toEqual([]);
      if (tabs) {
        // Every tab group on the page follows the one choice. Only the tab groups changed, and axe
        // skips hidden panels: checking the groups again reads the other backend's text.
        await page.getByRole('tab', {name: other.label}).first().click();
        await eventually(
          () => page.getByRole('tab', {name: other.label, selected: false}).count(),
          (unselected) => expect(unselected).toBe(0),
        );
        expect(await axeViolations(page, {within: '.tabs-container'})).toEqual([]);
      }
      expect(errors).toEqual([]);
    }),
  );

  it('shows the bar of a slow navigation with nothing for axe to find', async () => {
    let slow = false;
    const {page, errors} = await browser().open('/', {
      prepare: async (context) => {
        await context.route('**/*.js', async (route) => {
          if (slow) await new Promise((resolve) => setTimeout(resolve, 2000));
          await route.continue();
        });
      },
    });
    try {
      // The next page's script arrives late, so the theme shows its progress bar (nprogress).
      slow = true;
      await page.getByRole('contentinfo').getByRole('link', {name: 'Terms of Service'}).click();
      await page.locator('#nprogress .bar').waitFor();
      expect(await axeViolations(page, {within: '#nprogress'})).toEqual([]);
      await page.waitForURL(siteUrl(ROUTES.terms));
      expect(errors).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
