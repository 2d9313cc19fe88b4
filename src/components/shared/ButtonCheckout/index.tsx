import React from 'react';
import clsx from 'clsx';
import {appConfig} from '../../../config';
import {useCheckout} from '../../../lib/useCheckout';
import Logo from '../Logo';
import {useSnackbar} from '../Snackbar';
import Spinner from '../Spinner';
import styles from './styles.module.css';

export interface ButtonCheckoutProps {
  /** A plan's price id (it names the plan; the worker's Stripe key decides the mode); the featured plan's when absent. */
  priceId?: string;
  label?: string;
  /** Prefilled on Stripe's page; the signed-in user's e-mail when absent. */
  email?: string;
  /** Seats of a plan sold for teams; one when absent. */
  seats?: number;
  size?: 'default' | 'small';
  className?: string;
  /** Where the browser goes once the session exists; the real navigation unless a test replaces it. */
  redirect?: (url: string) => void;
}

/**
 * Starts a Stripe Checkout session on the worker and sends the visitor to it.
 * Idle, then loading (a spinner where the logo was), then idle again.
 */
export default function ButtonCheckout({
  priceId,
  label = `Get ${appConfig.appName}`,
  email,
  seats,
  size = 'default',
  className,
  redirect,
}: ButtonCheckoutProps) {
  const snackbar = useSnackbar();
  const {loading, start} = useCheckout({onError: snackbar.show});
  const checkout = () => start({priceId, email, seats, redirect});

  return (
    <button
      type="button"
      className={clsx(styles.button, size === 'small' && styles.small, className)}
      onClick={checkout}
      disabled={loading}
      aria-busy={loading}>
      {loading ? (
        <Spinner label="Opening checkout" />
      ) : (
        <Logo size={size === 'small' ? 18 : 22} className={styles.logo} />
      )}
      <span>{label}</span>
    </button>
  );
}
