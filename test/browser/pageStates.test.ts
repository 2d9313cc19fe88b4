/**
 * Every state says where you are (issue 23), on the built site: what a signed-out visitor, a
 * buyer back from paying, a developer in local mode and a reader on a dead link each see. The
 * signed-in states (a non-buyer, a buyer's header) need the local stack: journey.test.ts.
 */
import type {Page} from 'playwright-core';
import {afterPurchase, appConfig, landing, legal, passwordReset, ROUTES} from '../../src/config';
import {API_PATHS} from '../../src/config/api';
import {recordPopupScript, siteUrl, useBrowser} from './helpers';

const browser = useBrowser();

describe('a signed-out visitor on the dashboard', () => {
  it('is sent to sign in, told why, with the way back to the dashboard', async () => {
    const {page, errors} = await browser().open(ROUTES.dashboard);
    await page.waitForURL(siteUrl(`${ROUTES.signIn}?next=${encodeURIComponent(ROUTES.dashboard)}`));
    await page.getByRole('heading', {name: `Sign in to ${appConfig.appName}`}).waitFor();
    await page
      .getByText(`Your dashboard is where you get the ${appConfig.appName} code. Sign in with the e-mail you paid with`)
      .waitFor();
    expect(errors).toEqual([]);
  });

  it('sees no such line on the sign-in page opened from the header', async () => {
    const {page, errors} = await browser().open(ROUTES.signIn);
    await page.getByRole('heading', {name: `Sign in to ${appConfig.appName}`}).waitFor();
    expect(await page.getByText(/come straight back/).count()).toBe(0);
    expect(await page.getByText(passwordReset.changed).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});

describe('the sign-in page', () => {
  it('says the password changed when a reset continues to it (passwordSignIn.test.ts follows the real reset)', async () => {
    const {page, errors} = await browser().open(passwordReset.signInPage);
    await page.getByRole('status').filter({hasText: passwordReset.changed}).waitFor();
    await page.getByRole('heading', {name: `Sign in to ${appConfig.appName}`}).waitFor();
    expect(errors).toEqual([]);
  });

  it('keeps its card off both edges of a 390 px phone', async () => {
    const width = 390;
    const {page, errors} = await browser().open(ROUTES.signIn, {
      width,
      height: 844,
      prepare: (context) => recordPopupScript(context).then(() => undefined),
    });
    // The card is the box its title heads.
    const card = page.getByRole('heading', {level: 1, name: `Sign in to ${appConfig.appName}`}).locator('..');
    const box = (await card.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(12);
    expect(width - (box.x + box.width)).toBeGreaterThanOrEqual(12);
    // Nothing in it pushes the page wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
    expect(errors).toEqual([]);
  });
});

describe('the success page', () => {
  it('opened with no checkout, thanks nobody and claims no e-mail: it says there is no purchase here, with the ways on', async () => {
    const {page, errors, requests} = await browser().open(ROUTES.success);
    const copy = afterPurchase.successPage;
    await page.getByRole('heading', {name: copy.none.title}).waitFor();
    await page.getByText(copy.signInHint).waitFor();
    expect(await page.getByRole('heading', {name: copy.paid.title}).count()).toBe(0);
    expect(await page.getByText(afterPurchase.email).count()).toBe(0);
    expect(await page.getByRole('link', {name: copy.actions.dashboard}).getAttribute('href')).toBe(ROUTES.dashboard);
    expect(await page.getByRole('link', {name: copy.actions.plans}).getAttribute('href')).toBe('/#pricing');
    expect(await page.getByRole('link', {name: copy.actions.support}).getAttribute('href')).toBe(
      `mailto:${appConfig.support.email}`,
    );
    // Nothing to ask about: the worker is not called.
    expect(requests.filter((url) => url.includes(API_PATHS.checkoutStatus))).toEqual([]);
    // Its title and description, the same for every visitor, claim no purchase either.
    expect(await page.title()).toContain(copy.meta.title);
    expect(await page.locator('meta[name="description"]').getAttribute('content')).toBe(copy.meta.description);
    expect(errors).toEqual([]);
  });
});

describe('the legal pages', () => {
  it.each([
    [ROUTES.terms, legal.terms.lastUpdated],
    [ROUTES.privacy, legal.privacy.lastUpdated],
  ])('%s says the day its text last changed, from src/config', async (path, lastUpdated) => {
    const {page, errors} = await browser().open(path);
    const date = page.getByRole('main').locator(`time[datetime="${lastUpdated}"]`);
    const [year, month, day] = lastUpdated.split('-').map(Number);
    const written = new Date(Date.UTC(year!, month! - 1, day!)).toLocaleDateString('en-US', {
      month: 'long',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    });
    expect(await date.textContent()).toBe(written);
    expect(await page.getByRole('main').textContent()).toContain(`Last updated: ${written}`);
    expect(errors).toEqual([]);
  });
});

describe('Google sign-in in local mode', () => {
  it('says that Google needs a real Firebase project, and points to the link or the password', async () => {
    const {page, errors} = await browser().open(ROUTES.signIn, {
      prepare: (context) => recordPopupScript(context).then(() => undefined),
    });
    await page.getByRole('button', {name: 'Sign in with Google'}).click();
    const alert = page.getByRole('alert').filter({hasText: 'Google sign-in needs a real Firebase project'});
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/magic link or a password/);
    await page.getByRole('button', {name: 'Send magic link'}).waitFor();
    expect(errors).toEqual([]);
  });
});

/** The mean difference per colour channel (0 to 255) between two PNG screenshots of one size. */
function meanDifference(page: Page, a: Buffer, b: Buffer): Promise<number> {
  return page.evaluate(
    async ([first, second]) => {
      const pixels = async (base64: string) => {
        const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${base64}`)).blob());
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const context = canvas.getContext('2d')!;
        context.drawImage(bitmap, 0, 0);
        return context.getImageData(0, 0, bitmap.width, bitmap.height).data;
      };
      const [x, y] = await Promise.all([pixels(first!), pixels(second!)]);
      let total = 0;
      for (let i = 0; i < x.length; i += 1) total += Math.abs(x[i]! - y[i]!);
      return total / x.length;
    },
    [a.toString('base64'), b.toString('base64')],
  );
}

describe('the hero video before it plays', () => {
  it.each([390, 1280])('shows the designed poster at %d px, not an empty grey player', async (width) => {
    const {page, errors} = await browser().open('/', {width, height: 900});
    const video = page.getByLabel(landing.hero.demoVideo.title);
    await video.scrollIntoViewIfNeeded();
    await page.waitForFunction(() =>
      [...document.images].filter((image) => image.src.includes('demo-poster')).every((image) => image.complete),
    );
    // The picture above the player's control bar, as the visitor sees it, and the poster alone.
    const box = (await video.boundingBox())!;
    const clip = {x: box.x, y: box.y, width: box.width, height: box.height * 0.6};
    const seen = await page.screenshot({clip});
    await video.evaluate((element: HTMLElement) => (element.style.visibility = 'hidden'));
    const poster = await page.screenshot({clip});
    expect(await meanDifference(page, seen, poster)).toBeLessThan(8);
    expect(errors).toEqual([]);
  });
});

describe('the copy about support', () => {
  it('says the same thing in the plans and the FAQ, and promises no 24/7', async () => {
    const {page, errors} = await browser().open('/');
    const advanced = page.locator('#pricing').getByRole('article', {name: 'Advanced'});
    expect(await advanced.textContent()).toContain(appConfig.support.replyTime);
    const faq = page.locator('#faq');
    await faq.getByRole('button', {name: 'I have another question'}).click();
    await faq.getByText(`a real person answers, ${appConfig.support.replyTime}`).waitFor();
    expect(await page.locator('body').textContent()).not.toMatch(/24\/7/);
    expect(errors).toEqual([]);
  });
});

describe('the 404 page', () => {
  // A missing docs address too: the docs' routes answer it in the browser, and the host with 404.html.
  it.each(['/pricing-plans-2019', '/docs/features/no-such-page'])(
    'names what was not found at %s, in the site’s own page, with search, the docs and the home page',
    async (missing) => {
      const {page, errors} = await browser().open(missing);
      await page.getByRole('heading', {level: 1, name: 'Page not found'}).waitFor();
      const main = page.getByRole('main');
      await main.getByText(`There is no page at ${missing}.`).waitFor();
      // The site's header, not the docs' navbar and sidebar.
      await page
        .getByRole('banner')
        .getByRole('link', {name: `${appConfig.appName} home`})
        .waitFor();
      expect(await page.locator('.navbar').count()).toBe(0);
      // Light, as the site's pages are, even under /docs (whose pages are dark).
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
      expect(await main.getByRole('link', {name: 'Documentation'}).getAttribute('href')).toBe(ROUTES.docs);
      expect(await main.getByRole('link', {name: 'Home'}).getAttribute('href')).toBe(ROUTES.home);

      await main.getByRole('searchbox', {name: 'Search the docs'}).fill('webhook');
      await main.getByRole('button', {name: 'Search'}).click();
      await page.waitForURL(siteUrl(`${ROUTES.search}?q=webhook`));
      // A 404 answer for the missing page is the console's one expected line.
      expect(errors.filter((error) => !error.includes('404'))).toEqual([]);
    },
  );

  it('is drawn when a reader already in the docs goes to a missing docs address without a reload, and Back returns', async () => {
    const {page, errors} = await browser().open('/docs/features/payments');
    const title = page.getByRole('main').getByRole('heading', {level: 1});
    const docsTitle = await title.innerText();
    // The router follows the address as it does for a link in the page (a stale link in a docs page).
    await page.evaluate(() => {
      window.history.pushState(null, '', '/docs/features/no-such-page');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await page.getByRole('heading', {level: 1, name: 'Page not found'}).waitFor();
    await page.getByRole('main').getByText('There is no page at /docs/features/no-such-page.').waitFor();
    expect(await page.locator('.navbar').count()).toBe(0);
    await page.goBack();
    await page.getByRole('main').getByRole('heading', {level: 1, name: docsTitle}).waitFor();
    expect(errors).toEqual([]);
  });
});
