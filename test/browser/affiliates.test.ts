/**
 * The affiliate programme on the built site: /affiliates as a visitor reads it, at 1440 px and on
 * a 390 px phone, with nothing for axe to find; and a visit through an affiliate's link, which
 * leaves the address bar, is kept in local storage and is sent with the checkout. The worker's
 * answers are routed in the browser (the signed-in page against the real worker is the local
 * stack's to test, once the worker's side is there).
 */
import type {BrowserContext, Route} from 'playwright-core';
import {AFFILIATE_WORDS, appConfig, landing, ROUTES} from '../../src/config';
import {API_PATHS} from '../../src/config/api';
import {storageKey} from '../../src/config/serviceName';
import {axeViolations} from './axe';
import {eventually, siteUrl, useBrowser} from './helpers';

const workerUrl = () => `http://127.0.0.1:${process.env.TEST_WORKER_PORT}`;
const PHONE = {width: 390, height: 844};
const WIDE = {width: 1440, height: 900};
const REFERRAL = 'visit_browser_000000001';

/** Answers one worker endpoint with `body`, recording what the page sent it (a preflight is let through). */
async function answer(context: BrowserContext, path: string, body: unknown, seen: unknown[]): Promise<void> {
  await context.route(`${workerUrl()}${path}`, (route: Route) => {
    const cors = {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Headers': 'Content-Type, Authorization',
      'Access-Control-Allow-Methods': 'POST',
    };
    if (route.request().method() === 'OPTIONS') return route.fulfill({status: 204, headers: cors});
    seen.push(route.request().postDataJSON());
    return route.fulfill({status: 200, contentType: 'application/json', headers: cors, body: JSON.stringify(body)});
  });
}

describe('the affiliate programme on the built site', () => {
  const browser = useBrowser();

  it.each([
    ['1440', WIDE],
    ['390', PHONE],
  ])(
    'at %s px, shows a visitor the pitch, the terms and a sign-in that comes back, with nothing for axe to find',
    async (_, size) => {
      const {page, errors} = await browser().open(ROUTES.affiliates, size);
      const signIn = page.getByRole('link', {name: AFFILIATE_WORDS.signIn});
      await signIn.waitFor();
      expect(await signIn.getAttribute('href')).toBe(
        `${appConfig.auth.loginUrl}?next=${encodeURIComponent(ROUTES.affiliates)}`,
      );
      await page.getByRole('heading', {level: 1, name: AFFILIATE_WORDS.heading}).waitFor();
      await page.getByText(AFFILIATE_WORDS.pitch(appConfig.affiliates!.commissionPercent)).waitFor();
      expect(
        await page.getByRole('region', {name: AFFILIATE_WORDS.termsHeading}).getByRole('listitem').allTextContents(),
      ).toEqual(AFFILIATE_WORDS.terms());
      // The storefront's frame, as on the other pages.
      await page.getByRole('contentinfo').waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    },
  );

  it('keeps a visit through an affiliate link, drops `via` from the address, and sends the visit with the checkout', async () => {
    const visits: unknown[] = [];
    const checkouts: unknown[] = [];
    const {page, errors} = await browser().open('/?via=Ada&utm_source=blog', {
      prepare: async (context) => {
        await answer(
          context,
          API_PATHS.affiliateVisit,
          {referral: REFERRAL, expiresAt: Date.now() + 86_400_000},
          visits,
        );
        await answer(context, API_PATHS.createCheckoutSession, {url: siteUrl(ROUTES.terms)}, checkouts);
      },
    });
    await page.waitForURL(siteUrl('/?utm_source=blog'));
    await eventually(
      () => page.evaluate((key) => window.localStorage.getItem(key), storageKey('referral')),
      (kept) => expect(JSON.parse(kept ?? 'null')).toMatchObject({referral: REFERRAL}),
    );
    expect(visits).toEqual([{code: 'ada'}]);
    expect(await page.evaluate(() => document.cookie)).toBe('');

    await page.getByRole('button', {name: landing.cta.button}).click();
    await page.waitForURL(siteUrl(ROUTES.terms));
    expect(checkouts).toEqual([expect.objectContaining({referral: REFERRAL})]);
    expect(errors).toEqual([]);
  });

  it('sends nothing for a code of the wrong form, and still drops it from the address', async () => {
    const visits: unknown[] = [];
    const {page, errors} = await browser().open('/docs?via=-not-a-code-', {
      prepare: (context) => answer(context, API_PATHS.affiliateVisit, {referral: REFERRAL, expiresAt: 0}, visits),
    });
    await page.waitForURL(siteUrl('/docs'));
    expect(visits).toEqual([]);
    expect(errors).toEqual([]);
  });
});
