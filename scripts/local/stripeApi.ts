/**
 * A stand-in for Stripe's API (Stripe has no offline server): the few endpoints the worker calls,
 * answering objects typed with the `stripe` package's own types so they cannot drift from the
 * real shapes. Tests complete, fail and expire sessions the way a buyer and Stripe would.
 */
import {randomBytes} from 'node:crypto';
import http from 'node:http';
import qs from 'qs';
import Stripe from 'stripe';
import {
  appConfig,
  findPlanByPriceId,
  type Plan,
  PLAN_CURRENCY,
  planPrices,
  storedPlanName,
  upgradeLabel,
} from '../../src/config';
import {HANDLED_STRIPE_EVENTS} from '../../worker/src/webhooks/stripeEvents';
import {FAIR_PRICE_COUNTRY_KEY} from '../../worker/src/payments/fairPriceCheckout';
import {isUpgradeSession, UPGRADE_METADATA} from '../../worker/src/upgrades/metadata';
import {listen} from '../support/listen';
import {checkoutPage, messagePage, type SessionItem} from './stripeCheckoutPage';
import {connectStandIn, type ConnectStandIn} from './stripeConnect';
import {
  codeAtCheckout,
  listPromotionCodes,
  customerPaidBefore,
  promotionCodeOrRefusal,
  updatedPromotionCodeOrRefusal,
} from './stripePromotionCodes';
import {
  afterExpirationOf,
  consentGiven,
  expiredSession,
  notOneOf,
  ONLY_OPEN_EXPIRE,
  recoveredFields,
  recoveryLinkRefusal,
  recoveryRefusal,
  recoveryTakesCodes,
  SESSION_LIFETIME_SECONDS,
  type RecoveryParams,
  type TypedBeforeLeaving,
} from './stripeRecovery';

/** Local mode: sessions get a checkout page on this stand-in whose Pay button fulfils them. */
export interface HostedPages {
  /** Where Stripe would deliver events: the worker's webhook. */
  webhookUrl: string;
  webhookSecret: string;
  /** Told of each payment and portal visit, for the terminal. */
  onEvent?: (line: string) => void;
}

export interface StripeStandInOptions {
  port?: number;
  hostedPages?: HostedPages;
  /** The account's dashboard settings at start: a fresh account's (none) unless given. */
  dashboardSettings?: Partial<AccountSettings>;
  /** The plans whose prices it sells: the config's, unless a test's worker was built with others. */
  plans?: readonly Plan[];
}

/** What the seller sets in Stripe's dashboard that Checkout's parameters depend on. */
export interface AccountSettings {
  /** Settings, Public details: the terms' URL. `consent_collection.terms_of_service` needs one. */
  termsOfServiceUrl: string | null;
  /** Stripe Tax set up (head office address, registrations). `automatic_tax` needs it. */
  taxActive: boolean;
  /** Settings, Adaptive Pricing: what a session without `adaptive_pricing` gets (Stripe turns it on for new accounts). */
  adaptivePricing: boolean;
}

export interface StripeStandIn {
  url: string;
  sessions: Map<string, Stripe.Checkout.Session>;
  /** Bodies of the checkout sessions the worker created, as Stripe received them. */
  created: Record<string, unknown>[];
  /** The account's dashboard settings; a test changes them as a seller would. */
  dashboardSettings: AccountSettings;
  /** Invoices by id: the one Checkout makes after a paid session with `invoice_creation` on. */
  invoices: Map<string, Stripe.Invoice>;
  portals: Record<string, unknown>[];
  /**
   * The buyer pays (or starts an async payment that has not cleared yet), having ticked the terms'
   * box when the session asks for it. A paid session with `invoice_creation` gets its invoice.
   * The card is from `cardCountry`: by default the fair-price country the session was made for,
   * else the United States. `paidWith` another method than a card: Link (its funding source in
   * `cardCountry`, as Stripe's `payment_method_details.link.country`) or Cash App (no country).
   * `cardFingerprint`: Stripe's fingerprint of the card number, the same for every payment with
   * that card; by default each payment's card is a card of its own.
   * `promotionCode`: the code the buyer typed into Checkout's field, matched regardless of case among
   * active codes; one Stripe would refuse throws an Error whose message is what Checkout tells the
   * buyer, and the session is left as it was. A paid session redeems the code once.
   * `promotions`: the box for promotional e-mails ticked, for a session that shows it
   * (`consent_collection.promotions: 'auto'`); its `consent.promotions` is then `opt_in`, else `opt_out`.
   */
  complete(
    id: string,
    options: {
      email: string;
      paid: boolean;
      cardCountry?: string;
      paidWith?: PaidWith;
      cardFingerprint?: string;
      promotionCode?: string;
      promotions?: boolean;
    },
  ): Stripe.Checkout.Session;
  /**
   * The open session reaches its expiry unpaid, the buyer having typed `email` and ticked the
   * promotions box or not (`promotions`) before leaving: it becomes `expired`, with that e-mail
   * (else its `customer_email`) and consent; with `after_expiration.recovery` enabled, a recovery
   * URL on this stand-in, usable for 30 days. Answers the `checkout.session.expired` event Stripe
   * sends, which local mode delivers to the worker's webhook. A session not open throws an Error.
   */
  expire(id: string, typed?: TypedBeforeLeaving): Stripe.Event;
  /**
   * The buyer opens a recovery URL (from `expire`'s event): a new open session, a copy of the expired
   * one, `recovered_from` it; each opening makes another. An unknown URL, or one past its 30 days,
   * throws an Error saying so.
   */
  recover(url: string): Stripe.Checkout.Session;
  /** Stripe's answer to the later async payment. */
  settle(id: string, paid: boolean): Stripe.Checkout.Session;
  /** A session that already exists, e.g. one made long ago. */
  add(session: Partial<Stripe.Checkout.Session>): Stripe.Checkout.Session;
  /** The next API call matching `METHOD /path` answers this Stripe error instead. */
  failNext(match: string, status: number, error: {type: string; message: string; code?: string}): void;
  /** Payments by payment intent id: each completed session's, with its one charge. */
  payments: Map<string, Payment>;
  /** Bodies of the refunds the worker created, as Stripe received them. */
  refundsCreated: Record<string, unknown>[];
  /** The `charge.refunded` event Stripe sends after a refund of this payment, from the charge as it now is. */
  refundedEvent(paymentIntentId: string): Stripe.Event;
  /**
   * The refund fails later, as Stripe's does when the card was closed or reported lost (its test
   * card 4000 0000 0000 5126): its status becomes `failed` with a `failure_reason`, the money goes
   * back to the seller's balance, and the charge's `amount_refunded` goes down by it. Answers the
   * `charge.refund.updated` event Stripe then sends, the refund as it now is.
   */
  failRefund(refundId: string, failureReason?: Stripe.Refund['failure_reason']): Stripe.Event;
  /**
   * The account's prices by id: at start, each plan's test and production price as the site shows
   * it. A key sees only the objects of its own mode (`livemode`), as at Stripe.
   */
  prices: Map<string, Stripe.Price>;
  /** Coupons by id, as the worker created them (an upgrade's credit), with their redemptions. */
  coupons: Map<string, Stripe.Coupon>;
  /** Promotion codes by id: the customer-facing codes made on coupons, with their redemptions. */
  promotionCodes: Map<string, Stripe.PromotionCode>;
  /**
   * Customers by id: each one Checkout made when a session completed, with the e-mail entered
   * there. A session made for a customer (`customer`) shows its e-mail, prefilled and locked.
   */
  customers: Map<string, Stripe.Customer>;
  /** The account's webhook endpoints: in local mode, one at the worker's webhook. */
  webhookEndpoints: Stripe.WebhookEndpoint[];
  /**
   * The account itself (`GET /v1/account`): at start activated, in the United States, with the
   * config's support e-mail. Its `country` decides whether Checkout may ask for consent to offers.
   */
  account: Stripe.Account;
  /** The account's customer portal configurations: at start, a default one in each mode. */
  portalConfigurations: Stripe.BillingPortal.Configuration[];
  /** Stripe Connect (./stripeConnect.ts): connected accounts, their links, transfers and the balance. */
  connect: ConnectStandIn;
  close: () => Promise<void>;
}

/** A payment intent and the charge it made (Checkout makes one charge per payment). */
export interface Payment {
  intent: Stripe.PaymentIntent;
  charge: Stripe.Charge;
}

type StripeErrorBody = {
  type: string;
  message: string;
  code?: Stripe.PaymentIntent.LastPaymentError.Code;
  param?: string;
};

const REFUND_REASONS = [
  'duplicate',
  'fraudulent',
  'requested_by_customer',
] as const satisfies readonly Stripe.RefundCreateParams.Reason[];

let counter = 0;
const nextId = (prefix: string) =>
  `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 8)}`;

function lineItems(item: SessionItem | null): Stripe.ApiList<Stripe.LineItem> {
  const data = item?.price
    ? [
        {
          id: nextId('li_'),
          object: 'item',
          price: {id: item.price, object: 'price'},
          quantity: item.quantity,
        } as unknown as Stripe.LineItem,
      ]
    : [];
  return {object: 'list', data, has_more: false, url: '/v1/checkout/sessions/line_items'};
}

export function newSession(fields: Partial<Stripe.Checkout.Session> = {}): Stripe.Checkout.Session {
  const id = fields.id ?? nextId('cs_test_');
  return {
    id,
    object: 'checkout.session',
    mode: 'payment',
    status: 'open',
    payment_status: 'unpaid',
    created: Math.floor(Date.now() / 1000),
    customer: null,
    customer_email: null,
    customer_details: null,
    client_reference_id: null,
    payment_intent: null,
    metadata: {},
    url: `https://checkout.stripe.com/c/pay/${id}`,
    livemode: false,
    expires_at: (fields.created ?? Math.floor(Date.now() / 1000)) + SESSION_LIFETIME_SECONDS,
    after_expiration: null,
    recovered_from: null,
    ...fields,
  } as Stripe.Checkout.Session;
}

const signer = new Stripe('sk_test_local_signing_only');
let eventCounter = 0;

/** A Stripe event around an object, as Stripe would send it. */
export function stripeEvent<T extends Stripe.Event['type']>(
  type: T,
  object: Extract<Stripe.Event, {type: T}>['data']['object'],
  id = `evt_test_${Date.now().toString(36)}${(eventCounter++).toString(36)}`,
): Stripe.Event {
  return {
    id,
    object: 'event',
    api_version: '2025-01-27.acacia',
    created: Math.floor(Date.now() / 1000),
    type,
    data: {object},
    livemode: false,
    pending_webhooks: 1,
    request: {id: null, idempotency_key: null},
  } as unknown as Stripe.Event;
}

/** The `stripe-signature` header Stripe would send with this raw payload. */
export function signStripePayload(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return signer.webhooks.generateTestHeaderString({payload, secret, timestamp});
}

/**
 * Delivers an event the way Stripe does: a signed POST of the raw event to the worker's webhook.
 * Answers how it went, for the terminal: `webhook delivered`, or `webhook failed: <why>`.
 */
async function deliver(event: Stripe.Event, hosted: HostedPages): Promise<string> {
  const payload = JSON.stringify(event);
  const delivered = await fetch(hosted.webhookUrl, {
    method: 'POST',
    headers: {'content-type': 'application/json', 'stripe-signature': signStripePayload(payload, hosted.webhookSecret)},
    body: payload,
  }).catch((error: Error) => error);
  const failure =
    delivered instanceof Error
      ? delivered.message
      : delivered.ok
        ? null
        : `${delivered.status} ${await delivered.text()}`;
  return `webhook ${failure ? `failed: ${failure}` : 'delivered'}`;
}

/** Whether the text has an e-mail's shape, as Checkout's field checks it. */
const looksLikeEmail = (text: string) => /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(text);

/** How the buyer paid: Checkout offers every method the seller turned on, not only cards. */
export type PaidWith = 'card' | 'link' | 'cashapp';

/** The charge's `payment_method_details` for a payment method, as Stripe gives them. */
function methodDetails(paidWith: PaidWith, country: string, fingerprint: string): Stripe.Charge.PaymentMethodDetails {
  if (paidWith === 'link') return {type: 'link', link: {country}} as Stripe.Charge.PaymentMethodDetails;
  if (paidWith === 'cashapp')
    return {
      type: 'cashapp',
      cashapp: {buyer_id: 'C_0000000000', cashtag: '$buyer'},
    } as Stripe.Charge.PaymentMethodDetails;
  // Stripe's test card 4242 4242 4242 4242, issued in the country the payer picked.
  return {
    type: 'card',
    card: {brand: 'visa', country, exp_month: 12, exp_year: 2034, fingerprint, funding: 'credit', last4: '4242'},
  } as Stripe.Charge.PaymentMethodDetails;
}

/** A payment and its charge as Stripe holds them once Checkout has charged (or started charging) it. */
function newPayment(
  session: Stripe.Checkout.Session,
  paid: boolean,
  receiptBase: string,
  cardCountry: string,
  paidWith: PaidWith = 'card',
  cardFingerprint?: string,
): Payment {
  const intentId = nextId('pi_');
  const charge = {
    id: nextId('ch_'),
    object: 'charge',
    amount: session.amount_total ?? 0,
    amount_captured: paid ? (session.amount_total ?? 0) : 0,
    amount_refunded: 0,
    captured: paid,
    created: Math.floor(Date.now() / 1000),
    currency: session.currency ?? PLAN_CURRENCY,
    customer: session.customer,
    livemode: false,
    metadata: {},
    paid,
    payment_intent: intentId,
    payment_method_details: methodDetails(paidWith, cardCountry, cardFingerprint ?? nextId('fp')),
    receipt_url: `${receiptBase}/receipts/payment/${intentId}`,
    refunded: false,
    refunds: {object: 'list', data: [], has_more: false, url: '/v1/refunds'},
    status: paid ? 'succeeded' : 'pending',
  } as unknown as Stripe.Charge;
  const intent = {
    id: intentId,
    object: 'payment_intent',
    amount: charge.amount,
    amount_received: paid ? charge.amount : 0,
    currency: charge.currency,
    customer: session.customer,
    latest_charge: charge.id,
    livemode: false,
    metadata: {},
    status: paid ? 'succeeded' : 'processing',
  } as unknown as Stripe.PaymentIntent;
  return {intent, charge};
}

/**
 * A charge as the API gives it: its `refunds` only when the request expanded them (since API
 * version 2022-11-15), and then the newest ten, as an expanded list holds.
 */
function chargeAsListed(charge: Stripe.Charge, withRefunds: boolean): Stripe.Charge {
  const {refunds, ...rest} = charge;
  if (!withRefunds || !refunds) return rest as Stripe.Charge;
  return {
    ...rest,
    refunds: {...refunds, data: refunds.data.slice(0, 10), has_more: refunds.data.length > 10},
  } as Stripe.Charge;
}

/** Stripe's rules for `Idempotency-Key` (docs.stripe.com/api/idempotent_requests). */
const IDEMPOTENCY = {
  /** Stripe may prune a key once it is 24 hours old; a key reused after that makes a new request. */
  keptMs: 24 * 3600_000,
  mismatch: (key: string) =>
    `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
  inUse: (key: string) =>
    `There is currently another in-progress request using this Idempotency Key (that probably means you submitted twice, and the other request is still going through): ${key}. Please try again later.`,
};

/** Parameters as Stripe compares them: the same object, whatever the order of its keys. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The paid invoice Checkout makes after a session with `invoice_creation` on: numbered, with its
 * hosted page (`hosted_invoice_url`) and PDF, for the customer and the payment of the session.
 */
function newInvoice(session: Stripe.Checkout.Session, payment: Payment, hostedBase: string): Stripe.Invoice {
  const id = nextId('in_');
  return {
    id,
    object: 'invoice',
    amount_due: payment.charge.amount,
    amount_paid: payment.charge.amount,
    amount_remaining: 0,
    created: Math.floor(Date.now() / 1000),
    currency: payment.charge.currency,
    customer: session.customer,
    customer_email: session.customer_details?.email ?? null,
    hosted_invoice_url: `${hostedBase}/i/${id}`,
    invoice_pdf: `${hostedBase}/i/${id}/pdf`,
    livemode: false,
    metadata: {},
    number: `LOCAL-${String(++invoiceCount).padStart(4, '0')}`,
    status: 'paid',
    total: payment.charge.amount,
  } as unknown as Stripe.Invoice;
}
let invoiceCount = 0;

/** The card's country a payer has by default: the fair-price country the session was made for, else the US. */
export function defaultCardCountry(session: Stripe.Checkout.Session): string {
  return session.metadata?.[FAIR_PRICE_COUNTRY_KEY] ?? 'US';
}

/** A one-time price as Stripe answers it. */
export function newPrice(fields: Partial<Stripe.Price> & {id: string}): Stripe.Price {
  return {
    object: 'price',
    active: true,
    billing_scheme: 'per_unit',
    created: Math.floor(Date.now() / 1000),
    currency: PLAN_CURRENCY,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: null,
    metadata: {},
    nickname: null,
    product: nextId('prod_'),
    recurring: null,
    tax_behavior: 'unspecified',
    tiers_mode: null,
    transform_quantity: null,
    type: 'one_time',
    unit_amount: 0,
    unit_amount_decimal: null,
    ...fields,
  } as Stripe.Price;
}

/** A webhook endpoint as Stripe lists it: enabled, listening to every event the worker handles. */
export function newWebhookEndpoint(fields: Partial<Stripe.WebhookEndpoint> & {url: string}): Stripe.WebhookEndpoint {
  return {
    id: nextId('we_'),
    object: 'webhook_endpoint',
    api_version: null,
    application: null,
    created: Math.floor(Date.now() / 1000),
    description: null,
    enabled_events: [...HANDLED_STRIPE_EVENTS],
    livemode: false,
    metadata: {},
    status: 'enabled',
    ...fields,
  };
}

/** The customer portal configuration Stripe saves from its dashboard's settings page. */
export function newPortalConfiguration(
  fields: Partial<Stripe.BillingPortal.Configuration> = {},
): Stripe.BillingPortal.Configuration {
  return {
    id: nextId('bpc_'),
    object: 'billing_portal.configuration',
    active: true,
    application: null,
    created: Math.floor(Date.now() / 1000),
    default_return_url: null,
    is_default: true,
    livemode: false,
    metadata: {},
    name: null,
    updated: Math.floor(Date.now() / 1000),
    ...fields,
  } as Stripe.BillingPortal.Configuration;
}

/** A seller's account as Stripe answers its own key: activated, with the support e-mail of src/config. */
export function newAccount(fields: Partial<Stripe.Account> = {}): Stripe.Account {
  return {
    id: nextId('acct_'),
    object: 'account',
    business_profile: {
      name: appConfig.appName,
      support_email: appConfig.support.email,
      url: `https://${appConfig.domainName}`,
    },
    charges_enabled: true,
    // Checkout's consent to offers (`consent_collection.promotions`) is for US accounts only.
    country: 'US',
    details_submitted: true,
    payouts_enabled: true,
    type: 'standard',
    ...fields,
  } as Stripe.Account;
}

/** A customer as Checkout makes it on completion (`customer_creation: 'always'`), with the e-mail entered. */
export function newCustomer(id: string, email: string): Stripe.Customer {
  return {
    id,
    object: 'customer',
    created: Math.floor(Date.now() / 1000),
    email,
    livemode: false,
    metadata: {},
    name: null,
  } as unknown as Stripe.Customer;
}

/**
 * Each plan's prices in both modes, as the site shows them: its own, and its team's for each seat.
 * A plan is one product in each mode, so a coupon for a plan's product covers its team prices too.
 */
function pricesById(plans: readonly Plan[]): Map<string, Stripe.Price> {
  const prices = new Map<string, Stripe.Price>();
  for (const plan of plans) {
    const products = new Map<string, string>();
    for (const {name, amount, priceId} of planPrices(plan)) {
      for (const [mode, id] of Object.entries(priceId)) {
        if (!products.has(mode)) products.set(mode, nextId('prod_'));
        prices.set(
          id,
          newPrice({
            id,
            livemode: mode === 'production',
            unit_amount: amount,
            nickname: name,
            product: products.get(mode)!,
          }),
        );
      }
    }
  }
  return prices;
}

/** Whether the request's key is live (`sk_live_`, `rk_live_`): it then sees live objects only. */
function liveRequest(request: http.IncomingMessage): boolean {
  return /^Bearer (sk|rk)_live_/.test(request.headers.authorization ?? '');
}

function list<T>(data: T[], url: string): Stripe.ApiList<T> {
  return {object: 'list', data, has_more: false, url};
}

type CreateBody = Record<string, unknown> &
  RecoveryParams & {
    customer?: string;
    customer_email?: string;
    automatic_tax?: {enabled?: string};
    consent_collection?: {terms_of_service?: string; promotions?: string};
    custom_text?: {terms_of_service_acceptance?: {message?: string}};
    invoice_creation?: {enabled?: string};
    tax_id_collection?: {enabled?: string};
    adaptive_pricing?: {enabled?: string};
  };

/**
 * What Stripe refuses in a Checkout Session's tax, invoice, terms and customer parameters, given
 * the account's settings: the terms' checkbox without a terms URL in the dashboard, custom terms
 * text without the checkbox or past 1,200 characters, automatic tax before Stripe Tax is set up, an
 * invoice outside payment mode, a customer and an e-mail both, and the promotions consent and
 * recovery ./stripeRecovery.ts checks. Null when Stripe would create the session.
 */
function refusalOf(
  body: CreateBody,
  account: AccountSettings,
  /** The account's country: `consent_collection.promotions: 'auto'` needs the United States. */
  country: string | undefined,
): Omit<StripeErrorBody, 'type'> | null {
  const termsRequired = body.consent_collection?.terms_of_service === 'required';
  if (termsRequired && !account.termsOfServiceUrl) {
    return {
      param: 'consent_collection[terms_of_service]',
      message:
        'You cannot collect consent to your terms of service unless a URL is set in the Stripe Dashboard. Update your public business details at https://dashboard.stripe.com/settings/public.',
    };
  }
  const termsText = body.custom_text?.terms_of_service_acceptance?.message;
  if (termsText !== undefined && !termsRequired) {
    return {
      param: 'custom_text[terms_of_service_acceptance]',
      message:
        'custom_text[terms_of_service_acceptance] can only be set when consent_collection[terms_of_service] is required.',
    };
  }
  if (termsText !== undefined && termsText.length > 1200) {
    return {
      param: 'custom_text[terms_of_service_acceptance][message]',
      message: 'Text may be up to 1200 characters in length.',
    };
  }
  if (body.automatic_tax?.enabled === 'true' && !account.taxActive) {
    return {
      param: 'automatic_tax[enabled]',
      message:
        'Stripe Tax has not been activated on your account. Please visit https://stripe.com/docs/tax/set-up to get started.',
    };
  }
  if (body.invoice_creation?.enabled === 'true' && (body.mode ?? 'payment') !== 'payment') {
    return {param: 'invoice_creation', message: 'invoice_creation can only be used in payment mode.'};
  }
  // A customer brings its own e-mail, which Checkout shows locked: Stripe takes one or the other.
  if (body.customer !== undefined && body.customer_email !== undefined) {
    return {
      param: 'customer_email',
      message: 'You may only specify one of these parameters: customer, customer_email.',
    };
  }
  return recoveryRefusal(body, country ?? 'US');
}

/** The session's tax, invoice and terms fields, as Stripe answers them for what it was created with. */
function optionFields(body: CreateBody, account: AccountSettings): Partial<Stripe.Checkout.Session> {
  const termsText = body.custom_text?.terms_of_service_acceptance?.message;
  return {
    automatic_tax: {enabled: body.automatic_tax?.enabled === 'true', liability: null, provider: null, status: null},
    tax_id_collection: {enabled: body.tax_id_collection?.enabled === 'true', required: 'never'},
    // Without the parameter, Stripe follows the dashboard's setting.
    adaptive_pricing: {
      enabled:
        body.adaptive_pricing?.enabled === undefined
          ? account.adaptivePricing
          : body.adaptive_pricing.enabled === 'true',
    },
    invoice_creation:
      body.invoice_creation?.enabled === 'true'
        ? ({enabled: true, invoice_data: {}} as Stripe.Checkout.Session.InvoiceCreation)
        : null,
    consent_collection:
      body.consent_collection?.terms_of_service || body.consent_collection?.promotions
        ? ({
            terms_of_service: body.consent_collection.terms_of_service ?? null,
            promotions: body.consent_collection.promotions ?? null,
            payment_method_reuse_agreement: null,
          } as Stripe.Checkout.Session.ConsentCollection)
        : null,
    custom_text: {
      after_submit: null,
      shipping_address: null,
      submit: null,
      terms_of_service_acceptance: termsText === undefined ? null : {message: termsText},
    },
    invoice: null,
    consent: null,
    allow_promotion_codes: body.allow_promotion_codes === undefined ? null : body.allow_promotion_codes === 'true',
    after_expiration: afterExpirationOf(body),
  };
}

/**
 * Create a coupon, with the checks Stripe documents: one of `amount_off` and `percent_off` (above 0,
 * at most 100), a currency with `amount_off`, a name of at most 40 characters. `applies_to` is kept
 * when given: Stripe answers it only when asked to expand it, which the stand-in does not check.
 */
function couponOrRefusal(body: Record<string, unknown>): Stripe.Coupon | Omit<StripeErrorBody, 'type'> {
  const amountOff = body.amount_off === undefined ? null : Number(body.amount_off);
  const percentOff = body.percent_off === undefined ? null : Number(body.percent_off);
  if ((amountOff === null) === (percentOff === null)) {
    return {param: 'amount_off', message: 'You must pass either `percent_off` or `amount_off` (but not both).'};
  }
  if (amountOff !== null && (!Number.isInteger(amountOff) || amountOff < 1))
    return {code: 'parameter_invalid_integer', param: 'amount_off', message: 'Invalid positive integer'};
  if (percentOff !== null && !(percentOff > 0 && percentOff <= 100))
    return {param: 'percent_off', message: 'Invalid percent_off: must be greater than 0 and at most 100'};
  if (amountOff !== null && !body.currency)
    return {param: 'currency', message: 'You must pass `currency` when passing `amount_off`.'};
  const name = body.name as string | undefined;
  const appliesTo = (body.applies_to as {products?: string[]} | undefined)?.products;
  if (name !== undefined && name.length > 40)
    return {param: 'name', message: 'Invalid string: must be at most 40 characters'};
  return {
    id: (body.id as string | undefined) ?? nextId('coupon_'),
    object: 'coupon',
    amount_off: amountOff,
    percent_off: percentOff,
    currency: (body.currency as string | undefined) ?? null,
    duration: (body.duration as Stripe.Coupon.Duration | undefined) ?? 'once',
    duration_in_months: null,
    max_redemptions: body.max_redemptions === undefined ? null : Number(body.max_redemptions),
    times_redeemed: 0,
    name: name ?? null,
    metadata: (body.metadata as Stripe.Metadata | undefined) ?? {},
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    redeem_by: body.redeem_by === undefined ? null : Number(body.redeem_by),
    valid: true,
    ...(appliesTo && {applies_to: {products: appliesTo}}),
  } as Stripe.Coupon;
}

/**
 * A session's `discounts`, as Stripe takes them: not with promotion codes (`allow_promotion_codes`,
 * or a recovered session's), one at most, a coupon that exists and can still be redeemed. Answers
 * the coupon, none, or Stripe's refusal.
 */
function discountOf(
  body: CreateBody,
  coupons: Map<string, Stripe.Coupon>,
): Stripe.Coupon | null | Omit<StripeErrorBody, 'type'> {
  const discounts = body.discounts as {coupon?: string}[] | undefined;
  if (!discounts || discounts.length === 0) return null;
  // Whatever its value, false included, and Stripe names allow_promotion_codes (stripe/stripe-node#2248).
  // The recovery's codes are refused alike when on; Stripe's docs do not give those words.
  const [codes] = [
    ...(body.allow_promotion_codes !== undefined ? ['allow_promotion_codes'] : []),
    ...(recoveryTakesCodes(body) ? ['after_expiration[recovery][allow_promotion_codes]'] : []),
  ];
  if (codes) return {param: codes, message: `You may only specify one of these parameters: ${codes}, discounts.`};
  if (discounts.length > 1)
    return {param: 'discounts', message: 'You may only specify one discount for a Checkout Session.'};
  const coupon = coupons.get(discounts[0]!.coupon ?? '');
  if (!coupon)
    return {
      code: 'resource_missing',
      param: 'discounts[0][coupon]',
      message: `No such coupon: '${discounts[0]!.coupon}'`,
    };
  if (!coupon.valid)
    return {code: 'coupon_expired', param: 'discounts[0][coupon]', message: `Coupon expired: ${coupon.id}`};
  return coupon;
}

/**
 * A line item's quantity as the form-encoded body carries it: one when left out, else a whole
 * number from 1 to 999,999 (Stripe's limits), or Stripe's refusal.
 */
function quantityOf(raw: string | undefined): number | Omit<StripeErrorBody, 'type'> {
  if (raw === undefined) return 1;
  const quantity = Number(raw);
  if (!Number.isInteger(quantity)) {
    return {param: 'line_items[0][quantity]', message: `Invalid integer: ${raw}`};
  }
  if (quantity < 1 || quantity > 999_999) {
    return {
      param: 'line_items[0][quantity]',
      message: 'This value must be greater than or equal to 1 and less than or equal to 999999.',
    };
  }
  return quantity;
}

/** The session's amounts with a coupon taken off the price (never below zero), as Stripe answers them. */
function discountedAmounts(
  subtotal: number,
  coupon: Stripe.Coupon | null,
  promotionCode: string | null = null,
): Partial<Stripe.Checkout.Session> {
  const off = !coupon
    ? 0
    : Math.min(subtotal, coupon.amount_off ?? Math.round((subtotal * (coupon.percent_off ?? 0)) / 100));
  return {
    amount_subtotal: subtotal,
    amount_total: subtotal - off,
    total_details: {amount_discount: off, amount_shipping: 0, amount_tax: 0},
    discounts: coupon ? [{coupon: coupon.id, promotion_code: promotionCode}] : [],
  };
}

/**
 * What a session bought, for the terminal's line: an upgrade as the console and the receipts name
 * it ("Upgrade: Starter → Advanced", from the worker's metadata), else the plan of its price.
 */
export function boughtName(session: Stripe.Checkout.Session, priceId: string): string {
  const metadata = session.metadata ?? {};
  if (isUpgradeSession(session)) {
    const [from, to] = [metadata[UPGRADE_METADATA.fromPlan] ?? '', metadata[UPGRADE_METADATA.toPlan] ?? ''];
    return upgradeLabel(storedPlanName(from) ?? from, storedPlanName(to) ?? to);
  }
  return metadata.plan ?? findPlanByPriceId(priceId)?.name ?? priceId;
}

export async function startStripeStandIn({
  port = 0,
  hostedPages,
  dashboardSettings: settingsAtStart = {},
  plans = appConfig.plans,
}: StripeStandInOptions = {}): Promise<StripeStandIn> {
  const dashboardSettings: AccountSettings = {
    termsOfServiceUrl: null,
    taxActive: false,
    adaptivePricing: true,
    ...settingsAtStart,
  };
  const invoices = new Map<string, Stripe.Invoice>();
  const sessions = new Map<string, Stripe.Checkout.Session>();
  const payments = new Map<string, Payment>();
  const refundsCreated: Record<string, unknown>[] = [];
  /** The price each checkout session was made for, and its quantity. */
  const sessionItems = new Map<string, SessionItem>();
  const prices = pricesById(plans);
  const webhookEndpoints = hostedPages ? [newWebhookEndpoint({url: hostedPages.webhookUrl})] : [];
  const portalConfigurations = [newPortalConfiguration(), newPortalConfiguration({livemode: true})];
  const created: Record<string, unknown>[] = [];
  const portals: Record<string, unknown>[] = [];
  const coupons = new Map<string, Stripe.Coupon>();
  const promotionCodes = new Map<string, Stripe.PromotionCode>();
  const customers = new Map<string, Stripe.Customer>();
  /** The expired session each recovery URL's token recovers. */
  const recoveries = new Map<string, string>();

  /**
   * Idempotent requests, as Stripe documents them: the status and body of the first POST with a
   * key are saved once its endpoint runs, and a repeat with the same key and parameters gets them
   * again (`Idempotent-Replayed: true`) without running anything; the same key with other
   * parameters is an `idempotency_error`; one sent while the first is still running, a 409
   * `idempotency_key_in_use` (nothing saved). A key older than 24 hours is forgotten.
   */
  const idempotent = new Map<string, {fingerprint: string; at: number; answer?: {status: number; body: unknown}}>();
  /** The key a response's request holds while its endpoint runs: `send` saves the answer under it. */
  const runningKeys = new WeakMap<http.ServerResponse, string>();

  /** Answers a repeat or a misuse of a key, and true; or claims the key for this request, and false. */
  function replayed(
    request: http.IncomingMessage,
    response: http.ServerResponse,
    path: string,
    body: unknown,
  ): boolean {
    const key = request.headers['idempotency-key'];
    if (request.method !== 'POST' || typeof key !== 'string' || key === '') return false;
    const fingerprint = `${request.method} ${path} ${canonical(body)}`;
    const seen = idempotent.get(key);
    if (seen && Date.now() - seen.at < IDEMPOTENCY.keptMs) {
      if (seen.fingerprint !== fingerprint) {
        send(response, 400, {error: {type: 'idempotency_error', message: IDEMPOTENCY.mismatch(key)}});
      } else if (!seen.answer) {
        send(response, 409, {
          error: {type: 'invalid_request_error', code: 'idempotency_key_in_use', message: IDEMPOTENCY.inUse(key)},
        });
      } else {
        response.writeHead(seen.answer.status, {
          'content-type': 'application/json',
          'request-id': nextId('req_'),
          'idempotent-replayed': 'true',
        });
        response.end(JSON.stringify(seen.answer.body));
      }
      return true;
    }
    idempotent.set(key, {fingerprint, at: Date.now()});
    runningKeys.set(response, key);
    return false;
  }

  function send(response: http.ServerResponse, status: number, body: unknown) {
    const key = runningKeys.get(response);
    if (key !== undefined) {
      runningKeys.delete(response);
      const claimed = idempotent.get(key);
      // A path no endpoint answers ran nothing: Stripe saves no result for it.
      if (
        claimed &&
        status === 404 &&
        /^Unrecognized request URL/.test((body as {error?: {message?: string}}).error?.message ?? '')
      )
        idempotent.delete(key);
      else if (claimed) claimed.answer = {status, body};
    }
    response.writeHead(status, {'content-type': 'application/json', 'request-id': nextId('req_')});
    response.end(JSON.stringify(body));
  }
  /** Stripe's 404 for an object it does not have: `No such <object>: '<id>'`, naming the parameter when one did. */
  function notFound(response: http.ServerResponse, object: string, id: string, param?: string) {
    send(response, 404, {
      error: {
        type: 'invalid_request_error',
        code: 'resource_missing',
        ...(param && {param}),
        message: `No such ${object}: '${id}'`,
      },
    });
  }

  function invalid(response: http.ServerResponse, error: Omit<StripeErrorBody, 'type'>) {
    send(response, 400, {error: {type: 'invalid_request_error', ...error}});
  }

  /**
   * Create a refund, with the checks Stripe documents: a payment intent that exists and has
   * succeeded, a positive whole amount no larger than what is left, one of its three reasons.
   * The charge then shows the refund, and Stripe tells the webhook (`charge.refunded`).
   */
  function createRefund(response: http.ServerResponse, body: Record<string, unknown>) {
    refundsCreated.push(body);
    const intentId = body.payment_intent as string | undefined;
    if (!intentId && !body.charge) {
      return invalid(response, {
        code: 'parameter_missing',
        message: 'One of the following params should be provided for this request: payment_intent or charge.',
      });
    }
    const payment = intentId ? payments.get(intentId) : undefined;
    if (!payment)
      return invalid(response, {
        code: 'resource_missing',
        param: 'payment_intent',
        message: `No such payment_intent: '${intentId}'`,
      });
    if (body.reason !== undefined && !(REFUND_REASONS as readonly unknown[]).includes(body.reason))
      return invalid(response, notOneOf('reason', REFUND_REASONS));
    const {charge, intent} = payment;
    if (intent.status !== 'succeeded') {
      return invalid(response, {
        message: `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`,
      });
    }
    if (charge.refunded)
      return invalid(response, {
        code: 'charge_already_refunded',
        message: `Charge ${charge.id} has already been refunded.`,
      });
    const left = charge.amount - charge.amount_refunded;
    const amount = body.amount === undefined ? left : Number(body.amount);
    if (!Number.isInteger(amount) || amount < 1 || !/^\d+$/.test(String(body.amount ?? left))) {
      return invalid(response, {
        code: 'parameter_invalid_integer',
        param: 'amount',
        message: 'Invalid positive integer',
      });
    }
    if (amount > left) {
      const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
      return invalid(response, {
        code: 'amount_too_large',
        param: 'amount',
        message: `Refund amount (${dollars(amount)}) is greater than unrefunded amount on charge (${dollars(left)})`,
      });
    }
    const refund = {
      id: nextId('re_'),
      object: 'refund',
      amount,
      balance_transaction: null,
      charge: charge.id,
      created: Math.floor(Date.now() / 1000),
      currency: charge.currency,
      metadata: (body.metadata as Stripe.Metadata | undefined) ?? {},
      payment_intent: intent.id,
      reason: (body.reason as Stripe.Refund.Reason | undefined) ?? null,
      receipt_number: null,
      source_transfer_reversal: null,
      status: 'succeeded',
      transfer_reversal: null,
    } as Stripe.Refund;
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    charge.refunds!.data.unshift(refund);
    send(response, 200, refund);
    if (hostedPages) void deliverRefunded(intent.id, hostedPages);
  }

  /** A key sees its own mode's prices; Stripe names the other mode when the price is there. */
  function retrievePrice(response: http.ServerResponse, id: string, live: boolean) {
    const price = prices.get(id);
    if (price && price.livemode === live) return send(response, 200, price);
    const elsewhere = price
      ? `; a similar object exists in ${price.livemode ? 'live' : 'test'} mode, but a ${live ? 'live' : 'test'} mode key was used to make this request.`
      : '';
    send(response, 404, {
      error: {
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'price',
        message: `No such price: '${id}'${elsewhere}`,
      },
    });
  }

  /** As Stripe does after a refund: a signed `charge.refunded` to the worker's webhook. */
  async function deliverRefunded(intentId: string, hosted: HostedPages) {
    const outcome = await deliver(standIn.refundedEvent(intentId), hosted);
    hosted.onEvent?.(`refunded ${payments.get(intentId)!.charge.amount_refunded} of ${intentId}; ${outcome}`);
  }

  function html(response: http.ServerResponse, status: number, body: string) {
    response.writeHead(status, {'content-type': 'text/html; charset=utf-8'});
    response.end(body);
  }

  /** The buyer pays on the local checkout page: complete, tell the worker, go to the success URL. */
  async function pay(
    response: http.ServerResponse,
    id: string,
    email: string,
    termsAccepted: boolean,
    cardCountry: string,
    hosted: HostedPages,
    promotionCode = '',
    promotions = false,
  ) {
    const open = sessions.get(id);
    if (!open) return html(response, 404, unknownCheckout(id));
    if (open.status === 'expired') return html(response, 410, expiredCheckout(open));
    if (open.status !== 'open') {
      return html(
        response,
        409,
        messagePage('checkout', 'Already paid', 'This checkout is complete.', {
          href: open.success_url!,
          label: 'Continue',
        }),
      );
    }
    if (!looksLikeEmail(email)) {
      return html(
        response,
        400,
        messagePage('checkout', 'E-mail needed', 'Enter a valid e-mail address to pay.', {
          href: `/checkout/${id}`,
          label: 'Back',
        }),
      );
    }
    if (open.consent_collection?.terms_of_service === 'required' && !termsAccepted) {
      return html(
        response,
        400,
        messagePage('checkout', 'Terms not accepted', 'Tick the box to accept the terms before you pay.', {
          href: `/checkout/${id}`,
          label: 'Back',
        }),
      );
    }
    if (cardCountry !== '' && !/^[A-Z]{2}$/.test(cardCountry)) {
      return html(
        response,
        400,
        messagePage('checkout', 'Card country needed', "Pick the country of the card's issuer to pay.", {
          href: `/checkout/${id}`,
          label: 'Back',
        }),
      );
    }
    let session: Stripe.Checkout.Session;
    try {
      // A form without the picker (an older page, a test's POST) pays with the default card.
      session = standIn.complete(id, {
        email,
        paid: true,
        ...(cardCountry && {cardCountry}),
        ...(promotionCode && {promotionCode}),
        promotions,
      });
    } catch (refused) {
      return html(
        response,
        400,
        messagePage('checkout', 'Code not applied', (refused as Error).message, {
          href: `/checkout/${id}`,
          label: 'Back',
        }),
      );
    }
    const outcome = await deliver(stripeEvent('checkout.session.completed', session), hosted);
    hosted.onEvent?.(`paid ${boughtName(session, sessionItems.get(id)?.price ?? '')} as ${email} (${id}); ${outcome}`);
    const next = session.success_url!.replace('{CHECKOUT_SESSION_ID}', id);
    response.writeHead(303, {location: next});
    response.end();
  }

  const unknownCheckout = (id: string) =>
    messagePage('checkout', 'Unknown checkout', `There is no checkout session ${id}.`);
  const expiredCheckout = (session: Stripe.Checkout.Session) =>
    messagePage('checkout', 'Checkout expired', 'This checkout expired without payment.', {
      href: session.cancel_url ?? '/',
      label: 'Go back',
    });

  /**
   * The buyer leaves the local checkout page without paying, and local mode lets the session expire
   * at once rather than in 24 hours: with what the buyer typed, the worker told, and the recovery
   * link shown, as the seller's reminder e-mail would carry it.
   */
  async function leave(response: http.ServerResponse, id: string, form: URLSearchParams, hosted: HostedPages) {
    const session = sessions.get(id);
    if (!session) return html(response, 404, unknownCheckout(id));
    if (session.status === 'expired') return html(response, 410, expiredCheckout(session));
    if (session.status !== 'open')
      return html(response, 409, messagePage('checkout', 'Already paid', 'This checkout is complete.'));
    const email = String(form.get('email') ?? '').trim();
    const event = expireSession(id, {
      ...(looksLikeEmail(email) && {email}),
      promotions: form.get('promotions') === 'opt_in',
    });
    await announceExpired(event, hosted);
    const recovery = (event.data.object as Stripe.Checkout.Session).after_expiration?.recovery?.url;
    html(
      response,
      200,
      recovery
        ? messagePage(
            'checkout',
            'Checkout expired',
            'This checkout expired without payment, and the webhook was told. Its recovery link reopens it, as a new checkout, for 30 days.',
            {href: recovery, label: 'Open the recovery link'},
          )
        : messagePage(
            'checkout',
            'Checkout expired',
            'This checkout expired without payment, and the webhook was told. It has no recovery link: recovery was not enabled for it.',
            {href: session.cancel_url ?? '/', label: 'Go back'},
          ),
    );
  }

  /** A recovery URL, opened: a new session copied from the expired one, and its checkout page; or why not. */
  function recoveryPage(request: http.IncomingMessage, response: http.ServerResponse, url: URL): boolean {
    if (request.method !== 'GET' || !/^\/recover\/[^/]+$/.test(url.pathname)) return false;
    let session: Stripe.Checkout.Session;
    try {
      session = standIn.recover(url.pathname);
    } catch (refused) {
      html(response, 404, messagePage('checkout', 'Recovery link not valid', (refused as Error).message));
      return true;
    }
    response.writeHead(303, {location: session.url!});
    response.end();
    return true;
  }

  function hostedPage(request: http.IncomingMessage, response: http.ServerResponse, url: URL, raw: string): boolean {
    if (!hostedPages) return false;
    let match: RegExpExecArray | null;
    if (request.method === 'POST' && (match = /^\/checkout\/([^/]+)\/leave$/.exec(url.pathname))) {
      void leave(response, decodeURIComponent(match[1]!), new URLSearchParams(raw), hostedPages);
      return true;
    }
    if ((match = /^\/checkout\/([^/]+)$/.exec(url.pathname))) {
      const id = decodeURIComponent(match[1]!);
      if (request.method === 'POST') {
        const form = new URLSearchParams(raw);
        void pay(
          response,
          id,
          String(form.get('email') ?? '').trim(),
          form.get('terms') === 'accepted',
          String(form.get('cardCountry') ?? ''),
          hostedPages,
          String(form.get('promotionCode') ?? '').trim(),
          form.get('promotions') === 'opt_in',
        );
        return true;
      }
      const session = sessions.get(id);
      if (!session) html(response, 404, unknownCheckout(id));
      else if (session.status === 'expired') html(response, 410, expiredCheckout(session));
      else {
        const customerEmail = customers.get((session.customer as string | null) ?? '')?.email ?? undefined;
        html(
          response,
          200,
          checkoutPage(session, sessionItems.get(id) ?? {price: '', quantity: 1}, {
            credit: creditOf(session),
            cardCountry: defaultCardCountry(session),
            customerEmail,
          }),
        );
      }
      return true;
    }
    if ((match = /^\/receipts\/payment\/([^/]+)$/.exec(url.pathname))) {
      const payment = payments.get(decodeURIComponent(match[1]!));
      if (!payment) html(response, 404, messagePage('receipt', 'Unknown receipt', 'There is no such payment.'));
      else
        html(
          response,
          200,
          messagePage(
            'receipt',
            'Receipt',
            `Paid ${(payment.charge.amount / 100).toFixed(2)} ${payment.charge.currency.toUpperCase()}, refunded ${(payment.charge.amount_refunded / 100).toFixed(2)}.`,
          ),
        );
      return true;
    }
    if ((match = /^\/i\/([^/]+)(\/pdf)?$/.exec(url.pathname))) {
      const invoice = invoices.get(decodeURIComponent(match[1]!));
      if (!invoice) html(response, 404, messagePage('invoice', 'Unknown invoice', 'There is no such invoice.'));
      else
        html(
          response,
          200,
          messagePage(
            'invoice',
            `Invoice ${invoice.number}`,
            `Paid ${(invoice.amount_paid / 100).toFixed(2)} ${invoice.currency.toUpperCase()}.`,
          ),
        );
      return true;
    }
    if ((match = /^\/billing\/([^/]+)$/.exec(url.pathname))) {
      const portal = portalsById.get(decodeURIComponent(match[1]!));
      if (!portal)
        html(
          response,
          404,
          messagePage('portal', 'Unknown portal session', 'Open the billing portal from the dashboard again.'),
        );
      else {
        hostedPages.onEvent?.(`billing portal opened for ${portal.customer}`);
        html(
          response,
          200,
          messagePage('portal', 'Billing portal', 'In local mode there are no invoices or cards to manage.', {
            href: portal.return_url!,
            label: 'Return',
          }),
        );
      }
      return true;
    }
    return false;
  }

  const failures: {match: string; status: number; error: {type: string; message: string; code?: string}}[] = [];

  const server = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://stripe.local');
      if (recoveryPage(request, response, url) || hostedPage(request, response, url, raw)) return;
      const connectPage = connect.page(request.method ?? 'GET', url.pathname, new URLSearchParams(raw));
      if (connectPage && 'redirect' in connectPage) {
        response.writeHead(303, {location: connectPage.redirect});
        return response.end();
      }
      if (connectPage) return html(response, connectPage.status, connectPage.html);
      const failure = failures.findIndex((entry) => `${request.method} ${url.pathname}`.startsWith(entry.match));
      if (failure >= 0) {
        const {status, error} = failures.splice(failure, 1)[0]!;
        return send(response, status, {error});
      }
      const body = qs.parse(raw) as Record<string, unknown>;
      const query = qs.parse(url.search.slice(1)) as Record<string, unknown>;
      if (replayed(request, response, url.pathname, body)) return;
      const connectAnswer = connect.route(request.method ?? 'GET', url.pathname, body, query);
      if (connectAnswer) return send(response, connectAnswer.status, connectAnswer.body);
      if (request.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        created.push(body);
        const refusal = refusalOf(body, dashboardSettings, standIn.account.country);
        if (refusal) return invalid(response, refusal);
        const discount = discountOf(body, coupons);
        if (discount && !('object' in discount)) return invalid(response, discount);
        const items = body.line_items as {price: string; quantity?: string}[] | undefined;
        const priceId = items?.[0]?.price ?? '';
        const quantity = quantityOf(items?.[0]?.quantity);
        if (typeof quantity !== 'number') return invalid(response, quantity);
        const unitAmount = prices.get(priceId)?.unit_amount ?? null;
        const session = newSession({
          // What Stripe charges: the price in cents times the quantity, less a coupon's credit.
          amount_total: unitAmount === null ? null : unitAmount * quantity,
          ...(unitAmount !== null && discountedAmounts(unitAmount * quantity, discount)),
          currency: PLAN_CURRENCY,
          customer: (body.customer as string) ?? null,
          customer_email: (body.customer_email as string) ?? null,
          client_reference_id: (body.client_reference_id as string) ?? null,
          metadata: (body.metadata as Record<string, string>) ?? {},
          success_url: body.success_url as string,
          cancel_url: body.cancel_url as string,
          ...optionFields(body, dashboardSettings),
        });
        if (hostedPages) session.url = `${publicUrl()}/checkout/${session.id}`;
        sessions.set(session.id, session);
        sessionItems.set(session.id, {price: priceId, quantity});
        return send(response, 200, session);
      }
      const match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
      if (request.method === 'GET' && match) {
        const session = sessions.get(match[1]!);
        if (!session) return notFound(response, 'checkout.session', match[1]!);
        return send(response, 200, expandSession(session, (query.expand as string[] | undefined) ?? []));
      }
      const expiring = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(url.pathname);
      if (request.method === 'POST' && expiring) {
        const session = sessions.get(expiring[1]!);
        if (!session) return notFound(response, 'checkout.session', expiring[1]!);
        if (session.status !== 'open') return invalid(response, ONLY_OPEN_EXPIRE);
        const event = expireSession(session.id, {});
        send(response, 200, event.data.object);
        if (hostedPages) void announceExpired(event, hostedPages);
        return;
      }
      const invoice = /^\/v1\/invoices\/([^/]+)$/.exec(url.pathname);
      if (request.method === 'GET' && invoice) {
        const found = invoices.get(invoice[1]!);
        if (!found) return notFound(response, 'invoice', invoice[1]!);
        return send(response, 200, found);
      }
      const intent = /^\/v1\/payment_intents\/([^/]+)$/.exec(url.pathname);
      if (request.method === 'GET' && intent) {
        const payment = payments.get(intent[1]!);
        if (!payment) return notFound(response, 'payment_intent', intent[1]!);
        const expand = (query.expand as string[] | undefined) ?? [];
        const refunds = expand.includes('latest_charge.refunds');
        return send(
          response,
          200,
          refunds || expand.includes('latest_charge')
            ? {...payment.intent, latest_charge: chargeAsListed(payment.charge, refunds)}
            : payment.intent,
        );
      }
      if (request.method === 'POST' && url.pathname === '/v1/refunds') return createRefund(response, body);
      if (request.method === 'POST' && url.pathname === '/v1/coupons') {
        // Ids are the caller's to choose (the worker's fair-price-40): one taken is refused.
        if (typeof body.id === 'string' && coupons.has(body.id))
          return invalid(response, {code: 'resource_already_exists', param: 'id', message: 'Coupon already exists.'});
        const coupon = couponOrRefusal(body);
        if (!('object' in coupon)) return invalid(response, coupon);
        coupons.set(coupon.id, coupon);
        return send(response, 200, coupon);
      }
      const couponPath = /^\/v1\/coupons\/([^/]+)$/.exec(url.pathname);
      if (request.method === 'GET' && couponPath) {
        const id = decodeURIComponent(couponPath[1]!);
        const found = coupons.get(id);
        if (!found) return notFound(response, 'coupon', id, 'id');
        return send(response, 200, found);
      }
      if (url.pathname === '/v1/promotion_codes') {
        if (request.method === 'GET') return send(response, 200, listPromotionCodes(promotionCodes, query));
        const promo = promotionCodeOrRefusal(body, {id: nextId('promo_'), coupons, promotionCodes});
        if (!('object' in promo)) return invalid(response, promo);
        promotionCodes.set(promo.id, promo);
        return send(response, 200, promo);
      }
      const promoPath = /^\/v1\/promotion_codes\/([^/]+)$/.exec(url.pathname);
      if (promoPath) {
        const id = decodeURIComponent(promoPath[1]!);
        const found = promotionCodes.get(id);
        if (!found) return notFound(response, 'promotion code', id, 'promotion_code');
        if (request.method === 'GET') return send(response, 200, found);
        const updated = updatedPromotionCodeOrRefusal(found, body, {coupons, promotionCodes});
        if (!('object' in updated)) return invalid(response, updated);
        promotionCodes.set(id, updated);
        return send(response, 200, updated);
      }
      if (request.method === 'GET') {
        const live = liveRequest(request);
        const price = /^\/v1\/prices\/([^/]+)$/.exec(url.pathname);
        if (price) return retrievePrice(response, decodeURIComponent(price[1]!), live);
        const ofMode = <T extends {livemode: boolean}>(objects: T[]) =>
          objects.filter((object) => object.livemode === live);
        if (url.pathname === '/v1/webhook_endpoints')
          return send(response, 200, list(ofMode(webhookEndpoints), url.pathname));
        if (url.pathname === '/v1/billing_portal/configurations')
          return send(response, 200, list(ofMode(portalConfigurations), url.pathname));
        if (url.pathname === '/v1/account') return send(response, 200, standIn.account);
      }
      if (request.method === 'POST' && url.pathname === '/v1/billing_portal/sessions') {
        portals.push(body);
        const portal: Partial<Stripe.BillingPortal.Session> = {
          id: nextId('bps_'),
          object: 'billing_portal.session',
          customer: body.customer as string,
          return_url: body.return_url as string,
          url: `https://billing.stripe.com/p/session/${nextId('test_')}`,
        };
        if (hostedPages) {
          portal.url = `${publicUrl()}/billing/${portal.id}`;
          portalsById.set(portal.id!, portal);
        }
        return send(response, 200, portal);
      }
      send(response, 404, {
        error: {
          type: 'invalid_request_error',
          message: `Unrecognized request URL (${request.method}: ${url.pathname})`,
        },
      });
    });
  });
  const portalsById = new Map<string, Partial<Stripe.BillingPortal.Session>>();

  /** A session with the fields the request asked to expand: its line items, invoice, payment and charge. */
  function expandSession(session: Stripe.Checkout.Session, expand: string[]): Stripe.Checkout.Session {
    const expanded = {...session};
    if (expand.includes('line_items')) expanded.line_items = lineItems(sessionItems.get(session.id) ?? null);
    if (expand.includes('invoice') && typeof session.invoice === 'string')
      expanded.invoice = invoices.get(session.invoice) ?? session.invoice;
    const payment = typeof session.payment_intent === 'string' ? payments.get(session.payment_intent) : undefined;
    if (payment && expand.includes('payment_intent.latest_charge'))
      expanded.payment_intent = {...payment.intent, latest_charge: chargeAsListed(payment.charge, false)};
    else if (payment && expand.includes('payment_intent')) expanded.payment_intent = payment.intent;
    return expanded;
  }
  const running = await listen(server, port);
  const publicUrl = () => running.url;
  const connect = connectStandIn(publicUrl);

  function update(id: string, fields: Partial<Stripe.Checkout.Session>) {
    const session = sessions.get(id);
    if (!session) throw new Error(`No session ${id}`);
    const next = {...session, ...fields} as Stripe.Checkout.Session;
    sessions.set(id, next);
    return next;
  }

  /** The coupon a session takes off its price, for the checkout page's credit line. */
  function creditOf(session: Stripe.Checkout.Session): {name: string; amount: number} | undefined {
    const coupon = coupons.get((session.discounts?.[0]?.coupon as string | undefined) ?? '');
    return coupon ? {name: coupon.name ?? coupon.id, amount: session.total_details?.amount_discount ?? 0} : undefined;
  }

  /**
   * A paid session uses up one redemption of its coupon, and of its promotion code; a coupon past
   * `max_redemptions` is no longer valid, while a code stays active and Checkout refuses it.
   */
  function redeem(session: Stripe.Checkout.Session) {
    for (const discount of session.discounts ?? []) {
      const promo = promotionCodes.get((discount.promotion_code as string | null) ?? '');
      if (promo) promo.times_redeemed += 1;
      const coupon = coupons.get(discount.coupon as string);
      if (!coupon) continue;
      coupon.times_redeemed += 1;
      if (coupon.max_redemptions !== null && coupon.times_redeemed >= coupon.max_redemptions) coupon.valid = false;
    }
  }

  /** The buyer's code, checked as Checkout checks it, taken off the session's subtotal; or Checkout's refusal, thrown. */
  function applyCode(id: string, entered: string) {
    const session = sessions.get(id);
    if (!session) throw new Error(`No session ${id}`);
    const others = [...sessions.values()].filter((other) => other.id !== id);
    const found = codeAtCheckout(entered, promotionCodes, coupons, {
      session,
      product: (prices.get(sessionItems.get(id)?.price ?? '')?.product as string | undefined) ?? null,
      returningBuyer: customerPaidBefore((session.customer as string | null) ?? null, others),
    });
    if ('refused' in found) throw new Error(found.refused);
    const subtotal = session.amount_subtotal ?? session.amount_total ?? 0;
    update(id, discountedAmounts(subtotal, found.coupon, found.promo.id));
  }

  /** The open session expires (see `StripeStandIn.expire`): answers Stripe's event; a session not open throws. */
  function expireSession(id: string, typed: TypedBeforeLeaving): Stripe.Event {
    const session = sessions.get(id);
    if (!session) throw new Error(`No session ${id}`);
    const expired = expiredSession(session, typed, {
      now: Math.floor(Date.now() / 1000),
      recoveryUrl: () => {
        const token = randomBytes(18).toString('base64url');
        recoveries.set(token, id);
        return `${publicUrl()}/recover/${token}`;
      },
    });
    if (!('object' in expired)) throw new Error(`Session ${id} is ${session.status}: ${expired.message}`);
    sessions.set(id, expired);
    return stripeEvent('checkout.session.expired', expired);
  }

  /** As Stripe does once a session expires: `checkout.session.expired` to the worker's webhook, told on the terminal. */
  async function announceExpired(event: Stripe.Event, hosted: HostedPages) {
    const session = event.data.object as Stripe.Checkout.Session;
    const outcome = await deliver(event, hosted);
    const recovery = session.after_expiration?.recovery?.url;
    hosted.onEvent?.(`expired ${session.id}${recovery ? `; recovery link ${recovery}` : ''}; ${outcome}`);
  }

  const standIn: StripeStandIn = {
    url: running.url,
    sessions,
    created,
    dashboardSettings,
    invoices,
    portals,
    payments,
    refundsCreated,
    prices,
    webhookEndpoints,
    coupons,
    promotionCodes,
    customers,
    account: newAccount(),
    portalConfigurations,
    connect,
    complete(id, {email, paid, cardCountry, paidWith, cardFingerprint, promotionCode, promotions = false}) {
      if (promotionCode !== undefined) applyCode(id, promotionCode);
      const given = sessions.get(id)?.customer as string | null | undefined;
      const customer = given ?? nextId('cus_');
      // Checkout makes the customer with the e-mail entered, or gives it to one that had none.
      if (!customers.get(customer)?.email) customers.set(customer, newCustomer(customer, email));
      const session = update(id, {customer, customer_details: {email} as Stripe.Checkout.Session.CustomerDetails});
      if (paid) redeem(session);
      const payment = newPayment(
        session,
        paid,
        hostedPages ? publicUrl() : 'https://pay.stripe.com',
        cardCountry ?? defaultCardCountry(session),
        paidWith,
        cardFingerprint,
      );
      payments.set(payment.intent.id, payment);
      // Checkout finalizes the invoice once the payment succeeds.
      const invoice =
        paid && session.invoice_creation?.enabled
          ? newInvoice(session, payment, hostedPages ? publicUrl() : 'https://invoice.stripe.com')
          : null;
      if (invoice) invoices.set(invoice.id!, invoice);
      return update(id, {
        status: 'complete',
        payment_status: paid ? 'paid' : 'unpaid',
        payment_intent: payment.intent.id,
        ...(invoice && {invoice: invoice.id}),
        consent: consentGiven(session, {terms: true, promotions}),
        url: null,
      });
    },
    settle(id, paid) {
      const payment = payments.get(sessions.get(id)?.payment_intent as string);
      if (payment) {
        payment.intent.status = paid ? 'succeeded' : 'requires_payment_method';
        Object.assign(payment.charge, {
          status: paid ? 'succeeded' : 'failed',
          paid,
          captured: paid,
          amount_captured: paid ? payment.charge.amount : 0,
        });
      }
      return update(id, {payment_status: paid ? 'paid' : 'unpaid'});
    },
    refundedEvent(paymentIntentId) {
      const payment = payments.get(paymentIntentId);
      if (!payment) throw new Error(`No payment ${paymentIntentId}`);
      return stripeEvent('charge.refunded', structuredClone(chargeAsListed(payment.charge, false)));
    },
    failRefund(refundId, failureReason = 'expired_or_canceled_card') {
      const payment = [...payments.values()].find(({charge}) =>
        charge.refunds?.data.some((refund) => refund.id === refundId),
      );
      const refund = payment?.charge.refunds!.data.find((candidate) => candidate.id === refundId);
      if (!payment || !refund) throw new Error(`No refund ${refundId}`);
      if (refund.status !== 'succeeded' && refund.status !== 'pending')
        throw new Error(`Refund ${refundId} is ${refund.status}: only one on its way can fail`);
      const previous = {status: refund.status, failure_reason: null, failure_balance_transaction: null};
      Object.assign(refund, {
        status: 'failed',
        failure_reason: failureReason,
        failure_balance_transaction: nextId('txn_'),
      });
      payment.charge.amount_refunded -= refund.amount;
      payment.charge.refunded = payment.charge.amount_refunded === payment.charge.amount;
      const event = stripeEvent('charge.refund.updated', structuredClone(refund));
      (event.data as {previous_attributes?: unknown}).previous_attributes = previous;
      return event;
    },
    failNext(match, status, error) {
      failures.push({match, status, error});
    },
    expire(id, typed = {}) {
      const event = expireSession(id, typed);
      if (hostedPages) void announceExpired(event, hostedPages);
      return event;
    },
    recover(recoveryUrl) {
      const token = /\/recover\/([^/?#]+)$/.exec(new URL(recoveryUrl, publicUrl()).pathname)?.[1] ?? '';
      const expired = sessions.get(recoveries.get(decodeURIComponent(token)) ?? '');
      const now = Math.floor(Date.now() / 1000);
      const refusal = recoveryLinkRefusal(expired, now);
      if (refusal) throw new Error(refusal);
      const session = newSession(recoveredFields(expired!, now));
      if (hostedPages) session.url = `${publicUrl()}/checkout/${session.id}`;
      sessions.set(session.id, session);
      sessionItems.set(session.id, {...(sessionItems.get(expired!.id) ?? {price: '', quantity: 1})});
      hostedPages?.onEvent?.(`recovered ${expired!.id} as ${session.id}`);
      return session;
    },
    add(fields) {
      const session = newSession(fields);
      sessions.set(session.id, session);
      sessionItems.set(session.id, {price: (fields.metadata?.priceId as string) ?? '', quantity: 1});
      return session;
    },
    close: running.close,
  };
  return standIn;
}
