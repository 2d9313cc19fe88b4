/**
 * Property tests (fast-check): the username validator, the request-body schemas and the
 * Stripe-Signature parser accept exactly what they should, and never throw, over 10,000
 * generated cases each. Then the running worker meets generated bodies and headers: never a 5xx,
 * never an invalid request accepted.
 */
import fc from 'fast-check';
import {addUserToRepoBody, checkoutBody, githubUsername, leadBody} from '../../src/config/apiSchemas';
import {parseSignatureHeader} from '../../worker/src/payments/signatureHeader';
import {PRICE_ADVANCED, SITE_ORIGIN, signPayload, startStack, type Stack} from './stack';

const RUNS = 10_000;

/** GitHub's rule, written plainly as the oracle. */
function isGitHubUsername(value: string): boolean {
  return (
    value.length >= 1 &&
    value.length <= 39 &&
    /^[A-Za-z0-9-]+$/.test(value) &&
    !value.startsWith('-') &&
    !value.endsWith('-') &&
    !value.includes('--')
  );
}

const usernameChars = fc.constantFrom(...'abcXYZ019-_. é'.split(''));
const usernameLike = fc.oneof(
  fc.string({unit: usernameChars, maxLength: 45}),
  fc.string({maxLength: 45}),
  fc.string({unit: 'grapheme', maxLength: 10}),
);

describe('pure properties (10,000 cases each)', () => {
  test('the username validator accepts exactly GitHub usernames', () => {
    fc.assert(
      fc.property(usernameLike, (raw) => {
        const result = githubUsername.safeParse(raw);
        expect(result.success).toBe(isGitHubUsername(raw.trim()));
        if (result.success) expect(result.data).toBe(raw.trim());
      }),
      {numRuns: RUNS},
    );
  });

  test('the body schemas never throw and accept only well-formed bodies', () => {
    const field = fc.oneof(
      fc.string(),
      fc.emailAddress(),
      fc.constant(PRICE_ADVANCED),
      fc.integer(),
      fc.constant(null),
      fc.constant(undefined),
      fc.anything(),
    );
    const bodies = fc.oneof(
      fc.anything(),
      fc.record({priceId: field, successUrl: field, cancelUrl: field, email: field}, {requiredKeys: []}),
      fc.record({email: field}, {requiredKeys: []}),
      fc.record({username: fc.oneof(usernameLike, field), userId: field}, {requiredKeys: []}),
    );
    fc.assert(
      fc.property(bodies, (body) => {
        const checkout = checkoutBody.safeParse(body);
        if (checkout.success) {
          expect(checkout.data.priceId.trim()).not.toBe('');
          expect(checkout.data.priceId.length).toBeLessThanOrEqual(255);
          if (checkout.data.email) expect(checkout.data.email).toMatch(/^[^@\s]+@[^@\s]+\.[^@\s]+$/);
        }
        const lead = leadBody.safeParse(body);
        if (lead.success) {
          expect(lead.data.email).toMatch(/^[^@\sA-Z]+@[^@\sA-Z]+\.[^@\sA-Z]+$/);
          expect(lead.data.email.length).toBeLessThanOrEqual(254);
        }
        const access = addUserToRepoBody.safeParse(body);
        if (access.success) {
          expect(isGitHubUsername(access.data.username)).toBe(true);
          expect(access.data.userId.length).toBeGreaterThan(0);
        }
      }),
      {numRuns: RUNS},
    );
  });

  test('the signature header parser never throws, and reads well-formed headers exactly', () => {
    const hex64 = fc.string({unit: fc.constantFrom(...'0123456789abcdef'.split('')), minLength: 64, maxLength: 64});
    const wellFormed = fc.record({
      timestamp: fc.integer({min: 0, max: 99_999_999_999}),
      signatures: fc.array(hex64, {minLength: 1, maxLength: 3}),
      v0: fc.option(hex64, {nil: undefined}),
    });
    const anyHeader = fc.oneof(
      fc.string(),
      fc.string({unit: fc.constantFrom(...'tv01=,af '.split('')), maxLength: 80}),
      wellFormed.map(({timestamp, signatures}) => `t=${timestamp},${signatures.map((s) => `v1=${s}`).join(',')}`),
    );
    fc.assert(
      fc.property(anyHeader, (header) => {
        const parsed = parseSignatureHeader(header);
        if (parsed) {
          expect(Number.isSafeInteger(parsed.timestamp)).toBe(true);
          expect(parsed.signatures.length).toBeGreaterThan(0);
          for (const signature of parsed.signatures) expect(signature).toMatch(/^[0-9a-f]{64}$/);
        }
      }),
      {numRuns: RUNS},
    );
    fc.assert(
      fc.property(wellFormed, ({timestamp, signatures, v0}) => {
        const parts = [`t=${timestamp}`, ...signatures.map((s) => `v1=${s}`), ...(v0 ? [`v0=${v0}`] : [])];
        expect(parseSignatureHeader(parts.join(','))).toEqual({timestamp, signatures});
      }),
      {numRuns: RUNS},
    );
  });
});

describe('the running worker under generated input', () => {
  let stack: Stack;
  let ip = 0;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.stop());

  const HTTP_RUNS = 1_000;
  // Two requests a run, a thousand runs: about 40 s on a quiet machine, several times that on a busy one.
  jest.setTimeout(300_000);
  const nextIp = () => `127.${(ip >> 16) & 255}.${(ip >> 8) & 255}.${ip++ & 255}`;
  const jsonBodies = fc.oneof(
    fc.json(),
    fc
      .record(
        {
          priceId: fc.oneof(fc.string(), fc.constant(PRICE_ADVANCED)),
          successUrl: fc.oneof(fc.webUrl(), fc.constant(`${SITE_ORIGIN}/success`), fc.string()),
          cancelUrl: fc.oneof(fc.webUrl(), fc.constant(`${SITE_ORIGIN}/`), fc.string()),
          email: fc.oneof(fc.emailAddress(), fc.string()),
        },
        {requiredKeys: []},
      )
      .map((body) => JSON.stringify(body)),
  );

  test('checkout and leads never answer 5xx, and accept only valid bodies', async () => {
    await fc.assert(
      fc.asyncProperty(jsonBodies, async (body) => {
        const checkout = await stack.call('/createCheckoutSession', {body, headers: {'cf-connecting-ip': nextIp()}});
        expect(checkout.status).toBeLessThan(500);
        if (checkout.status === 200) {
          const parsed = JSON.parse(body);
          expect(parsed.priceId).toBe(PRICE_ADVANCED);
          expect(new URL(parsed.successUrl).origin).toBe(SITE_ORIGIN);
          expect(new URL(parsed.cancelUrl).origin).toBe(SITE_ORIGIN);
        }
        const lead = await stack.call('/api/leads', {body, headers: {'cf-connecting-ip': nextIp()}});
        expect(lead.status).toBeLessThan(500);
        if (lead.status === 201 || lead.status === 200) expect(leadBody.safeParse(JSON.parse(body)).success).toBe(true);
      }),
      {numRuns: HTTP_RUNS},
    );
  });

  test('the Stripe webhook answers 400 to every generated signature header and stores nothing', async () => {
    const payload = JSON.stringify({
      id: 'evt_generated',
      object: 'event',
      type: 'checkout.session.completed',
      data: {object: {id: 'cs_test_x'}},
    });
    const genuine = signPayload(payload);
    const headers = fc.oneof(
      fc.string(),
      fc.string({unit: fc.constantFrom(...'tv01=,af '.split('')), maxLength: 80}),
      fc.integer({min: 0, max: 2_000_000_000}).map((t) => `t=${t},v1=${'a'.repeat(64)}`),
      fc.nat({max: genuine.length - 1}).map((cut) => genuine.slice(0, cut) + genuine.slice(cut + 1)),
    );
    await fc.assert(
      fc.asyncProperty(headers, async (signature) => {
        const response = await stack.deliver({} as never, {payload, signature});
        expect(response.status).toBe(400);
      }),
      {numRuns: HTTP_RUNS},
    );
    expect(await stack.worker.db.all('SELECT id FROM stripe_events')).toEqual([]);
  });
});
