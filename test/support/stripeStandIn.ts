import type Stripe from 'stripe';
import {startStripeStandIn, type StripeStandIn} from '../../scripts/local/stripeApi';
import {stripeClient} from '../../worker/src/payments/stripeClient';

/** The Stripe stand-in for the test file, and the worker's own Stripe client pointed at it. */
export function useStripeStandIn(): () => {standIn: StripeStandIn; stripe: Stripe} {
  let running: {standIn: StripeStandIn; stripe: Stripe} | undefined;
  beforeAll(async () => {
    const standIn = await startStripeStandIn();
    running = {standIn, stripe: stripeClient('sk_test_stand_in', standIn.url)};
  });
  afterAll(() => running?.standIn.close());
  return () => running!;
}
