/**
 * axe on what no single page load shows: the progress bar of a slow navigation. Every built page
 * is read by axe in the sweep of everyBuiltPage.test.ts, each docs page with the Firebase/Supabase
 * switch on both backends; the signed-in dashboard on the local stack, in journey.test.ts.
 */
import {ROUTES} from '../../src/config';
import {axeViolations} from './axe';
import {siteUrl, useBrowser} from './helpers';

describe('accessibility (axe-core): no violation of any impact', () => {
  const browser = useBrowser();

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
