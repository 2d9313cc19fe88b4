/**
 * @jest-environment node
 *
 * Local mode's checkout, as a buyer and the terminal meet it: the Stripe stand-in's checkout page
 * shows the e-mail the session was given, or, for a session made for a customer (an upgrade, on
 * its purchase's customer), that customer's e-mail, locked as Stripe Checkout locks it; and each
 * payment prints one line (`[stripe] paid … as …`) naming what was bought: the plan, or the upgrade.
 * A session that takes promotion codes has the field for one, with Checkout's checks behind it.
 * One that collects consent to promotional e-mails has Checkout's box for it; a buyer who leaves
 * without paying lets the session expire, and its recovery link opens a new checkout of the same.
 */
import http from 'node:http';
import {getByRole} from '@testing-library/dom';
import {JSDOM} from 'jsdom';
import type Stripe from 'stripe';
import {appConfig, upgradeLabel, upgradesFrom} from '../../src/config';
import {PROMOTIONS_LABEL} from '../../scripts/local/stripeRecovery';
import {startStripeStandIn, type StripeStandIn} from '../../scripts/local/stripeApi';
import {listen} from '../../scripts/support/listen';
import {UPGRADE_KIND, UPGRADE_METADATA} from '../../worker/src/upgrades/metadata';
import {stripeClient} from '../../worker/src/payments/stripeClient';

const SITE = 'https://shop.example';
const EMAIL = 'buyer@example.com';
const lower = [...appConfig.plans].sort((a, b) => a.price - b.price)[0]!;
const higher = upgradesFrom(lower)[0]!;

let webhook: Awaited<ReturnType<typeof listen>>;
let hosted: StripeStandIn;
let stripe: Stripe;
/** What the stand-in printed, as `npm start` shows it after `[stripe]`. */
const printed: string[] = [];
/** The events the worker's webhook received. */
const received: Stripe.Event[] = [];

beforeAll(async () => {
  // The worker's webhook, as far as these pages care: it takes the event.
  webhook = await listen(
    http.createServer((request, response) => {
      let raw = '';
      request.on('data', (chunk) => (raw += chunk));
      request.on('end', () => {
        received.push(JSON.parse(raw) as Stripe.Event);
        response.end('{}');
      });
    }),
    0,
  );
  hosted = await startStripeStandIn({
    hostedPages: {webhookUrl: webhook.url, webhookSecret: 'whsec_local', onEvent: (line) => printed.push(line)},
  });
  stripe = stripeClient('sk_test_local_checkout', hosted.url);
});
afterAll(() => Promise.all([hosted.close(), webhook.close()]));

const urls = {success_url: `${SITE}/success`, cancel_url: `${SITE}/`};

/** The checkout page's e-mail field, as the buyer finds it. */
async function emailField(session: Stripe.Checkout.Session): Promise<HTMLInputElement> {
  const {document} = new JSDOM(await (await fetch(session.url!)).text()).window;
  return getByRole(document.body, 'textbox', {name: 'Email'}) as HTMLInputElement;
}

/** The buyer presses Pay with what the form holds: the stand-in completes the session and prints its line. */
async function pay(session: Stripe.Checkout.Session, email: string) {
  const response = await fetch(session.url!, {
    method: 'POST',
    body: new URLSearchParams({email, cardCountry: 'US'}),
    redirect: 'manual',
  });
  expect(response.status).toBe(303);
}

test("a first checkout shows the e-mail it was given, still to change, and the terminal names the plan paid for; the upgrade's then shows its customer's, locked, and the terminal names the upgrade", async () => {
  const first = await stripe.checkout.sessions.create({
    mode: 'payment',
    line_items: [{price: lower.priceId.test, quantity: 1}],
    customer_creation: 'always',
    customer_email: EMAIL,
    ...urls,
  });
  const given = await emailField(first);
  expect(given.value).toBe(EMAIL);
  expect(given.readOnly).toBe(false);
  await pay(first, EMAIL);
  expect(printed.at(-1)).toBe(`paid ${lower.name} as ${EMAIL} (${first.id}); webhook delivered`);

  // The upgrade, as the worker makes it: on the purchase's customer, which brings its own e-mail.
  const customer = hosted.sessions.get(first.id)!.customer as string;
  expect(hosted.customers.get(customer)?.email).toBe(EMAIL);
  const upgrade = await stripe.checkout.sessions.create({
    mode: 'payment',
    line_items: [{price: higher.priceId.test, quantity: 1}],
    customer,
    customer_update: {name: 'auto', address: 'auto'},
    metadata: {
      [UPGRADE_METADATA.kind]: UPGRADE_KIND,
      [UPGRADE_METADATA.upgradeOf]: first.id,
      [UPGRADE_METADATA.fromPlan]: lower.id,
      [UPGRADE_METADATA.toPlan]: higher.id,
    },
    ...urls,
  });
  const locked = await emailField(upgrade);
  expect(locked.value).toBe(EMAIL);
  expect(locked.readOnly).toBe(true);
  await pay(upgrade, locked.value);
  expect(printed.at(-1)).toBe(
    `paid ${upgradeLabel(lower.name, higher.name)} as ${EMAIL} (${upgrade.id}); webhook delivered`,
  );
});

test('a session given both a customer and an e-mail is refused, in Stripe’s words', async () => {
  const both = stripe.checkout.sessions.create({
    mode: 'payment',
    line_items: [{price: higher.priceId.test, quantity: 1}],
    customer: 'cus_someone',
    customer_email: EMAIL,
    ...urls,
  });
  await expect(both).rejects.toMatchObject({
    statusCode: 400,
    param: 'customer_email',
    message: 'You may only specify one of these parameters: customer, customer_email.',
  });
});

test('a session that takes promotion codes shows the optional field: a refused code gets Checkout’s words and a way back, an accepted one pays less', async () => {
  const coupon = await stripe.coupons.create({percent_off: 50, duration: 'once'});
  const {code} = await stripe.promotionCodes.create({promotion: {type: 'coupon', coupon: coupon.id}});
  const session = await stripe.checkout.sessions.create({
    mode: 'payment',
    line_items: [{price: lower.priceId.test, quantity: 1}],
    allow_promotion_codes: true,
    ...urls,
  });
  const {document} = new JSDOM(await (await fetch(session.url!)).text()).window;
  const field = getByRole(document.body, 'textbox', {name: 'Promotion code'}) as HTMLInputElement;
  expect(field.required).toBe(false);
  expect(field.name).toBe('promotionCode');

  const submit = (promotionCode: string) =>
    fetch(session.url!, {
      method: 'POST',
      body: new URLSearchParams({email: EMAIL, cardCountry: 'US', [field.name]: promotionCode}),
      redirect: 'manual',
    });
  const refused = await submit('NOT-A-CODE');
  expect(refused.status).toBe(400);
  const page = new JSDOM(await refused.text()).window.document;
  expect(page.body.textContent).toContain('This code is invalid.');
  expect(getByRole(page.body, 'link', {name: 'Back'}).getAttribute('href')).toBe(`/checkout/${session.id}`);
  expect(hosted.sessions.get(session.id)!.status).toBe('open');

  expect((await submit(code.toLowerCase())).status).toBe(303);
  const subtotal = hosted.prices.get(lower.priceId.test)!.unit_amount!;
  expect(hosted.sessions.get(session.id)).toMatchObject({
    payment_status: 'paid',
    amount_total: subtotal - Math.round(subtotal / 2),
    discounts: [{coupon: coupon.id}],
  });
});

test('a session collecting consent to promotional e-mails has Checkout’s box under the e-mail, unticked; leaving without paying expires it, tells the webhook and shows the recovery link, which opens a new checkout paid with the box ticked', async () => {
  const session = await stripe.checkout.sessions.create({
    mode: 'payment',
    line_items: [{price: lower.priceId.test, quantity: 1}],
    customer_email: EMAIL,
    consent_collection: {promotions: 'auto'},
    after_expiration: {recovery: {enabled: true}},
    ...urls,
  });
  const {document} = new JSDOM(await (await fetch(session.url!)).text()).window;
  const box = getByRole(document.body, 'checkbox', {name: PROMOTIONS_LABEL}) as HTMLInputElement;
  expect(box.checked).toBe(false);
  const email = getByRole(document.body, 'textbox', {name: 'Email'});
  expect(email.compareDocumentPosition(box) & document.defaultView!.Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  const leave = getByRole(document.body, 'button', {name: 'Leave without paying (let this checkout expire)'});
  expect(leave.hasAttribute('formnovalidate')).toBe(true);

  // The buyer ticks the box, then leaves.
  const left = await fetch(new URL(leave.getAttribute('formaction')!, session.url!), {
    method: 'POST',
    body: new URLSearchParams({email: EMAIL, cardCountry: 'US', [box.name]: box.value}),
  });
  expect(left.status).toBe(200);
  const page = new JSDOM(await left.text()).window.document;
  expect([...page.querySelectorAll('h1')].map((h1) => h1.textContent)).toEqual(['Checkout expired']);
  const recovery = getByRole(page.body, 'link', {name: 'Open the recovery link'}).getAttribute('href')!;
  const event = received.at(-1)!;
  expect(event.type).toBe('checkout.session.expired');
  expect(event.data.object).toMatchObject({
    id: session.id,
    status: 'expired',
    customer_details: {email: EMAIL},
    consent: {promotions: 'opt_in'},
    after_expiration: {recovery: {url: recovery}},
  });
  expect(printed.at(-1)).toBe(`expired ${session.id}; recovery link ${recovery}; webhook delivered`);
  expect((await fetch(session.url!)).status).toBe(410);

  const opened = await fetch(recovery, {redirect: 'manual'});
  expect(opened.status).toBe(303);
  const next = opened.headers.get('location')!;
  const copy = [...hosted.sessions.values()].find((candidate) => candidate.url === next)!;
  expect(copy).toMatchObject({recovered_from: session.id, status: 'open', customer_email: EMAIL});
  const response = await fetch(next, {
    method: 'POST',
    body: new URLSearchParams({email: EMAIL, cardCountry: 'US', [box.name]: box.value}),
    redirect: 'manual',
  });
  expect(response.status).toBe(303);
  expect(hosted.sessions.get(copy.id)).toMatchObject({payment_status: 'paid', consent: {promotions: 'opt_in'}});
  expect(received.at(-1)).toMatchObject({type: 'checkout.session.completed', data: {object: {id: copy.id}}});
});

test('a recovery link never given out answers a page saying so', async () => {
  const response = await fetch(`${hosted.url}/recover/not-a-token`);
  expect(response.status).toBe(404);
  const page = new JSDOM(await response.text()).window.document;
  expect(getByRole(page.body, 'heading', {level: 1}).textContent).toBe('Recovery link not valid');
  expect(page.body.textContent).toContain('This recovery link is unknown.');
});
