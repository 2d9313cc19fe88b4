/**
 * The built pages paint before the site's bundles run (src/plugins/paintFirst.ts): the reader
 * sees the text that is in the HTML while `main.js` is still on its way in, and the page still
 * comes alive once it runs.
 */
import {recordPopupScript, useBrowser} from './helpers';

const browser = useBrowser();

/** In the page before it loads: when the site's bundle was put into the document. */
function recordBundleInsertion(): void {
  const record = window as unknown as {bundleAddedAt?: number};
  new MutationObserver((_records, observer) => {
    if (document.querySelector('script[src*="/assets/js/main."]')) {
      record.bundleAddedAt = performance.now();
      observer.disconnect();
    }
  }).observe(document, {childList: true, subtree: true});
}

describe('a built page', () => {
  it.each(['/', '/docs/features/payments', '/signin'])(
    '%s paints its text before the bundle is added, then hydrates',
    async (path) => {
      const {page, errors} = await browser().open(path, {
        phone: true,
        prepare: async (context) => {
          await recordPopupScript(context);
          await context.addInitScript(recordBundleInsertion);
        },
      });
      // `open` returns once React has hydrated the page: the bundle ran.
      const {firstPaint, bundleAddedAt, preloaded} = await page.evaluate(() => ({
        firstPaint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
        bundleAddedAt: (window as unknown as {bundleAddedAt?: number}).bundleAddedAt,
        preloaded: [...document.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="script"]')].map(
          (link) => new URL(link.href).pathname,
        ),
      }));
      expect(firstPaint).toEqual(expect.any(Number));
      expect(bundleAddedAt).toEqual(expect.any(Number));
      expect(bundleAddedAt!).toBeGreaterThanOrEqual(firstPaint!);
      // …while it was downloaded from the start, as a deferred script would have been.
      expect(preloaded).toEqual([
        expect.stringMatching(/^\/assets\/js\/runtime~main\./),
        expect.stringMatching(/^\/assets\/js\/main\./),
      ]);
      expect(errors).toEqual([]);
    },
  );
});
