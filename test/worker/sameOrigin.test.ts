/**
 * The worker on the site's own origin (SAME_ORIGIN=true): every route under /api, nothing outside
 * it, and the anti-forgery cookie-to-header check on every call that changes something (§7).
 */
import http from 'node:http';
import {serviceName} from '../../src/config';
import {API_PATHS} from '../../src/config/api';
import {listen, type RunningServer} from '../../scripts/support/listen';
import {PRICE_ADVANCED, SITE_ORIGIN, startStack, type Stack, stripeEvent, uniqueEmail} from './stack';

let stack: Stack;
let separate: Stack;
let plausible: RunningServer;
const plausibleEvents: string[] = [];
beforeAll(async () => {
  plausible = await listen(
    http.createServer(async (request, response) => {
      let body = '';
      for await (const chunk of request) body += chunk;
      if (request.url === '/api/event') plausibleEvents.push(body);
      response.writeHead(202, {'content-type': 'text/plain'}).end('ok');
    }),
  );
  [stack, separate] = await Promise.all([
    startStack({SAME_ORIGIN: 'true', PLAUSIBLE_HOST: plausible.url}),
    startStack(),
  ]);
});
afterAll(async () => {
  await Promise.all([stack.stop(), separate.stop(), plausible.close()]);
});

/** The token a browser would hold after its first call: the worker's Set-Cookie. */
async function token(): Promise<string> {
  const response = await stack.call('/api/');
  const cookie = response.headers.get('set-cookie') ?? '';
  return /XSRF-TOKEN=([^;]+)/.exec(cookie)![1]!;
}

const leadsStored = async (email: string) =>
  (await stack.worker.db.all('SELECT email FROM leads WHERE email = ?', email)).length;

describe('the worker on the site’s origin', () => {
  test('answers under /api, and its first answer hands the browser an anti-forgery cookie', async () => {
    const response = await stack.call('/api/');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({name: `${serviceName}-worker`, ok: true});
    const cookie = response.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^XSRF-TOKEN=[A-Za-z0-9_-]{43}; Path=\/; SameSite=Strict$/);
    // Readable by the page: that is how the page echoes it.
    expect(cookie).not.toMatch(/HttpOnly/i);
    // A browser that holds one is not given another.
    const again = await stack.call('/api/', {headers: {cookie: cookie.split(';')[0]!}});
    expect(again.headers.get('set-cookie')).toBeNull();
  });

  test('refuses a change without the token, or with another one, and stores nothing', async () => {
    const held = await token();
    const headers = {'cf-connecting-ip': '127.0.2.60'};
    const attempts: Record<string, string>[] = [
      {},
      {cookie: `XSRF-TOKEN=${held}`},
      {'x-xsrf-token': held},
      {cookie: `XSRF-TOKEN=${held}`, 'x-xsrf-token': `${held.slice(0, -1)}x`},
    ];
    for (const extra of attempts) {
      const email = uniqueEmail('forged');
      const response = await stack.call('/api/leads', {body: {email}, headers: {...headers, ...extra}});
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({
        error: 'This request is missing its anti-forgery token, or it does not match. Reload the page and try again.',
        code: 'XSRF_FAILED',
      });
      expect(await leadsStored(email)).toBe(0);
    }
  });

  test('accepts a change that echoes its cookie: leads, and checkout under the prefix', async () => {
    const held = await token();
    const xsrf = {cookie: `XSRF-TOKEN=${held}`, 'x-xsrf-token': held, 'cf-connecting-ip': '127.0.2.61'};
    const email = uniqueEmail('reader');
    expect((await stack.call('/api/leads', {body: {email}, headers: xsrf})).status).toBe(201);
    expect(await leadsStored(email)).toBe(1);

    const checkout = await stack.call('/api/createCheckoutSession', {
      body: {priceId: PRICE_ADVANCED, successUrl: `${SITE_ORIGIN}/success`, cancelUrl: `${SITE_ORIGIN}/`},
      headers: xsrf,
    });
    expect(checkout.status).toBe(200);
    expect((await checkout.json()).url).toMatch(/^https?:\/\//);
  });

  test('keeps webhooks working without a token: servers call them, and they are signed', async () => {
    const event = stripeEvent('customer.created' as never, {id: 'cus_same_origin', object: 'customer'} as never);
    const response = await stack.deliver(event);
    expect(response.status).toBe(200);
    // Unsigned is still refused, by the signature check rather than the token.
    expect((await stack.deliver(event, {signature: null})).status).toBe(400);
  });

  test("passes Plausible's events on without a token: its script cannot send one", async () => {
    const event = JSON.stringify({n: 'pageview', u: `${SITE_ORIGIN}/`, d: 'slipway.dev'});
    const response = await stack.call('/api/plausible/api/event', {
      body: JSON.parse(event),
      headers: {'cf-connecting-ip': '127.0.2.63'},
    });
    expect(response.status).toBe(202);
    expect(plausibleEvents).toContain(event);
  });

  test("takes an affiliate link's visit without a token, and sets no cookie, not even the token's: the link sets none", async () => {
    await stack.worker.db.run(
      "INSERT INTO affiliates (id, user_id, email, code, created_at) VALUES ('aff_sameorigin01', 'uid-same-origin', 'aff@example.com', 'same-origin', 0)",
    );
    const response = await stack.call(`/api${API_PATHS.affiliateVisit}`, {
      body: {code: 'same-origin'},
      headers: {'cf-connecting-ip': '127.0.2.64'},
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(await response.json()).toMatchObject({referral: expect.any(String)});
    // Its refusals set none either.
    const unknown = await stack.call(`/api${API_PATHS.affiliateVisit}`, {
      body: {code: 'nobody-here'},
      headers: {'cf-connecting-ip': '127.0.2.64'},
    });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('set-cookie')).toBeNull();
  });

  test('answers nothing outside /api: those paths are the site’s', async () => {
    const response = await stack.call('/userHasPaid?userId=someone');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({code: 'NOT_FOUND', error: expect.stringContaining('under /api/')});
  });
});

describe('the worker on its own origin (the default)', () => {
  test('answers at its root and under /api alike, with no token asked and no cookie set', async () => {
    const root = await separate.call('/');
    expect(root.status).toBe(200);
    expect(root.headers.get('set-cookie')).toBeNull();
    const email = uniqueEmail('cross');
    expect(
      (await separate.call('/api/leads', {body: {email}, headers: {'cf-connecting-ip': '127.0.2.62'}})).status,
    ).toBe(201);
    expect((await separate.call('/api/userHasPaid?userId=nobody')).status).toBe(401);
  });
});

test('a SAME_ORIGIN that is neither true nor false fails closed', async () => {
  const wrong = await startStack({SAME_ORIGIN: 'yes'});
  try {
    const response = await wrong.call('/api/');
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      code: 'MISCONFIGURED',
      error: expect.stringContaining('SAME_ORIGIN must be true or false'),
    });
  } finally {
    await wrong.stop();
  }
});
