/**
 * Every public route of the running worker (workerd, a real local D1, the Auth emulator and the
 * stand-ins) against generated requests (fast-check): methods, queries, headers, tokens, bodies of
 * every shape and size, signatures good and bad. Two properties hold for each:
 * - no answer is a 5xx: a caller's mistake is a 4xx with a message, and our stand-ins never fail;
 * - a refused request (4xx) changes no state: triggers record every write to D1 (the rate-limit
 *   counters aside, whose job is to count refusals), and a refusal must have written nothing.
 *
 * `npm test` runs FUZZ_RUNS requests a route (200 by default) from a fixed seed (FUZZ_SEED), so a
 * failure replays; `npm run bench:fuzz` runs 10,000 a route and prints the figures (FUZZ_REPORT).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import fc from 'fast-check';
import {ADMIN_PATHS, adminPath, API_PATHS} from '../../src/config/api';
import {INVITEE} from '../../scripts/local/githubApi';
import {EMULATOR_PROJECT} from '../../scripts/local/authEmulator';
import {listen, type RunningServer} from '../../scripts/support/listen';
import {
  completedEvent,
  MAILGUN_SIGNING_KEY,
  PRICE_ADVANCED,
  SITE_ORIGIN,
  signPayload,
  startStack,
  type Stack,
  stripeEvent,
  uniqueEmail,
} from './stack';

const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const SEED = Number(process.env.FUZZ_SEED ?? 22);
// 10,000 requests a route at a few milliseconds each, for the benchmark's full count.
jest.setTimeout(Math.max(120_000, RUNS * 40));

let stack: Stack;
/** The tokens a caller may hold: a paid buyer's, an admin's (both past their first verified sign-in). */
const tokens: Record<'buyer' | 'admin', string> = {buyer: '', admin: ''};
let buyerUid = '';
let paidSession = '';
let paidClaim = '';
const ADMIN_EMAIL = 'fuzz-admin@slipway.dev';

let plausible: RunningServer;

beforeAll(async () => {
  // Plausible answers its script and takes events, and refuses what it would refuse.
  plausible = await listen(
    http.createServer((request, response) => {
      request.resume();
      const ok =
        request.url === '/js/script.js'
          ? request.method === 'GET'
          : request.url === '/api/event' && request.method === 'POST';
      response.writeHead(ok ? 202 : 400, {'content-type': 'text/plain'}).end(ok ? 'ok' : 'Bad request');
    }),
  );
  stack = await startStack({ADMIN_EMAILS: ADMIN_EMAIL, PLAUSIBLE_HOST: plausible.url});
  const buyer = await stack.signUp({verified: true});
  const admin = await stack.signUp({email: ADMIN_EMAIL, verified: true});
  [tokens.buyer, tokens.admin, buyerUid] = [buyer.idToken, admin.idToken, buyer.uid];
  paidSession = await stack.paidCheckout({email: buyer.email, user: buyer});
  await stack.deliver(completedEvent(stack, paidSession));
  const guest = await stack.paidCheckout({email: uniqueEmail('fuzz-guest')});
  await stack.deliver(completedEvent(stack, guest));
  [paidSession, paidClaim] = [guest, stack.claimOf(guest)];
  // Their first verified sign-in is behind them, as for any returning caller.
  for (const token of [tokens.buyer, tokens.admin])
    expect((await stack.call('/signedIn', {token, body: {}})).status).toBe(200);
  await recordWrites();
});
afterAll(async () => {
  if (process.env.FUZZ_REPORT)
    fs.writeFileSync(process.env.FUZZ_REPORT, JSON.stringify({seed: SEED, runs: RUNS, routes: figures}, null, 2));
  await stack?.stop();
  await plausible?.close();
});

/**
 * Every write to a D1 table leaves a row in fuzz_writes, but two: the rate-limit counters, whose job
 * is to count refusals, and the admin log, which records every admin action whatever its outcome.
 */
async function recordWrites() {
  const tables = await stack.worker.db.all<{name: string}>(
    `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'
       AND name NOT IN ('d1_migrations', 'rate_limits', 'admin_audit')`,
  );
  await stack.worker.db.run('CREATE TABLE fuzz_writes (id INTEGER PRIMARY KEY AUTOINCREMENT, what TEXT NOT NULL)');
  for (const {name} of tables) {
    // An update counts when a value changed; writing the same values again (and a new updated_at,
    // as an idempotent re-record does) changes no state.
    const columns = (await stack.worker.db.all<{name: string}>(`SELECT name FROM pragma_table_info('${name}')`)).map(
      (column) => column.name,
    );
    const changed = columns
      .filter((column) => column !== 'updated_at')
      .map((column) => `OLD.${column} IS NOT NEW.${column}`)
      .join(' OR ');
    for (const [event, when] of [
      ['INSERT', ''],
      ['DELETE', ''],
      ['UPDATE', `WHEN ${changed}`],
    ]) {
      await stack.worker.db.run(
        `CREATE TRIGGER fuzz_${name}_${event!.toLowerCase()} AFTER ${event} ON ${name} ${when} BEGIN INSERT INTO fuzz_writes (what) VALUES ('${event} ${name}'); END`,
      );
    }
  }
  countWrites = stack.worker.db.prepared<{n: number}>('SELECT COUNT(*) AS n FROM fuzz_writes');
}

let countWrites: () => Promise<{n: number}[]>;
const writes = async () => (await countWrites())[0]!.n;

// ---------------------------------------------------------------------------------------------
// What a caller can send.

const now = () => Math.floor(Date.now() / 1000);
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An unsigned token as the emulator issues them (accepted in emulator mode), for any uid: unverified. */
function emulatorToken(claims: Record<string, unknown>) {
  const payload = {
    iss: `https://securetoken.google.com/${EMULATOR_PROJECT}`,
    aud: EMULATOR_PROJECT,
    iat: now() - 5,
    exp: now() + 3600,
    auth_time: now() - 5,
    ...claims,
  };
  return `${b64({alg: 'none', typ: 'JWT'})}.${b64(payload)}.`;
}

const uid = fc.oneof(
  fc.string({unit: fc.constantFrom(...'abcXYZ019'.split('')), minLength: 1, maxLength: 28}),
  fc.string({maxLength: 140}),
);
const authorization = fc.oneof(
  {weight: 2, arbitrary: fc.constant(undefined)},
  {weight: 3, arbitrary: fc.constantFrom('buyer', 'admin').map((who) => `Bearer ${tokens[who as 'buyer' | 'admin']}`)},
  {
    weight: 3,
    arbitrary: uid.map(
      (sub) => `Bearer ${emulatorToken({sub, email: `${sub.slice(0, 8)}@example.com`, email_verified: false})}`,
    ),
  },
  fc
    .record({sub: uid, aud: fc.string(), iss: fc.string(), exp: fc.integer(), iat: fc.integer()})
    .map((claims) => `Bearer ${emulatorToken(claims)}`),
  fc.string({maxLength: 300}).map((value) => `Bearer ${value}`),
  fc.string({maxLength: 100}),
  fc.constant(`Bearer ${'a'.repeat(9000)}`),
);
// Emulator mode answers only callers on this machine (503 otherwise, by design): loopback
// addresses in their spellings, each its own rate-limit bucket. address.test.ts covers the rest.
const loopback = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map((parts) => `127.${parts.join('.')}`);
const clientIp = fc.oneof(
  loopback,
  loopback.map((address) => `::ffff:${address}`),
  fc.constant('::1'),
  fc.constant(undefined),
);
const contentType = fc.oneof(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=fuzz',
    undefined,
  ),
  fc.string({maxLength: 60}),
);

const anything = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.constant(null),
  fc.boolean(),
  fc.double(),
  fc.array(fc.string(), {maxLength: 3}),
  fc.object({maxDepth: 1}),
);
const email = fc.oneof(fc.emailAddress(), fc.string({maxLength: 300}), anything);
const url = fc.oneof(
  fc.constantFrom(`${SITE_ORIGIN}/success`, `${SITE_ORIGIN}/`, `${SITE_ORIGIN}/dashboard`),
  fc.webUrl(),
  fc.string({maxLength: 3000}),
  anything,
);
const githubLogin = fc.oneof(
  fc.constantFrom(INVITEE, 'octocat'),
  fc.string({unit: fc.constantFrom(...'abc-09_.'.split('')), maxLength: 45}),
  anything,
);

/** JSON bodies shaped like each route's, and anything else. */
const jsonBody = fc
  .oneof(
    {
      weight: 3,
      arbitrary: fc.record(
        {priceId: fc.oneof(fc.constant(PRICE_ADVANCED), fc.string(), anything), successUrl: url, cancelUrl: url, email},
        {requiredKeys: []},
      ),
    },
    {
      weight: 2,
      arbitrary: fc.record(
        {username: githubLogin, userId: fc.oneof(fc.constant('self'), uid, anything)},
        {requiredKeys: []},
      ),
    },
    {weight: 2, arbitrary: fc.record({email, returnUrl: url}, {requiredKeys: []})},
    {
      weight: 2,
      arbitrary: fc.record(
        {
          sessionId: fc.oneof(
            fc.constant('').map(() => paidSession),
            fc.constant('cs_test_doesnotexist'),
            fc.string({maxLength: 60}),
            anything,
          ),
          claim: fc.oneof(
            fc.constant('').map(() => paidClaim),
            fc.string({maxLength: 60}),
            anything,
          ),
        },
        {requiredKeys: []},
      ),
    },
    fc.record(
      {
        kind: fc.oneof(fc.constantFrom('unpaid_on_repository', 'paid_missing', 'revoked_present'), anything),
        githubUserId: fc.oneof(fc.integer(), anything),
      },
      {requiredKeys: []},
    ),
    fc.jsonValue(),
  )
  .map((value) => JSON.stringify(value, (key, field) => (field === 'self' && key === 'userId' ? buyerUid : field)));
const body = fc.oneof(
  {weight: 6, arbitrary: jsonBody},
  fc.string({maxLength: 500}),
  fc.nat({max: 40_000}).map((size) => JSON.stringify({email: 'a'.repeat(size)})),
  fc.uint8Array({maxLength: 400}).map((bytes) => Buffer.from(bytes).toString('latin1')),
  fc.constant(undefined),
);
const query = fc.dictionary(
  fc.constantFrom('userId', 'sessionId', 'claim', 'q', 'page', 'x'),
  fc.oneof(
    fc.string({maxLength: 80}),
    fc.constant(buyerUid).map(() => buyerUid),
    fc.constant('').map(() => paidSession),
    fc.constant('').map(() => paidClaim),
    fc.nat().map(String),
  ),
  {maxKeys: 4},
);

interface Call {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

function call(
  method: string,
  path: string,
  parts: {query?: Record<string, string>; headers: Record<string, string | undefined>; body?: string},
): Call {
  const search = parts.query && Object.keys(parts.query).length > 0 ? `?${new URLSearchParams(parts.query)}` : '';
  const headers = Object.fromEntries(
    Object.entries(parts.headers).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string' && /^[\t\x20-\x7e\x80-\xff]*$/.test(entry[1]),
    ),
  );
  return {method, path: `${path}${search}`, headers, body: ['GET', 'HEAD'].includes(method) ? undefined : parts.body};
}

/** A request to one route: its own method most of the time, any other now and then. */
function requestTo(method: 'GET' | 'POST', path: fc.Arbitrary<string> | string) {
  return fc
    .record({
      method: fc.oneof(
        {weight: 9, arbitrary: fc.constant(method)},
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'),
      ),
      path: typeof path === 'string' ? fc.constant(path) : path,
      query,
      authorization,
      ip: clientIp,
      contentType,
      body,
    })
    .map(({method: verb, path: target, query: search, authorization: auth, ip, contentType: type, body: payload}) =>
      call(verb, target, {
        query: search,
        headers: {authorization: auth, 'cf-connecting-ip': ip, 'content-type': type},
        body: payload,
      }),
    );
}

/** A Stripe event of a type the worker handles, or not, around an object of any shape. */
const stripePayload = fc
  .record({
    type: fc.constantFrom(
      'checkout.session.completed',
      'checkout.session.async_payment_failed',
      'charge.refunded',
      'charge.dispute.created',
      'charge.dispute.closed',
      'customer.created',
      'x',
    ),
    object: fc.oneof(
      fc.record(
        {
          id: fc.oneof(fc.constant('cs_test_unknown'), fc.string({maxLength: 40}), anything),
          payment_intent: fc.oneof(fc.string({maxLength: 30}), anything),
          refunded: fc.boolean(),
          amount_refunded: fc.oneof(fc.nat(), anything),
          status: fc.string(),
        },
        {requiredKeys: []},
      ),
      anything,
    ),
    id: fc.oneof(fc.string({maxLength: 40}), anything),
  })
  .map(({type, object, id}) =>
    JSON.stringify({...stripeEvent('customer.created', {} as never), id, type, data: {object}}),
  );
const stripeWebhook = fc
  .record({
    payload: fc.oneof({weight: 4, arbitrary: stripePayload}, fc.string({maxLength: 400})),
    signing: fc.constantFrom('good', 'stale', 'future', 'other body', 'garbage', 'none'),
    garbage: fc.string({maxLength: 200}),
    size: fc.nat({max: 600_000}),
  })
  .map(({payload, signing, garbage, size}) => {
    const body = signing === 'other body' || size < 550_000 ? payload : `${payload}${' '.repeat(size)}`;
    const signature = {
      good: signPayload(body),
      stale: signPayload(body, now() - 600),
      future: signPayload(body, now() + 600),
      'other body': signPayload(`${payload} `),
      garbage,
      none: undefined,
    }[signing];
    return call('POST', '/api/webhook/stripe', {
      headers: {'content-type': 'application/json', 'stripe-signature': signature},
      body,
    });
  });

/** Mailgun's inbound form, urlencoded or multipart, signed or not, with many or few fields. */
const mailgunWebhook = fc
  .record({
    fields: fc.dictionary(
      fc.constantFrom('sender', 'from', 'subject', 'body-plain', 'recipient', 'x'),
      fc.string({maxLength: 200}),
      {maxKeys: 5},
    ),
    signing: fc.constantFrom('good', 'stale', 'bad', 'missing'),
    token: fc.oneof(
      fc.string({maxLength: 300}),
      fc.string({unit: fc.constantFrom(...'0123456789abcdef'.split('')), minLength: 50, maxLength: 50}),
    ),
    multipart: fc.boolean(),
    emptyParts: fc.nat({max: 3000}),
  })
  .map(({fields, signing, token, multipart, emptyParts}) => {
    const timestamp = String(signing === 'stale' ? now() - 3600 : now());
    const signature =
      signing === 'bad'
        ? 'f'.repeat(64)
        : crypto.createHmac('sha256', MAILGUN_SIGNING_KEY).update(`${timestamp}${token}`).digest('hex');
    const all: [string, string][] = [
      ...Object.entries(fields),
      ...(signing === 'missing'
        ? []
        : ([
            ['timestamp', timestamp],
            ['token', token],
            ['signature', signature],
          ] as [string, string][])),
    ];
    for (let part = 0; part < emptyParts; part++) all.push([`e${part}`, '']);
    if (!multipart)
      return call('POST', '/api/webhook/mailgun', {
        headers: {'content-type': 'application/x-www-form-urlencoded'},
        body: new URLSearchParams(all).toString(),
      });
    const body =
      all
        .map(([name, value]) => `--fuzz\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
        .join('') + '--fuzz--\r\n';
    return call('POST', '/api/webhook/mailgun', {
      headers: {'content-type': 'multipart/form-data; boundary=fuzz'},
      body,
    });
  });

/** Mailgun's event webhooks: JSON, signed or not, about a release e-mail or anything else. */
const mailgunEvents = fc
  .record({
    signing: fc.constantFrom('good', 'stale', 'bad', 'missing'),
    token: fc.oneof(
      fc.string({maxLength: 300}),
      fc.string({unit: fc.constantFrom(...'0123456789abcdef'.split('')), minLength: 50, maxLength: 50}),
    ),
    data: fc.oneof(
      fc.anything(),
      fc.record({
        event: fc.constantFrom('delivered', 'failed', 'opened', 'accepted', ''),
        recipient: fc.oneof(fc.emailAddress(), fc.string({maxLength: 400})),
        severity: fc.constantFrom('permanent', 'temporary', 'x'),
        'delivery-status': fc.record({message: fc.string({maxLength: 600})}),
        'user-variables': fc.oneof(
          fc.constant([]),
          fc.record({
            'release-id': fc.oneof(fc.nat().map(String), fc.string({maxLength: 30}), fc.integer()),
            'release-audience': fc.constantFrom('updates', 'upgrade', 'x'),
          }),
        ),
      }),
    ),
  })
  .map(({signing, token, data}) => {
    const timestamp = String(signing === 'stale' ? now() - 3600 : now());
    const signature =
      signing === 'bad'
        ? 'f'.repeat(64)
        : crypto.createHmac('sha256', MAILGUN_SIGNING_KEY).update(`${timestamp}${token}`).digest('hex');
    const body = JSON.stringify({
      ...(signing !== 'missing' && {signature: {timestamp, token, signature}}),
      'event-data': data,
    });
    return call('POST', API_PATHS.mailgunEvents, {headers: {'content-type': 'application/json'}, body});
  });

const sessionParam = fc.oneof(
  fc.constant('').map(() => paidSession),
  fc.constant('cs_test_doesnotexist'),
  fc.string({maxLength: 60}).map(encodeURIComponent),
);
const jobParam = fc.oneof(fc.nat(50).map(String), fc.string({maxLength: 20}).map(encodeURIComponent));
const adminRoute = (template: string) =>
  fc
    .tuple(sessionParam, jobParam)
    .map(([sessionId, jobId]) =>
      adminPath(template, {sessionId, jobId: jobId as unknown as number, releaseId: jobId as unknown as number}),
    );

/** Each public route, and how its requests are made. */
const routes: [string, fc.Arbitrary<Call>][] = [
  ['POST /createCheckoutSession', requestTo('POST', '/createCheckoutSession')],
  ['GET /userHasPaid', requestTo('GET', '/userHasPaid')],
  ['GET /retrieveUserFromCheckoutSession', requestTo('GET', '/retrieveUserFromCheckoutSession')],
  ['POST /checkoutStatus', requestTo('POST', API_PATHS.checkoutStatus)],
  ['POST /createBillingPortal', requestTo('POST', '/createBillingPortal')],
  ['POST /addUserToRepo', requestTo('POST', '/addUserToRepo')],
  ['GET /accessStatus', requestTo('GET', '/accessStatus')],
  ['POST /resendInvitation', requestTo('POST', '/resendInvitation')],
  ['POST /signedIn', requestTo('POST', '/signedIn')],
  ['GET /prices', requestTo('GET', API_PATHS.prices)],
  ['GET /upgrades', requestTo('GET', API_PATHS.upgrades)],
  ['POST /createUpgradeSession', requestTo('POST', API_PATHS.createUpgradeSession)],
  ['POST /api/leads', requestTo('POST', '/api/leads')],
  ['POST /api/webhook/stripe', stripeWebhook],
  ['POST /api/webhook/mailgun', mailgunWebhook],
  ['POST /api/webhook/mailgun/events', mailgunEvents],
  ['GET /plausible/js/script.js', requestTo('GET', '/plausible/js/script.js')],
  ['POST /plausible/api/event', requestTo('POST', '/plausible/api/event')],
  [
    'GET /admin/… (views)',
    requestTo(
      'GET',
      fc
        .constantFrom(
          ADMIN_PATHS.sales,
          ADMIN_PATHS.purchases,
          ADMIN_PATHS.purchase,
          ADMIN_PATHS.jobs,
          ADMIN_PATHS.leads,
          ADMIN_PATHS.leadsCsv,
          ADMIN_PATHS.auditLog,
          ADMIN_PATHS.releases,
        )
        .chain(adminRoute),
    ),
  ],
  [
    'POST /admin/… (actions)',
    requestTo(
      'POST',
      fc
        .constantFrom(
          ADMIN_PATHS.grant,
          ADMIN_PATHS.revoke,
          ADMIN_PATHS.resend,
          ADMIN_PATHS.resetUsernameChanges,
          ADMIN_PATHS.takeBackMember,
          ADMIN_PATHS.retryJob,
          ADMIN_PATHS.repositoryFix,
          ADMIN_PATHS.releaseResend,
          ADMIN_PATHS.acceptCardCountry,
        )
        .chain(adminRoute),
    ),
  ],
  [
    'any other path',
    requestTo(
      'GET',
      fc.webPath().map((path) => path || '/'),
    ),
  ],
];

/** The smallest body limit of the worker's routes (its JSON routes'). */
const BODY_LIMIT = 16 * 1024;

const figures: Record<string, {requests: number; byStatus: Record<string, number>; ms: number}> = {};

describe(`${RUNS} generated requests a route (seed ${SEED}): no 5xx, and a refused one changes nothing`, () => {
  test.each(routes.map(([name]) => name))('%s', async (name) => {
    const arbitrary = routes.find(([candidate]) => candidate === name)![1];
    const seen: (typeof figures)[string] = (figures[name] = {requests: 0, byStatus: {}, ms: 0});
    const started = Date.now();
    let before = await writes();
    await fc.assert(
      fc.asyncProperty(arbitrary, async (request) => {
        const sent = stack.worker.fetch(request.path, {
          method: request.method,
          headers: request.headers,
          body: request.body,
        });
        // Over a body limit, the worker answers 413 as soon as it has read past the limit, and may
        // close the connection while the rest of the body is still being written: a refusal too.
        const response = await sent.catch((error: unknown) => {
          if ((request.body?.length ?? 0) <= BODY_LIMIT) throw error;
          return new Response(null, {status: 413});
        });
        const text = [204, 413].includes(response.status) && response.body === null ? '' : await response.text();
        seen.requests += 1;
        seen.byStatus[response.status] = (seen.byStatus[response.status] ?? 0) + 1;
        const after = await writes();
        const wrote = after - before;
        before = after;
        const said = `${request.method} ${request.path.slice(0, 200)} answered ${response.status} ${text.slice(0, 200)}`;
        if (response.status >= 500) throw new Error(`A 5xx: ${said}`);
        if (response.status >= 400 && wrote > 0) {
          const what = await stack.worker.db.all<{what: string}>(
            'SELECT what FROM fuzz_writes ORDER BY id DESC LIMIT ?',
            wrote,
          );
          throw new Error(`A refused request wrote ${what.map((row) => row.what).join(', ')}: ${said}`);
        }
        if (response.status >= 400 && text !== '' && response.headers.get('content-type')?.includes('json')) {
          expect(JSON.parse(text)).toEqual(expect.objectContaining({error: expect.any(String)}));
        }
      }),
      {numRuns: RUNS, seed: SEED, endOnFailure: true},
    );
    seen.ms = Date.now() - started;
  });
});
