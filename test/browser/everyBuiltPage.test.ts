/**
 * Every page of the built site in Chromium, each loaded once for all of this: it runs under the
 * Content-Security-Policy its build wrote to `_headers` with no script refused, it hydrates,
 * nothing is logged as an error, it asks for no tracking script (the plain build has no ids), and
 * axe finds no violation of any impact, each docs page with the Firebase/Supabase switch once on
 * each backend (of a frozen docs version, axe reads the front page). The pages that send a visitor
 * on at once are checked under their policy, and axe reads them where they land. The signed-in
 * dashboard is checked on the local stack, in journey.test.ts; the tracked build and what the
 * policy refuses, in contentSecurityPolicy.test.ts.
 */
import {launchChromium} from '../../scripts/support/chromium';
import {ROUTES, TOKEN_PAGES} from '../../src/config';
import versions from '../../versions.json';
import {builtPages, frozenVersionOf, sitemapPaths} from '../support/builtPages';
import {DIRS, hasBackendTabs, sweep, type AxeCheck} from './sweep';

/** A sweep of every page, axe on each: two minutes here, far more on a busy machine. */
const SWEEP_MS = 1_200_000;

/** Routes a visitor reaches that the sitemap leaves out (noindex, like the docs' search page). */
const OUTSIDE_SITEMAP = [ROUTES.signIn, ROUTES.error, ROUTES.leaderboard, ROUTES.search, ROUTES.newPassword, '/404'];

/** Built pages that send a signed-out visitor on before anyone reads them: axe reads where they land. */
const SEND_ON = [ROUTES.admin, ROUTES.finishSignIn, '/docs/get-started'];

/**
 * Whether axe leaves a page to the other checks: a frozen docs version's pages, but its front page.
 * Their words never change, and the same theme and components draw them as draw the current docs,
 * which axe reads page by page; the front page shows what only a frozen version has (its banner).
 * Axe on the 43 others was 40% of this file's processor time (about 80 core-s, measured: issue 39).
 */
const frozenBeyondFront = (url: string) => {
  const version = frozenVersionOf(url);
  return version !== undefined && url !== `/docs/${version}`;
};

const dir = DIRS.TEST_SITE_URL;
const pages = builtPages(dir);
const axeCheck = new Map<string, AxeCheck>(
  pages.map(({url, file}) => [
    url,
    SEND_ON.includes(url) || frozenBeyondFront(url) ? 'none' : hasBackendTabs(file) ? 'page and backend tabs' : 'page',
  ]),
);

describe('every built page', () => {
  it('is listed: the sitemap, the pages kept out of it, the token pages, each docs page on both backends', () => {
    const urls = pages.map((page) => page.url);
    expect(urls).toEqual(
      expect.arrayContaining([...sitemapPaths(dir), ...OUTSIDE_SITEMAP, ...TOKEN_PAGES, ...SEND_ON]),
    );
    expect([...axeCheck.values()].filter((check) => check === 'page and backend tabs').length).toBeGreaterThan(5);
    // Axe reads every page but those sent on and a frozen version's beyond its front page.
    const unread = urls.filter((url) => axeCheck.get(url) === 'none' && !SEND_ON.includes(url));
    expect(unread.every(frozenBeyondFront)).toBe(true);
    expect(urls.filter((url) => frozenVersionOf(url) !== undefined && axeCheck.get(url) !== 'none')).toEqual(
      versions.map((version) => `/docs/${version}`),
    );
  });

  it(
    'runs under its policy with no script refused and nothing in the console, and axe finds nothing on it',
    async () => {
      const browser = await launchChromium({offline: true});
      try {
        const urls = pages.map((page) => page.url);
        expect(await sweep(browser, 'TEST_SITE_URL', urls, (url) => axeCheck.get(url)!)).toEqual({});
      } finally {
        await browser.close();
      }
    },
    SWEEP_MS,
  );
});
