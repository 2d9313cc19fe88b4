import React, {useCallback, useState, type ComponentType} from 'react';
import Link from '@docusaurus/Link';
import {ROUTES} from '../../../config';
import {useAuth} from '../../../lib/auth/AuthContext';
import type {AuthUser} from '../../../lib/auth/types';
import RequireAuth from '../../layout/RequireAuth';
import ButtonAccount from '../../shared/ButtonAccount';
import {adminHref, useAdminQuery, VIEWS, type View} from './adminUrl';
import AuditLog from './AuditLog';
import Failures from './Failures';
import Leads from './Leads';
import PurchaseDetail from './PurchaseDetail';
import Purchases from './Purchases';
import RepositoryAudit from './RepositoryAudit';
import Sales from './Sales';
import {NotAdminContext} from './useAdminData';
import styles from './styles.module.css';

const PANELS: Record<View, ComponentType> = {
  sales: Sales,
  purchases: Purchases,
  failures: Failures,
  repository: RepositoryAudit,
  leads: Leads,
  log: AuditLog,
};

/** The worker said 403 ADMIN_ONLY: say so, and show nothing else. */
function NotAnAdmin({user}: {user: AuthUser}) {
  return (
    <div className={styles.console}>
      <div className={styles.top}>
        <h1>This account is not an admin</h1>
        <ButtonAccount />
      </div>
      <p>
        You are signed in as <strong>{user.email ?? user.uid}</strong>. The console opens only for the verified e-mails in
        the worker's <code>ADMIN_EMAILS</code>: sign out and sign in with one of them.
      </p>
      <Link to={ROUTES.dashboard}>Go to your dashboard</Link>
    </div>
  );
}

/** The console for a signed-in account: the worker decides whether it is an admin's. */
export function AdminConsole({user}: {user: AuthUser}) {
  const {view, purchase} = useAdminQuery();
  const [notAdmin, setNotAdmin] = useState(false);
  const markNotAdmin = useCallback(() => setNotAdmin(true), []);
  if (notAdmin) return <NotAnAdmin user={user} />;

  const current: View = purchase ? 'purchases' : view;
  const Panel = PANELS[view];
  return (
    <NotAdminContext.Provider value={markNotAdmin}>
      <div className={styles.console}>
        <div className={styles.top}>
          <h1>Console</h1>
          <ButtonAccount />
        </div>
        <nav className={styles.nav} aria-label="Console">
          <ul>
            {(Object.keys(VIEWS) as View[]).map((name) => (
              <li key={name}>
                <Link to={adminHref({view: name})} aria-current={name === current ? 'page' : undefined}>
                  {VIEWS[name]}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        {purchase ? <PurchaseDetail key={purchase} sessionId={purchase} /> : <Panel />}
      </div>
    </NotAdminContext.Provider>
  );
}

/** /admin: sign-in first (like the dashboard), then the console. */
export default function Admin() {
  const {user} = useAuth();
  return <RequireAuth>{user && <AdminConsole user={user} />}</RequireAuth>;
}
