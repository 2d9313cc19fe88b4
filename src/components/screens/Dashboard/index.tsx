import React, {useCallback, useEffect, useState} from 'react';
import Link from '@docusaurus/Link';
import {appConfig, checkoutPriceId, dashboardPlan, githubRepositoryUrl, ROUTES} from '../../../config';
import type {AccessStatus} from '../../../config/api';
import {useAuth} from '../../../lib/auth/AuthContext';
import type {AuthUser} from '../../../lib/auth/types';
import {useApiClient} from '../../../lib/useApiClient';
import ButtonAccount, {accountName} from '../../shared/ButtonAccount';
import ButtonCheckout from '../../shared/ButtonCheckout';
import RequireAuth from '../../layout/RequireAuth';
import Spinner from '../../shared/Spinner';
import AccessStatusPanel from './AccessStatusPanel';
import BillingPortalButton from './BillingPortalButton';
import RequestAccess from './RequestAccess';
import {useCheckoutSignIn} from './useCheckoutSignIn';
import styles from './styles.module.css';

const plan = dashboardPlan();

function SignedInDashboard({user}: {user: AuthUser}) {
  const api = useApiClient();
  // null while loading; 'unknown' when the worker could not say (the form still works: it checks).
  const [access, setAccess] = useState<AccessStatus | 'unknown' | null>(null);

  const refresh = useCallback(() => {
    api
      .accessStatus()
      .then(setAccess)
      .catch((error: unknown) => {
        console.error('Reading the access status failed:', error);
        setAccess('unknown');
      });
  }, [api]);
  const known = access === null || access === 'unknown' ? null : access;
  useEffect(refresh, [refresh]);

  return (
    <div className={styles.dashboard}>
      <div className={styles.top}>
        <h1 className={styles.title}>Welcome, {accountName(user)}</h1>
        <ButtonAccount />
      </div>
      <p className={styles.welcome}>
        Thank you for choosing {appConfig.appName}. Enter your GitHub username to be invited to the private repository,
        then follow the documentation to ship your app.
      </p>

      <section className={styles.card} aria-labelledby="access-heading">
        <h2 id="access-heading">Get the code</h2>
        {access === null ? (
          <Spinner label="Loading your access" />
        ) : (
          <>
            {known && <AccessStatusPanel access={known} onChanged={refresh} />}
            <RequestAccess user={user} initialUsername={known?.username} onRequested={refresh} />
            {known && !known.hasPaid && (
              <p className={styles.muted}>
                You have not bought {appConfig.appName} yet: Request Access takes you to checkout first.
              </p>
            )}
          </>
        )}
        <ol className={styles.steps}>
          <li>Request access with your GitHub username.</li>
          <li>Accept the invitation in the e-mail GitHub sends you.</li>
          <li>
            Start with the <Link to={ROUTES.docs}>documentation</Link>.
          </li>
        </ol>
        <div className={styles.links}>
          {known?.repository && (
            <a className={styles.link} href={githubRepositoryUrl(known.repository)} target="_blank" rel="noopener noreferrer">
              Repository
            </a>
          )}
          <Link className={styles.link} to={ROUTES.docs}>
            Documentation
          </Link>
        </div>
      </section>

      <section className={styles.card} aria-labelledby="billing-heading">
        <h2 id="billing-heading">Billing</h2>
        {known?.hasPaid ? (
          <>
            <p>Invoices, receipts and your billing details are in Stripe's billing portal.</p>
            <BillingPortalButton />
          </>
        ) : (
          <>
            <p>
              {appConfig.appName} {plan.name}: ${plan.price}, paid once, yours forever.
            </p>
            <ButtonCheckout priceId={checkoutPriceId(plan)} label={`Get ${appConfig.appName} ${plan.name}`} />
          </>
        )}
      </section>
    </div>
  );
}

/** The buyer's dashboard (§2, §4): the checkout sign-in first, then the guard, then the page. */
export default function Dashboard() {
  const exchanging = useCheckoutSignIn();
  const {user} = useAuth();
  return (
    <RequireAuth redirectTo="/" pending={exchanging}>
      {user && <SignedInDashboard user={user} />}
    </RequireAuth>
  );
}
