/**
 * Stripe Checkout's recovery of abandoned carts and its consent to promotional e-mails, for the
 * stand-in (./stripeApi.ts): the parameters Stripe takes and refuses when a session is created, the
 * session as it is once it expires, and the new session its recovery URL makes. Pure functions,
 * typed with the `stripe` package's own types.
 *
 * docs.stripe.com/payments/checkout/abandoned-carts and
 * docs.stripe.com/payments/checkout/promotional-emails-consent.
 */
import type Stripe from 'stripe';
import type {Refusal} from './stripePromotionCodes';

/** A recovery URL can be opened for 30 days after its session expired. */
export const RECOVERY_DAYS = 30;
/** A session Checkout makes expires 24 hours after it was created, unless told otherwise. */
export const SESSION_LIFETIME_SECONDS = 24 * 3600;
/** The words of the checkbox Checkout shows under the e-mail with `consent_collection.promotions: 'auto'`. */
export const PROMOTIONS_LABEL = 'Keep me updated with news and personalized offers';
/** Stripe's refusal to expire a session that is complete, or expired already. */
export const ONLY_OPEN_EXPIRE: Refusal = {message: 'Only Checkout Sessions with a status in ["open"] can be expired.'};

const PROMOTIONS: Stripe.Checkout.SessionCreateParams.ConsentCollection.Promotions[] = ['auto', 'none'];

/** How Stripe refuses a value outside an enum's: `Invalid <param>: must be one of a, b, or c`. */
export function notOneOf(param: string, allowed: readonly string[]): Refusal {
  const choices =
    allowed.length < 3 ? allowed.join(' or ') : `${allowed.slice(0, -1).join(', ')}, or ${allowed.at(-1)}`;
  return {param, message: `Invalid ${param}: must be one of ${choices}`};
}

/** The form-encoded parameters these features read, as `qs` parses them: every value a string. */
export interface RecoveryParams {
  consent_collection?: {promotions?: string};
  after_expiration?: {recovery?: {enabled?: string; allow_promotion_codes?: string}};
}

/**
 * What Stripe refuses in `consent_collection[promotions]`: a value other than `auto` or `none`, and
 * `auto` on an account outside the United States ("Only available to US merchants"). Stripe's
 * docs do not give the words of the latter refusal: these are the stand-in's, in Stripe's manner.
 * And a recovery without `after_expiration[recovery][enabled]`, which Stripe requires.
 */
export function recoveryRefusal(body: RecoveryParams, accountCountry: string): Refusal | null {
  const promotions = body.consent_collection?.promotions;
  if (promotions !== undefined && !PROMOTIONS.includes(promotions))
    return notOneOf('consent_collection[promotions]', PROMOTIONS);
  if (promotions === 'auto' && accountCountry !== 'US')
    return {
      param: 'consent_collection[promotions]',
      message: 'consent_collection[promotions] can only be set to auto by accounts in the United States.',
    };
  const recovery = body.after_expiration?.recovery;
  if (recovery && recovery.enabled === undefined)
    return {
      code: 'parameter_missing',
      param: 'after_expiration[recovery][enabled]',
      message: 'Missing required param: after_expiration[recovery][enabled].',
    };
  return null;
}

/** Whether the body lets the buyer of a recovered session enter a promotion code. */
export const recoveryTakesCodes = (body: RecoveryParams) =>
  body.after_expiration?.recovery?.allow_promotion_codes === 'true';

/** The session's `after_expiration`, as Stripe answers it for what it was created with: no URL until it expires. */
export function afterExpirationOf(body: RecoveryParams): Stripe.Checkout.Session.AfterExpiration | null {
  const recovery = body.after_expiration?.recovery;
  if (!recovery) return null;
  return {
    recovery: {
      enabled: recovery.enabled === 'true',
      allow_promotion_codes: recovery.allow_promotion_codes === 'true',
      expires_at: null,
      url: null,
    },
  };
}

/**
 * What the buyer consented to, as the session records it once they submit Checkout's form: the
 * terms when the session requires them (Checkout does not submit without), the promotions box
 * ticked or not when the session shows it (`promotions` left out: the buyer never said). Null when
 * the session collects neither.
 */
export function consentGiven(
  session: Stripe.Checkout.Session,
  {terms, promotions}: {terms: boolean; promotions?: boolean},
): Stripe.Checkout.Session.Consent | null {
  const termsOfService = terms && session.consent_collection?.terms_of_service === 'required' ? 'accepted' : null;
  const promotionsConsent =
    session.consent_collection?.promotions === 'auto' && promotions !== undefined
      ? promotions
        ? 'opt_in'
        : 'opt_out'
      : null;
  if (!termsOfService && !promotionsConsent) return null;
  return {terms_of_service: termsOfService, promotions: promotionsConsent};
}

/** What the buyer had typed on the page when the session expired. */
export interface TypedBeforeLeaving {
  email?: string;
  promotions?: boolean;
}

/**
 * The session once it reaches its expiry unpaid (or is expired through the API): `expired`, without
 * its URL, with the e-mail and promotions consent the buyer had entered; with recovery on, the
 * recovery URL (`recoveryUrl()`, a new one) usable for 30 days. Stripe's refusal when it is not open.
 */
export function expiredSession(
  session: Stripe.Checkout.Session,
  typed: TypedBeforeLeaving,
  {now, recoveryUrl}: {now: number; recoveryUrl: () => string},
): Stripe.Checkout.Session | Refusal {
  if (session.status !== 'open') return ONLY_OPEN_EXPIRE;
  const email = typed.email || session.customer_email || null;
  const recovery = session.after_expiration?.recovery;
  return {
    ...session,
    status: 'expired',
    url: null,
    customer_details: email ? ({email} as Stripe.Checkout.Session.CustomerDetails) : session.customer_details,
    consent: consentGiven(session, {terms: false, promotions: typed.promotions}),
    after_expiration: recovery?.enabled
      ? {recovery: {...recovery, url: recoveryUrl(), expires_at: now + RECOVERY_DAYS * 24 * 3600}}
      : session.after_expiration,
  };
}

/** Why a recovery URL makes no session: none was given out, or its 30 days are over; null when it does. */
export function recoveryLinkRefusal(expired: Stripe.Checkout.Session | undefined, now: number): string | null {
  const expiresAt = expired?.after_expiration?.recovery?.expires_at;
  if (!expired || !expiresAt) return 'This recovery link is unknown.';
  if (expiresAt <= now) return `This recovery link expired after ${RECOVERY_DAYS} days.`;
  return null;
}

/** What a recovered session copies of the expired one: what it sells, for whom, and where it goes after. */
const COPIED = [
  'mode',
  'currency',
  'amount_subtotal',
  'amount_total',
  'total_details',
  'discounts',
  'customer',
  'customer_email',
  'client_reference_id',
  'metadata',
  'success_url',
  'cancel_url',
  'consent_collection',
  'custom_text',
  'automatic_tax',
  'tax_id_collection',
  'invoice_creation',
] as const satisfies readonly (keyof Stripe.Checkout.Session)[];

/**
 * The fields of the new session a recovery URL makes, a copy of the expired one: `recovered_from`
 * it, promotion codes as the recovery allows them, no consent yet, open for 24 hours from `now`,
 * and recovery on again should this one be abandoned too (its URL made when it expires).
 */
export function recoveredFields(expired: Stripe.Checkout.Session, now: number): Partial<Stripe.Checkout.Session> {
  const recovery = expired.after_expiration!.recovery!;
  const copied = Object.fromEntries(COPIED.map((key) => [key, structuredClone(expired[key])]));
  return {
    ...copied,
    created: now,
    expires_at: now + SESSION_LIFETIME_SECONDS,
    recovered_from: expired.id,
    allow_promotion_codes: recovery.allow_promotion_codes,
    after_expiration: {recovery: {...recovery, url: null, expires_at: null}},
    customer_details: null,
    consent: null,
    invoice: null,
    payment_intent: null,
  };
}
