/**
 * The open redirect after sign-in, acted out in Chromium against `npm start -- --local` and its
 * Auth emulator: a crafted link to `/signin?next=/%09/evil.example` (a tab, or a newline, after the
 * first slash; the browser drops it and reads `//evil.example`). A visitor who follows it and signs
 * in with a password, and one already signed in, who is sent on at once, end on the site, never
 * on evil.example. Twice: on the plain site, and with tracking ids, where leaving /signin for a
 * page that is not a token page is a full page load (`tokenPageBoundary.ts`), so a path the
 * browser reads as another host is followed there.
 */
import type {Page} from 'playwright-core';
import {ROUTES} from '../../src/config';
import {TRACKING_IDS} from './globalSetup';
import {uniqueEmail, useLocalSession, type LocalSession, type LocalTab} from './localSession';

jest.setTimeout(300_000);

const EVIL_HOST = 'evil.example';

/** The crafted `next=`, as a link writes it: a tab or a newline after the first slash. */
const LURES = [
  ['a tab', `/%09/${EVIL_HOST}`],
  ['a newline', `/%0A/${EVIL_HOST}`],
] as const;

/** A verified account with a password, as one registered on /signin is. */
async function accountWithPassword(session: LocalSession, email: string, password: string) {
  const created = await fetch(
    `http://${session.stack().emulatorHost}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=local`,
    {
      method: 'POST',
      headers: {'content-type': 'application/json', authorization: 'Bearer owner'},
      body: JSON.stringify({email, password, emailVerified: true}),
    },
  );
  expect(created.status).toBe(200);
}

/**
 * Answers every request to the other site with a page of its own, and records it: a visitor sent
 * there lands (the browser runs offline) and the test sees that they did.
 */
async function watchOtherSite(page: Page): Promise<string[]> {
  const visits: string[] = [];
  await page.context().route(
    (url) => url.hostname === EVIL_HOST,
    (route) => {
      visits.push(route.request().url());
      return route.fulfill({status: 200, contentType: 'text/html', body: '<title>Another site</title>'});
    },
  );
  return visits;
}

/** Waits until the visitor is on the dashboard or on the other site, whichever comes first, and says where. */
async function whereTheyLand(page: Page): Promise<string> {
  await page.waitForURL((url) => url.hostname === EVIL_HOST || url.pathname === ROUTES.dashboard);
  return page.url();
}

describe.each([
  ['the plain site', undefined],
  ['the site with tracking ids', TRACKING_IDS],
])('a crafted ?next= on %s', (_label, env) => {
  // The plain site is the run's shared stack (these tests only add accounts); the tracked one is built with its ids.
  const session = useLocalSession(env ? {env} : {});
  const password = 'correct horse battery';

  /** A new account's e-mail and name, signed in with its password on the sign-in page open in `tab`. */
  async function signIn(tab: LocalTab): Promise<string> {
    const email = uniqueEmail('lured');
    await accountWithPassword(session, email, password);
    const {page} = tab;
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', {exact: true}).fill(password);
    await page.getByRole('button', {name: 'Sign in', exact: true}).click();
    return email.split('@')[0]!;
  }

  it.each(LURES)(
    'with %s: a visitor who signs in with a password ends on the dashboard, not the other site',
    async (_form, next) => {
      const tab = await session.open(`${ROUTES.signIn}?next=${next}`);
      const {page, errors} = tab;
      const visits = await watchOtherSite(page);
      const name = await signIn(tab);
      expect(await whereTheyLand(page)).toBe(`${session.stack().siteUrl}${ROUTES.dashboard}`);
      await session.waitToSee(tab, page.getByRole('banner').getByRole('button', {name}));
      expect(visits).toEqual([]);
      expect(errors).toEqual([]);
    },
  );

  it.each(LURES)(
    'with %s: a visitor already signed in is sent on at once, to the dashboard, not the other site',
    async (_form, next) => {
      const tab = await session.open(ROUTES.signIn);
      const {page, errors} = tab;
      const name = await signIn(tab);
      await session.waitToSee(tab, page.getByRole('banner').getByRole('button', {name}));
      const visits = await watchOtherSite(page);
      await page.goto(`${session.stack().siteUrl}${ROUTES.signIn}?next=${next}`);
      expect(await whereTheyLand(page)).toBe(`${session.stack().siteUrl}${ROUTES.dashboard}`);
      await session.waitToSee(tab, page.getByRole('banner').getByRole('button', {name}));
      expect(visits).toEqual([]);
      expect(errors).toEqual([]);
    },
  );
});
