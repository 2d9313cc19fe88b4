import http from 'node:http';
import {ApiError, createApiClient, UNREACHABLE_MESSAGE, xsrfHeader} from '../../src/lib/api';
import {listen, type RunningServer} from '../../scripts/support/listen';
import {apiUrl, SAME_ORIGIN_PREFIX} from '../../src/config/api';
import {SessionEndedError} from '../../src/lib/auth/types';

type Reply = {status: number; body: string};
/** A server that answers every request with the status and raw body the test sets, and records it. */
let reply: Reply = {status: 200, body: '{}'};
/** When set, answers per request instead (the n-th request gets replies[n]). */
let replies: Reply[] | null = null;
const seen: {method: string; url: string; headers: http.IncomingHttpHeaders; body: string}[] = [];
let server: RunningServer;
beforeAll(async () => {
  server = await listen(
    http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        seen.push({method: request.method!, url: request.url!, headers: request.headers, body});
        const answer = replies?.[seen.length - 1] ?? reply;
        response.writeHead(answer.status, {'Content-Type': 'application/json'});
        response.end(answer.body);
      });
    }),
  );
});
beforeEach(() => {
  seen.length = 0;
  replies = null;
});
afterAll(() => server.close());

/** A client for a signed-in user whose tokens `tokenFor` gives; it records each ask and each sign-out. */
function signedIn(tokenFor: (refresh: boolean) => string) {
  const refreshes: boolean[] = [];
  const ended: string[] = [];
  const client = createApiClient({
    baseUrl: server.url,
    idToken: async (refresh) => {
      refreshes.push(refresh);
      return tokenFor(refresh);
    },
    onSessionEnded: () => ended.push('ended'),
  });
  return {client, refreshes, ended};
}

const request = {priceId: 'price_1', successUrl: 'http://localhost/success', cancelUrl: 'http://localhost/'};

async function failure(): Promise<ApiError> {
  const error = await createApiClient({baseUrl: server.url})
    .createCheckoutSession(request)
    .catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('the worker API client', () => {
  it('answers the checkout URL', async () => {
    reply = {status: 200, body: JSON.stringify({url: 'https://checkout.stripe.com/c/pay/cs_1', extra: true})};
    await expect(createApiClient({baseUrl: server.url}).createCheckoutSession(request)).resolves.toEqual({
      url: 'https://checkout.stripe.com/c/pay/cs_1',
    });
  });

  it("carries the worker's error message, status and code", async () => {
    reply = {status: 401, body: JSON.stringify({error: 'Unauthorized', code: 'TOKEN_EXPIRED'})};
    expect(await failure()).toMatchObject({message: 'Unauthorized', status: 401, code: 'TOKEN_EXPIRED'});
  });

  it('names the status when the error body is not JSON', async () => {
    reply = {status: 502, body: '<html>Bad gateway</html>'};
    expect(await failure()).toMatchObject({message: 'Request failed with status 502', status: 502});
  });

  it.each([
    ['no url', '{}'],
    ['a url that is not one', JSON.stringify({url: 'javascript:alert(1)'})],
    ['not JSON', 'ok'],
  ])('refuses a success answer with %s', async (_case, body) => {
    reply = {status: 200, body};
    expect((await failure()).message).toMatch(/no checkout URL|not JSON/);
  });

  it('says the server is unreachable when the connection fails', async () => {
    const error = await createApiClient({baseUrl: 'http://127.0.0.1:9'})
      .createCheckoutSession(request)
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({message: UNREACHABLE_MESSAGE, status: 0});
  });

  it("sends the signed-in user's token as a bearer token, and none for a visitor", async () => {
    reply = {status: 200, body: JSON.stringify({hasPaid: true, plan: 'Advanced'})};
    const signedIn = createApiClient({baseUrl: server.url, idToken: async () => 'id-token-1'});
    await expect(signedIn.userHasPaid('user/1')).resolves.toEqual({hasPaid: true, plan: 'Advanced'});
    expect(seen[0]).toMatchObject({method: 'GET', url: '/userHasPaid?userId=user%2F1'});
    expect(seen[0]!.headers.authorization).toBe('Bearer id-token-1');

    reply = {status: 200, body: JSON.stringify({url: 'https://checkout.stripe.com/c/pay/cs_2'})};
    await createApiClient({baseUrl: server.url}).createCheckoutSession(request);
    expect(seen[1]!.headers.authorization).toBeUndefined();
  });

  it('tells the site when the worker says the session has ended for good, and does not retry', async () => {
    replies = [
      {status: 401, body: JSON.stringify({error: 'This sign-in from the checkout has ended.', code: 'SESSION_ENDED'})},
    ];
    const {client, ended, refreshes} = signedIn(() => 'checkout-token');
    await expect(client.accessStatus()).rejects.toMatchObject({status: 401, code: 'SESSION_ENDED'});
    expect(ended).toEqual(['ended']);
    expect(refreshes).toEqual([false]);
  });

  it.each([
    ['reading the token', [] as Reply[], [false]],
    [
      'refreshing it after TOKEN_EXPIRED',
      [{status: 401, body: JSON.stringify({error: 'Token expired', code: 'TOKEN_EXPIRED'})}],
      [false, true],
    ],
  ])(
    "ends a session the sign-in provider says is over (%s) as the worker's SESSION_ENDED, in its words",
    async (_when, answers, asked) => {
      replies = [...answers];
      const {client, ended, refreshes} = signedIn((refresh) => {
        if (refresh === asked.at(-1))
          throw new SessionEndedError('Your sign-in has ended. Sign in again.', 'refresh_token_not_found');
        return 'stale-token';
      });
      await expect(client.addUserToRepo({username: 'octocat', userId: 'u1'})).rejects.toMatchObject({
        name: 'ApiError',
        message: 'Your sign-in has ended. Sign in again.',
        status: 401,
        code: 'SESSION_ENDED',
      });
      expect(ended).toEqual(['ended']);
      expect(refreshes).toEqual(asked);
      // Nothing went out with a token the provider had given up on.
      expect(seen.map((entry) => entry.headers.authorization)).toEqual(answers.map(() => 'Bearer stale-token'));
    },
  );

  it('lets any other failure to read the token through as it is, and does not sign out', async () => {
    const {client, ended} = signedIn(() => {
      throw new Error('Could not reach Supabase.');
    });
    await expect(client.accessStatus()).rejects.toThrow('Could not reach Supabase.');
    expect(ended).toEqual([]);
  });

  it('asks for a fresh token once when the worker says TOKEN_EXPIRED, then retries', async () => {
    replies = [
      {status: 401, body: JSON.stringify({error: 'Unauthorized', code: 'TOKEN_EXPIRED'})},
      {status: 200, body: JSON.stringify({status: 'invited'})},
    ];
    const {client, refreshes} = signedIn((refresh) => (refresh ? 'fresh-token' : 'stale-token'));
    await expect(client.addUserToRepo({username: 'octocat', userId: 'u1'})).resolves.toEqual({status: 'invited'});
    expect(refreshes).toEqual([false, true]);
    expect(seen.map((entry) => entry.headers.authorization)).toEqual(['Bearer stale-token', 'Bearer fresh-token']);
    expect(JSON.parse(seen[1]!.body)).toEqual({username: 'octocat', userId: 'u1'});
  });

  it('does not retry any other 401', async () => {
    reply = {status: 401, body: JSON.stringify({error: 'Unauthorized'})};
    const client = createApiClient({baseUrl: server.url, idToken: async () => 'token'});
    await expect(client.accessStatus()).rejects.toMatchObject({status: 401, message: 'Unauthorized'});
    expect(seen).toHaveLength(1);
  });

  it('needs a token and a billing URL in those answers', async () => {
    reply = {status: 200, body: '{}'};
    const client = createApiClient({baseUrl: server.url});
    await expect(client.retrieveUserFromCheckoutSession('cs_1', 'a-claim')).rejects.toThrow(
      'The server sent no sign-in token',
    );
    await expect(client.createBillingPortal('http://localhost/dashboard')).rejects.toThrow(
      'The server sent no billing portal URL',
    );
    expect(JSON.parse(seen[1]!.body)).toEqual({returnUrl: 'http://localhost/dashboard'});
  });

  it.each([
    ['{"admin":true}', true],
    ['{"admin":false}', false],
    ['{"admin":"true"}', false],
    ['{}', false],
  ])("asks GET /isAdmin with the user's token; only a plain true is an admin: %s", async (body, admin) => {
    reply = {status: 200, body};
    await expect(createApiClient({baseUrl: server.url, idToken: async () => 'id-token-1'}).isAdmin()).resolves.toBe(
      admin,
    );
    expect(seen.map(({method, url, headers}) => [method, url, headers.authorization])).toEqual([
      ['GET', '/isAdmin', 'Bearer id-token-1'],
    ]);
  });
});

describe('the anti-forgery header (§7)', () => {
  const cookies = 'theme=light; XSRF-TOKEN=abc%3D123; other=1';

  it('is read from its cookie for requests that change something on a relative URL', () => {
    expect(xsrfHeader('POST', '/api/leads', cookies)).toEqual({'X-XSRF-TOKEN': 'abc=123'});
    expect(xsrfHeader('DELETE', 'items/1', cookies)).toEqual({'X-XSRF-TOKEN': 'abc=123'});
  });

  it.each([
    ['GET', '/api/leads'],
    ['HEAD', '/api/leads'],
    ['POST', 'https://api.example.com/createCheckoutSession'],
    ['POST', '//api.example.com/createCheckoutSession'],
  ])('is left off %s %s', (method, url) => {
    expect(xsrfHeader(method, url, cookies)).toEqual({});
  });

  it('is left off when there is no such cookie', () => {
    expect(xsrfHeader('POST', '/api/leads', 'theme=light')).toEqual({});
  });

  it("goes out with a relative-URL client, and never to the worker's own origin", async () => {
    const calls: {url: string; headers: Record<string, string>}[] = [];
    const realFetch = global.fetch;
    global.fetch = (async (url: string, init: RequestInit) => {
      calls.push({url, headers: init.headers as Record<string, string>});
      return new Response(JSON.stringify({url: 'https://billing.stripe.com/p/1'}), {status: 200});
    }) as typeof fetch;
    try {
      await createApiClient({baseUrl: SAME_ORIGIN_PREFIX, cookies: () => cookies}).createBillingPortal('/dashboard');
      await createApiClient({baseUrl: 'https://api.example.com', cookies: () => cookies}).createBillingPortal(
        '/dashboard',
      );
    } finally {
      global.fetch = realFetch;
    }
    expect(calls[0]).toMatchObject({url: '/api/createBillingPortal', headers: {'X-XSRF-TOKEN': 'abc=123'}});
    expect(calls[1]!.headers['X-XSRF-TOKEN']).toBeUndefined();
  });

  it('asks the worker for a token first when the browser has none, then sends it', async () => {
    let jar = 'theme=light';
    const calls: {url: string; method: string; headers: Record<string, string>}[] = [];
    const realFetch = global.fetch;
    global.fetch = (async (url: string, init: RequestInit = {}) => {
      calls.push({url, method: init.method ?? 'GET', headers: (init.headers ?? {}) as Record<string, string>});
      // What the browser does with the worker's Set-Cookie on a same-origin answer.
      if (url === '/api/') jar += '; XSRF-TOKEN=fresh';
      return new Response(JSON.stringify({ok: true}), {status: 200});
    }) as typeof fetch;
    try {
      await createApiClient({baseUrl: SAME_ORIGIN_PREFIX, cookies: () => jar}).saveLead('reader@example.com');
      await createApiClient({baseUrl: SAME_ORIGIN_PREFIX, cookies: () => jar}).saveLead('second@example.com');
    } finally {
      global.fetch = realFetch;
    }
    expect(calls.map(({url, method}) => `${method} ${url}`)).toEqual([
      'GET /api/',
      'POST /api/leads',
      'POST /api/leads',
    ]);
    expect(calls[1]!.headers['X-XSRF-TOKEN']).toBe('fresh');
  });
});

describe('apiUrl', () => {
  it.each([
    ['https://api.example.com', '/createCheckoutSession', 'https://api.example.com/createCheckoutSession'],
    ['https://api.example.com', '/api/leads', 'https://api.example.com/api/leads'],
    ['/api', '/createCheckoutSession', '/api/createCheckoutSession'],
    ['/api', '/admin/sales', '/api/admin/sales'],
    // Already under the prefix: the same path on either origin, never /api/api/leads.
    ['/api', '/api/leads', '/api/leads'],
    ['/api', '/api/webhook/stripe', '/api/webhook/stripe'],
    ['/api', '/', '/api/'],
  ])('joins %s and %s into %s', (base, path, url) => {
    expect(apiUrl(base, path)).toBe(url);
  });
});
