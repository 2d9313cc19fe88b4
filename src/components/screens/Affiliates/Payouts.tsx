import React, {useEffect, useId, useState} from 'react';
import {AFFILIATE_WORDS} from '../../../config';
import type {AffiliateStripe} from '../../../config/api';
import {ApiError} from '../../../lib/api';
import {useApiClient} from '../../../lib/useApiClient';
import controls from '../../../css/controls.module.css';
import account from './account.module.css';
import styles from './styles.module.css';

export interface PayoutsProps {
  /** Where the affiliate's payouts through Stripe stand (the programme pays through Stripe). */
  stripe: NonNullable<AffiliateStripe>;
  /** Where the browser goes with Stripe's link; the real navigation unless a test replaces it. */
  redirect?: (url: string) => void;
}

const navigate = (url: string) => window.location.assign(url);

/** The worker's own words when it said why (a known error code, or unreachable); else the page's. */
function failure(error: unknown): string {
  return error instanceof ApiError && (error.code !== undefined || error.status === 0)
    ? error.message
    : AFFILIATE_WORDS.connectFailed;
}

/**
 * Payouts through Stripe: where they stand, and the one way on, to Stripe (set up, finish, or the
 * dashboard). The worker answers a single-use link, so it is asked for on the press, not before.
 * Stripe sends the affiliate back to this page, which reads their state afresh.
 */
export default function Payouts({stripe, redirect = navigate}: PayoutsProps) {
  const api = useApiClient();
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);

  useEffect(() => {
    // Back from Stripe through the browser's cache: the page is as it was left, so the button works again.
    const shown = (event: PageTransitionEvent) => event.persisted && setBusy(false);
    window.addEventListener('pageshow', shown);
    return () => window.removeEventListener('pageshow', shown);
  }, []);

  async function open() {
    if (busy) return;
    setBusy(true);
    setFailed(null);
    try {
      redirect((await api.affiliateConnect()).url);
    } catch (error) {
      console.error('Opening Stripe for payouts failed:', error);
      setFailed(failure(error));
      setBusy(false);
    }
  }

  return (
    <section className={styles.card} aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{AFFILIATE_WORDS.payoutsHeading}</h2>
      <p>{AFFILIATE_WORDS.stripeStates[stripe]}</p>
      <button
        type="button"
        className={stripe === 'ready' ? controls.secondary : controls.primary}
        disabled={busy}
        aria-busy={busy}
        onClick={() => void open()}>
        {busy ? AFFILIATE_WORDS.connecting : AFFILIATE_WORDS.connectActions[stripe]}
      </button>
      {failed && (
        <p className={account.error} role="alert">
          {failed}
        </p>
      )}
    </section>
  );
}
