/**
 * The URLs Stripe sends a browser back to (a checkout's success and cancel URLs, an upgrade's, the
 * billing portal's return URL), in workerd against the Stripe stand-in: read as the browser will
 * read them, held to the site, and refused with a 400 that says why when they lead off it. A guest
 * checkout needs no account, so a refused URL is one no one can turn into a real checkout link
 * that lures a payer who cancels to another site.
 */
import {API_PATHS} from '../../src/config/api';
import {appConfig, upgradesFrom} from '../../src/config';
import {completedEvent, PRICE_ADVANCED, SITE_ORIGIN, type SignedInUser, type Stack, startStack} from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.stop());

let address = 0;
const checkout = (body: Record<string, unknown>) =>
  stack.call(API_PATHS.createCheckoutSession, {
    headers: {'cf-connecting-ip': `127.0.3.${++address}`},
    body: {priceId: PRICE_ADVANCED, successUrl: `${SITE_ORIGIN}/success`, cancelUrl: `${SITE_ORIGIN}/`, ...body},
  });

/**
 * URLs the worker refuses though most are of the site's origin: one whose next= leads off the site,
 * and one whose path, as the parser reads it, starts with two slashes (read again, another host).
 */
const OFF_SITE = [
  [
    'a sign-in whose next= holds a tab after the first slash (the lure)',
    `${SITE_ORIGIN}/signin?next=/%09/evil.example`,
  ],
  ['a sign-in whose next= holds a newline after the first slash', `${SITE_ORIGIN}/signin?next=/%0A/evil.example`],
  [
    'a reset link whose next= leaves two hops down',
    `${SITE_ORIGIN}/finish-sign-in?next=%2Fnew-password%3Fnext%3D%252F%2509%252Fevil.example`,
  ],
  ['a path that starts with two slashes once the parser drops a tab', `${SITE_ORIGIN}/\t/evil.example`],
  ['a dot segment that leaves the path starting with two slashes', `${SITE_ORIGIN}/.//evil.example`],
  // Paths no URL has once read again (`//` and no host): a 400 like the others, never a 500.
  ['a dot segment that leaves only two slashes', `${SITE_ORIGIN}/.//`],
  ['an encoded backslash alone, which the router decodes to two slashes', `${SITE_ORIGIN}/%5C`],
  ['another site', 'https://evil.example/'],
] as const;

const refusal = (name: string) => ({error: `${name} must be a page of ${SITE_ORIGIN}, and so must any next= in it`});

describe('a checkout', () => {
  test.each(OFF_SITE)(
    'with a cancel URL that is %s is refused with 400, and no session is made',
    async (_label, cancelUrl) => {
      const before = stack.stripe.created.length;
      const response = await checkout({cancelUrl});
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual(refusal('The cancel URL'));
      expect(stack.stripe.created).toHaveLength(before);
    },
  );

  test('with a success URL that leads off the site is refused with 400', async () => {
    const response = await checkout({successUrl: `${SITE_ORIGIN}/success?next=/%09/evil.example`});
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(refusal('The success URL'));
  });

  test('hands Stripe the URLs as the browser reads them, and keeps a next= that stays on the site', async () => {
    const response = await checkout({
      successUrl: ` ${SITE_ORIGIN}/suc\tcess`,
      cancelUrl: `${SITE_ORIGIN}/sign\nin?next=%2Fadmin`,
    });
    expect(response.status).toBe(200);
    const session = stack.stripe.created.at(-1) as {success_url: string; cancel_url: string};
    expect(new URL(session.success_url).pathname).toBe('/success');
    expect(session.cancel_url).toBe(`${SITE_ORIGIN}/signin?next=%2Fadmin`);
  });
});

describe("a buyer's URLs", () => {
  let buyer: SignedInUser;
  beforeAll(async () => {
    buyer = await stack.signUp();
    const lower = [...appConfig.plans].sort((a, b) => a.price - b.price)[0]!;
    const sessionId = await stack.paidCheckout({email: buyer.email, user: buyer, priceId: lower.priceId.test});
    expect((await stack.deliver(completedEvent(stack, sessionId))).status).toBe(200);
  });

  test.each(OFF_SITE)("the billing portal's return URL that is %s is refused with 400", async (_label, returnUrl) => {
    const before = stack.stripe.portals.length;
    const response = await stack.call(API_PATHS.createBillingPortal, {token: buyer.idToken, body: {returnUrl}});
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(refusal('The return URL'));
    expect(stack.stripe.portals).toHaveLength(before);
  });

  test.each(OFF_SITE)(
    "an upgrade's cancel URL that is %s is refused with 400, and no session is made",
    async (_label, cancelUrl) => {
      const higher = upgradesFrom([...appConfig.plans].sort((a, b) => a.price - b.price)[0]!)[0]!;
      const before = stack.stripe.created.length;
      const response = await stack.call(API_PATHS.createUpgradeSession, {
        method: 'POST',
        token: buyer.idToken,
        body: {planId: higher.id, successUrl: `${SITE_ORIGIN}/dashboard`, cancelUrl},
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual(refusal('The cancel URL'));
      expect(stack.stripe.created).toHaveLength(before);
    },
  );
});
