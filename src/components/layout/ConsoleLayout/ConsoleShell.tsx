import React, {type ReactNode} from 'react';
import ErrorBoundary from '@docusaurus/ErrorBoundary';
import Link from '@docusaurus/Link';
import {SkipToContentFallbackId} from '@docusaurus/theme-common';
import ErrorPageContent from '@theme/ErrorPageContent';
import {appConfig, ROUTES} from '../../../config';
import {useAuth} from '../../../lib/auth/AuthContext';
import ButtonAccount from '../../shared/ButtonAccount';
import Logo from '../../shared/Logo';
import styles from './styles.module.css';

export interface ConsoleNavItem {
  label: string;
  href: string;
  current: boolean;
}

export interface ConsoleShellProps {
  /** The console's views; left out until the worker has let the account in, and for a non-admin. */
  nav?: ConsoleNavItem[];
  children: ReactNode;
}

/**
 * The console's app frame, as sellers know it from their payment provider's dashboard: a sidebar
 * (a bar on a phone) with the product and "Console", the views, who is signed in with their
 * account menu, and the way back to the site; the view in the main area beside it.
 */
export default function ConsoleShell({nav, children}: ConsoleShellProps) {
  const {ready, user} = useAuth();
  const signedIn = ready ? user : null;
  return (
    <div className={styles.shell}>
      <header className={styles.frame}>
        <div className={styles.bar}>
          <div className={styles.brand}>
            <Logo size={28} />
            <span className={styles.product}>{appConfig.appName}</span>
            <span className={styles.console}>Console</span>
          </div>
          {signedIn && (
            <div className={styles.seller}>
              {signedIn.email && (
                <p className={styles.email}>
                  <span className={styles.signedInAs}>Signed in as </span>
                  <strong>{signedIn.email}</strong>
                </p>
              )}
              <ButtonAccount consoleLink={false} className={styles.account} />
            </div>
          )}
          {nav && (
            <nav className={styles.nav} aria-label="Console">
              <ul>
                {nav.map(({label, href, current}) => (
                  <li key={href}>
                    <Link to={href} aria-current={current ? 'page' : undefined}>
                      {label}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          )}
          <div className={styles.exits}>
            <Link to={ROUTES.home}>
              <span aria-hidden="true">← </span>Back to {appConfig.appName}
            </Link>
            <Link to={ROUTES.docs}>Docs</Link>
          </div>
        </div>
      </header>
      <main id={SkipToContentFallbackId} className={styles.main}>
        <ErrorBoundary fallback={(params) => <ErrorPageContent {...params} />}>{children}</ErrorBoundary>
      </main>
    </div>
  );
}
