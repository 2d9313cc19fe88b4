/**
 * The worker's edges: CORS, methods, body limits and schemas, rate limits, the billing portal,
 * leads, the Mailgun webhook, the analytics proxy and e-mails retried by the cron.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import {API_PATHS, appConfig} from '../../src/config';
import {listen, type RunningServer} from '../../scripts/support/listen';
import {
  completedEvent,
  MAILGUN_SIGNING_KEY,
  PRICE_ADVANCED,
  PRICE_STARTER,
  productionFirebase,
  SITE_ORIGIN,
  startStack,
  type Stack,
  uniqueEmail,
} from './stack';

let stack: Stack;
let plausible: RunningServer;
const plausibleSeen: {path: string; forwardedFor?: string; body: string}[] = [];
/** What the Plausible stand-in answers next, before its usual 200 and 202. */
const plausibleAnswers: {status: number; body: string; headers?: Record<string, string>}[] = [];

beforeAll(async () => {
  plausible = await listen(
    http.createServer(async (request, response) => {
      let body = '';
      for await (const chunk of request) body += chunk;
      plausibleSeen.push({path: request.url ?? '', forwardedFor: request.headers['x-forwarded-for'] as string, body});
      const next = plausibleAnswers.shift();
      if (next) {
        response.writeHead(next.status, next.headers).end(next.body);
      } else if (request.url === '/js/script.js') {
        response.writeHead(200, {'content-type': 'application/javascript'}).end('/* plausible */');
      } else {
        response.writeHead(202, {'content-type': 'text/plain'}).end('ok');
      }
    }),
  );
  stack = await startStack({PLAUSIBLE_HOST: plausible.url});
});
afterAll(async () => {
  await stack.stop();
  await plausible.close();
});

const checkout = (body: unknown, headers: Record<string, string> = {}) =>
  stack.call('/createCheckoutSession', {body, headers});
const validCheckout = {priceId: PRICE_ADVANCED, successUrl: `${SITE_ORIGIN}/success`, cancelUrl: `${SITE_ORIGIN}/`};

describe('CORS', () => {
  test("the site's origin may call; another origin gets no CORS grant", async () => {
    const ours = await stack.call('/', {headers: {origin: SITE_ORIGIN}});
    expect(ours.headers.get('access-control-allow-origin')).toBe(SITE_ORIGIN);
    const theirs = await stack.call('/', {headers: {origin: 'https://evil.example'}});
    expect(theirs.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('preflight allows the Authorization header for the site only', async () => {
    const preflight = (origin: string) =>
      stack.call('/addUserToRepo', {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type',
        },
      });
    const ours = await preflight(SITE_ORIGIN);
    expect(ours.status).toBe(204);
    expect(ours.headers.get('access-control-allow-origin')).toBe(SITE_ORIGIN);
    expect(ours.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    expect((await preflight('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('requests that are wrong get a 4xx and a message', () => {
  test.each([
    [{}, 'Price ID is required'],
    [{priceId: ''}, 'Price ID is required'],
    [{priceId: PRICE_ADVANCED}, 'Success and cancel URLs are required'],
    [{priceId: PRICE_ADVANCED, successUrl: `${SITE_ORIGIN}/success`}, 'Success and cancel URLs are required'],
    [{...validCheckout, priceId: 'price_someone_elses'}, 'Unknown price ID: it is not one of the plans'],
    [
      {...validCheckout, successUrl: 'https://evil.example/success'},
      `The success URL must be a page of ${SITE_ORIGIN}, and so must any next= in it`,
    ],
    [
      {...validCheckout, cancelUrl: '//evil.example/'},
      `The cancel URL must be a page of ${SITE_ORIGIN}, and so must any next= in it`,
    ],
    [{...validCheckout, email: 'not-an-email'}, 'A valid e-mail address is required'],
    [[], 'The body must be a JSON object'],
    ['"text"', 'The body must be a JSON object'],
  ])('checkout %j answers 400 %p', async (body, message) => {
    const created = stack.stripe.created.length;
    const response = await checkout(body, {'cf-connecting-ip': `127.100.0.${Math.floor(Math.random() * 250)}`});
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({error: message});
    expect(stack.stripe.created).toHaveLength(created);
  });

  test('a body that is not JSON is 400; one over 16 KB is 413', async () => {
    const notJson = await checkout('{"priceId":', {'cf-connecting-ip': '127.1.0.1'});
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({error: 'The body must be JSON'});
    const huge = await checkout(JSON.stringify({...validCheckout, padding: 'x'.repeat(20_000)}), {
      'cf-connecting-ip': '127.1.0.2',
    });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toEqual({error: 'Request body is too large'});
  });

  test('no state changes on GET: the POST endpoints do not answer GET', async () => {
    for (const path of [
      '/createCheckoutSession',
      '/addUserToRepo',
      '/createBillingPortal',
      '/api/leads',
      '/api/webhook/stripe',
    ]) {
      const response = await stack.call(path);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({error: `No route for GET ${path}`});
    }
  });
});

test("the Stripe key decides the mode: either of a plan's price ids buys that plan at the key's price", async () => {
  const plan = appConfig.plans[1]!;
  const response = await checkout(
    {...validCheckout, priceId: plan.priceId.production},
    {'cf-connecting-ip': '127.8.0.1'},
  );
  expect(response.status).toBe(200);
  expect(stack.stripe.created.at(-1)).toMatchObject({
    line_items: [{price: plan.priceId.test}],
    metadata: {plan: plan.name, priceId: plan.priceId.test},
  });
});

describe('bodies that are not JSON', () => {
  test.each([
    ['/api/leads', {email: 'ada@example.com'}],
    [
      '/createCheckoutSession',
      {priceId: PRICE_ADVANCED, successUrl: `${SITE_ORIGIN}/success`, cancelUrl: `${SITE_ORIGIN}/`},
    ],
  ])('a cross-site form post to %s (no preflight) is 415 and changes nothing', async (path, fields) => {
    const created = stack.stripe.created.length;
    for (const [type, body] of [
      ['application/x-www-form-urlencoded', new URLSearchParams(fields as Record<string, string>).toString()],
      ['text/plain', JSON.stringify(fields)],
      [
        'multipart/form-data; boundary=x',
        `--x\r\nContent-Disposition: form-data; name="email"\r\n\r\nada@example.com\r\n--x--`,
      ],
    ]) {
      const response = await stack.worker.fetch(path, {
        method: 'POST',
        headers: {'content-type': type!, 'cf-connecting-ip': `127.9.0.${Math.floor(Math.random() * 250)}`},
        body,
      });
      expect(response.status).toBe(415);
      expect(await response.json()).toEqual({
        error: 'Send the body as JSON, with Content-Type: application/json',
        code: 'UNSUPPORTED_MEDIA_TYPE',
      });
    }
    expect(await stack.worker.db.all("SELECT email FROM leads WHERE email = 'ada@example.com'")).toEqual([]);
    expect(stack.stripe.created).toHaveLength(created);
  });

  test('JSON with a charset is fine', async () => {
    const response = await stack.call('/api/leads', {
      body: {email: uniqueEmail('charset')},
      headers: {'content-type': 'application/json; charset=utf-8', 'cf-connecting-ip': '127.9.1.1'},
    });
    expect(response.status).toBe(201);
  });
});

test("Stripe's own error text reaches the logs, not the caller", async () => {
  const stripeText = `No such price: '${PRICE_ADVANCED}'; a similar object exists in live mode, but a test mode key was used`;
  stack.stripe.failNext('POST /v1/checkout/sessions', 400, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: stripeText,
  });
  const response = await checkout(validCheckout, {'cf-connecting-ip': '127.9.2.1'});
  expect(response.status).toBe(502);
  expect(await response.json()).toEqual({
    error: 'The payment provider refused the request. Please try again or contact support.',
    code: 'PAYMENT_PROVIDER',
  });
  expect(stack.worker.logs.some((line) => line.includes('a similar object exists in live mode'))).toBe(true);
});

describe('rate limits', () => {
  /** Limits count per wall-clock minute: a test near the end of one waits for the next. */
  const awayFromWindowEdge = async () => {
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 100));
  };

  test('checkout: 10 a minute per caller, then 429 with Retry-After', async () => {
    const headers = {'cf-connecting-ip': '127.0.2.10'};
    for (let i = 0; i < 10; i++)
      expect((await checkout({...validCheckout, priceId: PRICE_STARTER}, headers)).status).toBe(200);
    const limited = await checkout(validCheckout, headers);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await limited.json()).toMatchObject({code: 'RATE_LIMITED'});
    // Another caller is not affected.
    expect((await checkout(validCheckout, {'cf-connecting-ip': '127.0.2.11'})).status).toBe(200);
  });

  test('checkout: a signed-in caller counts against their account and their address', async () => {
    await awayFromWindowEdge();
    const [first, second] = [await stack.signUp(), await stack.signUp()];
    const buy = (user: {idToken: string}, ip: string) =>
      checkout(
        {...validCheckout, priceId: PRICE_STARTER},
        {'cf-connecting-ip': ip, authorization: `Bearer ${user.idToken}`},
      );
    for (let i = 0; i < 10; i++) expect((await buy(first, '127.0.3.1')).status).toBe(200);
    // Another account from the same address: the address has had its 10.
    const sameAddress = await buy(second, '127.0.3.1');
    expect(sameAddress.status).toBe(429);
    expect(Number(sameAddress.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // The same account from another address: the account has had its 10.
    expect((await buy(first, '127.0.3.2')).status).toBe(429);
    // Neither: the other account from a fresh address.
    expect((await buy(second, '127.0.3.3')).status).toBe(200);
  });

  test('the billing portal: 10 a minute per buyer, then 429 with Retry-After, and Stripe is not asked', async () => {
    await awayFromWindowEdge();
    const buyer = await stack.signUp();
    const sessionId = await stack.paidCheckout({email: buyer.email, user: buyer});
    await stack.deliver(completedEvent(stack, sessionId));
    const open = () =>
      stack.call('/createBillingPortal', {token: buyer.idToken, body: {returnUrl: `${SITE_ORIGIN}/dashboard`}});
    for (let i = 0; i < 10; i++) expect((await open()).status).toBe(200);
    const portals = stack.stripe.portals.length;
    const limited = await open();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await limited.json()).toMatchObject({code: 'RATE_LIMITED'});
    expect(stack.stripe.portals).toHaveLength(portals);
  });

  /** `limits.prices` in worker/src/rateLimit.ts: page loads a minute per address. */
  const PRICES_LIMIT = 300;

  test(`prices: ${PRICES_LIMIT} a minute per address (page loads), then 429 RATE_LIMITED with Retry-After; another address still gets its prices`, async () => {
    await awayFromWindowEdge();
    const ask = (ip: string) => stack.call(API_PATHS.prices, {headers: {'cf-connecting-ip': ip}});
    // In bursts, so that all of them fit well inside the minute's window even on a loaded machine.
    for (let asked = 0; asked < PRICES_LIMIT; asked += 50) {
      const statuses = await Promise.all(
        Array.from({length: Math.min(50, PRICES_LIMIT - asked)}, async () => (await ask('127.0.2.30')).status),
      );
      expect(statuses.every((status) => status === 200)).toBe(true);
    }
    const limited = await ask('127.0.2.30');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await limited.json()).toEqual({
      error: 'Too many requests. Please wait a moment and try again.',
      code: 'RATE_LIMITED',
    });
    const other = await ask('127.0.2.31');
    expect(other.status).toBe(200);
    expect(await other.json()).toMatchObject({currency: expect.any(String), plans: expect.any(Array)});
  });

  test('leads: 5 a minute per address', async () => {
    const headers = {'cf-connecting-ip': '127.0.2.20'};
    for (let i = 0; i < 5; i++) {
      expect((await stack.call('/api/leads', {body: {email: uniqueEmail('lead')}, headers})).status).toBe(201);
    }
    const email = uniqueEmail('lead');
    const limited = await stack.call('/api/leads', {body: {email}, headers});
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    // The count and the insert go in one batch: a refused lead is not stored.
    expect(await stack.worker.db.all('SELECT email FROM leads WHERE email = ?', email)).toEqual([]);
  });

  test('leads: racing requests from one address store exactly 5', async () => {
    await awayFromWindowEdge();
    const headers = {'cf-connecting-ip': '127.0.2.21'};
    const emails = Array.from({length: 12}, () => uniqueEmail('race'));
    const statuses = await Promise.all(
      emails.map(async (email) => (await stack.call('/api/leads', {body: {email}, headers})).status),
    );
    expect(statuses.filter((status) => status === 201)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
    const stored = await stack.worker.db.all<{email: string}>(
      `SELECT email FROM leads WHERE email IN (${emails.map(() => '?').join(', ')})`,
      ...emails,
    );
    expect(stored).toHaveLength(5);
  });

  test('leads: refused bodies count against the limit too, and over it the answer is 429', async () => {
    await awayFromWindowEdge();
    const headers = {'cf-connecting-ip': '127.0.2.22'};
    for (let i = 0; i < 5; i++)
      expect((await stack.call('/api/leads', {body: {email: 'nope'}, headers})).status).toBe(400);
    expect((await stack.call('/api/leads', {body: {email: 'nope'}, headers})).status).toBe(429);
    const email = uniqueEmail('after');
    expect((await stack.call('/api/leads', {body: {email}, headers})).status).toBe(429);
    expect(await stack.worker.db.all('SELECT email FROM leads WHERE email = ?', email)).toEqual([]);
  });

  test('an IPv6 caller is counted by its /64: two addresses of one /64 share a bucket, two /64s do not', async () => {
    await awayFromWindowEdge();
    // Outside emulator mode: emulator mode answers only callers on loopback.
    const production = await startStack(await productionFirebase());
    try {
      const lead = (ip: string) =>
        production.call('/api/leads', {body: {email: uniqueEmail('v6')}, headers: {'cf-connecting-ip': ip}});
      // Five addresses of 2001:db8:1:2::/64, written as Cloudflare might send them.
      for (const ip of [
        '2001:db8:1:2::1',
        '2001:DB8:1:2::2',
        '2001:0db8:0001:0002:ffff:ffff:ffff:fffe',
        '2001:db8:1:2:1::',
        '2001:db8:1:2:a:b:c:d',
      ]) {
        expect((await lead(ip)).status).toBe(201);
      }
      const sixth = await lead('2001:db8:1:2:dead:beef:0:1');
      expect(sixth.status).toBe(429);
      expect(sixth.headers.get('retry-after')).toMatch(/^\d+$/);
      // The next /64 has a bucket of its own.
      expect((await lead('2001:db8:1:3::1')).status).toBe(201);
      // An IPv4-mapped address is its IPv4 address.
      for (let i = 0; i < 5; i++) expect((await lead(i % 2 ? '198.51.100.7' : '::ffff:198.51.100.7')).status).toBe(201);
      expect((await lead('::ffff:c633:6407')).status).toBe(429);
    } finally {
      await production.stop();
    }
  });
});

test('leads: a valid e-mail is stored once (201 new, 200 known); an invalid one is 400', async () => {
  const email = uniqueEmail('Lead');
  const headers = {'cf-connecting-ip': '127.0.2.30'};
  expect((await stack.call('/api/leads', {body: {email}, headers})).status).toBe(201);
  expect((await stack.call('/api/leads', {body: {email: `  ${email.toUpperCase()} `}, headers})).status).toBe(200);
  expect(await stack.worker.db.all('SELECT email FROM leads WHERE email = ?', email.toLowerCase())).toHaveLength(1);
  const bad = await stack.call('/api/leads', {body: {email: 'nope'}, headers});
  expect(bad.status).toBe(400);
  expect(await bad.json()).toEqual({error: 'A valid e-mail address is required'});
});

test('the billing portal: 404 without a Stripe customer, the URL for a buyer, the return URL held to the site', async () => {
  const stranger = await stack.signUp();
  const none = await stack.call('/createBillingPortal', {
    token: stranger.idToken,
    body: {returnUrl: `${SITE_ORIGIN}/dashboard`},
  });
  expect(none.status).toBe(404);

  const buyer = await stack.signUp();
  const sessionId = await stack.paidCheckout({email: buyer.email, user: buyer});
  await stack.deliver(completedEvent(stack, sessionId));
  const offSite = await stack.call('/createBillingPortal', {
    token: buyer.idToken,
    body: {returnUrl: 'https://evil.example/'},
  });
  expect(offSite.status).toBe(400);
  const portal = await stack.call('/createBillingPortal', {
    token: buyer.idToken,
    body: {returnUrl: `${SITE_ORIGIN}/dashboard`},
  });
  expect(portal.status).toBe(200);
  expect(await portal.json()).toEqual({url: expect.stringMatching(/^https:\/\/billing\.stripe\.com\//)});
  expect(stack.stripe.portals.at(-1)).toEqual({
    customer: stack.stripe.sessions.get(sessionId)!.customer,
    return_url: `${SITE_ORIGIN}/dashboard`,
  });
  expect((await stack.call('/createBillingPortal', {body: {returnUrl: `${SITE_ORIGIN}/`}})).status).toBe(401);
});

describe('the Mailgun webhook', () => {
  function signedForm(
    fields: Record<string, string>,
    {
      timestamp = Math.floor(Date.now() / 1000),
      token = crypto.randomBytes(25).toString('hex'),
      key = MAILGUN_SIGNING_KEY,
    } = {},
  ) {
    const signature = crypto.createHmac('sha256', key).update(`${timestamp}${token}`).digest('hex');
    return new URLSearchParams({...fields, timestamp: String(timestamp), token, signature});
  }
  // Mailgun posts routes' messages as form fields.
  const post = (form: URLSearchParams) =>
    stack.worker.fetch('/api/webhook/mailgun', {
      method: 'POST',
      headers: {'content-type': 'application/x-www-form-urlencoded'},
      body: form.toString(),
    });
  const message = {
    sender: 'ada@example.com',
    from: 'Ada <ada@example.com>',
    subject: 'A question',
    'body-plain': 'Hello!',
    recipient: 'team@mail.slipway.dev',
  };

  test('a signed message is forwarded to forwardRepliesTo, once', async () => {
    const form = signedForm(message);
    const response = await post(form);
    expect(response.status).toBe(200);
    const forwarded = stack.mailgun.sent.filter((mail) => mail.fields.subject === 'Fwd: A question');
    expect(forwarded).toHaveLength(1);
    expect(forwarded[0]!.fields).toMatchObject({to: appConfig.mail.forwardRepliesTo, 'h:Reply-To': 'ada@example.com'});
    expect(forwarded[0]!.fields.text).toContain('Hello!');

    const replay = await post(form);
    expect(replay.status).toBe(406);
    expect(stack.mailgun.sent.filter((mail) => mail.fields.subject === 'Fwd: A question')).toHaveLength(1);
  });

  test("a failure while storing the message leaves Mailgun's retry to succeed: the token and the job are stored together", async () => {
    // Something fails after the signature was accepted (here: the database refuses the job).
    await stack.worker.db.run(
      "CREATE TRIGGER refuse_forward BEFORE INSERT ON jobs WHEN NEW.key LIKE 'forward:%' BEGIN SELECT RAISE(ABORT, 'disk full'); END",
    );
    const form = signedForm({...message, subject: 'Lost?'});
    expect((await post(form)).status).toBe(500);
    await stack.worker.db.run('DROP TRIGGER refuse_forward');
    // Mailgun retries the same delivery.
    const retry = await post(form);
    expect(retry.status).toBe(200);
    expect(stack.mailgun.sent.filter((mail) => mail.fields.subject === 'Fwd: Lost?')).toHaveLength(1);
  });

  test('a body over the row limit is forwarded truncated, with a line saying so', async () => {
    const long = `${'Lorem ipsum dolor sit amet. '.repeat(40_000)}THE END`; // about 1.1 MB
    const response = await post(signedForm({...message, subject: 'Long', 'body-plain': long}));
    expect(response.status).toBe(200);
    const [forwarded] = stack.mailgun.sent.filter((mail) => mail.fields.subject === 'Fwd: Long');
    expect(forwarded!.fields.text).toContain('Lorem ipsum dolor sit amet.');
    expect(forwarded!.fields.text).not.toContain('THE END');
    expect(forwarded!.fields.text).toMatch(
      /\[Truncated: the message was 1094 KB; the first 500 KB are above\. The whole message is in Mailgun's logs\.\]$/,
    );
    expect(forwarded!.fields.text.length).toBeLessThan(510_000);
  });

  /** A form as Mailgun posts one with attachments (multipart/form-data), `extra` raw parts appended. */
  function multipart(
    fields: Record<string, string>,
    {extra = '', attachment}: {extra?: string; attachment?: string} = {},
  ) {
    const boundary = `----mailgun${crypto.randomBytes(8).toString('hex')}`;
    const parts = Object.entries(fields).map(
      ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    );
    if (attachment !== undefined) {
      parts.push(
        `--${boundary}\r\nContent-Disposition: form-data; name="attachment-1"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\n${attachment}\r\n`,
      );
    }
    return {
      body: `${parts.join('')}${extra.replaceAll('BOUNDARY', boundary)}--${boundary}--\r\n`,
      type: `multipart/form-data; boundary=${boundary}`,
    };
  }
  const postRaw = (body: string, type: string) =>
    stack.worker.fetch('/api/webhook/mailgun', {method: 'POST', headers: {'content-type': type}, body});
  const stored = async (token: string) => ({
    tokens: await stack.worker.db.all('SELECT token FROM mailgun_tokens WHERE token = ?', token),
    jobs: await stack.worker.db.all('SELECT key FROM jobs WHERE key = ?', `forward:${token}`),
  });

  test('a signed message with an attachment (multipart, as Mailgun sends it) is forwarded', async () => {
    const form = signedForm({...message, subject: 'With a file'});
    const {body, type} = multipart(Object.fromEntries(form), {attachment: 'timestamp=1&token=x&signature=y'});
    expect((await postRaw(body, type)).status).toBe(200);
    expect(stack.mailgun.sent.filter((mail) => mail.fields.subject === 'Fwd: With a file')).toHaveLength(1);
  });

  test.each([
    [
      'urlencoded',
      (form: URLSearchParams) => ({
        body: `${form.toString()}${'&'.repeat(50_000)}`,
        type: 'application/x-www-form-urlencoded',
      }),
    ],
    [
      'multipart',
      (form: URLSearchParams) =>
        multipart(Object.fromEntries(form), {
          extra: '--BOUNDARY\r\nContent-Disposition: form-data; name="x"\r\n\r\n\r\n'.repeat(20_000),
        }),
    ],
  ])(
    'a signed %s post of tens of thousands of empty fields is refused with 413 before it is parsed, and nothing is stored',
    async (_kind, build) => {
      const form = signedForm({...message, subject: 'Flood'});
      const {body, type} = build(form);
      const before = stack.mailgun.sent.length;
      const response = await postRaw(body, type);
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({
        error: 'The form has more than 200 fields; an e-mail from Mailgun has far fewer',
      });
      expect(await stored(form.get('token')!)).toEqual({tokens: [], jobs: []});
      expect(stack.mailgun.sent.length).toBe(before);
    },
  );

  test('a post over 5 MB is refused with 413, and nothing is stored', async () => {
    const form = signedForm({...message, subject: 'Huge', 'body-plain': 'x'.repeat(5 * 1024 * 1024)});
    const response = await post(form);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({error: 'Request body is too large'});
    expect(await stored(form.get('token')!)).toEqual({tokens: [], jobs: []});
  });

  test('the signature is checked before the rest of the form is parsed: a forged post is 401 whatever follows it', async () => {
    // Signed with another key, and its last part never closed: parsing the whole form first
    // answered 400 for the form, before anyone knew who sent it.
    const {body, type} = multipart(Object.fromEntries(signedForm(message, {key: 'another-key'})));
    const unclosed = body.replace(
      /--\r\n$/,
      '\r\nContent-Disposition: form-data; name="body-html"\r\n\r\n<p>never closed',
    );
    const response = await postRaw(unclosed, type);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({error: 'The Mailgun signature does not match', code: 'BAD_SIGNATURE'});
  });

  test('a bad signature is 401 and a stale timestamp 406; nothing is forwarded', async () => {
    const before = stack.mailgun.sent.length;
    expect((await post(signedForm(message, {key: 'another-key'}))).status).toBe(401);
    expect((await post(signedForm(message, {timestamp: Math.floor(Date.now() / 1000) - 3600}))).status).toBe(406);
    const missing = new URLSearchParams({subject: 'x'});
    expect((await post(missing)).status).toBe(401);
    expect(stack.mailgun.sent.length).toBe(before);
  });
});

test('the analytics proxy takes bodies up to the JSON limit (16 KB) only', async () => {
  const seen = plausibleSeen.length;
  const response = await stack.call('/plausible/api/event', {body: {n: 'pageview', padding: 'x'.repeat(20_000)}});
  expect(response.status).toBe(413);
  expect(await response.json()).toEqual({error: 'Request body is too large'});
  expect(plausibleSeen).toHaveLength(seen);
});

test('an analytics upstream that fails or cannot be reached answers 502 JSON', async () => {
  const down = await listen(
    http.createServer((_request, response) => response.writeHead(500).end('<html>oops</html>')),
  );
  const broken = await startStack({PLAUSIBLE_HOST: down.url});
  try {
    const expected = {error: 'Analytics is unavailable right now', code: 'UPSTREAM_UNAVAILABLE'};
    const failing = await broken.call('/plausible/api/event', {body: {n: 'pageview'}});
    expect(failing.status).toBe(502);
    expect(await failing.json()).toEqual(expected);
    await down.close();
    const unreachable = await broken.call('/plausible/js/script.js');
    expect(unreachable.status).toBe(502);
    expect(await unreachable.json()).toEqual(expected);
  } finally {
    await broken.stop();
  }
});

describe("Plausible's refusals answer in our shape, never in Plausible's", () => {
  const event = () =>
    stack.call('/plausible/api/event', {body: {n: 'pageview', u: `${SITE_ORIGIN}/`, d: 'slipway.dev'}});

  test("a refused event is 400 ANALYTICS_REFUSED; Plausible's own text stays in the logs", async () => {
    plausibleAnswers.push({
      status: 400,
      body: '{"errors":{"domain":["is invalid (plausible-internal-detail)"]}}',
      headers: {'content-type': 'application/json'},
    });
    const response = await event();
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({error: 'Analytics did not accept this event', code: 'ANALYTICS_REFUSED'});
    expect(stack.worker.logs.some((line) => line.includes('plausible-internal-detail'))).toBe(true);
  });

  test.each([
    ['30', '30'],
    [null, '60'],
    ['Wed, 21 Oct 2015 07:28:00 GMT', '60'], // a date already past
    ['86400', '60'], // more than an hour: not a wait we pass on
  ])("Plausible's 429 (Retry-After %p) is our 429 RATE_LIMITED with Retry-After %s", async (given, expected) => {
    plausibleAnswers.push({
      status: 429,
      body: 'Too many requests (plausible-internal-detail)',
      headers: given ? {'retry-after': given} : {},
    });
    const response = await event();
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe(expected);
    expect(await response.json()).toEqual({
      error: 'Analytics is busy right now. Please try again later.',
      code: 'RATE_LIMITED',
    });
  });

  test.each([404, 403, 410])("the script answered %i is our 502, without Plausible's body", async (status) => {
    plausibleAnswers.push({
      status,
      body: '<html>plausible-internal-detail</html>',
      headers: {'content-type': 'text/html'},
    });
    const response = await stack.call('/plausible/js/script.js');
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({error: 'Analytics is unavailable right now', code: 'UPSTREAM_UNAVAILABLE'});
  });
});

test("the analytics proxy forwards Plausible's script and events with the visitor's IP", async () => {
  const script = await stack.call('/plausible/js/script.js', {headers: {'cf-connecting-ip': '127.0.113.7'}});
  expect(script.status).toBe(200);
  expect(await script.text()).toBe('/* plausible */');
  const event = await stack.call('/plausible/api/event', {
    body: {n: 'pageview', u: `${SITE_ORIGIN}/`, d: 'slipway.dev'},
    headers: {'cf-connecting-ip': '127.0.113.7'},
  });
  expect(event.status).toBe(202);
  expect(plausibleSeen.at(-1)).toMatchObject({
    path: '/api/event',
    forwardedFor: '127.0.113.7',
    body: expect.stringContaining('pageview'),
  });
});

test('the cron prunes Mailgun tokens and processed Stripe events older than 30 days, and keeps the rest', async () => {
  const day = 24 * 3600_000;
  const old = Date.now() - 31 * day;
  const recent = Date.now() - 29 * day;
  await stack.worker.db.run(
    'INSERT INTO mailgun_tokens (token, used_at) VALUES (?, ?), (?, ?)',
    'old-token',
    old,
    'recent-token',
    recent,
  );
  await stack.worker.db.run(
    'INSERT INTO stripe_events (id, type, received_at, processed_at) VALUES (?, ?, ?, ?), (?, ?, ?, ?), (?, ?, ?, NULL)',
    'evt_old',
    'checkout.session.completed',
    old,
    old,
    'evt_recent',
    'checkout.session.completed',
    recent,
    recent,
    'evt_unfinished',
    'checkout.session.completed',
    old,
  );
  await stack.worker.scheduled();
  expect(
    await stack.worker.db.all("SELECT token FROM mailgun_tokens WHERE token IN ('old-token', 'recent-token')"),
  ).toEqual([{token: 'recent-token'}]);
  expect(
    await stack.worker.db.all(
      "SELECT id FROM stripe_events WHERE id IN ('evt_old', 'evt_recent', 'evt_unfinished') ORDER BY id",
    ),
  ).toEqual([{id: 'evt_recent'}, {id: 'evt_unfinished'}]);
});

test('a welcome e-mail that Mailgun refuses for a while is sent by the cron, once', async () => {
  const email = uniqueEmail('retry');
  stack.mailgun.failNext(503);
  const sessionId = await stack.paidCheckout({email});
  await stack.deliver(completedEvent(stack, sessionId));
  const sent = () => stack.mailgun.sent.filter((mail) => mail.fields.to === email);
  expect(sent()).toHaveLength(0);
  const [job] = await stack.worker.db.all<{status: string; last_error: string}>(
    'SELECT * FROM jobs WHERE key = ?',
    `welcome:${sessionId}`,
  );
  expect(job).toMatchObject({status: 'pending', last_error: expect.stringContaining('503')});

  await stack.worker.db.run('UPDATE jobs SET run_after = 0 WHERE key = ?', `welcome:${sessionId}`);
  await stack.worker.scheduled();
  await stack.worker.scheduled();
  expect(sent()).toHaveLength(1);
});
