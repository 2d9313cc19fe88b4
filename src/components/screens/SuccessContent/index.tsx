import React, {useEffect, useState} from 'react';
import Link from '@docusaurus/Link';
import {useLocation} from '@docusaurus/router';
import {afterPurchase, appConfig, ROUTES} from '../../../config';
import Spinner from '../../shared/Spinner';
import {type SuccessState, useCheckoutStatus} from './useCheckoutStatus';
import styles from './styles.module.css';

const copy = afterPurchase.successPage;

/**
 * Where Stripe sends a buyer after paying. It thanks them only once the worker says the checkout
 * they came back from is paid (the id and claim that `lib/checkoutSession` took out of the address
 * as the page loaded); any other visitor is told what is so. The dashboard does the sign-in, with
 * the same id, and the rest of the query passed along.
 */
export default function SuccessContent() {
  const location = useLocation();
  // The page is prerendered without a query; take the real one once in the browser,
  // since hydration keeps server-rendered attributes as they were.
  const [search, setSearch] = useState('');
  useEffect(() => setSearch(location.search), [location.search]);
  const {state, retry} = useCheckoutStatus();
  return (
    <div className={styles.card} aria-live="polite">
      <Answer state={state} retry={retry} dashboard={`${appConfig.auth.callbackUrl}${search}`} />
    </div>
  );
}

function Answer({state, retry, dashboard}: {state: SuccessState; retry: () => void; dashboard: string}) {
  switch (state.kind) {
    case 'checking':
      return (
        <>
          <Spinner label={copy.checking} />
          <h1 className={styles.title}>{copy.checking}</h1>
        </>
      );
    case 'paid':
      return (
        <>
          <svg width="64" height="64" viewBox="0 0 24 24" aria-hidden="true" className={styles.icon}>
            <circle cx="12" cy="12" r="10" fill="currentColor" opacity="0.15" />
            <path
              d="m7.5 12.5 3 3 6-7"
              stroke="currentColor"
              strokeWidth="2"
              fill="none"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </svg>
          <h1 className={styles.title}>{copy.paid.title}</h1>
          <p>
            {copy.paid.text} {afterPurchase.email}
          </p>
          <ol className={styles.steps} aria-label="Get the code">
            {afterPurchase.steps.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
          <p className={styles.note}>{copy.note}</p>
          <Link className={styles.button} to={dashboard}>
            {copy.actions.dashboard}
          </Link>
        </>
      );
    case 'processing':
      return (
        <>
          <h1 className={styles.title}>{copy.processing.title}</h1>
          <p>{copy.processing.text}</p>
          <Actions support />
        </>
      );
    case 'revoked':
      return (
        <>
          <h1 className={styles.title}>{copy.revoked.title}</h1>
          <p>{copy.revoked.text}</p>
          <Actions dashboard support />
        </>
      );
    case 'unchecked':
      return (
        <>
          <h1 className={styles.title}>{copy.unchecked.title}</h1>
          <p>{state.message}</p>
          <p className={styles.note}>{copy.signInHint}</p>
          <Actions retry={retry} dashboard />
        </>
      );
    default: {
      // none, unpaid, failed: no purchase here.
      const {title, text} = copy[state.kind];
      return (
        <>
          <h1 className={styles.title}>{title}</h1>
          <p>{text}</p>
          <p className={styles.note}>{copy.signInHint}</p>
          <Actions dashboard plans support />
        </>
      );
    }
  }
}

/** The ways on from an answer that thanks nobody: each a plain link, none carrying the query. */
function Actions({
  retry,
  dashboard,
  plans,
  support,
}: {
  retry?: () => void;
  dashboard?: boolean;
  plans?: boolean;
  support?: boolean;
}) {
  return (
    <div className={styles.actions}>
      {retry && (
        <button type="button" className={styles.button} onClick={retry}>
          {copy.actions.retry}
        </button>
      )}
      {dashboard && (
        <Link className={retry ? styles.secondary : styles.button} to={appConfig.auth.callbackUrl}>
          {copy.actions.dashboard}
        </Link>
      )}
      {plans && (
        <Link className={styles.secondary} to={`${ROUTES.home}#pricing`}>
          {copy.actions.plans}
        </Link>
      )}
      {support && (
        <a className={styles.secondary} href={`mailto:${appConfig.support.email}`}>
          {copy.actions.support}
        </a>
      )}
    </div>
  );
}
