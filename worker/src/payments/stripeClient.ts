import Stripe from 'stripe';

/**
 * A Stripe client for a key, at Stripe or at `apiUrl` (a local stand-in). Nothing of the worker's
 * runtime here: `npm run preflight` asks the seller's account with the very same client.
 */
export function stripeClient(secretKey: string, apiUrl: string | undefined): Stripe {
  const api = apiUrl ? new URL(apiUrl) : undefined;
  return new Stripe(secretKey, {
    httpClient: Stripe.createFetchHttpClient(),
    maxNetworkRetries: 1,
    ...(api && {
      host: api.hostname,
      port: api.port || (api.protocol === 'https:' ? '443' : '80'),
      protocol: api.protocol === 'https:' ? 'https' : 'http',
    }),
  });
}

/** Secret (`sk_live_`) and restricted (`rk_live_`) keys both move real money. */
export function isLiveKey(key: string | undefined): boolean {
  return key !== undefined && /^(sk|rk)_live_/.test(key);
}
