/**
 * The worker's own answers carry their security headers (worker/src/routes.ts): a policy that
 * loads nothing and lets no page frame them, and no MIME sniffing. On the worker's own origin and
 * under /api on the site's (SAME_ORIGIN=true), successes, errors and CORS preflights alike. The
 * site's pages, when one Worker serves both, get the build's `_headers` instead: that is
 * test/browser/oneWorker.test.ts.
 */
import http from 'node:http';
import {listen, type RunningServer} from '../../scripts/support/listen';
import {SITE_ORIGIN, startStack, type Stack} from './stack';

const API_HEADERS = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
};

let separate: Stack;
let sameOrigin: Stack;
let plausible: RunningServer;
beforeAll(async () => {
  plausible = await listen(
    http.createServer((_request, response) => {
      response.writeHead(200, {'content-type': 'application/javascript'}).end('/* plausible */');
    }),
  );
  [separate, sameOrigin] = await Promise.all([
    startStack({PLAUSIBLE_HOST: plausible.url}),
    startStack({SAME_ORIGIN: 'true'}),
  ]);
});
afterAll(async () => {
  await Promise.all([separate.stop(), sameOrigin.stop(), plausible.close()]);
});

const headersOf = (response: Response) => ({
  'content-security-policy': response.headers.get('content-security-policy'),
  'x-content-type-options': response.headers.get('x-content-type-options'),
});

const preflight = {
  method: 'OPTIONS',
  headers: {
    origin: SITE_ORIGIN,
    'access-control-request-method': 'POST',
    'access-control-request-headers': 'content-type',
  },
};

describe('the worker’s own answers', () => {
  test.each([
    ['the health check', '/', {}, 200],
    ['a refusal', '/userHasPaid?userId=someone', {}, 401],
    ['an unknown route', '/no-such-route', {}, 404],
    ['a CORS preflight', '/api/leads', preflight, 204],
  ])('on its own origin, %s carries them', async (_name, path, options, status) => {
    const response = await separate.call(path, options);
    expect(response.status).toBe(status);
    expect(headersOf(response)).toEqual(API_HEADERS);
  });

  test.each([
    ['the health check', '/api/', {}, 200],
    [
      'a change without the anti-forgery token',
      '/api/leads',
      {method: 'POST', body: {email: 'someone@example.com'}},
      403,
    ],
    ['a path outside /api (no static assets here)', '/docs', {}, 404],
  ])('on the site’s origin, %s carries them', async (_name, path, options, status) => {
    const response = await sameOrigin.call(path, options);
    expect(response.status).toBe(status);
    expect(headersOf(response)).toEqual(API_HEADERS);
  });

  test('the analytics proxy’s script stays loadable from the site’s origin (no Cross-Origin-Resource-Policy)', async () => {
    const response = await separate.call('/plausible/js/script.js');
    expect(response.status).toBe(200);
    expect(headersOf(response)).toEqual(API_HEADERS);
    expect(response.headers.get('cross-origin-resource-policy')).toBeNull();
  });
});
