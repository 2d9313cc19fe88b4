import React, {useEffect, useState} from 'react';
import Link from '@docusaurus/Link';
import {useLocation} from '@docusaurus/router';
import {afterPurchase, appConfig} from '../../../config';
import styles from './styles.module.css';

/**
 * Where Stripe sends a buyer after paying. It calls nothing: the dashboard does the work, with the
 * checkout session id that `lib/checkoutSession` took out of the address bar as the page loaded,
 * and the rest of the query passed along.
 */
export default function SuccessContent() {
  const location = useLocation();
  // The page is prerendered without a query; take the real one once in the browser,
  // since hydration keeps server-rendered attributes as they were.
  const [search, setSearch] = useState('');
  useEffect(() => setSearch(location.search), [location.search]);
  return (
    <div className={styles.card}>
      <svg width="64" height="64" viewBox="0 0 24 24" aria-hidden="true" className={styles.icon}>
        <circle cx="12" cy="12" r="10" fill="currentColor" opacity="0.15" />
        <path d="m7.5 12.5 3 3 6-7" stroke="currentColor" strokeWidth="2" fill="none" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <h1 className={styles.title}>Purchase Successful!</h1>
      <p>
        Thank you for buying {appConfig.appName}. {afterPurchase.email}
      </p>
      <ol className={styles.steps} aria-label="Get the code">
        {afterPurchase.steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <p className={styles.note}>E-mails can take a minute or two to arrive. Look in your spam folder too.</p>
      <Link className={styles.button} to={`${appConfig.auth.callbackUrl}${search}`}>
        Go to Dashboard
      </Link>
    </div>
  );
}
