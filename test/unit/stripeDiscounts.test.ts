/**
 * @jest-environment node
 *
 * The Stripe stand-in's coupons and discounts, through the worker's own Stripe client: what an
 * upgrade's Checkout Session asks of Stripe, and what Stripe refuses.
 */
import type Stripe from 'stripe';
import {appConfig, planAmount, PLAN_CURRENCY} from '../../src/config';
import {useStripeStandIn} from '../support/stripeStandIn';

const [lower, higher] = [...appConfig.plans].sort((a, b) => a.price - b.price);
const session: Stripe.Checkout.SessionCreateParams = {
  mode: 'payment',
  line_items: [{price: higher!.priceId.test, quantity: 1}],
  success_url: 'https://shop.example/dashboard',
};

const running = useStripeStandIn();

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: Stripe.errors.StripeError) => ({status: error.statusCode, param: error.param, message: error.message}),
  );
const credit = () =>
  running().stripe.coupons.create({
    amount_off: planAmount(lower!),
    currency: PLAN_CURRENCY,
    duration: 'once',
    max_redemptions: 1,
    name: 'Credit',
  });

test("a coupon's amount is taken off the price: the session charges the rest, and says what was taken off", async () => {
  const coupon = await credit();
  const created = await running().stripe.checkout.sessions.create({...session, discounts: [{coupon: coupon.id}]});
  expect(created).toMatchObject({
    amount_subtotal: planAmount(higher!),
    amount_total: planAmount(higher!) - planAmount(lower!),
    total_details: {amount_discount: planAmount(lower!)},
    discounts: [{coupon: coupon.id, promotion_code: null}],
  });
});

test('discounts with allow_promotion_codes are refused, even false: Checkout takes one or the other', async () => {
  const coupon = await credit();
  // Stripe's answer, param included, as stripe/stripe-node#2248 quotes it.
  for (const allow of [true, false]) {
    expect(
      await refusal(
        running().stripe.checkout.sessions.create({
          ...session,
          discounts: [{coupon: coupon.id}],
          allow_promotion_codes: allow,
        }),
      ),
    ).toEqual({
      status: 400,
      param: 'allow_promotion_codes',
      message: 'You may only specify one of these parameters: allow_promotion_codes, discounts.',
    });
  }
});

test('an unknown coupon, and a coupon used up by a paid session, are refused', async () => {
  expect(
    await refusal(running().stripe.checkout.sessions.create({...session, discounts: [{coupon: 'nope'}]})),
  ).toMatchObject({status: 400, param: 'discounts[0][coupon]'});
  const coupon = await credit();
  const first = await running().stripe.checkout.sessions.create({...session, discounts: [{coupon: coupon.id}]});
  running().standIn.complete(first.id, {email: 'buyer@example.com', paid: true});
  expect(running().standIn.coupons.get(coupon.id)).toMatchObject({times_redeemed: 1, valid: false});
  expect(
    await refusal(running().stripe.checkout.sessions.create({...session, discounts: [{coupon: coupon.id}]})),
  ).toMatchObject({status: 400, message: `Coupon expired: ${coupon.id}`});
});

test('a coupon needs one of amount_off and percent_off, a currency with amount_off, and a short name', async () => {
  expect(await refusal(running().stripe.coupons.create({duration: 'once'}))).toMatchObject({
    status: 400,
    param: 'amount_off',
  });
  expect(await refusal(running().stripe.coupons.create({amount_off: 100, duration: 'once'}))).toMatchObject({
    status: 400,
    param: 'currency',
  });
  expect(
    await refusal(running().stripe.coupons.create({amount_off: 100, currency: PLAN_CURRENCY, name: 'x'.repeat(41)})),
  ).toMatchObject({status: 400, param: 'name'});
});
