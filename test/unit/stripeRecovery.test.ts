/**
 * @jest-environment node
 *
 * Abandoned-cart recovery and consent to promotional e-mails at the Stripe stand-in, through the
 * worker's own Stripe client: the parameters Stripe takes and refuses, the consent a buyer gives at
 * Checkout, the session once it expires (`checkout.session.expired`, with its recovery URL for 30
 * days when recovery is on), Stripe's expire endpoint, and the new session a recovery URL makes.
 */
import type Stripe from 'stripe';
import {appConfig} from '../../src/config';
import {startStripeStandIn, type StripeStandIn} from '../../scripts/local/stripeApi';
import {PROMOTIONS_LABEL, RECOVERY_DAYS} from '../../scripts/local/stripeRecovery';
import {stripeClient} from '../../worker/src/payments/stripeClient';

const SITE = 'https://shop.example';
const EMAIL = 'buyer@example.com';
const DAY = 24 * 3600;
const plan = [...appConfig.plans].sort((a, b) => a.price - b.price)[0]!;
const seconds = () => Math.floor(Date.now() / 1000);

let standIn: StripeStandIn;
let stripe: Stripe;
beforeAll(async () => {
  standIn = await startStripeStandIn();
  stripe = stripeClient('sk_test_recovery', standIn.url);
});
afterAll(() => standIn.close());
afterEach(() => {
  standIn.account.country = 'US';
  standIn.dashboardSettings.termsOfServiceUrl = null;
  jest.restoreAllMocks();
});

/** A session for the plan, as the worker makes one, with these parameters besides. */
const session = (params: Partial<Stripe.Checkout.SessionCreateParams> = {}) =>
  stripe.checkout.sessions.create({
    mode: 'payment',
    line_items: [{price: plan.priceId.test, quantity: 1}],
    success_url: `${SITE}/success`,
    cancel_url: `${SITE}/`,
    ...params,
  });

const recoverable = (params: Partial<Stripe.Checkout.SessionCreateParams> = {}) =>
  session({after_expiration: {recovery: {enabled: true}}, ...params});

const expiredObject = (event: Stripe.Event) => event.data.object as Stripe.Checkout.Session;

describe('consent to promotional e-mails', () => {
  test('a session made with promotions auto records the box ticked as opt_in, unticked as opt_out; the terms beside it as before', async () => {
    expect(PROMOTIONS_LABEL).toBe('Keep me updated with news and personalized offers');
    standIn.dashboardSettings.termsOfServiceUrl = `${SITE}/terms`;
    const both = {consent_collection: {promotions: 'auto', terms_of_service: 'required'}} as const;
    const ticked = await session(both);
    expect(ticked.consent_collection).toMatchObject({promotions: 'auto', terms_of_service: 'required'});
    expect(ticked.consent).toBeNull();
    expect(standIn.complete(ticked.id, {email: EMAIL, paid: true, promotions: true}).consent).toEqual({
      promotions: 'opt_in',
      terms_of_service: 'accepted',
    });
    const unticked = await session(both);
    expect(standIn.complete(unticked.id, {email: EMAIL, paid: true}).consent).toEqual({
      promotions: 'opt_out',
      terms_of_service: 'accepted',
    });
  });

  test('a session that does not collect it records nothing, whatever the buyer sends', async () => {
    const none = await session({consent_collection: {promotions: 'none'}});
    expect(none.consent_collection?.promotions).toBe('none');
    expect(standIn.complete(none.id, {email: EMAIL, paid: true, promotions: true}).consent).toBeNull();
    const plain = await session();
    expect(plain.consent_collection).toBeNull();
    expect(standIn.complete(plain.id, {email: EMAIL, paid: true, promotions: true}).consent).toBeNull();
  });

  test('auto is refused for an account outside the United States; a value other than auto or none is refused as Stripe refuses an enum', async () => {
    standIn.account.country = 'FR';
    await expect(session({consent_collection: {promotions: 'auto'}})).rejects.toMatchObject({
      statusCode: 400,
      type: 'StripeInvalidRequestError',
      param: 'consent_collection[promotions]',
      message: expect.stringContaining('United States'),
    });
    await expect(session({consent_collection: {promotions: 'none'}})).resolves.toMatchObject({
      consent_collection: {promotions: 'none'},
    });
    standIn.account.country = 'US';
    await expect(session({consent_collection: {promotions: 'always'}})).rejects.toMatchObject({
      statusCode: 400,
      param: 'consent_collection[promotions]',
      message: 'Invalid consent_collection[promotions]: must be one of auto or none',
    });
  });
});

describe('creating a session with recovery', () => {
  test('after_expiration is answered as configured, without a URL until the session expires; recovered_from is null', async () => {
    const created = await recoverable({
      after_expiration: {recovery: {enabled: true, allow_promotion_codes: true}},
    });
    expect(created.after_expiration).toEqual({
      recovery: {enabled: true, allow_promotion_codes: true, expires_at: null, url: null},
    });
    expect(created.recovered_from).toBeNull();
    expect(created.expires_at).toBe(created.created + DAY);
    const plain = await session();
    expect(plain.after_expiration).toBeNull();
    expect(plain.recovered_from).toBeNull();
  });

  test("recovery's promotion codes are refused with discounts, as allow_promotion_codes is", async () => {
    const coupon = await stripe.coupons.create({percent_off: 10, duration: 'once'});
    const withCodes = {after_expiration: {recovery: {enabled: true, allow_promotion_codes: true}}};
    await expect(session({...withCodes, discounts: [{coupon: coupon.id}]})).rejects.toMatchObject({
      statusCode: 400,
      param: 'after_expiration[recovery][allow_promotion_codes]',
      message:
        'You may only specify one of these parameters: after_expiration[recovery][allow_promotion_codes], discounts.',
    });
    await expect(session({allow_promotion_codes: true, discounts: [{coupon: coupon.id}]})).rejects.toMatchObject({
      param: 'allow_promotion_codes',
      message: 'You may only specify one of these parameters: allow_promotion_codes, discounts.',
    });
    // Without codes on recovery, the discount stays, and the recovered session keeps it.
    const discounted = await recoverable({discounts: [{coupon: coupon.id}]});
    expect(discounted.discounts).toEqual([{coupon: coupon.id, promotion_code: null}]);
    const url = expiredObject(standIn.expire(discounted.id)).after_expiration!.recovery!.url!;
    expect(standIn.recover(url)).toMatchObject({
      discounts: [{coupon: coupon.id, promotion_code: null}],
      amount_total: discounted.amount_total,
      allow_promotion_codes: false,
    });
  });
});

describe('a session expiring', () => {
  test('with recovery on: checkout.session.expired carries the e-mail typed, the consent and a recovery URL for 30 days', async () => {
    const created = await recoverable({consent_collection: {promotions: 'auto'}});
    const before = seconds();
    const event = standIn.expire(created.id, {email: EMAIL, promotions: true});
    expect(event.type).toBe('checkout.session.expired');
    const expired = expiredObject(event);
    expect(expired).toMatchObject({
      id: created.id,
      status: 'expired',
      payment_status: 'unpaid',
      url: null,
      customer_details: {email: EMAIL},
      consent: {promotions: 'opt_in', terms_of_service: null},
    });
    const recovery = expired.after_expiration!.recovery!;
    expect(recovery.url).toMatch(new RegExp(`^${standIn.url}/recover/[\\w-]+$`));
    expect(recovery.expires_at).toBeGreaterThanOrEqual(before + RECOVERY_DAYS * DAY);
    expect(recovery.expires_at).toBeLessThanOrEqual(seconds() + RECOVERY_DAYS * DAY);
    expect(standIn.sessions.get(created.id)).toEqual(expired);
  });

  test('without recovery: no URL; the e-mail is the session’s own when none was typed, and consent unknown', async () => {
    const plain = await session({customer_email: EMAIL, consent_collection: {promotions: 'auto'}});
    const expired = expiredObject(standIn.expire(plain.id));
    expect(expired).toMatchObject({status: 'expired', customer_details: {email: EMAIL}, consent: null});
    expect(expired.after_expiration).toBeNull();
    const off = await session({after_expiration: {recovery: {enabled: false}}});
    expect(expiredObject(standIn.expire(off.id, {promotions: false})).after_expiration).toEqual({
      recovery: {enabled: false, allow_promotion_codes: false, expires_at: null, url: null},
    });
    const nobody = await recoverable();
    expect(expiredObject(standIn.expire(nobody.id)).customer_details).toBeNull();
  });

  test('only an open session expires: a paid one, or one expired already, throws why', async () => {
    const paid = await recoverable();
    standIn.complete(paid.id, {email: EMAIL, paid: true});
    expect(() => standIn.expire(paid.id)).toThrow(
      `Session ${paid.id} is complete: Only Checkout Sessions with a status in ["open"] can be expired.`,
    );
    const twice = await recoverable();
    standIn.expire(twice.id);
    expect(() => standIn.expire(twice.id)).toThrow(/is expired: Only Checkout Sessions/);
    expect(standIn.sessions.get(paid.id)!.status).toBe('complete');
  });

  test("Stripe's expire endpoint expires an open session, with its recovery URL, and refuses it the second time in Stripe's words", async () => {
    const created = await recoverable();
    const expired = await stripe.checkout.sessions.expire(created.id);
    expect(expired).toMatchObject({id: created.id, status: 'expired', url: null});
    expect(expired.after_expiration?.recovery?.url).toMatch(/\/recover\//);
    await expect(stripe.checkout.sessions.expire(created.id)).rejects.toMatchObject({
      statusCode: 400,
      type: 'StripeInvalidRequestError',
      message: 'Only Checkout Sessions with a status in ["open"] can be expired.',
      param: undefined,
    });
    await expect(stripe.checkout.sessions.expire('cs_test_nothing')).rejects.toMatchObject({
      statusCode: 404,
      message: "No such checkout.session: 'cs_test_nothing'",
    });
  });
});

describe('recovering a session', () => {
  /** A session made for the recovery, expired with the buyer's e-mail: its recovery URL. */
  async function abandoned(params: Partial<Stripe.Checkout.SessionCreateParams> = {}) {
    const created = await recoverable({
      customer_email: EMAIL,
      client_reference_id: 'user-1',
      metadata: {plan: plan.name, source: 'pricing'},
      consent_collection: {promotions: 'auto'},
      ...params,
    });
    const expired = expiredObject(standIn.expire(created.id, {email: EMAIL, promotions: true}));
    return {created, url: expired.after_expiration!.recovery!.url!};
  }

  test('the recovery URL makes a new open session, a copy of the expired one, recovered_from it; each opening another', async () => {
    const {created, url} = await abandoned({
      after_expiration: {recovery: {enabled: true, allow_promotion_codes: true}},
    });
    const recovered = standIn.recover(url);
    expect(recovered.id).not.toBe(created.id);
    expect(recovered).toMatchObject({
      status: 'open',
      payment_status: 'unpaid',
      recovered_from: created.id,
      allow_promotion_codes: true,
      mode: 'payment',
      customer_email: EMAIL,
      client_reference_id: 'user-1',
      metadata: {plan: plan.name, source: 'pricing'},
      success_url: `${SITE}/success`,
      cancel_url: `${SITE}/`,
      amount_total: created.amount_total,
      consent_collection: {promotions: 'auto'},
      consent: null,
      customer_details: null,
      after_expiration: {recovery: {enabled: true, allow_promotion_codes: true, url: null, expires_at: null}},
    });
    expect(recovered.expires_at).toBe(recovered.created + DAY);
    const items = await stripe.checkout.sessions.retrieve(recovered.id, {expand: ['line_items']});
    expect(items.line_items!.data.map(({price, quantity}) => [price!.id, quantity])).toEqual([[plan.priceId.test, 1]]);
    const again = standIn.recover(url);
    expect(again.id).not.toBe(recovered.id);
    expect(again.recovered_from).toBe(created.id);
  });

  test('the recovered session can be completed and paid, and records the new consent', async () => {
    const {url} = await abandoned();
    const recovered = standIn.recover(url);
    expect(recovered.allow_promotion_codes).toBe(false);
    const paid = standIn.complete(recovered.id, {email: EMAIL, paid: true, promotions: false});
    expect(paid).toMatchObject({status: 'complete', payment_status: 'paid', consent: {promotions: 'opt_out'}});
    expect(standIn.payments.get(paid.payment_intent as string)!.charge.amount).toBe(recovered.amount_total);
  });

  test('a recovery URL past its 30 days, or one never given out, makes no session', async () => {
    const {url} = await abandoned();
    const count = standIn.sessions.size;
    const realNow = Date.now.bind(Date);
    jest.spyOn(Date, 'now').mockImplementation(() => realNow() + RECOVERY_DAYS * DAY * 1000 - 60_000);
    expect(standIn.recover(url).status).toBe('open');
    jest.spyOn(Date, 'now').mockImplementation(() => realNow() + RECOVERY_DAYS * DAY * 1000 + 60_000);
    expect(() => standIn.recover(url)).toThrow(`This recovery link expired after ${RECOVERY_DAYS} days.`);
    expect(() => standIn.recover(`${standIn.url}/recover/not-a-token`)).toThrow('This recovery link is unknown.');
    expect(standIn.sessions.size).toBe(count + 1);
  });
});
