import type Stripe from 'stripe';
import {appConfig, type AppConfig, immediateDeliveryVersion, termsAcceptanceText} from '../../../src/config';

type CheckoutSwitches = AppConfig['checkout'];

/** The Checkout Session parameters that the config's `checkout` switches decide. */
export type CheckoutOptions = Pick<
  Stripe.Checkout.SessionCreateParams,
  | 'automatic_tax'
  | 'tax_id_collection'
  | 'invoice_creation'
  | 'consent_collection'
  | 'custom_text'
  | 'after_expiration'
  | 'adaptive_pricing'
>;

/**
 * The config's tax, invoice, terms, recovery and currency switches as Stripe takes them. A switch
 * that is off is left out rather than sent as false, so the session is the one Stripe makes by
 * default; but Adaptive Pricing is sent either way, since Stripe's default for it is the
 * dashboard's setting (on for new accounts), and the config is what decides. The
 * terms' text needs the checkbox: Stripe refuses `custom_text.terms_of_service_acceptance` without
 * `consent_collection.terms_of_service: 'required'`.
 *
 * `recovery` is given for a purchase's session only (an upgrade's credit is priced for the moment
 * it is made, and is never copied into a session a day later): with `recoverAbandoned` on, Checkout
 * asks for consent to offers, and Stripe keeps a recovery link if the session expires unpaid. The
 * copy takes promotion codes only where the session did: a fair price's coupon and a code never
 * stack.
 */
export function checkoutOptions(
  siteOrigin: string,
  switches: CheckoutSwitches = appConfig.checkout,
  recovery?: {promotionCodes: boolean},
): CheckoutOptions {
  const recover = Boolean(recovery && switches.recoverAbandoned);
  const consent: Stripe.Checkout.SessionCreateParams.ConsentCollection = {
    ...(switches.requireTermsAcceptance && {terms_of_service: 'required'}),
    ...(recover && {promotions: 'auto'}),
  };
  return {
    ...(switches.calculateTax && {automatic_tax: {enabled: true}}),
    ...(switches.collectTaxIds && {tax_id_collection: {enabled: true}}),
    ...(switches.invoiceEveryPurchase && {invoice_creation: {enabled: true}}),
    ...(Object.keys(consent).length > 0 && {consent_collection: consent}),
    ...(switches.requireTermsAcceptance && {
      custom_text: {terms_of_service_acceptance: {message: termsAcceptanceText(siteOrigin)}},
    }),
    ...(recover && {
      after_expiration: {recovery: {enabled: true, allow_promotion_codes: recovery!.promotionCodes}},
    }),
    adaptive_pricing: {enabled: switches.adaptivePricing},
  };
}

/** The session's metadata key for the version of the immediate-delivery words its terms box shows. */
export const CONSENT_METADATA_KEY = 'delivery_consent_version';

/**
 * The version of the words the terms box carries, kept in the session's metadata (the worker's own,
 * never the browser's): fulfilment stores it with the buyer's consent, as the words they accepted.
 */
export function consentMetadata(switches: CheckoutSwitches = appConfig.checkout): Record<string, string> {
  return switches.requireTermsAcceptance ? {[CONSENT_METADATA_KEY]: immediateDeliveryVersion} : {};
}
