/**
 * @jest-environment node
 *
 * The config's checkout switches as the worker sends them (`checkoutOptions`), through the worker's
 * own Stripe client to the Stripe stand-in: what each switch asks of Stripe, what Stripe refuses
 * until the seller has set up the account, and what the buyer then sees and gets.
 */
import http from 'node:http';
import {getByRole} from '@testing-library/dom';
import {JSDOM} from 'jsdom';
import type Stripe from 'stripe';
import {appConfig, type AppConfig, immediateDeliveryRequest, ROUTES} from '../../src/config';
import {startStripeStandIn, type StripeStandIn} from '../../scripts/local/stripeApi';
import {listen} from '../../scripts/support/listen';
import {checkoutOptions} from '../../worker/src/payments/checkoutOptions';
import {stripeClient} from '../../worker/src/payments/stripeClient';

const SITE = 'https://shop.example';
const ALL_OFF: AppConfig['checkout'] = {
  calculateTax: false,
  collectTaxIds: false,
  invoiceEveryPurchase: false,
  requireTermsAcceptance: false,
  recoverAbandoned: false,
  reminderDelayHours: 1,
  adaptivePricing: false,
};
const priceId = appConfig.plans[0]!.priceId.test;

let stripeApi: StripeStandIn;
let stripe: Stripe;
beforeEach(async () => {
  stripeApi = await startStripeStandIn();
  stripe = stripeClient('sk_test_checkout_options', stripeApi.url);
});
afterEach(() => stripeApi.close());

function create(switches: Partial<AppConfig['checkout']>) {
  return stripe.checkout.sessions.create({
    mode: 'payment',
    line_items: [{price: priceId, quantity: 1}],
    success_url: `${SITE}/success`,
    cancel_url: `${SITE}/`,
    ...checkoutOptions(SITE, {...ALL_OFF, ...switches}),
  });
}
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: Stripe.errors.StripeError) => ({status: error.statusCode, param: error.param, message: error.message}),
  );

test('all off: none of the four parameters reaches Stripe, and the session has no invoice or terms box', async () => {
  const session = await create({});
  expect(Object.keys(stripeApi.created[0]!)).toEqual(
    expect.not.arrayContaining([
      'automatic_tax',
      'tax_id_collection',
      'invoice_creation',
      'consent_collection',
      'custom_text',
    ]),
  );
  expect(session.invoice_creation).toBeNull();
  expect(session.consent_collection).toBeNull();
  const paid = stripeApi.complete(session.id, {email: 'buyer@example.com', paid: true});
  expect(paid.invoice).toBeNull();
});

test("local currencies: the switch turns Adaptive Pricing on, and off it stays off whatever the dashboard's setting", async () => {
  // A new account's dashboard has it on: the session follows the config, not the dashboard.
  expect(stripeApi.dashboardSettings.adaptivePricing).toBe(true);
  const off = await create({});
  expect(stripeApi.created[0]).toMatchObject({adaptive_pricing: {enabled: 'false'}});
  expect(off.adaptive_pricing).toEqual({enabled: false});
  stripeApi.dashboardSettings.adaptivePricing = false;
  const on = await create({adaptivePricing: true});
  expect(stripeApi.created[1]).toMatchObject({adaptive_pricing: {enabled: 'true'}});
  expect(on.adaptive_pricing).toEqual({enabled: true});
  // Stripe still states the amounts in the plans' currency: what the worker checks a payment against.
  expect(on.currency).toBe(off.currency);
  expect(on.amount_total).toBe(off.amount_total);
});

test('tax IDs: Checkout offers the field', async () => {
  const session = await create({collectTaxIds: true});
  expect(stripeApi.created[0]).toMatchObject({tax_id_collection: {enabled: 'true'}});
  expect(session.tax_id_collection).toMatchObject({enabled: true});
});

test('an invoice for every purchase: the paid session has a paid invoice with its hosted page', async () => {
  const session = await create({invoiceEveryPurchase: true});
  expect(stripeApi.created[0]).toMatchObject({invoice_creation: {enabled: 'true'}});
  const paid = stripeApi.complete(session.id, {email: 'buyer@example.com', paid: true});
  const invoice = await stripe.invoices.retrieve(paid.invoice as string);
  expect(invoice).toMatchObject({
    status: 'paid',
    amount_paid: paid.amount_total,
    hosted_invoice_url: expect.stringMatching(/^https:\/\//),
  });
});

test('Stripe Tax: refused until it is set up in the dashboard, then asked for', async () => {
  expect(await refusal(create({calculateTax: true}))).toEqual({
    status: 400,
    param: 'automatic_tax[enabled]',
    message: expect.stringContaining('Stripe Tax has not been activated'),
  });
  stripeApi.dashboardSettings.taxActive = true;
  const session = await create({calculateTax: true});
  expect(session.automatic_tax.enabled).toBe(true);
});

test("terms acceptance: refused until the terms' URL is set in the dashboard; then a required box with the terms link and the EU request", async () => {
  expect(await refusal(create({requireTermsAcceptance: true}))).toEqual({
    status: 400,
    param: 'consent_collection[terms_of_service]',
    message: expect.stringContaining('terms of service unless a URL is set in the Stripe Dashboard'),
  });
  stripeApi.dashboardSettings.termsOfServiceUrl = `${SITE}${ROUTES.terms}`;
  const session = await create({requireTermsAcceptance: true});
  expect(session.consent_collection?.terms_of_service).toBe('required');
  const text = session.custom_text.terms_of_service_acceptance?.message ?? '';
  expect(text).toContain(`(${SITE}${ROUTES.terms})`);
  expect(text).toContain(immediateDeliveryRequest);
  expect(text.length).toBeLessThanOrEqual(1200);
  expect(stripeApi.complete(session.id, {email: 'buyer@example.com', paid: true}).consent).toEqual({
    terms_of_service: 'accepted',
    promotions: null,
  });
});

test("recovery: a purchase's session asks for consent to offers and a recovery link that takes codes as the session does; an upgrade's asks for neither", async () => {
  const recover = {...ALL_OFF, recoverAbandoned: true};
  const purchaseSession = () =>
    stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{price: priceId, quantity: 1}],
      success_url: `${SITE}/success`,
      cancel_url: `${SITE}/`,
      ...checkoutOptions(SITE, recover, {promotionCodes: false}),
    });
  const purchase = await purchaseSession();
  expect(purchase.consent_collection?.promotions).toBe('auto');
  expect(purchase.after_expiration?.recovery).toMatchObject({enabled: true, allow_promotion_codes: false});
  // With the terms box too: one consent_collection holds both.
  stripeApi.dashboardSettings.termsOfServiceUrl = `${SITE}${ROUTES.terms}`;
  expect(checkoutOptions(SITE, {...recover, requireTermsAcceptance: true}, {promotionCodes: true})).toMatchObject({
    consent_collection: {terms_of_service: 'required', promotions: 'auto'},
    after_expiration: {recovery: {enabled: true, allow_promotion_codes: true}},
  });
  // No `recovery` (an upgrade's session), or the switch off: neither parameter.
  for (const options of [checkoutOptions(SITE, recover), checkoutOptions(SITE, ALL_OFF, {promotionCodes: true})]) {
    expect(options).not.toHaveProperty('consent_collection');
    expect(options).not.toHaveProperty('after_expiration');
  }
  // Stripe asks for consent to offers for US accounts only: elsewhere it refuses the session.
  stripeApi.account.country = 'DE';
  expect(await refusal(purchaseSession())).toMatchObject({
    status: 400,
    param: 'consent_collection[promotions]',
  });
});

test('the terms text alone, without the box, is refused as Stripe refuses it', async () => {
  const body = {
    mode: 'payment',
    line_items: [{price: priceId, quantity: 1}],
    success_url: `${SITE}/success`,
    cancel_url: `${SITE}/`,
  };
  const alone = stripe.checkout.sessions.create({
    ...body,
    custom_text: {terms_of_service_acceptance: {message: 'I agree.'}},
  });
  expect(await refusal(alone)).toMatchObject({status: 400, param: 'custom_text[terms_of_service_acceptance]'});
});

test("the local checkout page shows the required box with the session's text and the terms link, and will not take a payment without it", async () => {
  // The worker's webhook, as far as this page cares: it takes the event.
  const webhook = await listen(
    http.createServer((_request, response) => response.end('{}')),
    0,
  );
  const hosted = await startStripeStandIn({
    hostedPages: {webhookUrl: webhook.url, webhookSecret: 'whsec_local'},
    dashboardSettings: {termsOfServiceUrl: `${SITE}${ROUTES.terms}`},
  });
  try {
    const client = stripeClient('sk_test_checkout_page', hosted.url);
    const session = await client.checkout.sessions.create({
      mode: 'payment',
      line_items: [{price: priceId, quantity: 1}],
      success_url: `${SITE}/success`,
      cancel_url: `${SITE}/`,
      ...checkoutOptions(SITE, {...ALL_OFF, requireTermsAcceptance: true}),
    });
    const {document} = new JSDOM(await (await fetch(session.url!)).text()).window;
    const box = getByRole(document.body, 'checkbox', {name: new RegExp(immediateDeliveryRequest.slice(0, 30))});
    expect(box).toBeRequired();
    expect(getByRole(document.body, 'link', {name: 'Terms of Service'})).toHaveAttribute(
      'href',
      `${SITE}${ROUTES.terms}`,
    );

    const pay = (form: Record<string, string>) =>
      fetch(session.url!, {method: 'POST', body: new URLSearchParams(form), redirect: 'manual'});
    const refused = await pay({email: 'buyer@example.com'});
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('Tick the box to accept the terms');
    expect(hosted.sessions.get(session.id)?.status).toBe('open');
    expect((await pay({email: 'buyer@example.com', terms: 'accepted'})).status).toBe(303);
    expect(hosted.sessions.get(session.id)).toMatchObject({
      status: 'complete',
      consent: {terms_of_service: 'accepted'},
    });
  } finally {
    await Promise.all([hosted.close(), webhook.close()]);
  }
});
