import {useState} from 'react';
import {checkoutPriceId, featuredPlan} from '../config';
import {keptReferral} from './affiliateReferral';
import {useAuthClient} from './auth/AuthContext';
import {trackCheckoutClicked} from './tracking/pixel';
import {useApiClient} from './useApiClient';
import {messageOf} from './errorMessage';

export interface CheckoutOptions {
  /** A plan's price id (it names the plan; the worker's Stripe key decides the mode); the featured plan's when absent. */
  priceId?: string;
  /** Prefilled on Stripe's page; the signed-in user's e-mail when absent. */
  email?: string;
  /** Seats of a plan sold for teams; one when absent. The worker holds it to the plan and prices it. */
  seats?: number;
  /** Where the browser goes once the session exists; the real navigation unless a test replaces it. */
  redirect?: (url: string) => void;
}

export interface CheckoutReporting {
  /** Told what went wrong, as §8 words it (`Error: {message}`): the caller shows it in the snack bar. */
  onError: (message: string) => void;
}

function navigate(url: string): void {
  window.location.assign(url);
}

/**
 * Starts a Stripe Checkout session on the worker and sends the browser to it (§4, §7): the
 * landing page's buttons and the dashboard share it. A failure is logged and handed to `onError`.
 */
export function useCheckout({onError}: CheckoutReporting) {
  const [loading, setLoading] = useState(false);
  const api = useApiClient();
  const {userIfSignedIn} = useAuthClient();

  async function start({priceId, email, seats, redirect = navigate}: CheckoutOptions = {}): Promise<void> {
    trackCheckoutClicked();
    setLoading(true);
    try {
      const prefill = email ?? (await userIfSignedIn().catch(() => null))?.email ?? undefined;
      // The affiliate's visit this browser kept, while it counts: the worker decides whether it still does.
      const referral = keptReferral();
      const {url} = await api.createCheckoutSession({
        priceId: priceId ?? checkoutPriceId(featuredPlan()),
        successUrl: `${window.location.origin}/success`,
        cancelUrl: window.location.href,
        ...(prefill ? {email: prefill} : {}),
        ...(seats !== undefined && seats > 1 ? {seats} : {}),
        ...(referral ? {referral} : {}),
      });
      redirect(url);
    } catch (error) {
      console.error('Checkout failed:', error);
      onError(`Error: ${messageOf(error)}`);
    } finally {
      setLoading(false);
    }
  }

  return {loading, start};
}
