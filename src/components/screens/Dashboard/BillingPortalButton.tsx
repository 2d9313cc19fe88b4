import React, {useState} from 'react';
import {useApiClient} from '../../../lib/useApiClient';
import Spinner from '../../shared/Spinner';
import controls from '../../../css/controls.module.css';

/** Opens Stripe's billing portal (§4); an error is only logged (§8). */
export default function BillingPortalButton({redirect = (url: string) => window.location.assign(url)}) {
  const api = useApiClient();
  const [loading, setLoading] = useState(false);

  async function open() {
    setLoading(true);
    try {
      const {url} = await api.createBillingPortal(window.location.href);
      redirect(url);
    } catch (error) {
      console.error('Opening the billing portal failed:', error);
      setLoading(false);
    }
  }

  return (
    <button type="button" className={controls.secondary} onClick={open} disabled={loading} aria-busy={loading}>
      {loading && <Spinner label="Opening the billing portal" />}
      Billing portal
    </button>
  );
}
