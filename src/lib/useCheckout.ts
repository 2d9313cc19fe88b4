import {useState} from 'react';
import {featuredPlan} from '../config';
import {useSnackbar} from '../components/Snackbar';
import {useAuthClient} from './auth/AuthContext';
import {useSiteSettings} from './SiteSettingsContext';
import {trackCheckoutClicked} from './tracking/pixel';
import {useApiClient} from './useApiClient';

export interface CheckoutOptions {
  /** Stripe price id; the featured plan's in the current mode when absent. */
  priceId?: string;
  /** Prefilled on Stripe's page; the signed-in user's e-mail when absent. */
  email?: string;
  /** Where the browser goes once the session exists; the real navigation unless a test replaces it. */
  redirect?: (url: string) => void;
}

function navigate(url: string): void {
  window.location.assign(url);
}

/**
 * Starts a Stripe Checkout session on the worker and sends the browser to it (§4, §7): the
 * landing page's buttons and the dashboard share it. Failures show the snack bar (§8).
 */
export function useCheckout() {
  const [loading, setLoading] = useState(false);
  const api = useApiClient();
  const {stripeMode} = useSiteSettings();
  const {userIfSignedIn} = useAuthClient();
  const snackbar = useSnackbar();

  async function start({priceId, email, redirect = navigate}: CheckoutOptions = {}): Promise<void> {
    trackCheckoutClicked();
    setLoading(true);
    try {
      const prefill = email ?? (await userIfSignedIn().catch(() => null))?.email ?? undefined;
      const {url} = await api.createCheckoutSession({
        priceId: priceId ?? featuredPlan().priceId[stripeMode],
        successUrl: `${window.location.origin}/success`,
        cancelUrl: window.location.href,
        ...(prefill ? {email: prefill} : {}),
      });
      redirect(url);
    } catch (error) {
      console.error('Checkout failed:', error);
      snackbar.show(`Error: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setLoading(false);
    }
  }

  return {loading, start};
}
