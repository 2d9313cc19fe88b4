/**
 * @jest-environment node
 *
 * Promotion codes at the Stripe stand-in, through the worker's own Stripe client: made on a coupon
 * with Stripe's checks and refusals, listed, switched off and on, and entered by a buyer at
 * Checkout, where Stripe's restrictions decide whether the code takes money off.
 */
import type Stripe from 'stripe';
import {appConfig, PLAN_CURRENCY} from '../../src/config';
import {startStripeStandIn, type StripeStandIn} from '../../scripts/local/stripeApi';
import {stripeClient} from '../../worker/src/payments/stripeClient';

const SITE = 'https://shop.example';
const [cheaper, dearer] = [...appConfig.plans].sort((a, b) => a.price - b.price);
const now = () => Math.floor(Date.now() / 1000);
let codes = 0;
/** A code of its own for each test: codes are unique among active ones for the whole account. */
const uniqueCode = (prefix: string) => `${prefix}-${++codes}-${Date.now().toString(36)}`;

let standIn: StripeStandIn;
let stripe: Stripe;
beforeAll(async () => {
  standIn = await startStripeStandIn();
  stripe = stripeClient('sk_test_x', standIn.url);
});
afterAll(() => standIn.close());

const percentCoupon = (params: Partial<Stripe.CouponCreateParams> = {}) =>
  stripe.coupons.create({percent_off: 25, duration: 'once', ...params});

const promo = (coupon: string, params: Partial<Stripe.PromotionCodeCreateParams> = {}) =>
  stripe.promotionCodes.create({promotion: {type: 'coupon', coupon}, ...params});

/** A session for a plan, as the worker makes one without a fair-price discount. */
const session = (plan = cheaper!, params: Partial<Stripe.Checkout.SessionCreateParams> = {}) =>
  stripe.checkout.sessions.create({
    mode: 'payment',
    line_items: [{price: plan.priceId.test, quantity: 1}],
    allow_promotion_codes: true,
    success_url: `${SITE}/success`,
    cancel_url: `${SITE}/`,
    ...params,
  });

const unitAmount = (plan = cheaper!) => standIn.prices.get(plan.priceId.test)!.unit_amount!;

describe('creating a promotion code', () => {
  test('on a percent coupon: the whole PromotionCode, unredeemed, with its restrictions', async () => {
    const coupon = await percentCoupon();
    const code = uniqueCode('SPRING');
    const created = await promo(coupon.id, {
      code,
      max_redemptions: 3,
      restrictions: {first_time_transaction: true, minimum_amount: 1000, minimum_amount_currency: 'USD'},
      metadata: {campaign: 'spring'},
    });
    expect(created).toMatchObject({
      object: 'promotion_code',
      code,
      active: true,
      livemode: false,
      times_redeemed: 0,
      max_redemptions: 3,
      expires_at: null,
      customer: null,
      customer_account: null,
      metadata: {campaign: 'spring'},
      promotion: {type: 'coupon', coupon: coupon.id},
      restrictions: {first_time_transaction: true, minimum_amount: 1000, minimum_amount_currency: 'usd'},
    });
    expect(standIn.promotionCodes.get(created.id)).toEqual(created);
  });

  test('on an amount coupon, without a code: Stripe makes one of upper-case letters and digits', async () => {
    const coupon = await stripe.coupons.create({amount_off: 500, currency: PLAN_CURRENCY, duration: 'once'});
    const created = await promo(coupon.id);
    expect(created.code).toMatch(/^[A-Z0-9]+$/);
    expect(created.restrictions).toEqual({
      first_time_transaction: false,
      minimum_amount: null,
      minimum_amount_currency: null,
    });
  });

  test('coupons keep applies_to and refuse a percent_off outside 0–100', async () => {
    const {product} = await stripe.prices.retrieve(dearer!.priceId.test);
    const coupon = await percentCoupon({applies_to: {products: [product as string]}, name: 'Dearer only'});
    expect(coupon.applies_to).toEqual({products: [product]});
    await expect(percentCoupon({percent_off: 101})).rejects.toMatchObject({statusCode: 400, param: 'percent_off'});
    await expect(percentCoupon({percent_off: 0})).rejects.toMatchObject({statusCode: 400, param: 'percent_off'});
  });

  test('each refusal, as Stripe answers it', async () => {
    const limited = await percentCoupon({max_redemptions: 2, redeem_by: now() + 3600});
    const refused = (params: Partial<Stripe.PromotionCodeCreateParams>, coupon = limited.id) =>
      expect(promo(coupon, params)).rejects;

    await expect(stripe.promotionCodes.create({promotion: {type: 'coupon'}})).rejects.toMatchObject({
      statusCode: 400,
      type: 'StripeInvalidRequestError',
      code: 'parameter_missing',
      param: 'promotion[coupon]',
    });
    await refused({}, 'nothing_here').toMatchObject({
      statusCode: 400,
      code: 'resource_missing',
      param: 'promotion[coupon]',
      message: "No such coupon: 'nothing_here'",
    });
    await refused({code: 'TEN OFF'}).toMatchObject({statusCode: 400, param: 'code'});
    await refused({code: 'TEN_OFF'}).toMatchObject({statusCode: 400, param: 'code'});
    await refused({code: 'A'.repeat(501)}).toMatchObject({statusCode: 400, param: 'code'});
    await expect(promo(limited.id, {code: 'A'.repeat(500)})).resolves.toMatchObject({active: true});

    const taken = uniqueCode('Taken');
    await promo(limited.id, {code: taken});
    await refused({code: taken.toLowerCase()}).toMatchObject({
      statusCode: 400,
      param: 'code',
      message: `An active promotion code with \`code: ${taken.toLowerCase()}\` already exists.`,
    });

    await refused({max_redemptions: 0}).toMatchObject({code: 'parameter_invalid_integer', param: 'max_redemptions'});
    await refused({max_redemptions: 3}).toMatchObject({statusCode: 400, param: 'max_redemptions'});
    await refused({expires_at: now() - 60}).toMatchObject({statusCode: 400, param: 'expires_at'});
    await refused({expires_at: now() + 7200}).toMatchObject({statusCode: 400, param: 'expires_at'});
    await refused({restrictions: {minimum_amount: 1000}}).toMatchObject({
      statusCode: 400,
      param: 'restrictions[minimum_amount_currency]',
    });
  });
});

describe('retrieving, listing and switching codes', () => {
  test('retrieve one, and 404 for an unknown id', async () => {
    const created = await promo((await percentCoupon()).id);
    await expect(stripe.promotionCodes.retrieve(created.id)).resolves.toEqual(created);
    await expect(stripe.promotionCodes.retrieve('promo_nothing')).rejects.toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    });
  });

  test('list by code (regardless of case), active, coupon and limit, newest first', async () => {
    const coupon = await percentCoupon();
    const first = await promo(coupon.id, {code: uniqueCode('List')});
    const second = await promo(coupon.id, {code: uniqueCode('List'), active: false});
    const third = await promo(coupon.id, {code: uniqueCode('List')});

    const ids = async (params: Stripe.PromotionCodeListParams) =>
      (await stripe.promotionCodes.list(params)).data.map(({id}) => id);
    expect(await ids({coupon: coupon.id})).toEqual([third.id, second.id, first.id]);
    expect(await ids({coupon: coupon.id, active: true})).toEqual([third.id, first.id]);
    expect(await ids({coupon: coupon.id, active: false})).toEqual([second.id]);
    expect(await ids({code: first.code.toUpperCase()})).toEqual([first.id]);
    const page = await stripe.promotionCodes.list({coupon: coupon.id, limit: 2});
    expect(page.data.map(({id}) => id)).toEqual([third.id, second.id]);
    expect(page.has_more).toBe(true);
  });

  test('deactivate; the same code can then be made again, and the old one is refused re-activation', async () => {
    const coupon = await percentCoupon();
    const code = uniqueCode('Again');
    const old = await promo(coupon.id, {code});
    await expect(stripe.promotionCodes.update(old.id, {active: false})).resolves.toMatchObject({active: false});
    const fresh = await promo(coupon.id, {code: code.toUpperCase()});
    expect(fresh.active).toBe(true);
    await expect(stripe.promotionCodes.update(old.id, {active: true})).rejects.toMatchObject({
      statusCode: 400,
      message: `An active promotion code with \`code: ${code}\` already exists.`,
    });
    await stripe.promotionCodes.update(fresh.id, {active: false});
    await expect(stripe.promotionCodes.update(old.id, {active: true})).resolves.toMatchObject({active: true});
  });

  test('a code whose coupon is used up cannot be made active again', async () => {
    const coupon = await percentCoupon({max_redemptions: 1});
    const code = await promo(coupon.id, {active: false});
    standIn.coupons.get(coupon.id)!.times_redeemed = 1;
    await expect(stripe.promotionCodes.update(code.id, {active: true})).rejects.toMatchObject({
      statusCode: 400,
      code: 'coupon_expired',
    });
  });
});

describe('a code entered at Checkout', () => {
  const email = () => `buyer-${++codes}@example.com`;

  test('takes the coupon off the subtotal, and a paid session redeems the code and its coupon', async () => {
    const coupon = await percentCoupon({percent_off: 50});
    const code = await promo(coupon.id, {code: uniqueCode('Half')});
    const open = await session();
    const paid = standIn.complete(open.id, {email: email(), paid: true, promotionCode: code.code.toLowerCase()});
    const off = Math.round(unitAmount() / 2);
    expect(paid).toMatchObject({
      discounts: [{coupon: coupon.id, promotion_code: code.id}],
      amount_subtotal: unitAmount(),
      amount_total: unitAmount() - off,
      total_details: {amount_discount: off},
    });
    expect(standIn.promotionCodes.get(code.id)!.times_redeemed).toBe(1);
    expect(standIn.coupons.get(coupon.id)!.times_redeemed).toBe(1);
    expect(standIn.payments.get(paid.payment_intent as string)!.charge.amount).toBe(unitAmount() - off);
  });

  test('refused once redeemed the maximum number of times, though it stays active', async () => {
    const code = await promo((await percentCoupon()).id, {max_redemptions: 1});
    standIn.complete((await session()).id, {email: email(), paid: true, promotionCode: code.code});
    const next = await session();
    expect(() => standIn.complete(next.id, {email: email(), paid: true, promotionCode: code.code})).toThrow(
      'This code cannot be used because it has been redeemed the maximum number of times.',
    );
    expect(standIn.promotionCodes.get(code.id)!.active).toBe(true);
    expect(standIn.sessions.get(next.id)).toMatchObject({status: 'open', discounts: []});
  });

  test('refused once past its expires_at', async () => {
    const code = await promo((await percentCoupon()).id, {expires_at: now() + 60});
    // Time passes at Stripe: the code's expiry is now behind us.
    standIn.promotionCodes.get(code.id)!.expires_at = now() - 1;
    const open = await session();
    expect(() => standIn.complete(open.id, {email: email(), paid: true, promotionCode: code.code})).toThrow(
      'This code has expired.',
    );
  });

  test("a first-time-only code is refused to a customer who paid before, taken by a new one (Stripe's rule is by Customer)", async () => {
    const code = await promo((await percentCoupon()).id, {restrictions: {first_time_transaction: true}});
    const returning = email();
    const first = standIn.complete((await session()).id, {email: returning, paid: true});
    const again = await session(cheaper, {customer: first.customer as string});
    expect(() => standIn.complete(again.id, {email: returning, paid: true, promotionCode: code.code})).toThrow(
      'This code is only valid for first-time customers.',
    );
    // The same e-mail on a session made for no customer: Checkout makes a new Customer, which has paid nothing.
    const asGuest = standIn.complete((await session()).id, {email: returning, paid: true, promotionCode: code.code});
    expect(asGuest.discounts).toEqual([{coupon: code.promotion.coupon, promotion_code: code.id}]);
  });

  test("a code for one plan's product is refused on another plan's session", async () => {
    const {product} = await stripe.prices.retrieve(dearer!.priceId.test);
    const coupon = await percentCoupon({applies_to: {products: [product as string]}});
    const code = await promo(coupon.id);
    const other = await session(cheaper);
    expect(() => standIn.complete(other.id, {email: email(), paid: true, promotionCode: code.code})).toThrow(
      'This code is not valid for the items in this purchase.',
    );
    const own = standIn.complete((await session(dearer)).id, {email: email(), paid: true, promotionCode: code.code});
    expect(own.total_details?.amount_discount).toBe(Math.round(unitAmount(dearer) / 4));
  });

  test('refused under its minimum amount', async () => {
    const code = await promo((await percentCoupon()).id, {
      restrictions: {minimum_amount: unitAmount(dearer), minimum_amount_currency: PLAN_CURRENCY},
    });
    const open = await session(cheaper);
    expect(() => standIn.complete(open.id, {email: email(), paid: true, promotionCode: code.code})).toThrow(
      /minimum purchase/,
    );
  });

  test('refused on a session made without allow_promotion_codes, and an unknown code is invalid', async () => {
    const code = await promo((await percentCoupon()).id);
    const closed = await session(cheaper, {allow_promotion_codes: undefined});
    expect(() => standIn.complete(closed.id, {email: email(), paid: true, promotionCode: code.code})).toThrow(
      'This checkout does not accept promotion codes.',
    );
    const open = await session();
    expect(() => standIn.complete(open.id, {email: email(), paid: true, promotionCode: 'NO-SUCH-CODE'})).toThrow(
      'This code is invalid.',
    );
  });
});
