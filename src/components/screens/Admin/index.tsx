import React, {useCallback, useState, type ComponentType} from 'react';
import Link from '@docusaurus/Link';
import useIsBrowser from '@docusaurus/useIsBrowser';
import {SkipToContentFallbackId} from '@docusaurus/theme-common';
import {ROUTES} from '../../../config';
import {useAuth} from '../../../lib/auth/AuthContext';
import type {AuthUser} from '../../../lib/auth/types';
import ConsoleShell, {type ConsoleNavItem} from '../../layout/ConsoleLayout/ConsoleShell';
import RequireAuth from '../../layout/RequireAuth';
import {adminHref, listedViews, useAdminQuery, VIEWS, type View} from './adminUrl';
import Affiliates from './Affiliates';
import AuditLog from './AuditLog';
import Failures from './Failures';
import LaunchCodes from './LaunchCodes';
import Leads from './Leads';
import PurchaseDetail from './PurchaseDetail';
import Purchases from './Purchases';
import Releases from './Releases';
import RepositoryAudit from './RepositoryAudit';
import SelfRefunds from './SelfRefunds';
import Sales from './Sales';
import {NotAdminContext} from './useAdminData';
import styles from './styles.module.css';

const PANELS: Record<View, ComponentType> = {
  sales: Sales,
  purchases: Purchases,
  failures: Failures,
  releases: Releases,
  repository: RepositoryAudit,
  selfRefunds: SelfRefunds,
  codes: LaunchCodes,
  affiliates: Affiliates,
  leads: Leads,
  log: AuditLog,
};

/** The console's views for the sidebar, the one open marked. */
function navFor(current: View): ConsoleNavItem[] {
  return listedViews().map((name) => ({
    label: VIEWS[name],
    href: adminHref({view: name}),
    current: name === current,
  }));
}

/** The worker said 403 ADMIN_ONLY: say so, and show nothing else (no views in the frame). */
function NotAnAdmin({user}: {user: AuthUser}) {
  return (
    <ConsoleShell>
      <div className={styles.console}>
        <h1>This account is not an admin</h1>
        <p>
          You are signed in as <strong>{user.email ?? user.uid}</strong>. The console opens only for the verified
          e-mails in the worker's <code>ADMIN_EMAILS</code>: sign out and sign in with one of them.
        </p>
        <Link to={ROUTES.dashboard}>Go to your dashboard</Link>
      </div>
    </ConsoleShell>
  );
}

/** The console for a signed-in account: the worker decides whether it is an admin's. */
export function AdminConsole({user}: {user: AuthUser}) {
  const {view, purchase} = useAdminQuery();
  const [notAdmin, setNotAdmin] = useState(false);
  const markNotAdmin = useCallback(() => setNotAdmin(true), []);
  if (notAdmin) return <NotAnAdmin user={user} />;

  const Panel = PANELS[view];
  return (
    <NotAdminContext.Provider value={markNotAdmin}>
      <ConsoleShell nav={navFor(purchase ? 'purchases' : view)}>
        <div className={styles.console}>
          {/* The frame shows "Console" by the product's name; the page's heading is for screen readers. */}
          <h1 className="sr-only">Console</h1>
          {purchase ? <PurchaseDetail key={purchase} sessionId={purchase} /> : <Panel />}
        </div>
      </ConsoleShell>
    </NotAdminContext.Provider>
  );
}

/**
 * /admin: sign-in first (like the dashboard), then the console, in its own frame from the moment
 * the page's scripts run. The server's HTML has only the loading state: the frame's CSS comes with
 * this page's chunk, not in the stylesheet every storefront page loads (src/plugins/clientOnlyStyles).
 */
export default function Admin() {
  const {user} = useAuth();
  const isBrowser = useIsBrowser();
  if (!isBrowser) {
    return (
      <main id={SkipToContentFallbackId}>
        <RequireAuth>{null}</RequireAuth>
      </main>
    );
  }
  if (user) return <AdminConsole user={user} />;
  return (
    <ConsoleShell>
      <RequireAuth>{null}</RequireAuth>
    </ConsoleShell>
  );
}
