/**
 * Stripe's promotion codes for the stand-in (./stripeApi.ts): the checks Stripe makes when a code
 * is created, listed, switched on or off, and entered by a buyer at Checkout. Pure functions over
 * the stand-in's maps, typed with the `stripe` package's own types.
 */
import type Stripe from 'stripe';

/** Stripe's answer to a request it refuses, less its `type` (always `invalid_request_error` here). */
export interface Refusal {
  code?: Stripe.PaymentIntent.LastPaymentError.Code;
  param?: string;
  message: string;
}

/** The form-encoded body as `qs` parses it: every value a string. */
type Form = Record<string, unknown>;

const CODE_CHARACTERS = /^[a-zA-Z0-9-]+$/;
/** Stripe's limit on `code` (the API reference's maxLength). */
const CODE_MAX_LENGTH = 500;
const GENERATED_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A code as Stripe makes one when none is given: upper-case letters and digits. */
export function generatedCode(length = 8): string {
  return Array.from({length}, () => GENERATED_ALPHABET[Math.floor(Math.random() * GENERATED_ALPHABET.length)]).join('');
}

/** Codes (and e-mails) compare regardless of case: Stripe keeps codes unique among active ones that way. */
const sameIgnoringCase = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

function duplicateOf(code: string): Refusal {
  return {param: 'code', message: `An active promotion code with \`code: ${code}\` already exists.`};
}

/** The active code with this customer-facing code, if any (other than `except`). */
export function activeCode(
  promotionCodes: Map<string, Stripe.PromotionCode>,
  code: string,
  except?: string,
): Stripe.PromotionCode | undefined {
  return [...promotionCodes.values()].find(
    (promo) => promo.active && promo.id !== except && sameIgnoringCase(promo.code, code),
  );
}

/**
 * Why a coupon can no longer be redeemed, or null: its `redeem_by` passed, its redemptions used up
 * (then `valid` is already false), or deleted. Stripe's `valid` covers all three.
 */
export function couponSpent(coupon: Stripe.Coupon, now = nowSeconds()): 'expired' | 'used up' | null {
  if (coupon.redeem_by !== null && coupon.redeem_by <= now) return 'expired';
  if (coupon.max_redemptions !== null && coupon.times_redeemed >= coupon.max_redemptions) return 'used up';
  return coupon.valid ? null : 'expired';
}

/** A whole number above zero from the form, or undefined when absent, or NaN when not one. */
function positiveInteger(raw: unknown): number | undefined {
  if (raw === undefined) return undefined;
  return typeof raw === 'string' && /^\d+$/.test(raw) && Number(raw) > 0 ? Number(raw) : NaN;
}

/**
 * Create a promotion code (`POST /v1/promotion_codes`) with the checks Stripe documents: a coupon
 * that exists, a code of letters, digits and dashes unique among active codes, a redemption limit
 * and expiry no looser than the coupon's, a minimum amount with its currency.
 */
export function promotionCodeOrRefusal(
  body: Form,
  {
    id,
    coupons,
    promotionCodes,
    now = nowSeconds(),
  }: {
    id: string;
    coupons: Map<string, Stripe.Coupon>;
    promotionCodes: Map<string, Stripe.PromotionCode>;
    now?: number;
  },
): Stripe.PromotionCode | Refusal {
  const promotion = (body.promotion ?? {}) as {type?: string; coupon?: string};
  if (promotion.coupon === undefined)
    return {
      code: 'parameter_missing',
      param: 'promotion[coupon]',
      message: 'Missing required param: promotion[coupon].',
    };
  const coupon = coupons.get(promotion.coupon);
  if (!coupon)
    return {code: 'resource_missing', param: 'promotion[coupon]', message: `No such coupon: '${promotion.coupon}'`};
  let code = body.code as string | undefined;
  while (code === undefined || (body.code === undefined && activeCode(promotionCodes, code))) code = generatedCode();
  if (!CODE_CHARACTERS.test(code))
    return {
      param: 'code',
      message:
        'Invalid code: valid characters are lower case letters (a-z), upper case letters (A-Z), digits (0-9), and dashes (-).',
    };
  if (code.length > CODE_MAX_LENGTH)
    return {param: 'code', message: `Invalid string: must be at most ${CODE_MAX_LENGTH} characters`};
  const active = body.active === undefined || body.active === 'true';
  if (active && activeCode(promotionCodes, code)) return duplicateOf(code);
  const maxRedemptions = positiveInteger(body.max_redemptions);
  if (Number.isNaN(maxRedemptions))
    return {code: 'parameter_invalid_integer', param: 'max_redemptions', message: 'Invalid positive integer'};
  if (maxRedemptions !== undefined && coupon.max_redemptions !== null && maxRedemptions > coupon.max_redemptions)
    return {
      param: 'max_redemptions',
      message: `max_redemptions cannot be greater than the coupon's max_redemptions (${coupon.max_redemptions}).`,
    };
  const expiresAt = positiveInteger(body.expires_at);
  if (Number.isNaN(expiresAt))
    return {code: 'parameter_invalid_integer', param: 'expires_at', message: 'Invalid positive integer'};
  if (expiresAt !== undefined && expiresAt <= now)
    return {param: 'expires_at', message: 'expires_at must be in the future.'};
  if (expiresAt !== undefined && coupon.redeem_by !== null && expiresAt > coupon.redeem_by)
    return {param: 'expires_at', message: "expires_at cannot be after the coupon's redeem_by."};
  const restrictions = (body.restrictions ?? {}) as {
    first_time_transaction?: string;
    minimum_amount?: string;
    minimum_amount_currency?: string;
  };
  const minimumAmount = restrictions.minimum_amount === undefined ? null : Number(restrictions.minimum_amount);
  if (minimumAmount !== null && (!Number.isInteger(minimumAmount) || minimumAmount < 0))
    return {
      code: 'parameter_invalid_integer',
      param: 'restrictions[minimum_amount]',
      message: 'Invalid non-negative integer',
    };
  if (minimumAmount !== null && !restrictions.minimum_amount_currency)
    return {
      param: 'restrictions[minimum_amount_currency]',
      message: 'You must pass `minimum_amount_currency` when passing `minimum_amount`.',
    };
  return {
    id,
    object: 'promotion_code',
    active,
    code,
    created: now,
    customer: null,
    customer_account: null,
    expires_at: expiresAt ?? null,
    livemode: false,
    max_redemptions: maxRedemptions ?? null,
    metadata: (body.metadata as Stripe.Metadata | undefined) ?? {},
    promotion: {type: 'coupon', coupon: coupon.id},
    restrictions: {
      first_time_transaction: restrictions.first_time_transaction === 'true',
      minimum_amount: minimumAmount,
      minimum_amount_currency: minimumAmount === null ? null : restrictions.minimum_amount_currency!.toLowerCase(),
    },
    times_redeemed: 0,
  };
}

/** `GET /v1/promotion_codes`: the codes matching `code`, `active` and `coupon`, newest first, `limit` of them. */
export function listPromotionCodes(
  promotionCodes: Map<string, Stripe.PromotionCode>,
  query: Form,
): Stripe.ApiList<Stripe.PromotionCode> {
  const limit = query.limit === undefined ? 10 : Number(query.limit);
  // The map keeps creation order; reversed, the newest come first even within one second.
  const matching = [...promotionCodes.values()]
    .reverse()
    .filter(
      (promo) =>
        (query.code === undefined || sameIgnoringCase(promo.code, query.code as string)) &&
        (query.active === undefined || promo.active === (query.active === 'true')) &&
        (query.coupon === undefined || promo.promotion.coupon === query.coupon),
    );
  return {
    object: 'list',
    data: matching.slice(0, limit),
    has_more: matching.length > limit,
    url: '/v1/promotion_codes',
  };
}

/**
 * `POST /v1/promotion_codes/:id`: `active` and `metadata`. Stripe will not make a code active again
 * while another active code has the same code, nor once its coupon can no longer be redeemed.
 */
export function updatedPromotionCodeOrRefusal(
  promo: Stripe.PromotionCode,
  body: Form,
  {coupons, promotionCodes}: {coupons: Map<string, Stripe.Coupon>; promotionCodes: Map<string, Stripe.PromotionCode>},
): Stripe.PromotionCode | Refusal {
  const active = body.active === undefined ? promo.active : body.active === 'true';
  if (active && !promo.active) {
    if (activeCode(promotionCodes, promo.code, promo.id)) return duplicateOf(promo.code);
    const coupon = coupons.get(promo.promotion.coupon as string);
    if (!coupon || couponSpent(coupon))
      return {code: 'coupon_expired', param: 'active', message: `Coupon expired: ${promo.promotion.coupon}`};
  }
  const metadata = body.metadata === '' ? {} : {...promo.metadata, ...(body.metadata as Stripe.Metadata | undefined)};
  return {...promo, active, metadata};
}

/** What Checkout knows when a buyer enters a code. */
export interface CodeAtCheckout {
  session: Stripe.Checkout.Session;
  /** The product of the session's price. */
  product: string | null;
  /** Whether the session's customer has paid before: a first-time-only code is not for them. */
  returningBuyer: boolean;
  now?: number;
}

const money = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;

/**
 * The promotion code and coupon a buyer's code redeems at Checkout, or the words Checkout shows the
 * buyer instead: the code must be active and unexpired with redemptions left, its coupon still
 * redeemable and for the product bought, the buyer a first-time one when the code says so, the
 * subtotal at least its minimum.
 */
export function codeAtCheckout(
  entered: string,
  promotionCodes: Map<string, Stripe.PromotionCode>,
  coupons: Map<string, Stripe.Coupon>,
  {session, product, returningBuyer, now = nowSeconds()}: CodeAtCheckout,
): {promo: Stripe.PromotionCode; coupon: Stripe.Coupon} | {refused: string} {
  if (!session.allow_promotion_codes) return {refused: 'This checkout does not accept promotion codes.'};
  const promo = activeCode(promotionCodes, entered.trim());
  const coupon = promo && coupons.get(promo.promotion.coupon as string);
  if (!promo || !coupon) return {refused: 'This code is invalid.'};
  const spent = couponSpent(coupon, now);
  if ((promo.expires_at !== null && promo.expires_at <= now) || spent === 'expired')
    return {refused: 'This code has expired.'};
  if ((promo.max_redemptions !== null && promo.times_redeemed >= promo.max_redemptions) || spent === 'used up')
    return {refused: 'This code cannot be used because it has been redeemed the maximum number of times.'};
  const products = coupon.applies_to?.products;
  if (products && (product === null || !products.includes(product)))
    return {refused: 'This code is not valid for the items in this purchase.'};
  if (promo.restrictions.first_time_transaction && returningBuyer)
    return {refused: 'This code is only valid for first-time customers.'};
  const {minimum_amount: minimum, minimum_amount_currency: currency} = promo.restrictions;
  const subtotal = session.amount_subtotal ?? session.amount_total ?? 0;
  if (minimum !== null && currency !== null && (session.currency !== currency || subtotal < minimum))
    return {refused: `This code requires a minimum purchase of ${money(minimum, currency)}.`};
  return {promo, coupon};
}

/**
 * Whether the session's customer has paid before: a paid session of theirs. Stripe's
 * `first_time_transaction` is about the Customer ("without any successful payments or invoices"),
 * so a session made for no customer (a guest's first purchase, for whom Checkout makes a new one)
 * is a first-time one here, whoever types the e-mail.
 */
export function customerPaidBefore(customer: string | null, sessions: Iterable<Stripe.Checkout.Session>): boolean {
  if (!customer) return false;
  return [...sessions].some((session) => session.payment_status === 'paid' && session.customer === customer);
}
