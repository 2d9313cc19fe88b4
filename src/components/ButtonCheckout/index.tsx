import React, {useState} from 'react';
import clsx from 'clsx';
import {appConfig, featuredPlan} from '../../config';
import {useApiClient} from '../../lib/useApiClient';
import {useSiteSettings} from '../../lib/SiteSettingsContext';
import {trackCheckoutClicked} from '../../lib/tracking/pixel';
import Logo from '../Logo';
import Spinner from '../Spinner';
import {useSnackbar} from '../Snackbar';
import styles from './styles.module.css';

export interface ButtonCheckoutProps {
  /** Stripe price id; the featured plan's in the current mode when absent. */
  priceId?: string;
  label?: string;
  /** Prefilled on Stripe's page when the buyer is known. */
  email?: string;
  size?: 'default' | 'small';
  className?: string;
  /** Where the browser goes once the session exists; the real navigation unless a test replaces it. */
  redirect?: (url: string) => void;
}

function navigate(url: string): void {
  window.location.assign(url);
}

/**
 * Starts a Stripe Checkout session on the worker and sends the visitor to it.
 * Idle, then loading (a spinner where the logo was), then idle again.
 */
export default function ButtonCheckout({
  priceId,
  label = `Get ${appConfig.appName}`,
  email,
  size = 'default',
  className,
  redirect = navigate,
}: ButtonCheckoutProps) {
  const [loading, setLoading] = useState(false);
  const api = useApiClient();
  const {stripeMode} = useSiteSettings();
  const snackbar = useSnackbar();

  async function checkout() {
    trackCheckoutClicked();
    setLoading(true);
    try {
      const {url} = await api.createCheckoutSession({
        priceId: priceId ?? featuredPlan().priceId[stripeMode],
        successUrl: `${window.location.origin}/success`,
        cancelUrl: window.location.href,
        ...(email ? {email} : {}),
      });
      redirect(url);
    } catch (error) {
      console.error('Checkout failed:', error);
      snackbar.show(`Error: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setLoading(false);
    }
  }

  return (
    <button
      type="button"
      className={clsx(styles.button, size === 'small' && styles.small, className)}
      onClick={checkout}
      disabled={loading}
      aria-busy={loading}>
      {loading ? <Spinner label="Opening checkout" /> : <Logo size={size === 'small' ? 18 : 22} className={styles.logo} />}
      <span>{label}</span>
    </button>
  );
}
