/**
 * The worker on the site's own origin, end to end: `npm start -- --local --same-origin` serves
 * the worker behind the dev server under /api, as `npm run deploy` (one Worker) or a host's
 * rewrite does in production. A guest buys and asks for access with every call relative: no CORS
 * preflight, nothing sent to the worker's own port, and each change carrying the anti-forgery
 * token the worker set (§7).
 */
import type {Request} from 'playwright-core';
import {API_PATHS, SAME_ORIGIN_PREFIX, XSRF_COOKIE, XSRF_HEADER} from '../../src/config/api';
import {eventually} from './helpers';
import {uniqueEmail, useLocalSession} from './localSession';

jest.setTimeout(300_000);

const session = useLocalSession({sameOrigin: true});

describe('the worker on the site’s origin (npm start -- --same-origin)', () => {
  it('takes a guest from the pricing to an invitation with relative calls only, each change carrying the token', async () => {
    const tab = await session.open('/');
    const {page, errors, workerCalls} = tab;
    const requests: Request[] = [];
    page.on('request', (request) => requests.push(request));

    await session.checkoutAsGuest(tab, uniqueEmail('same.origin'));
    await session.requestAccess(tab, `same-origin-${Date.now().toString(36)}`);

    const stack = session.stack();
    expect(stack.output()).toContain(`reached by the site at ${stack.siteUrl}/api/`);
    expect(workerCalls).toEqual(
      expect.arrayContaining([
        'POST /api/createCheckoutSession',
        'GET /api/retrieveUserFromCheckoutSession',
        'POST /api/addUserToRepo',
      ]),
    );
    // No preflight anywhere, and the worker's own port is never called by the page.
    expect(requests.filter((request) => request.method() === 'OPTIONS').map((request) => request.url())).toEqual([]);
    expect(
      requests.filter((request) => request.url().startsWith(stack.workerUrl)).map((request) => request.url()),
    ).toEqual([]);

    const cookie = (await page.context().cookies(stack.siteUrl)).find((candidate) => candidate.name === XSRF_COOKIE);
    expect(cookie).toMatchObject({sameSite: 'Strict', httpOnly: false});
    const changes = requests.filter(
      (request) => request.method() === 'POST' && request.url().startsWith(stack.apiBase),
    );
    expect(changes.length).toBeGreaterThanOrEqual(2);
    for (const change of changes) expect((await change.allHeaders())[XSRF_HEADER.toLowerCase()]).toBe(cookie!.value);
    expect(errors).toEqual([]);
  });

  it('goes through with a cookie the worker did not set: the refusal sets a fresh token and the site sends once more', async () => {
    const tab = await session.open('/');
    const {page, errors} = tab;
    const stack = session.stack();
    // The landing page asks for its prices on load, and the worker's answer sets its own cookie: wait
    // for that answer, or it may land after the cookie below and replace it (a race a busy machine
    // loses). Read from the page's own timings, as the answer may also come from the browser's cache.
    await eventually(
      () => page.evaluate(() => performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname)),
      (paths) => expect(paths).toContain(`${SAME_ORIGIN_PREFIX}${API_PATHS.prices}`),
      30_000,
    );
    // A cookie of that name that is not one of the worker's tokens (another app on the domain, a hand edit).
    await page.context().addCookies([{name: XSRF_COOKIE, value: 'not-a-token', url: stack.siteUrl}]);
    const checkouts: Request[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/createCheckoutSession')) checkouts.push(request);
    });

    await session.checkoutAsGuest(tab, uniqueEmail('stale.token'));

    const fresh = (await page.context().cookies(stack.siteUrl)).find(
      (candidate) => candidate.name === XSRF_COOKIE,
    )!.value;
    expect(fresh).not.toBe('not-a-token');
    const sent = await Promise.all(
      checkouts.map(async (request) => (await request.allHeaders())[XSRF_HEADER.toLowerCase()]),
    );
    expect(sent).toEqual(['not-a-token', fresh]);
    // The refused first try is the only thing the console shows.
    expect(errors.filter((error) => !/status of 403/.test(error))).toEqual([]);
  });

  it('refuses a change that does not echo the cookie, with the worker’s message', async () => {
    const tab = await session.open('/');
    const answer = await tab.page.evaluate(async () => {
      const response = await fetch('/api/leads', {
        method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({email: 'forged@example.com'}),
      });
      return {status: response.status, body: await response.json()};
    });
    expect(answer).toEqual({
      status: 403,
      body: {error: expect.stringContaining('anti-forgery token'), code: 'XSRF_FAILED'},
    });
  });
});
