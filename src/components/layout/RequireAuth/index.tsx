import React, {useEffect, type ReactNode} from 'react';
import {useHistory, useLocation} from '@docusaurus/router';
import {appConfig} from '../../../config';
import {useAuth} from '../../../lib/auth/AuthContext';
import {withReturnPath} from '../../../lib/auth/returnTo';
import Spinner from '../../shared/Spinner';
import styles from './styles.module.css';

export interface RequireAuthProps {
  children: ReactNode;
  /**
   * Where a visitor who is not signed in goes: the login page unless a page says otherwise. The
   * login page brings the visitor back here once signed in.
   */
  redirectTo?: string;
  /** Something the page still waits for before it can tell (a sign-in in progress). */
  pending?: boolean;
}

/**
 * The guard for private pages: until sign-in is known it shows a loading state (never the wrong
 * page), then either the page or a redirect.
 */
export default function RequireAuth({children, redirectTo = appConfig.auth.loginUrl, pending = false}: RequireAuthProps) {
  const {ready, user} = useAuth();
  const history = useHistory();
  const {pathname, search, hash} = useLocation();
  const signedOut = ready && !pending && !user;

  useEffect(() => {
    if (!signedOut) return;
    history.replace(redirectTo === appConfig.auth.loginUrl ? withReturnPath(redirectTo, `${pathname}${search}${hash}`) : redirectTo);
  }, [signedOut, history, redirectTo, pathname, search, hash]);

  if (!ready || pending || !user) {
    return (
      <div className={styles.loading}>
        <Spinner label="Loading" />
      </div>
    );
  }
  return <>{children}</>;
}
