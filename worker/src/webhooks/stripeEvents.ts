import type Stripe from 'stripe';
import {appConfig, type AppConfig} from '../../../src/config';

/**
 * The Stripe event types the worker acts on (webhooks/stripe.ts has one handler for each, held
 * to this list by its type). The Stripe webhook endpoint must listen to every one it needs
 * (`requiredStripeEvents`): `npm run preflight` checks it against the seller's account.
 */
export const HANDLED_STRIPE_EVENTS = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
  'charge.refunded',
  'charge.refund.updated',
  'charge.dispute.created',
  'charge.dispute.closed',
] as const satisfies readonly Stripe.Event.Type[];

export type HandledStripeEvent = (typeof HANDLED_STRIPE_EVENTS)[number];

/**
 * The events the endpoint must listen to: every one handled, but `checkout.session.expired` only
 * with `checkout.recoverAbandoned` on (it brings a checkout's reminder, and nothing else).
 */
export function requiredStripeEvents(switches: AppConfig['checkout'] = appConfig.checkout): HandledStripeEvent[] {
  return HANDLED_STRIPE_EVENTS.filter((event) => event !== 'checkout.session.expired' || switches.recoverAbandoned);
}
