/**
 * The words the buyer accepts at checkout (when `checkout.requireTermsAcceptance` is on), kept in
 * one place so that Stripe Checkout's checkbox and the terms page say the same thing.
 *
 * For digital content, an EU consumer keeps a 14-day right of withdrawal unless delivery starts
 * with their express request and their acknowledgement that they then lose it (Consumer Rights
 * Directive 2011/83/EU, Art. 16(m)). Whether this wording is enough where you sell is your call.
 */
import {ROUTES} from './links';

/** The buyer's request for delivery at once, and the acknowledgement of what it costs them. */
export const immediateDeliveryRequest =
  'I ask for access to the code at once, and I acknowledge that I then lose my right of withdrawal.';

/**
 * The version of `immediateDeliveryRequest` a buyer accepted, stored with their purchase and named
 * in their receipt: the day its words last changed. test/unit/consentVersion.test.ts records the
 * words' hash beside it, so words changed without a new version fail.
 */
export const immediateDeliveryVersion = '2026-11-26';

/**
 * The text of Checkout's terms checkbox (`custom_text.terms_of_service_acceptance`, at most 1,200
 * characters; Stripe renders its Markdown links), with the terms page on the site's origin.
 */
export function termsAcceptanceText(siteOrigin: string): string {
  return `I agree to the [Terms of Service](${siteOrigin}${ROUTES.terms}). ${immediateDeliveryRequest}`;
}
