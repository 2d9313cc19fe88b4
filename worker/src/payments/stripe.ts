import Stripe from 'stripe';
import {HttpError} from '../errors';
import type {Settings} from '../settings';

/** A Stripe client on fetch, pointed at STRIPE_API_URL when one is set (a local stand-in). */
export function stripeFor(settings: Settings): Stripe {
  if (!settings.STRIPE_SECRET_KEY) {
    throw new HttpError(503, 'Payments are not configured yet. Please contact support.', 'NOT_CONFIGURED');
  }
  const api = settings.STRIPE_API_URL ? new URL(settings.STRIPE_API_URL) : undefined;
  return new Stripe(settings.STRIPE_SECRET_KEY, {
    httpClient: Stripe.createFetchHttpClient(),
    maxNetworkRetries: 1,
    ...(api && {
      host: api.hostname,
      port: api.port || (api.protocol === 'https:' ? '443' : '80'),
      protocol: api.protocol === 'https:' ? 'https' : 'http',
    }),
  });
}

export const subtleCrypto = Stripe.createSubtleCryptoProvider();

/** Stripe's own errors mean the seller's account refused (a missing price, say): a 502 for us. */
export function paymentProviderError(err: unknown): HttpError {
  const message = err instanceof Stripe.errors.StripeError ? err.message : 'Payment provider is unreachable';
  return new HttpError(502, `Stripe refused the request: ${message}`, 'PAYMENT_PROVIDER');
}

/** The id of an expandable Stripe field, expanded or not. */
export function idOf(value: string | {id: string} | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}
