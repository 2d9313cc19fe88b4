/**
 * Upgrading a paid purchase to a higher plan for the difference, in workerd with a real D1 against
 * the Stripe stand-in: the worker prices it from its own records, refuses what is not an upgrade,
 * applies a paid upgrade once, and a refund takes back only what was paid for.
 */
import type Stripe from 'stripe';
import {
  afterPurchase,
  appConfig,
  fairPrice,
  planAdds,
  maxSeatsOf,
  planAmount,
  seatPriceOf,
  PLAN_CURRENCY,
  TEAM_WORDS,
  upgradeAmount,
  upgradeCodeAmount,
  upgradeCreditName,
  upgradeLabel,
  UPGRADE_CODE_WORDS,
  launchCodeTerms,
  UPGRADE_REFUSALS,
  upgradesFrom,
} from '../../src/config';
import {formatDay} from '../../src/config/dates';
import {formatMoney} from '../../src/config/money';
import {
  ADMIN_PATHS,
  adminPath,
  API_PATHS,
  type AdminAuditEntry,
  type AdminPurchase,
  type AdminPurchaseDetail,
  type Page,
  type BuyerPlan,
  type BuyerReceipts,
  type BuyerReleases,
  type SalesSummary,
} from '../../src/config/api';
import {
  completedEvent,
  payUpgradeOf,
  refundAtStripe,
  type SignedInUser,
  SITE_ORIGIN,
  stripeEvent,
  uniqueEmail,
  upgradeSessionOf,
  useSellerStack,
} from './stack';
import {kitGrant} from './grantRows';
import {freshCode, launchCodeActs} from './launchCodeActs';

const seller = useSellerStack();
const stack = () => seller.stack;

/** The cheapest plan, and the one above it: names and prices come from the config. */
const lower = [...appConfig.plans].sort((a, b) => a.price - b.price)[0]!;
const higher = upgradesFrom(lower)[0]!;
const difference = upgradeAmount(lower, higher);

const upgradeBody = (fields: Record<string, unknown> = {}) => ({
  planId: higher.id,
  successUrl: `${SITE_ORIGIN}/dashboard`,
  cancelUrl: `${SITE_ORIGIN}/dashboard`,
  ...fields,
});
const askUpgrade = (user: SignedInUser | null, body: Record<string, unknown> = upgradeBody()) =>
  stack().call(API_PATHS.createUpgradeSession, {method: 'POST', token: user?.idToken, body});

/** A signed-in buyer of the lower plan, the purchase recorded. */
async function lowerBuyer(): Promise<{user: SignedInUser; sessionId: string}> {
  const user = await stack().signUp();
  const sessionId = await stack().paidCheckout({email: user.email, user, priceId: lower.priceId.test});
  expect((await stack().deliver(completedEvent(stack(), sessionId))).status).toBe(200);
  return {user, sessionId};
}

/** The upgrade's Checkout Session the worker made for the buyer: its id. */
const upgradeSession = (user: SignedInUser, body: Record<string, unknown> = upgradeBody()) =>
  upgradeSessionOf(stack(), user, body);

/** The buyer pays the upgrade's session and Stripe tells the worker. */
const payUpgrade = (user: SignedInUser, sessionId: string, eventId?: string) =>
  payUpgradeOf(stack(), user, sessionId, eventId);

const planOf = async (user: SignedInUser) =>
  (await (await stack().call(API_PATHS.upgrades, {token: user.idToken})).json()) as BuyerPlan;
const upgradeRows = (purchase: string) =>
  stack().worker.db.all<{
    session_id: string;
    status: string;
    refused_reason: string | null;
    amount_paid: number | null;
  }>(
    'SELECT session_id, status, refused_reason, amount_paid FROM upgrades WHERE purchase_session_id = ? ORDER BY created_at',
    purchase,
  );
const intentOf = (sessionId: string) => stack().stripe.sessions.get(sessionId)!.payment_intent as string;

/** A refund of the payment at the stand-in, then Stripe's `charge.refunded` to the worker. */
const refund = (sessionId: string) => refundAtStripe(stack(), sessionId);
/** Cents as the e-mails write them: $49.00. */
const dollars = (cents: number) =>
  new Intl.NumberFormat('en-US', {style: 'currency', currency: 'USD'}).format(cents / 100);
/** The buyer pays the upgrade's session (the only one of `purchase`); the worker refuses it as stale and refunds it at once. */
async function paidAndRefusedAsStale(user: SignedInUser, purchase: string, upgrade: string) {
  const refundsBefore = stack().stripe.refundsCreated.length;
  await payUpgrade(user, upgrade);
  expect(await upgradeRows(purchase)).toEqual([
    {session_id: upgrade, status: 'refused', refused_reason: 'stale', amount_paid: difference},
  ]);
  expect(stack().stripe.refundsCreated.slice(refundsBefore)).toEqual([
    expect.objectContaining({payment_intent: intentOf(upgrade)}),
  ]);
}

const codes = launchCodeActs(seller);
/** An upgrade code made in the console (past buyers only), with `fields` (percentOff or amountOff, limits). */
const upgradeCode = (fields: Record<string, unknown>) =>
  codes.createOk({code: freshCode('UP'), forUpgrades: true, ...fields});
/** GET /upgrades with the code the buyer typed. */
const planWith = async (user: SignedInUser, code: string) =>
  (await (
    await stack().call(`${API_PATHS.upgrades}?code=${encodeURIComponent(code)}`, {token: user.idToken})
  ).json()) as BuyerPlan;
const withCode = (code: string) => upgradeBody({code});
/**
 * The code does not apply, for `refused`: the dashboard reads why, every offer at its price without
 * it; and POST /createUpgradeSession refuses it with the same words (409), with nothing made at Stripe.
 */
async function refusedBoth(user: SignedInUser, code: string, refused: string) {
  const asked = await planWith(user, code);
  expect(asked.code).toMatchObject({refused});
  expect(asked.upgrades).toEqual((await planOf(user)).upgrades);
  const before = stack().stripe.created.length;
  const response = await askUpgrade(user, withCode(code));
  expect({status: response.status, body: await response.json()}).toEqual({
    status: 409,
    body: {error: refused, code: 'CONFLICT'},
  });
  expect(stack().stripe.created.length).toBe(before);
}

test('a buyer of the lower plan is offered the higher one for the difference, and the session charges what the worker computed', async () => {
  const {user, sessionId} = await lowerBuyer();
  expect(await planOf(user)).toEqual({
    plan: {id: lower.id, name: lower.name},
    upgrades: [{planId: higher.id, name: higher.name, amount: difference, currency: PLAN_CURRENCY, withoutCode: null}],
    seats: null,
    code: null,
  });

  // The browser's amount, its idea of the purchase and of its plan are ignored.
  const before = stack().stripe.created.length;
  const id = await upgradeSession(
    user,
    upgradeBody({amount: 1, fromPlan: higher.id, upgradeOf: 'cs_test_someoneelse'}),
  );
  const sent = stack().stripe.created[before]!;
  expect(sent).toMatchObject({
    line_items: [{price: higher.priceId.test, quantity: '1'}],
    client_reference_id: user.uid,
    metadata: {
      kind: 'upgrade',
      upgradeOf: sessionId,
      fromPlan: lower.id,
      toPlan: higher.id,
      amount: String(difference),
    },
  });
  // One discount, the credit for the plan bought; promotion codes off, as Checkout takes one or the other.
  expect(sent.allow_promotion_codes).toBeUndefined();
  const coupon = stack().stripe.coupons.get((sent.discounts as {coupon: string}[])[0]!.coupon)!;
  expect(coupon).toMatchObject({
    amount_off: planAmount(lower),
    currency: PLAN_CURRENCY,
    max_redemptions: 1,
    name: upgradeCreditName(lower),
  });
  expect(stack().stripe.sessions.get(id)!.amount_total).toBe(difference);
  // The upgrade's receipt and the purchase's are on one Stripe customer.
  expect(sent.customer).toBe(stack().stripe.sessions.get(sessionId)!.customer);
});

test("the upgrade's checkout has the signed-in e-mail, as the first checkout does: the purchase's Stripe customer brings it, and Checkout shows it locked", async () => {
  const user = await stack().signUp();
  const before = stack().stripe.created.length;
  const sessionId = await stack().paidCheckout({email: user.email, user, priceId: lower.priceId.test});
  expect(stack().stripe.created[before]).toMatchObject({customer_creation: 'always', customer_email: user.email});
  expect((await stack().deliver(completedEvent(stack(), sessionId))).status).toBe(200);

  const id = await upgradeSession(user);
  const sent = stack().stripe.created.at(-1)!;
  const customer = stack().stripe.sessions.get(sessionId)!.customer as string;
  expect(sent).toMatchObject({customer, customer_update: {name: 'auto', address: 'auto'}});
  // Stripe takes a customer or an e-mail, never both (the stand-in refuses both as Stripe does):
  // the customer's e-mail is the one Checkout shows, and it is the signed-in buyer's.
  expect(sent).not.toHaveProperty('customer_email');
  expect(stack().stripe.customers.get(customer)?.email).toBe(user.email);

  // A purchase recorded without its customer: the session is given the signed-in e-mail itself.
  await stack().worker.db.run('UPDATE purchases SET customer_id = NULL WHERE session_id = ?1', sessionId);
  stack().stripe.sessions.set(id, {...stack().stripe.sessions.get(id)!, status: 'expired', url: null});
  await upgradeSession(user);
  expect(stack().stripe.created.at(-1)).toMatchObject({customer_creation: 'always', customer_email: user.email});
  expect(stack().stripe.created.at(-1)).not.toHaveProperty('customer');
});

describe('what is not an upgrade is refused with a 4xx that says why', () => {
  test('signed out: 401', async () => {
    expect((await askUpgrade(null)).status).toBe(401);
  });

  test('an unknown plan: 400', async () => {
    const {user} = await lowerBuyer();
    const response = await askUpgrade(user, upgradeBody({planId: 'platinum'}));
    expect({status: response.status, body: await response.json()}).toEqual({
      status: 400,
      body: {error: 'Unknown plan: "platinum" is not one of the plans'},
    });
  });

  test('no paid purchase: 402 NOT_PAID, and Stripe is not asked', async () => {
    const user = await stack().signUp({verified: true});
    const before = stack().stripe.created.length;
    const response = await askUpgrade(user);
    expect(response.status).toBe(402);
    expect(await response.json()).toMatchObject({code: 'NOT_PAID', error: expect.stringContaining('no paid purchase')});
    expect(stack().stripe.created.length).toBe(before);
  });

  test('a refunded purchase: 403, it cannot be upgraded', async () => {
    const {user, sessionId} = await lowerBuyer();
    await refund(sessionId);
    const response = await askUpgrade(user);
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({
      code: 'NOT_PAID',
      error: expect.stringContaining('refunded or is disputed'),
    });
  });

  test('already on that plan: 409', async () => {
    const user = await stack().signUp();
    const sessionId = await stack().paidCheckout({email: user.email, user, priceId: higher.priceId.test});
    await stack().deliver(completedEvent(stack(), sessionId));
    const response = await askUpgrade(user);
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({
      code: 'CONFLICT',
      error: `Your purchase is ${higher.name}: ${higher.name} is not an upgrade of it.`,
    });
  });

  test('an upgrade already paid: 409, no second session', async () => {
    const {user} = await lowerBuyer();
    await payUpgrade(user, await upgradeSession(user));
    const before = stack().stripe.created.length;
    const response = await askUpgrade(user);
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({
      code: 'CONFLICT',
      error: `You have already paid for the upgrade to ${higher.name}.`,
    });
    expect(stack().stripe.created.length).toBe(before);
  });

  test('seats added to a plan sold for one developer: 409, in words, and Stripe is not asked', async () => {
    const {user} = await lowerBuyer();
    const before = stack().stripe.created.length;
    const response = await askUpgrade(user, upgradeBody({planId: lower.id, addSeats: 2}));
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({code: 'CONFLICT', error: TEAM_WORDS.soldAlone(lower.name)});
    expect(stack().stripe.created.length).toBe(before);
  });

  test('a success URL off the site: 400', async () => {
    const {user} = await lowerBuyer();
    expect((await askUpgrade(user, upgradeBody({successUrl: 'https://evil.example/dashboard'}))).status).toBe(400);
  });
});

test('a purchase partly refunded is credited only what it kept: the offer and the session charge the rest, and it is applied', async () => {
  const {user, sessionId} = await lowerBuyer();
  const kept = planAmount(lower) - 2000;
  await refundAtStripe(stack(), sessionId, 2000);
  const owed = planAmount(higher) - kept;
  expect((await planOf(user)).upgrades).toEqual([
    {planId: higher.id, name: higher.name, amount: owed, currency: PLAN_CURRENCY, withoutCode: null},
  ]);
  const id = await upgradeSession(user);
  expect(stack().stripe.sessions.get(id)!.amount_total).toBe(owed);
  await payUpgrade(user, id);
  expect(await upgradeRows(sessionId)).toEqual([
    {session_id: id, status: 'paid', refused_reason: null, amount_paid: owed},
  ]);
});

test('a partial refund landing while the upgrade’s session is open: its credit is more than the purchase kept, so paid, it is refused and refunded; asked again, it is priced anew', async () => {
  const {user, sessionId} = await lowerBuyer();
  const upgrade = await upgradeSession(user);
  expect(await stack().worker.db.all('SELECT credit FROM upgrades WHERE session_id = ?', upgrade)).toEqual([
    {credit: planAmount(lower)},
  ]);
  await refundAtStripe(stack(), sessionId, 2000);
  await paidAndRefusedAsStale(user, sessionId, upgrade);
  expect((await planOf(user)).upgrades[0]!.amount).toBe(difference + 2000);
});

test("a fair-price buyer upgrades for the difference of fair prices, and the receipt's credit line names the fair price too", async () => {
  const tier = appConfig.fairPrices.tiers.find((candidate) => candidate.countries.length > 0)!;
  const [country, percent] = [tier.countries[0]!, tier.percentOff];
  const user = await stack().signUp();
  const sessionId = await stack().paidCheckout({email: user.email, user, priceId: lower.priceId.test, country});
  expect((await stack().deliver(completedEvent(stack(), sessionId))).status).toBe(200);
  const owed = fairPrice(higher, country).amount - fairPrice(lower, country).amount;
  expect((await planOf(user)).upgrades).toEqual([
    {planId: higher.id, name: higher.name, amount: owed, currency: PLAN_CURRENCY, withoutCode: null},
  ]);
  const id = await upgradeSession(user);
  expect(stack().stripe.sessions.get(id)!.amount_total).toBe(owed);
  const sent = stack().stripe.created.at(-1)!;
  const coupon = stack().stripe.coupons.get((sent.discounts as {coupon: string}[])[0]!.coupon)!;
  expect(coupon).toMatchObject({amount_off: planAmount(higher) - owed, name: upgradeCreditName(lower, percent)});
  expect(coupon.name).toContain(`${percent}%`);
});

describe("fair prices: an upgrade follows the rule of the purchase's card's country", () => {
  const tier = appConfig.fairPrices.tiers.find((candidate) => candidate.countries.length > 0)!;
  const [DISCOUNTED, PERCENT] = [tier.countries[0]!, tier.percentOff];
  const ELSEWHERE = appConfig.fairPrices.tiers
    .flatMap((candidate) => candidate.countries)
    .find((code) => code !== DISCOUNTED)!;
  const fairDifference = fairPrice(higher, DISCOUNTED).amount - fairPrice(lower, DISCOUNTED).amount;
  const admin = (path: string, method: 'GET' | 'POST' = 'GET') =>
    stack().call(path, {token: seller.admin.idToken, method, ...(method === 'POST' && {body: {}})});
  const acceptCard = (sessionId: string) => admin(adminPath(ADMIN_PATHS.acceptCardCountry, {sessionId}), 'POST');
  const flaggedList = async () =>
    ((await (await admin(`${ADMIN_PATHS.purchases}?flagged=card_country`)).json()) as Page<AdminPurchase>).items;
  const mismatchLogs = () =>
    stack().worker.logs.filter((line) => line.includes('fair_price.card_country_mismatch')).length;

  let buyers = 1;
  /** A signed-in buyer of the lower plan at the fair price of DISCOUNTED, paid with a card from `cardCountry`. */
  async function fairBuyer(cardCountry: string): Promise<{user: SignedInUser; sessionId: string}> {
    const user = await stack().signUp();
    const response = await stack().call(API_PATHS.createCheckoutSession, {
      token: user.idToken,
      cf: {country: DISCOUNTED},
      // Checkouts are limited by address: each buyer comes from its own.
      headers: {'cf-connecting-ip': `127.201.0.${buyers++}`},
      body: {priceId: lower.priceId.test, successUrl: `${SITE_ORIGIN}/success`, cancelUrl: `${SITE_ORIGIN}/`},
    });
    expect(response.status).toBe(200);
    const sessionId = /cs_test_\w+/.exec(((await response.json()) as {url: string}).url)![0];
    stack().stripe.complete(sessionId, {email: user.email, paid: true, cardCountry});
    expect((await stack().deliver(completedEvent(stack(), sessionId))).status).toBe(200);
    return {user, sessionId};
  }

  test('an upgrade code never combines with the fair price the purchase holds: refused, and the offer keeps its fair price', async () => {
    const shown = await upgradeCode({percentOff: 10});
    const {user} = await fairBuyer(DISCOUNTED);
    await refusedBoth(user, shown.code, UPGRADE_CODE_WORDS.fairPrice);
    expect((await planOf(user)).upgrades).toEqual([
      {planId: higher.id, name: higher.name, amount: fairDifference, currency: PLAN_CURRENCY, withoutCode: null},
    ]);
  });

  test("an upgrade quoted for a purchase flagged for its card's country is priced without the discount, until the seller accepts the purchase", async () => {
    const {user, sessionId} = await fairBuyer(ELSEWHERE);
    // Flagged: the higher plan at its list price, less what the purchase paid (its fair price).
    const listed = planAmount(higher) - fairPrice(lower, DISCOUNTED).amount;
    expect(listed).toBeGreaterThan(fairDifference);
    expect((await planOf(user)).upgrades).toEqual([
      {planId: higher.id, name: higher.name, amount: listed, currency: PLAN_CURRENCY, withoutCode: null},
    ]);
    const before = stack().stripe.created.length;
    const id = await upgradeSession(user);
    expect(stack().stripe.sessions.get(id)!.amount_total).toBe(listed);
    const sent = stack().stripe.created[before]!;
    expect(sent.metadata).not.toHaveProperty('fairPriceCountry');
    const coupon = stack().stripe.coupons.get((sent.discounts as {coupon: string}[])[0]!.coupon)!;
    // The credit line names no fair price: none was given.
    expect(coupon).toMatchObject({amount_off: fairPrice(lower, DISCOUNTED).amount, name: upgradeCreditName(lower)});

    // The seller accepts the purchase as it is: its discount holds for the upgrade again.
    expect((await acceptCard(sessionId)).status).toBe(200);
    expect((await planOf(user)).upgrades).toEqual([
      {planId: higher.id, name: higher.name, amount: fairDifference, currency: PLAN_CURRENCY, withoutCode: null},
    ]);
    const accepted = await upgradeSession(user);
    expect(accepted).not.toBe(id);
    expect(stack().stripe.sessions.get(accepted)!.amount_total).toBe(fairDifference);
    expect(stack().stripe.created.at(-1)!.metadata).toMatchObject({
      fairPriceCountry: DISCOUNTED,
      fairPricePercent: String(PERCENT),
    });
  });

  test('an upgrade paid with a card from another country than its discount is flagged as the purchase would be, and the console shows it until the seller accepts it', async () => {
    const {user, sessionId} = await fairBuyer(DISCOUNTED);
    const id = await upgradeSession(user);
    expect(stack().stripe.sessions.get(id)!.amount_total).toBe(fairDifference);
    expect(stack().stripe.created.at(-1)!.metadata).toMatchObject({
      fairPriceCountry: DISCOUNTED,
      fairPricePercent: String(PERCENT),
    });
    const logged = mismatchLogs();
    stack().stripe.complete(id, {email: user.email, paid: true, cardCountry: ELSEWHERE});
    expect((await stack().deliver(completedEvent(stack(), id))).status).toBe(200);
    const review = () =>
      stack().worker.db.all(
        'SELECT fair_price_country, fair_price_percent, card_country, country_review FROM upgrades WHERE session_id = ?1',
        id,
      );
    expect(await review()).toEqual([
      {fair_price_country: DISCOUNTED, fair_price_percent: PERCENT, card_country: ELSEWHERE, country_review: 'flagged'},
    ]);
    // Applied all the same: a card from elsewhere is the seller's to judge, as for a purchase.
    expect((await planOf(user)).plan?.id).toBe(higher.id);
    expect(mismatchLogs()).toBe(logged + 1);
    // Stripe delivers again: one flag, one log line.
    expect((await stack().deliver(completedEvent(stack(), id))).status).toBe(200);
    expect(mismatchLogs()).toBe(logged + 1);

    // The console: the purchase is in the Flagged list for its upgrade, and its page says which payment.
    const flagged = {country: DISCOUNTED, percentOff: PERCENT, cardCountry: ELSEWHERE, review: 'flagged'};
    const listed = (await flaggedList()).find((purchase) => purchase.sessionId === sessionId);
    expect(listed).toMatchObject({fairPrice: {cardCountry: DISCOUNTED, review: null}, flaggedUpgrade: flagged});
    const detail = (await (await admin(adminPath(ADMIN_PATHS.purchase, {sessionId}))).json()) as AdminPurchaseDetail;
    expect(detail.upgrades).toEqual([expect.objectContaining({sessionId: id, fairPrice: flagged})]);
    expect(detail.history).toContainEqual(
      expect.objectContaining({
        summary: "The card's country of an upgrade's payment read from Stripe (fair price)",
        status: 'done',
      }),
    );
    const exported = await (await admin(`${ADMIN_PATHS.purchasesCsv}?flagged=card_country`)).text();
    expect(exported.split('\n').find((line) => line.includes(sessionId))).toMatch(
      new RegExp(`,${DISCOUNTED},${DISCOUNTED},,flagged\\s*$`),
    );

    // The seller accepts the upgrade's payment by its session: logged on its purchase.
    expect((await acceptCard(id)).status).toBe(200);
    expect(await review()).toEqual([expect.objectContaining({country_review: 'accepted'})]);
    expect((await flaggedList()).map((purchase) => purchase.sessionId)).not.toContain(sessionId);
    const audit = ((await (await admin(ADMIN_PATHS.auditLog)).json()) as Page<AdminAuditEntry>).items.find(
      (entry) => entry.action === 'accept_card_country' && entry.sessionId === sessionId,
    );
    expect(audit?.detail).toContain(
      `card from ${ELSEWHERE} accepted for the ${DISCOUNTED} fair price, on the upgrade's payment (${id})`,
    );
    const again = await acceptCard(id);
    expect({status: again.status, body: await again.json()}).toEqual({
      status: 409,
      body: {error: 'This upgrade was already accepted.', code: 'CONFLICT'},
    });
    // Delivered again after the decision: still accepted.
    expect((await stack().deliver(completedEvent(stack(), id))).status).toBe(200);
    expect(await review()).toEqual([expect.objectContaining({country_review: 'accepted'})]);
  });

  test('an upgrade flagged for its card and then refunded settles the doubt: the purchase leaves Flagged, and its next upgrade is priced at its discount again', async () => {
    const {user, sessionId} = await fairBuyer(DISCOUNTED);
    const id = await upgradeSession(user);
    stack().stripe.complete(id, {email: user.email, paid: true, cardCountry: ELSEWHERE});
    expect((await stack().deliver(completedEvent(stack(), id))).status).toBe(200);
    expect((await flaggedList()).map((purchase) => purchase.sessionId)).toContain(sessionId);

    // The seller answers the flag with a refund of the upgrade, as the docs offer (accept or refund).
    await refund(id);
    expect((await planOf(user)).plan?.id).toBe(lower.id);
    expect((await flaggedList()).map((purchase) => purchase.sessionId)).not.toContain(sessionId);
    // The purchase's own card was from its discount's country: the next upgrade keeps the discount.
    expect((await planOf(user)).upgrades).toEqual([
      {planId: higher.id, name: higher.name, amount: fairDifference, currency: PLAN_CURRENCY, withoutCode: null},
    ]);
  });

  test("an upgrade paid with a card from the discount's country is recorded and not flagged", async () => {
    const {user, sessionId} = await fairBuyer(DISCOUNTED);
    const id = await upgradeSession(user);
    await payUpgrade(user, id);
    expect(
      await stack().worker.db.all('SELECT card_country, country_review FROM upgrades WHERE session_id = ?1', id),
    ).toEqual([{card_country: DISCOUNTED, country_review: null}]);
    expect((await flaggedList()).map((purchase) => purchase.sessionId)).not.toContain(sessionId);
  });
});

test('a paid upgrade makes the purchase the higher plan, with its releases; a redelivered event changes nothing', async () => {
  const {user, sessionId} = await lowerBuyer();
  const id = await upgradeSession(user);
  await payUpgrade(user, id);
  // The higher plan is sold for teams: the buyer of one seat is offered more, at a team's price each.
  expect(await planOf(user)).toEqual({
    plan: {id: higher.id, name: higher.name},
    upgrades: [],
    seats: {
      seats: 1,
      most: maxSeatsOf(higher),
      perSeat: seatPriceOf(higher, 2).amount,
      tiers: null,
      currency: PLAN_CURRENCY,
    },
    code: null,
  });
  const paid = (await (
    await stack().call(`${API_PATHS.userHasPaid}?userId=${user.uid}`, {token: user.idToken})
  ).json()) as {plan: string};
  expect(paid.plan).toBe(higher.name);
  const releases = (await (await stack().call(API_PATHS.releases, {token: user.idToken})).json()) as BuyerReleases;
  expect(releases.includesUpdates).toBe(higher.includesUpdates);

  // The same event again, and another event about the same session: still one paid upgrade.
  await payUpgrade(user, id);
  expect((await stack().deliver(completedEvent(stack(), id))).status).toBe(200);
  expect(await upgradeRows(sessionId)).toEqual([
    {session_id: id, status: 'paid', refused_reason: null, amount_paid: difference},
  ]);
  // The upgrade is its own payment, with its own receipt beside the purchase's.
  const {receipts} = (await (await stack().call(API_PATHS.receipts, {token: user.idToken})).json()) as BuyerReceipts;
  expect(receipts.map((receipt) => [receipt.plan, receipt.amount])).toEqual([
    [upgradeLabel(lower.name, higher.name), difference],
    [lower.name, planAmount(lower)],
  ]);
  // The purchase keeps the plan it was bought for: the upgrade is what adds the higher one.
  expect(await stack().worker.db.all('SELECT plan FROM purchases WHERE session_id = ?', sessionId)).toEqual([
    {plan: lower.id},
  ]);
});

test('asked again while its session is open, the same session serves: no second session, no second credit coupon; once Stripe expires it, a new one is made', async () => {
  const {user, sessionId} = await lowerBuyer();
  const couponsBefore = stack().stripe.coupons.size;
  const first = await upgradeSession(user);
  expect(await upgradeSession(user)).toBe(first);
  expect(stack().stripe.coupons.size).toBe(couponsBefore + 1);
  const coupon = [...stack().stripe.coupons.values()].at(-1)!;
  // Unused, the credit lapses shortly after its session would (24 hours).
  expect(coupon.redeem_by! - Math.floor(Date.now() / 1000)).toBeGreaterThan(24 * 60 * 60);
  expect(coupon.redeem_by! - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(25 * 60 * 60);
  stack().stripe.sessions.set(first, {...stack().stripe.sessions.get(first)!, status: 'expired', url: null});
  const next = await upgradeSession(user);
  expect(next).not.toBe(first);
  expect((await upgradeRows(sessionId)).map((row) => row.session_id)).toEqual([first, next]);
});

test('two sessions paid for the same upgrade (two tabs): the first applies, the second is refused and refunded at once', async () => {
  const {user, sessionId} = await lowerBuyer();
  const first = await upgradeSession(user);
  // Made almost a day ago, it is still open, and the next ask makes a session of its own.
  await stack().worker.db.run(
    'UPDATE upgrades SET created_at = created_at - ?2 WHERE session_id = ?1',
    first,
    23.5 * 60 * 60 * 1000,
  );
  const second = await upgradeSession(user);
  await payUpgrade(user, first);
  const refundsBefore = stack().stripe.refundsCreated.length;
  await payUpgrade(user, second);
  expect(await upgradeRows(sessionId)).toEqual([
    {session_id: first, status: 'paid', refused_reason: null, amount_paid: difference},
    {session_id: second, status: 'refused', refused_reason: 'duplicate', amount_paid: difference},
  ]);
  expect(stack().stripe.refundsCreated.slice(refundsBefore)).toEqual([
    expect.objectContaining({payment_intent: intentOf(second), reason: 'duplicate'}),
  ]);
  // Stripe's charge.refunded for it leaves the applied upgrade alone.
  await stack().deliver(stack().stripe.refundedEvent(intentOf(second)));
  expect((await planOf(user)).plan?.id).toBe(higher.id);
  // A redelivery of the second does not refund twice, nor tell the buyer twice.
  await payUpgrade(user, second);
  expect(stack().stripe.refundsCreated.length).toBe(refundsBefore + 1);
  // The file's stack is shared: the buyer's own mail, once.
  const told = stack().mailgun.sent.filter(
    (mail) => mail.fields.to === user.email && mail.fields.subject === `Your ${appConfig.appName} upgrade was refunded`,
  );
  expect(told).toHaveLength(1);
  expect(told[0]!.fields.text).toContain(
    `We refunded the ${dollars(difference)} you paid for ${upgradeLabel(lower.name, higher.name)}, and did not apply it: ${UPGRADE_REFUSALS.duplicate}`,
  );
});

test('a payment that is not the amount the worker computed is not applied, and is refunded at once', async () => {
  const {user, sessionId} = await lowerBuyer();
  const id = await upgradeSession(user);
  const refundsBefore = stack().stripe.refundsCreated.length;
  stack().stripe.complete(id, {email: user.email, paid: true});
  const session = stack().stripe.sessions.get(id)!;
  stack().stripe.sessions.set(id, {
    ...session,
    amount_total: 100,
    total_details: {...session.total_details!, amount_discount: session.amount_subtotal! - 100},
  });
  await stack().deliver(completedEvent(stack(), id));
  expect(await upgradeRows(sessionId)).toEqual([
    expect.objectContaining({status: 'refused', refused_reason: 'amount mismatch'}),
  ]);
  expect((await planOf(user)).plan?.id).toBe(lower.id);
  expect(stack().stripe.refundsCreated.slice(refundsBefore)).toEqual([
    expect.objectContaining({payment_intent: intentOf(id)}),
  ]);
});

test("an upgrade session paid by another buyer's account is not applied to the purchase, and the payer is refunded", async () => {
  const {user, sessionId} = await lowerBuyer();
  const id = await upgradeSession(user);
  const refundsBefore = stack().stripe.refundsCreated.length;
  stack().stripe.complete(id, {email: user.email, paid: true});
  const session = stack().stripe.sessions.get(id)!;
  stack().stripe.sessions.set(id, {...session, client_reference_id: 'someone-else'});
  await stack().deliver(completedEvent(stack(), id));
  expect(await upgradeRows(sessionId)).toEqual([
    expect.objectContaining({status: 'refused', refused_reason: 'another buyer'}),
  ]);
  expect((await planOf(user)).plan?.id).toBe(lower.id);
  expect(stack().stripe.refundsCreated.slice(refundsBefore)).toEqual([
    expect.objectContaining({payment_intent: intentOf(id)}),
  ]);
});

test("a purchase recorded before plan ids (its plan's name stored) upgrades like any other, not refused as stale", async () => {
  const {user, sessionId} = await lowerBuyer();
  await stack().worker.db.run('UPDATE purchases SET plan = ?2 WHERE session_id = ?1', sessionId, lower.name);
  const id = await upgradeSession(user);
  const refundsBefore = stack().stripe.refundsCreated.length;
  await payUpgrade(user, id);
  expect(await upgradeRows(sessionId)).toEqual([
    {session_id: id, status: 'paid', refused_reason: null, amount_paid: difference},
  ]);
  expect((await planOf(user)).plan?.id).toBe(higher.id);
  expect(stack().stripe.refundsCreated.length).toBe(refundsBefore);
});

describe('upgrade codes: the worker prices them, never the browser, and keeps their limits', () => {
  test('GET /upgrades?code= prices the offers the code is for, whatever the case typed, and says what it gives', async () => {
    const shown = await upgradeCode({percentOff: 30, plan: higher.id});
    const {user} = await lowerBuyer();
    const coded = upgradeCodeAmount(difference, shown);
    expect(coded).toBeLessThan(difference);
    const asked = await planWith(user, shown.code.toLowerCase());
    expect(asked.code).toEqual({code: shown.code, terms: launchCodeTerms(shown), refused: null});
    expect(asked.upgrades).toEqual(
      (await planOf(user)).upgrades.map((offer) =>
        offer.planId === higher.id ? {...offer, amount: coded, withoutCode: difference} : offer,
      ),
    );
  });

  test('a code that does not apply is refused with why, on the dashboard and at POST alike: unknown, a launch code for purchases, ended, expired, for another plan', async () => {
    const {user} = await lowerBuyer();
    await refusedBoth(user, freshCode('NONE'), UPGRADE_CODE_WORDS.unknown);
    // Typed as typed when the worker knows no upgrade code like it.
    const typed = freshCode('none').toLowerCase();
    expect((await planWith(user, typed)).code).toEqual({code: typed, terms: null, refused: UPGRADE_CODE_WORDS.unknown});
    // A launch code for purchases is typed at Stripe's Checkout, never here.
    const launch = await codes.createOk({code: freshCode(), percentOff: 10});
    await refusedBoth(user, launch.code, UPGRADE_CODE_WORDS.unknown);

    const ended = await upgradeCode({percentOff: 10});
    expect((await codes.end(ended.id)).status).toBe(200);
    await refusedBoth(user, ended.code, UPGRADE_CODE_WORDS.ended);

    const expired = await upgradeCode({percentOff: 10, endsAt: Date.now() + 3600_000});
    const past = Date.now() - 1000;
    await stack().worker.db.run('UPDATE launch_codes SET ends_at = ?2 WHERE id = ?1', expired.id, past);
    await refusedBoth(user, expired.code, UPGRADE_CODE_WORDS.expired(formatDay(past)));

    // For upgrades to the lower plan (the console refuses to make one, but the seller may re-order
    // the plans since): no offer of this buyer's is one.
    const elsewhere = await upgradeCode({percentOff: 10, plan: higher.id});
    await stack().worker.db.run('UPDATE launch_codes SET plan = ?2 WHERE id = ?1', elsewhere.id, lower.id);
    await refusedBoth(user, elsewhere.code, UPGRADE_CODE_WORDS.otherPlan(lower.name));
  });

  test('seats added never take a code (409)', async () => {
    const shown = await upgradeCode({percentOff: 10});
    const {user} = await lowerBuyer();
    const response = await askUpgrade(user, upgradeBody({planId: lower.id, addSeats: 1, code: shown.code}));
    expect({status: response.status, body: await response.json()}).toEqual({
      status: 409,
      body: {error: UPGRADE_CODE_WORDS.seats, code: 'CONFLICT'},
    });
  });

  test('the session with a code: its one coupon takes the price down to the amount quoted and names the code; the row records the code, and the credit stays what was paid; paid, it is one use and its revenue', async () => {
    const shown = await upgradeCode({amountOff: Math.round(difference / 3)});
    const {user, sessionId} = await lowerBuyer();
    const quoted = (await planWith(user, shown.code)).upgrades.find((offer) => offer.planId === higher.id)!.amount;
    expect(quoted).toBe(upgradeCodeAmount(difference, shown));

    const before = stack().stripe.created.length;
    // The browser's amount is ignored: the code's discount is the worker's to decide.
    const id = await upgradeSession(user, upgradeBody({code: shown.code.toLowerCase(), amount: 1}));
    const sent = stack().stripe.created[before]!;
    const discounts = sent.discounts as {coupon: string}[];
    expect(discounts).toHaveLength(1);
    expect(stack().stripe.coupons.get(discounts[0]!.coupon)).toMatchObject({
      amount_off: planAmount(higher) - quoted,
      max_redemptions: 1,
      name: upgradeCreditName(lower, null, shown.code),
    });
    expect(stack().stripe.sessions.get(id)!.amount_total).toBe(quoted);
    expect(sent.metadata).toMatchObject({launchCode: shown.id, amount: String(quoted)});
    const rowOf = (session: string) =>
      stack().worker.db.all('SELECT amount, credit, launch_code_id FROM upgrades WHERE session_id = ?1', session);
    expect(await rowOf(id)).toEqual([{amount: quoted, credit: planAmount(lower), launch_code_id: shown.id}]);

    // Asked again, the open session serves only a request with the same code, and one without it only without.
    expect(await upgradeSession(user, withCode(shown.code))).toBe(id);
    const plain = await upgradeSession(user);
    expect(plain).not.toBe(id);
    expect(await rowOf(plain)).toEqual([{amount: difference, credit: planAmount(lower), launch_code_id: null}]);
    expect(await upgradeSession(user)).toBe(plain);
    expect(await upgradeSession(user, withCode(shown.code))).toBe(id);

    await payUpgrade(user, id);
    expect(await upgradeRows(sessionId)).toContainEqual({
      session_id: id,
      status: 'paid',
      refused_reason: null,
      amount_paid: quoted,
    });
    expect((await planOf(user)).plan).toEqual({id: higher.id, name: higher.name});
    expect(await codes.listed(shown.id)).toMatchObject({uses: 1, held: 0, revenue: quoted, state: 'active'});
    // The purchase's page names the code on the upgrade it priced, and on no other.
    const detail = await stack().call(adminPath(ADMIN_PATHS.purchase, {sessionId}), {token: seller.admin.idToken});
    const shownUpgrades = ((await detail.json()) as AdminPurchaseDetail).upgrades;
    expect(shownUpgrades.find((each) => each.sessionId === id)).toMatchObject({launchCode: shown.code});
    expect(shownUpgrades.filter((each) => each.sessionId !== id).every((each) => each.launchCode === null)).toBe(true);
  });

  test('its uses count paid upgrades and sessions still open, so open checkouts cannot overrun them; the buyer of an open one is still served it', async () => {
    const shown = await upgradeCode({percentOff: 10, maxUses: 2});
    const [paying, opening, late] = [await lowerBuyer(), await lowerBuyer(), await lowerBuyer()];
    await payUpgrade(paying.user, await upgradeSession(paying.user, withCode(shown.code)));
    const open = await upgradeSession(opening.user, withCode(shown.code));
    // Held, not used up: an open checkout may yet give its use back.
    await refusedBoth(late.user, shown.code, UPGRADE_CODE_WORDS.held);
    expect((await planWith(opening.user, shown.code)).code).toMatchObject({refused: null});
    expect(await upgradeSession(opening.user, withCode(shown.code))).toBe(open);
    // The console counts what was paid, and what checkouts in progress hold.
    expect(await codes.listed(shown.id)).toMatchObject({uses: 1, held: 1, state: 'active'});

    const db = stack().worker.db;
    // A purchase counts once, however many of its checkouts are open (it can pay only one move).
    await db.run(
      `INSERT INTO upgrades (session_id, purchase_session_id, user_id, email, from_plan, to_plan, amount, currency, coupon_id,
         created_at, updated_at, seats_added, from_seats, price_id, quantity, credit, launch_code_id)
       SELECT session_id || '_twin', purchase_session_id, user_id, email, from_plan, to_plan, amount, currency, coupon_id,
         created_at, updated_at, seats_added, from_seats, price_id, quantity, credit, launch_code_id
       FROM upgrades WHERE session_id = ?1`,
      open,
    );
    await db.run('UPDATE launch_codes SET max_uses = 3 WHERE id = ?1', shown.id);
    expect((await planWith(late.user, shown.code)).code).toMatchObject({refused: null});
    await db.run('UPDATE launch_codes SET max_uses = 2 WHERE id = ?1', shown.id);

    // Past the day Stripe lets a checkout be paid, an open one holds no use...
    const dayAgo = Date.now() - 24 * 3600_000 - 60_000;
    await db.run('UPDATE upgrades SET created_at = ?2 WHERE purchase_session_id = ?1', opening.sessionId, dayAgo);
    expect((await planWith(late.user, shown.code)).code).toMatchObject({refused: null});
    // ...unless it was completed and its payment is on its way (a bank debit): then it holds it still.
    stack().stripe.complete(open, {email: opening.user.email, paid: false});
    expect((await stack().deliver(completedEvent(stack(), open))).status).toBe(200);
    expect((await planWith(late.user, shown.code)).code).toMatchObject({refused: UPGRADE_CODE_WORDS.held});
  });

  test('asked about on the dashboard, a code is rate-limited per buyer: a script cannot guess codes', async () => {
    const {user} = await lowerBuyer();
    const statuses: number[] = [];
    for (let ask = 0; ask < 11; ask++) {
      const response = await stack().call(`${API_PATHS.upgrades}?code=${freshCode('GUESS')}`, {token: user.idToken});
      statuses.push(response.status);
    }
    expect(statuses).toEqual([...Array<number>(10).fill(200), 429]);
    // The plan itself, without a code, is still read.
    expect((await stack().call(API_PATHS.upgrades, {token: user.idToken})).status).toBe(200);
  });

  test('buyers racing for its last use: one session is kept, every other is refused used up and closed at Stripe', async () => {
    const shown = await upgradeCode({percentOff: 10, maxUses: 1});
    const buyers = [await lowerBuyer(), await lowerBuyer(), await lowerBuyer()];
    const answers = await Promise.all(buyers.map(({user}) => askUpgrade(user, withCode(shown.code))));
    const bodies = await Promise.all(answers.map((answer) => answer.json()));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409]);
    // The winner's checkout holds the last use until it is paid or its day is over.
    expect(bodies.filter((body) => 'error' in body)).toEqual([
      {error: UPGRADE_CODE_WORDS.held, code: 'CONFLICT'},
      {error: UPGRADE_CODE_WORDS.held, code: 'CONFLICT'},
    ]);
    const rows = await stack().worker.db.all<{session_id: string}>(
      'SELECT session_id FROM upgrades WHERE launch_code_id = ?1',
      shown.id,
    );
    expect(rows).toHaveLength(1);
    const made = [...stack().stripe.sessions.values()].filter((session) => session.metadata?.launchCode === shown.id);
    // Stripe made a session for more than one (each passed the quote): those without a row are expired.
    expect(made.length).toBeGreaterThan(1);
    for (const session of made) expect(session.status).toBe(session.id === rows[0]!.session_id ? 'open' : 'expired');
  });

  test('ended while a buyer’s session is open: no session is priced with it from then on', async () => {
    const shown = await upgradeCode({percentOff: 10});
    const {user} = await lowerBuyer();
    await upgradeSession(user, withCode(shown.code));
    expect((await codes.end(shown.id)).status).toBe(200);
    await refusedBoth(user, shown.code, UPGRADE_CODE_WORDS.ended);
  });
});

describe('refunds', () => {
  const requestAccess = async (user: SignedInUser) => {
    const login = stack().github.addUser(`upgrader-${Date.now().toString(36)}`).login;
    expect(
      (await stack().call(API_PATHS.addUserToRepo, {token: user.idToken, body: {username: login, userId: user.uid}}))
        .status,
    ).toBe(200);
    return login;
  };
  const grantOf = async (sessionId: string) =>
    (await kitGrant<{status: string}>(stack().worker.db, sessionId, 'status'))?.status;

  test('a refund of the upgrade takes back only the upgrade: the purchase is the lower plan again, and keeps its access', async () => {
    const {user, sessionId} = await lowerBuyer();
    await requestAccess(user);
    const id = await upgradeSession(user);
    await payUpgrade(user, id);
    const grant = await grantOf(sessionId);
    await refund(id);
    expect(await upgradeRows(sessionId)).toEqual([expect.objectContaining({status: 'revoked'})]);
    expect(await planOf(user)).toEqual({
      plan: {id: lower.id, name: lower.name},
      upgrades: [
        {planId: higher.id, name: higher.name, amount: difference, currency: PLAN_CURRENCY, withoutCode: null},
      ],
      seats: null,
      code: null,
    });
    expect(await grantOf(sessionId)).toBe(grant);
    expect(await stack().worker.db.all('SELECT status FROM purchases WHERE session_id = ?', sessionId)).toEqual([
      {status: 'paid'},
    ]);
  });

  test("the refund delivered before the upgrade's completion (out of order) still ends with the lower plan", async () => {
    const {user, sessionId} = await lowerBuyer();
    const id = await upgradeSession(user);
    stack().stripe.complete(id, {email: user.email, paid: true});
    const charge = stack().stripe.payments.get(intentOf(id))!.charge;
    await stack().deliver(
      stripeEvent('charge.refunded', {...charge, amount_refunded: charge.amount, refunded: true} as Stripe.Charge),
    );
    await stack().deliver(completedEvent(stack(), id));
    expect(await upgradeRows(sessionId)).toEqual([expect.objectContaining({status: 'revoked'})]);
    expect((await planOf(user)).plan?.id).toBe(lower.id);
  });

  test('a partial refund of the upgrade delivered before its completion is on the upgrade once it is recorded, which keeps the higher plan', async () => {
    const {user, sessionId} = await lowerBuyer();
    const id = await upgradeSession(user);
    stack().stripe.complete(id, {email: user.email, paid: true});
    const charge = stack().stripe.payments.get(intentOf(id))!.charge;
    await stack().deliver(
      stripeEvent('charge.refunded', {...charge, amount_refunded: 500, refunded: false} as Stripe.Charge),
    );
    await stack().deliver(completedEvent(stack(), id));
    expect(await upgradeRows(sessionId)).toEqual([expect.objectContaining({status: 'paid'})]);
    expect(await stack().worker.db.all('SELECT amount_refunded FROM upgrades WHERE session_id = ?', id)).toEqual([
      {amount_refunded: 500},
    ]);
    expect((await planOf(user)).plan?.id).toBe(higher.id);
  });

  test('a refund of the original purchase takes back everything: access, and the upgrade with it', async () => {
    const {user, sessionId} = await lowerBuyer();
    await requestAccess(user);
    await payUpgrade(user, await upgradeSession(user));
    await refund(sessionId);
    expect(await planOf(user)).toEqual({plan: null, upgrades: [], seats: null, code: null});
    expect(await grantOf(sessionId)).toBe('revoked');
    expect((await stack().call(API_PATHS.releases, {token: user.idToken})).status).toBeGreaterThanOrEqual(400);
    // An upgrade paid after its purchase was refunded buys nothing, and is given back.
    const late = await lowerBuyer();
    const lateId = await upgradeSession(late.user);
    await refund(late.sessionId);
    const refundsBefore = stack().stripe.refundsCreated.length;
    await payUpgrade(late.user, lateId);
    expect(await upgradeRows(late.sessionId)).toEqual([
      expect.objectContaining({status: 'refused', refused_reason: 'purchase not paid'}),
    ]);
    expect(stack().stripe.refundsCreated.slice(refundsBefore)).toEqual([
      expect.objectContaining({payment_intent: intentOf(lateId)}),
    ]);
  });
});

test('a purchase whose access the seller revoked is offered no upgrade and sold none; one paid in a checkout opened before is refused and refunded; Grant access offers it again', async () => {
  const sellerPost = (path: string) =>
    stack().call(adminPath(path, {sessionId}), {method: 'POST', token: seller.admin.idToken, body: {}});
  const {user, sessionId} = await lowerBuyer();
  // A checkout the buyer opened before the seller's revocation, paid after it.
  const opened = await upgradeSession(user);
  expect((await sellerPost(ADMIN_PATHS.revoke)).status).toBe(200);

  // The dashboard is offered nothing, and the worker makes no session: a higher plan would give nothing.
  expect(await planOf(user)).toEqual({plan: {id: lower.id, name: lower.name}, upgrades: [], seats: null, code: null});
  const sessionsBefore = stack().stripe.created.length;
  const asked = await askUpgrade(user);
  expect({status: asked.status, body: await asked.json()}).toEqual({
    status: 403,
    body: {error: afterPurchase.revokedBySeller, code: 'ACCESS_REVOKED'},
  });
  expect(stack().stripe.created).toHaveLength(sessionsBefore);

  const refundsBefore = stack().stripe.refundsCreated.length;
  await payUpgrade(user, opened);
  expect(await upgradeRows(sessionId)).toEqual([
    expect.objectContaining({session_id: opened, status: 'refused', refused_reason: 'access revoked'}),
  ]);
  expect(stack().stripe.refundsCreated.slice(refundsBefore)).toEqual([
    expect.objectContaining({payment_intent: intentOf(opened)}),
  ]);
  expect((await planOf(user)).plan?.id).toBe(lower.id);

  // The seller's Grant access gives the purchase its right back, and with it the offer.
  expect((await sellerPost(ADMIN_PATHS.grant)).status).toBe(200);
  expect((await planOf(user)).upgrades).toEqual([expect.objectContaining({planId: higher.id, amount: difference})]);
});

test("the console's full refund of a purchase gives back its upgrade's payment too; a partial one leaves the upgrade alone", async () => {
  const refundFromConsole = (sessionId: string, body: Record<string, unknown>) =>
    stack().call(adminPath(ADMIN_PATHS.refund, {sessionId}), {
      method: 'POST',
      token: seller.admin.idToken,
      body: {reason: 'requested_by_customer', ...body},
    });
  const {user, sessionId} = await lowerBuyer();
  const upgrade = await upgradeSession(user);
  await payUpgrade(user, upgrade);

  const partly = await refundFromConsole(sessionId, {amount: 100, refundedBefore: 0});
  expect(partly.status).toBe(200);
  expect(stack().stripe.refundsCreated.at(-1)).toMatchObject({
    payment_intent: stack().stripe.sessions.get(sessionId)!.payment_intent,
    amount: '100',
  });
  expect(stack().stripe.refundsCreated.filter((refund) => refund.payment_intent === intentOf(upgrade))).toEqual([]);

  const before = stack().stripe.refundsCreated.length;
  const full = await refundFromConsole(sessionId, {refundedBefore: 100});
  expect(full.status).toBe(200);
  const {detail} = (await full.json()) as {detail: string};
  expect(detail).toContain(`its upgrade's ${formatMoney(difference, PLAN_CURRENCY)} too`);
  expect(stack().stripe.refundsCreated.slice(before)).toEqual([
    expect.objectContaining({
      payment_intent: stack().stripe.sessions.get(sessionId)!.payment_intent,
      amount: String(planAmount(lower) - 100),
    }),
    expect.objectContaining({payment_intent: intentOf(upgrade), amount: String(difference)}),
  ]);
});

test('the console shows the upgrade as its own kind of sale, and revenue counts its payment once', async () => {
  const get = async <T>(path: string) => (await (await stack().call(path, {token: seller.admin.idToken})).json()) as T;
  const before = await get<SalesSummary>(ADMIN_PATHS.sales);
  const {user, sessionId} = await lowerBuyer();
  const id = await upgradeSession(user);
  await payUpgrade(user, id);
  const after = await get<SalesSummary>(ADMIN_PATHS.sales);
  expect(after.revenue - before.revenue).toBe(planAmount(lower) + difference);
  const label = upgradeLabel(lower.name, higher.name);
  const today = (summary: SalesSummary) => summary.days.at(-1)!.byPlan;
  expect((today(after)[label] ?? 0) - (today(before)[label] ?? 0)).toBe(difference);
  expect((today(after)[lower.name] ?? 0) - (today(before)[lower.name] ?? 0)).toBe(planAmount(lower));
  expect((today(after)[higher.name] ?? 0) - (today(before)[higher.name] ?? 0)).toBe(0);

  const detail = await get<AdminPurchaseDetail>(adminPath(ADMIN_PATHS.purchase, {sessionId}));
  expect(detail.history).toContainEqual(
    expect.objectContaining({
      kind: 'upgrade',
      summary: label,
      status: 'paid',
      detail: `${formatMoney(difference, PLAN_CURRENCY)} (${id})`,
    }),
  );

  // Refunded, it leaves revenue and counts among refunds.
  await refund(id);
  const refunded = await get<SalesSummary>(ADMIN_PATHS.sales);
  expect(refunded.revenue - before.revenue).toBe(planAmount(lower));
  expect(refunded.refunds.amount - before.refunds.amount).toBe(difference);
});

test("buyers are told apart: an upgrade is only for the caller's own purchase", async () => {
  const first = await lowerBuyer();
  const second = await stack().signUp({email: uniqueEmail('stranger')});
  // The stranger has no purchase of their own: naming the first buyer's purchase changes nothing.
  const response = await askUpgrade(second, upgradeBody({upgradeOf: first.sessionId}));
  expect(response.status).toBe(402);
});

test('a buyer who holds the lower and the higher plan in two purchases is offered no upgrade, and cannot pay for one', async () => {
  const {user} = await lowerBuyer();
  const second = await stack().paidCheckout({email: user.email, user, priceId: higher.priceId.test});
  expect((await stack().deliver(completedEvent(stack(), second))).status).toBe(200);
  const shown = await planOf(user);
  expect(shown.plan?.id).toBe(higher.id);
  expect(shown.upgrades.map((offer) => offer.planId)).not.toContain(higher.id);
  const refused = await askUpgrade(user);
  expect(refused.status).toBe(409);
  expect(((await refused.json()) as {error: string}).error).toContain(higher.name);
});

test('an upgrade priced from a plan the purchase is no longer on (another upgrade paid since, in another tab) is refused as stale and refunded', async () => {
  const {user, sessionId} = await lowerBuyer();
  const upgrade = await upgradeSession(user);
  // What a third plan would do: the purchase moves on before this payment lands, so its credit is wrong.
  await stack().worker.db.run('UPDATE purchases SET plan = ?2 WHERE session_id = ?1', sessionId, higher.id);
  await paidAndRefusedAsStale(user, sessionId, upgrade);
});

test("the console refunds an upgrade by the upgrade's session: Stripe refunds that payment only, and the purchase returns to the lower plan", async () => {
  const {user, sessionId} = await lowerBuyer();
  const upgrade = await upgradeSession(user);
  await payUpgrade(user, upgrade);
  const answer = await stack().call(adminPath(ADMIN_PATHS.refund, {sessionId: upgrade}), {
    method: 'POST',
    token: seller.admin.idToken,
    body: {reason: 'requested_by_customer', refundedBefore: 0},
  });
  expect(answer.status).toBe(200);
  expect(await answer.json()).toMatchObject({
    status: 'refunded',
    detail: expect.stringMatching(
      new RegExp(
        `^\\${formatMoney(difference, PLAN_CURRENCY)} refunded in full .*; the purchase returns to ${lower.name} when Stripe confirms$`,
      ),
    ),
  });
  expect(stack().stripe.refundsCreated.at(-1)).toMatchObject({
    payment_intent: intentOf(upgrade),
    amount: String(difference),
  });
  await stack().deliver(stack().stripe.refundedEvent(intentOf(upgrade)));
  expect((await planOf(user)).plan?.id).toBe(lower.id);
  // The purchase itself was not refunded, and keeps its access.
  expect(stack().stripe.payments.get(intentOf(sessionId))!.charge).toMatchObject({amount_refunded: 0});
});

test("the console's purchase page lists its upgrade with what its own refund needs, then shows it refunded and the purchase on the lower plan", async () => {
  const {user, sessionId} = await lowerBuyer();
  const detailOf = async () =>
    (await (
      await stack().call(adminPath(ADMIN_PATHS.purchase, {sessionId}), {token: seller.admin.idToken})
    ).json()) as AdminPurchaseDetail;
  const upgrade = await upgradeSession(user);
  await payUpgrade(user, upgrade);
  const paid = await detailOf();
  expect(paid.plan).toBe(higher.name);
  expect(paid.upgrades).toEqual([
    {
      sessionId: upgrade,
      fromPlan: lower.name,
      toPlan: higher.name,
      label: upgradeLabel(lower.name, higher.name),
      seatsAdded: 0,
      state: 'paid',
      amount: difference,
      amountRefunded: 0,
      currency: PLAN_CURRENCY,
      paymentIntentId: intentOf(upgrade),
      paidAt: expect.any(Number),
      fairPrice: null,
      launchCode: null,
    },
  ]);

  // A part, then the rest, as the console's form sends them.
  const refundUpgrade = (body: Record<string, unknown>) =>
    stack().call(adminPath(ADMIN_PATHS.refund, {sessionId: upgrade}), {
      method: 'POST',
      token: seller.admin.idToken,
      body,
    });
  expect((await refundUpgrade({amount: 100, reason: 'duplicate', refundedBefore: 0})).status).toBe(200);
  await stack().deliver(stack().stripe.refundedEvent(intentOf(upgrade)));
  const part = await detailOf();
  expect(part.upgrades[0]).toMatchObject({state: 'paid', amountRefunded: 100});
  expect(part.plan).toBe(higher.name);
  expect((await refundUpgrade({reason: 'requested_by_customer', refundedBefore: 100})).status).toBe(200);
  expect(stack().stripe.refundsCreated.at(-1)).toMatchObject({
    payment_intent: intentOf(upgrade),
    amount: String(difference - 100),
  });
  await stack().deliver(stack().stripe.refundedEvent(intentOf(upgrade)));
  const refunded = await detailOf();
  expect(refunded.upgrades[0]).toMatchObject({state: 'refunded', amountRefunded: difference});
  expect(refunded).toMatchObject({plan: lower.name, state: 'paid', amountRefunded: 0});
  // Nothing is left to refund on the upgrade: the worker says so, and Stripe is not asked again.
  const again = await refundUpgrade({reason: 'requested_by_customer', refundedBefore: difference});
  expect({status: again.status, body: await again.json()}).toEqual({
    status: 409,
    body: {error: 'This payment has already been refunded in full.', code: 'CONFLICT'},
  });
});

test("the console's purchases list shows an upgraded purchase's plan now, and the plan filter finds it there", async () => {
  const get = async <T>(path: string) => (await (await stack().call(path, {token: seller.admin.idToken})).json()) as T;
  const {user, sessionId} = await lowerBuyer();
  await payUpgrade(user, await upgradeSession(user));
  const listed = await get<Page<AdminPurchase>>(`${ADMIN_PATHS.purchases}?q=${sessionId}`);
  expect(listed.items.map((item) => [item.plan, item.amount])).toEqual([[higher.name, planAmount(lower)]]);
  const byHigher = await get<Page<AdminPurchase>>(
    `${ADMIN_PATHS.purchases}?q=${sessionId}&plan=${encodeURIComponent(higher.name)}`,
  );
  expect(byHigher.items.map((item) => item.sessionId)).toEqual([sessionId]);
  const byLower = await get<Page<AdminPurchase>>(
    `${ADMIN_PATHS.purchases}?q=${sessionId}&plan=${encodeURIComponent(lower.name)}`,
  );
  expect(byLower.items).toEqual([]);
});

test('an applied upgrade e-mails the buyer what it adds and the seller the sale, once each', async () => {
  const {user, sessionId} = await lowerBuyer();
  const upgrade = await upgradeSession(user);
  const mailsFor = (subject: string) => stack().mailgun.sent.filter((mail) => mail.fields.subject?.startsWith(subject));
  const buyerSubject = `Your ${appConfig.appName} purchase is now ${higher.name}`;
  const before = {
    buyer: mailsFor(buyerSubject).length,
    seller: mailsFor(`New sale: ${appConfig.appName} ${upgradeLabel(lower.name, higher.name)}`).length,
  };
  await payUpgrade(user, upgrade);
  await payUpgrade(user, upgrade, 'evt_redelivered_upgrade_mail');
  const toBuyer = mailsFor(buyerSubject).slice(before.buyer);
  expect(toBuyer).toHaveLength(1);
  expect(toBuyer[0]!.recipients).toEqual([user.email]);
  // What the higher plan adds, all of it, as the pricing card and the dashboard's offer list it.
  const added = planAdds(lower, higher);
  expect(toBuyer[0]!.fields.text).toContain(
    `${['What it adds:', ...added.map((feature) => `- ${feature}`)].join('\n')}\n\n`,
  );
  expect(toBuyer[0]!.fields.text).not.toContain('Everything in');
  expect(toBuyer[0]!.fields.text).toContain(formatMoney(difference, PLAN_CURRENCY));
  const toSeller = mailsFor(`New sale: ${appConfig.appName} ${upgradeLabel(lower.name, higher.name)}`).slice(
    before.seller,
  );
  expect(toSeller).toHaveLength(1);
  expect(toSeller[0]!.fields.text).toContain(encodeURIComponent(sessionId));
});
