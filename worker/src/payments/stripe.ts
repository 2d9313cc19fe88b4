import Stripe from 'stripe';
import {HttpError} from '../errors';
import {log} from '../log';
import type {Settings} from '../settings';
import {stripeClient} from './stripeClient';

/**
 * Building a client sets up every one of Stripe's resources (most of a millisecond of CPU, on
 * every webhook), and a client holds no request's state, so each isolate keeps one per settings.
 */
const clients = new WeakMap<Settings, Stripe>();

/** A Stripe client on fetch, pointed at STRIPE_API_URL when one is set (a local stand-in). */
export function stripeFor(settings: Settings): Stripe {
  if (!settings.STRIPE_SECRET_KEY) {
    throw new HttpError(503, 'Payments are not configured yet. Please contact support.', 'NOT_CONFIGURED');
  }
  let client = clients.get(settings);
  if (!client) {
    client = stripeClient(settings.STRIPE_SECRET_KEY, settings.STRIPE_API_URL);
    clients.set(settings, client);
  }
  return client;
}

export const subtleCrypto = Stripe.createSubtleCryptoProvider();

/**
 * Stripe's own errors mean the seller's account refused (a missing price, say): a 502 for us.
 * Stripe's text is for the seller's logs; the caller reads ours.
 */
export function paymentProviderError(err: unknown): HttpError {
  const stripe = err instanceof Stripe.errors.StripeError ? err : undefined;
  log.error('stripe.refused', {
    error: stripe?.message ?? (err instanceof Error ? err.message : String(err)),
    type: stripe?.type,
    code: stripe?.code,
    requestId: stripe?.requestId,
  });
  return new HttpError(
    502,
    stripe
      ? 'The payment provider refused the request. Please try again or contact support.'
      : 'The payment provider could not be reached. Please try again.',
    'PAYMENT_PROVIDER',
  );
}

/** The id of an expandable Stripe field, expanded or not. */
export function idOf(value: string | {id: string} | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}
