/**
 * The requests the worker benchmarks send, shared by `bench:worker` and `bench:soak`. Each maker
 * returns a function called once per request, so routes that must not see repeats get fresh ones:
 * every Stripe event a new id, every lead a new e-mail and client address.
 */
import type Stripe from 'stripe';
import {signStripePayload, stripeEvent} from '../local/stripeApi';

export interface BenchRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** The paid check for the bench's own user (a user without a purchase answers `{"hasPaid":false}`). */
export function userHasPaid(uid: string, token: string): () => BenchRequest {
  return () => ({
    method: 'GET',
    path: `/userHasPaid?userId=${encodeURIComponent(uid)}`,
    headers: {authorization: `Bearer ${token}`},
  });
}

/** A signed Stripe webhook around this event, as Stripe delivers it. */
export function signedEvent(event: Stripe.Event, secret: string): BenchRequest {
  const payload = JSON.stringify(event);
  return {
    method: 'POST',
    path: '/api/webhook/stripe',
    headers: {'content-type': 'application/json', 'stripe-signature': signStripePayload(payload, secret)},
    body: payload,
  };
}

/**
 * Stripe events of a type the worker only records (`customer.created`): the figure is the
 * signature check plus the one D1 write that stores the event id.
 */
export function recordedEvents(secret: string, label = 'bench'): () => BenchRequest {
  let count = 0;
  return () =>
    signedEvent(
      stripeEvent(
        'customer.created',
        {id: 'cus_bench', object: 'customer'} as Stripe.Customer,
        `evt_${label}_${++count}`,
      ),
      secret,
    );
}

/**
 * New waitlist e-mails. Leads are rate-limited per client address, so each comes from its own
 * address and every answer is a 201.
 */
export function newLeads(label = 'bench'): () => BenchRequest {
  let count = 0;
  return () => {
    const n = ++count;
    return {
      method: 'POST',
      path: '/api/leads',
      headers: {
        'content-type': 'application/json',
        'cf-connecting-ip': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
      },
      body: JSON.stringify({email: `${label}.${n}@example.com`}),
    };
  };
}
