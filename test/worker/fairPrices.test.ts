/**
 * Fair prices worldwide, in workerd with a real D1 against the Stripe stand-in: the country comes
 * from Cloudflare (`request.cf.country`) and nothing the browser sends; the checkout charges the
 * config's fair price through a coupon (no promotion codes then), GET /prices answers the same
 * amounts, and a card from another country than the discount's is flagged in the console until
 * the seller accepts it.
 */
import {appConfig, countryName, fairPrice, fairPriceCouponId, findPlanByPriceId} from '../../src/config';
import {
  ADMIN_PATHS,
  adminPath,
  API_PATHS,
  type AdminAuditEntry,
  type AdminPurchase,
  type AdminPurchaseDetail,
  type Page,
  type PricesResponse,
} from '../../src/config/api';
import {
  completedEvent,
  PRICE_ADVANCED,
  productionFirebase,
  SITE_ORIGIN,
  type Stack,
  startStack,
  uniqueEmail,
  useSellerStack,
} from './stack';
import type {PaidWith} from '../../scripts/local/stripeApi';

/** A country in a tier of the config, with its percent, and one in none. */
const [DISCOUNTED, PERCENT] = (() => {
  const tier = appConfig.fairPrices.tiers.find((candidate) => candidate.countries.length > 0)!;
  return [tier.countries[0]!, tier.percentOff] as const;
})();
const ELSEWHERE = appConfig.fairPrices.tiers.flatMap((tier) => tier.countries).find((code) => code !== DISCOUNTED)!;
const FULL_PRICE = 'US';
const PLAN = findPlanByPriceId(PRICE_ADVANCED)!;

let addresses = 0;
/** A checkout from a visitor Cloudflare places in `country` (or nowhere), guest, each from its own address. */
async function checkoutFrom(
  stack: Stack,
  country: string | null,
  extra: {headers?: Record<string, string>; body?: Record<string, unknown>} = {},
) {
  const response = await stack.call(API_PATHS.createCheckoutSession, {
    ...(country && {cf: {country}}),
    headers: {'cf-connecting-ip': `127.77.${Math.floor(addresses / 250) % 250}.${addresses++ % 250}`, ...extra.headers},
    body: {priceId: PRICE_ADVANCED, successUrl: `${SITE_ORIGIN}/success`, cancelUrl: `${SITE_ORIGIN}/`, ...extra.body},
  });
  expect(response.status).toBe(200);
  const {url} = (await response.json()) as {url: string};
  const id = /cs_test_\w+/.exec(url)![0];
  return {id, sent: stack.stripe.created.at(-1)!, session: stack.stripe.sessions.get(id)!};
}

async function pricesFor(
  stack: Stack,
  country: string | null,
  headers: Record<string, string> = {},
): Promise<PricesResponse> {
  const response = await stack.call(API_PATHS.prices, {...(country && {cf: {country}}), headers});
  expect(response.status).toBe(200);
  return (await response.json()) as PricesResponse;
}

describe('the checkout and GET /prices', () => {
  const seller = useSellerStack();
  const stack = () => seller.stack;

  test('a visitor from a country in a tier gets the coupon and the adjusted amount, and no promotion codes', async () => {
    const {sent, session} = await checkoutFrom(stack(), DISCOUNTED);
    expect(sent.discounts).toEqual([{coupon: fairPriceCouponId(PERCENT)}]);
    expect(sent.allow_promotion_codes).toBeUndefined();
    expect(session.amount_total).toBe(fairPrice(PLAN, DISCOUNTED).amount);
    expect(session.amount_total).toBe(PLAN.price * (100 - PERCENT));
    expect(session.metadata).toMatchObject({fairPriceCountry: DISCOUNTED, fairPricePercent: String(PERCENT)});
    // Made on first use, as the config's percent, for the one payment.
    expect(stack().stripe.coupons.get(fairPriceCouponId(PERCENT))).toMatchObject({
      percent_off: PERCENT,
      duration: 'once',
    });
  });

  test('the coupon is made once and found again: a second checkout, or one that lost the race to make it, uses the same', async () => {
    await checkoutFrom(stack(), DISCOUNTED);
    const coupon = stack().stripe.coupons.get(fairPriceCouponId(PERCENT))!;
    await checkoutFrom(stack(), DISCOUNTED);
    expect(stack().stripe.coupons.get(fairPriceCouponId(PERCENT))).toBe(coupon);
    // Another checkout made it between this one's look-up and its create: Stripe's
    // resource_already_exists means it is there to use.
    stack().stripe.failNext('GET /v1/coupons/', 404, {
      type: 'invalid_request_error',
      code: 'resource_missing',
      message: `No such coupon: '${coupon.id}'`,
    });
    const {sent, session} = await checkoutFrom(stack(), DISCOUNTED);
    expect(sent.discounts).toEqual([{coupon: coupon.id}]);
    expect(session.amount_total).toBe(fairPrice(PLAN, DISCOUNTED).amount);
  });

  test.each([
    ['in no tier', FULL_PRICE],
    ['unknown to Cloudflare (XX)', 'XX'],
    ['on Tor (T1)', 'T1'],
  ])('a visitor %s pays the list price and may use a promotion code', async (_, country) => {
    const {sent, session} = await checkoutFrom(stack(), country);
    expect(sent.allow_promotion_codes).toBe('true');
    expect(sent.discounts).toBeUndefined();
    expect(session.amount_total).toBe(PLAN.price * 100);
    expect(session.metadata).not.toHaveProperty('fairPriceCountry');
  });

  test('a country the browser names, in the body or in headers, is ignored: only Cloudflare’s counts', async () => {
    const {sent, session} = await checkoutFrom(stack(), FULL_PRICE, {
      headers: {'cf-ipcountry': DISCOUNTED, 'x-country': DISCOUNTED, cookie: `country=${DISCOUNTED}`},
      body: {country: DISCOUNTED, percentOff: 99, amount: 100},
    });
    expect(sent.discounts).toBeUndefined();
    expect(session.amount_total).toBe(PLAN.price * 100);
    expect(await pricesFor(stack(), FULL_PRICE, {'cf-ipcountry': DISCOUNTED, 'x-country': DISCOUNTED})).toMatchObject({
      country: FULL_PRICE,
      percentOff: 0,
    });
  });

  test('with no country from Cloudflare (XX: unknown, T1: Tor), a country header is not taken as a fallback: the list price', async () => {
    const forged = {'cf-ipcountry': DISCOUNTED, 'x-country': DISCOUNTED};
    // (A request with no `cf` at all cannot be made here: Miniflare gives every request its own.)
    for (const country of ['XX', 'T1']) {
      const {sent, session} = await checkoutFrom(stack(), country, {headers: forged});
      expect(sent.discounts).toBeUndefined();
      expect(session.amount_total).toBe(PLAN.price * 100);
      expect(await pricesFor(stack(), country, forged)).toMatchObject({country: null, percentOff: 0});
    }
  });

  test('GET /prices answers the country, its name, the percent and every plan’s amount, the same the checkout charges', async () => {
    const prices = await pricesFor(stack(), DISCOUNTED);
    expect(prices).toEqual({
      country: DISCOUNTED,
      countryName: countryName(DISCOUNTED),
      percentOff: PERCENT,
      currency: 'usd',
      plans: appConfig.plans.map((plan) => ({
        id: plan.id,
        amount: fairPrice(plan, DISCOUNTED).amount,
        listAmount: plan.price * 100,
      })),
    });
    const {session} = await checkoutFrom(stack(), DISCOUNTED);
    expect(prices.plans.find((plan) => plan.id === PLAN.id)!.amount).toBe(session.amount_total);

    expect(await pricesFor(stack(), FULL_PRICE)).toEqual({
      country: FULL_PRICE,
      countryName: countryName(FULL_PRICE),
      percentOff: 0,
      currency: 'usd',
      plans: appConfig.plans.map((plan) => ({id: plan.id, amount: plan.price * 100, listAmount: plan.price * 100})),
    });
    expect(await pricesFor(stack(), 'XX')).toMatchObject({country: null, countryName: null, percentOff: 0});
  });

  describe("the card's country after payment", () => {
    const get = async <T>(path: string) => {
      const response = await stack().call(path, {token: seller.admin.idToken});
      expect(response.status).toBe(200);
      return (await response.json()) as T;
    };
    const row = async (sessionId: string) =>
      (
        await stack().worker.db.all<{
          card_country: string | null;
          country_review: string | null;
          fair_price_country: string | null;
          fair_price_percent: number | null;
        }>(
          'SELECT card_country, country_review, fair_price_country, fair_price_percent FROM purchases WHERE session_id = ?1',
          sessionId,
        )
      )[0]!;
    const flaggedList = () => get<Page<AdminPurchase>>(`${ADMIN_PATHS.purchases}?flagged=card_country`);
    // The worker's log masks session ids: the lines are counted.
    const mismatchLogs = () =>
      stack().worker.logs.filter((line) => line.includes('fair_price.card_country_mismatch')).length;

    async function paidFrom(cardCountry?: string, paidWith?: PaidWith) {
      const {id} = await checkoutFrom(stack(), DISCOUNTED);
      stack().stripe.complete(id, {
        email: uniqueEmail('fair'),
        paid: true,
        ...(cardCountry && {cardCountry}),
        ...(paidWith && {paidWith}),
      });
      expect((await stack().deliver(completedEvent(stack(), id))).status).toBe(200);
      return id;
    }

    test('a card from the country of the discount is recorded, not flagged', async () => {
      const id = await paidFrom();
      expect(await row(id)).toEqual({
        card_country: DISCOUNTED,
        country_review: null,
        fair_price_country: DISCOUNTED,
        fair_price_percent: PERCENT,
      });
      expect((await flaggedList()).items.map((purchase) => purchase.sessionId)).not.toContain(id);
    });

    test("Link's funding source counts as the card: from the discount's country it is not flagged, from elsewhere it is", async () => {
      const home = await paidFrom(DISCOUNTED, 'link');
      expect(await row(home)).toMatchObject({card_country: DISCOUNTED, country_review: null});
      const abroad = await paidFrom(ELSEWHERE, 'link');
      expect(await row(abroad)).toMatchObject({card_country: ELSEWHERE, country_review: 'flagged'});
    });

    test('a payment by a method that tells no country (Cash App) is flagged too, not accepted unseen', async () => {
      const id = await paidFrom(undefined, 'cashapp');
      expect(await row(id)).toMatchObject({
        card_country: '',
        country_review: 'flagged',
        fair_price_country: DISCOUNTED,
      });
      const listed = (await flaggedList()).items.find((purchase) => purchase.sessionId === id);
      expect(listed?.fairPrice).toEqual({country: DISCOUNTED, percentOff: PERCENT, cardCountry: '', review: 'flagged'});
      const accepted = await stack().call(adminPath(ADMIN_PATHS.acceptCardCountry, {sessionId: id}), {
        token: seller.admin.idToken,
        method: 'POST',
        body: {},
      });
      expect(accepted.status).toBe(200);
      const audit = (await get<Page<AdminAuditEntry>>(ADMIN_PATHS.auditLog)).items.find(
        (entry) => entry.sessionId === id,
      );
      expect(audit?.detail).toContain('payment with no card country accepted');
    });

    test('a Stripe that cannot be read keeps the discount recorded, and the cron reads the card later; one that never answers flags it', async () => {
      const {id} = await checkoutFrom(stack(), DISCOUNTED);
      stack().stripe.complete(id, {email: uniqueEmail('fair'), paid: true, cardCountry: ELSEWHERE});
      // Twice: the worker's Stripe client retries a 500 once itself.
      const unreadable = () =>
        [1, 2].forEach(() =>
          stack().stripe.failNext('GET /v1/payment_intents/', 500, {
            type: 'api_error',
            message: 'An unknown error occurred',
          }),
        );
      unreadable();
      expect((await stack().deliver(completedEvent(stack(), id))).status).toBe(200);
      // The purchase is recorded with its discount (an upgrade prices from it); the card is not yet.
      expect(await row(id)).toEqual({
        card_country: null,
        country_review: null,
        fair_price_country: DISCOUNTED,
        fair_price_percent: PERCENT,
      });
      const due = () =>
        stack().worker.db.run(
          "UPDATE jobs SET run_after = 0 WHERE kind = 'card-country' AND session_id = ?1 AND status = 'pending'",
          id,
        );
      await due();
      await stack().worker.scheduled();
      expect(await row(id)).toMatchObject({card_country: ELSEWHERE, country_review: 'flagged'});

      // Never readable: after the outbox's last attempt the purchase is flagged for the seller.
      const {id: never} = await checkoutFrom(stack(), DISCOUNTED);
      stack().stripe.complete(never, {email: uniqueEmail('fair'), paid: true, cardCountry: DISCOUNTED});
      unreadable();
      expect((await stack().deliver(completedEvent(stack(), never))).status).toBe(200);
      // Every attempt the outbox allows failed too (attempts far past its last): the next is its last.
      await stack().worker.db.run(
        "UPDATE jobs SET attempts = 999, run_after = 0 WHERE kind = 'card-country' AND session_id = ?1",
        never,
      );
      unreadable();
      await stack().worker.scheduled();
      // Flagged with no country: the console tells "never read" from a payment that tells none ('').
      expect(await row(never)).toMatchObject({
        card_country: null,
        country_review: 'flagged',
        fair_price_country: DISCOUNTED,
      });
      const listed = (await flaggedList()).items.find((purchase) => purchase.sessionId === never);
      expect(listed?.fairPrice).toEqual({
        country: DISCOUNTED,
        percentOff: PERCENT,
        cardCountry: null,
        review: 'flagged',
      });
      const exported = await (
        await stack().call(`${ADMIN_PATHS.purchasesCsv}?flagged=card_country`, {token: seller.admin.idToken})
      ).text();
      expect(exported.split('\n').find((line) => line.includes(never))).toMatch(
        new RegExp(`,${DISCOUNTED},unread,flagged,\\s*$`),
      );

      // The seller retries the job from the console once Stripe answers: the card matches, the flag clears.
      const [job] = await stack().worker.db.all<{id: number; status: string}>(
        "SELECT id, status FROM jobs WHERE kind = 'card-country' AND session_id = ?1",
        never,
      );
      expect(job?.status).toBe('failed');
      const retried = await stack().call(adminPath(ADMIN_PATHS.retryJob, {jobId: job!.id}), {
        token: seller.admin.idToken,
        method: 'POST',
        body: {},
      });
      expect(retried.status).toBe(200);
      expect(await row(never)).toMatchObject({card_country: DISCOUNTED, country_review: null});
      expect((await flaggedList()).items.map((purchase) => purchase.sessionId)).not.toContain(never);
    });

    test('a card from elsewhere flags the purchase once, and the console lists it until the seller accepts it, audited', async () => {
      const logged = mismatchLogs();
      const id = await paidFrom(ELSEWHERE);
      expect(await row(id)).toMatchObject({card_country: ELSEWHERE, country_review: 'flagged'});
      expect(mismatchLogs()).toBe(logged + 1);
      // Stripe delivers again: still one flag, no second log line.
      expect((await stack().deliver(completedEvent(stack(), id))).status).toBe(200);
      expect(mismatchLogs()).toBe(logged + 1);

      const listed = (await flaggedList()).items.find((purchase) => purchase.sessionId === id);
      expect(listed?.fairPrice).toEqual({
        country: DISCOUNTED,
        percentOff: PERCENT,
        cardCountry: ELSEWHERE,
        review: 'flagged',
      });
      const detail = await get<AdminPurchaseDetail>(adminPath(ADMIN_PATHS.purchase, {sessionId: id}));
      expect(detail.fairPrice?.review).toBe('flagged');

      const accept = () =>
        stack().call(adminPath(ADMIN_PATHS.acceptCardCountry, {sessionId: id}), {
          token: seller.admin.idToken,
          method: 'POST',
          body: {},
        });
      const accepted = await accept();
      expect(accepted.status).toBe(200);
      expect(await accepted.json()).toMatchObject({status: 'accepted'});
      expect(await row(id)).toMatchObject({country_review: 'accepted'});
      expect((await flaggedList()).items.map((purchase) => purchase.sessionId)).not.toContain(id);
      const audit = (await get<Page<AdminAuditEntry>>(ADMIN_PATHS.auditLog)).items.find(
        (entry) => entry.sessionId === id,
      );
      expect(audit).toMatchObject({action: 'accept_card_country', outcome: 'done', admin: seller.admin.email});

      // A redelivery after the seller's decision does not flag it again; a second accept is refused.
      expect((await stack().deliver(completedEvent(stack(), id))).status).toBe(200);
      expect(await row(id)).toMatchObject({country_review: 'accepted'});
      const again = await accept();
      expect(again.status).toBe(409);
      expect(await again.json()).toMatchObject({error: 'This purchase was already accepted.'});
    });

    test('a purchase at the list price has nothing to accept (409), an unknown one is 404, and a buyer may not accept (403)', async () => {
      const {id} = await checkoutFrom(stack(), FULL_PRICE);
      stack().stripe.complete(id, {email: uniqueEmail('full'), paid: true, cardCountry: DISCOUNTED});
      expect((await stack().deliver(completedEvent(stack(), id))).status).toBe(200);
      expect(await row(id)).toMatchObject({card_country: null, country_review: null});
      const accept = (sessionId: string, token: string) =>
        stack().call(adminPath(ADMIN_PATHS.acceptCardCountry, {sessionId}), {token, method: 'POST', body: {}});
      expect((await accept(id, seller.admin.idToken)).status).toBe(409);
      expect((await accept('cs_test_nobody', seller.admin.idToken)).status).toBe(404);
      const flagged = await paidFrom(ELSEWHERE);
      const buyer = await stack().signUp({verified: true});
      expect((await accept(flagged, buyer.idToken)).status).toBe(403);
      expect(await row(flagged)).toMatchObject({country_review: 'flagged'});
    });

    test('a filter the list does not know is refused with the values it takes', async () => {
      const response = await stack().call(`${ADMIN_PATHS.purchases}?flagged=everything`, {token: seller.admin.idToken});
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        error: expect.stringContaining('flagged must be one of card_country'),
      });
    });
  });

  test('the Stripe stand-in refuses discounts with the promotion-code field, in Stripe’s words', async () => {
    const response = await fetch(`${stack().stripe.url}/v1/checkout/sessions`, {
      method: 'POST',
      headers: {'content-type': 'application/x-www-form-urlencoded', authorization: 'Bearer sk_test_x'},
      body: new URLSearchParams({
        'line_items[0][price]': PRICE_ADVANCED,
        'discounts[0][coupon]': fairPriceCouponId(PERCENT),
        allow_promotion_codes: 'false',
      }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        type: 'invalid_request_error',
        param: 'allow_promotion_codes',
        message: 'You may only specify one of these parameters: allow_promotion_codes, discounts.',
      },
    });
  });
});

describe('DEV_VISITOR_COUNTRY, the development-only country', () => {
  test('in emulator mode (on loopback), it stands in for the country Cloudflare gives no local worker', async () => {
    const stack = await startStack({DEV_VISITOR_COUNTRY: DISCOUNTED.toLowerCase()});
    try {
      expect(await pricesFor(stack, FULL_PRICE)).toMatchObject({country: DISCOUNTED, percentOff: PERCENT});
      const {session} = await checkoutFrom(stack, null);
      expect(session.amount_total).toBe(fairPrice(PLAN, DISCOUNTED).amount);
    } finally {
      await stack.stop();
    }
  });

  test('outside emulator mode it is ignored: the country is Cloudflare’s', async () => {
    const stack = await startStack({...(await productionFirebase()), DEV_VISITOR_COUNTRY: DISCOUNTED});
    try {
      expect(await pricesFor(stack, FULL_PRICE)).toMatchObject({country: FULL_PRICE, percentOff: 0});
      expect(await pricesFor(stack, ELSEWHERE)).toMatchObject({country: ELSEWHERE});
      const {session} = await checkoutFrom(stack, FULL_PRICE);
      expect(session.amount_total).toBe(PLAN.price * 100);
    } finally {
      await stack.stop();
    }
  });
});
