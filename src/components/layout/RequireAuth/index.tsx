import React, {useEffect, type ReactNode} from 'react';
import {useHistory, useLocation} from '@docusaurus/router';
import {useAuth} from '../../../lib/auth/AuthContext';
import {signInFor} from '../../../lib/auth/returnTo';
import Spinner from '../../shared/Spinner';
import styles from './styles.module.css';

export interface RequireAuthProps {
  children: ReactNode;
  /** Something the page still waits for before it can tell (a sign-in in progress). */
  pending?: boolean;
}

/**
 * The guard for private pages: until sign-in is known it shows a loading state (never the wrong
 * page), then either the page or the sign-in page, which says why and brings the visitor back here.
 */
export default function RequireAuth({children, pending = false}: RequireAuthProps) {
  const {ready, user} = useAuth();
  const history = useHistory();
  const {pathname, search, hash} = useLocation();
  const signedOut = ready && !pending && !user;

  useEffect(() => {
    if (!signedOut) return;
    // Signed out by Logout, which has already gone on to another page: follow it, not the sign-in.
    if (window.location.pathname !== pathname) return;
    history.replace(signInFor(`${pathname}${search}${hash}`));
  }, [signedOut, history, pathname, search, hash]);

  if (!ready || pending || !user) {
    return (
      <div className={styles.loading}>
        <Spinner label="Loading" />
      </div>
    );
  }
  return <>{children}</>;
}
