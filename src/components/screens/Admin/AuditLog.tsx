import React, {useCallback} from 'react';
import Link from '@docusaurus/Link';
import type {AdminAuditEntry} from '../../../config/api';
import type {AdminApi} from '../../../lib/adminApi';
import {adminHref, useAdminQuery} from './adminUrl';
import {DataTable, Pager, type Column} from './DataTable';
import {ADMIN_ACTIONS, when} from './format';
import {ShowLoaded, useAdminData} from './useAdminData';
import styles from './styles.module.css';

const COLUMNS: Column<AdminAuditEntry>[] = [
  {label: 'When', cell: (entry) => when(entry.at)},
  {label: 'Who', cell: (entry) => entry.admin},
  {label: 'What', cell: (entry) => ADMIN_ACTIONS[entry.action] ?? entry.action},
  {
    label: 'Outcome',
    cell: (entry) => (
      <span className={styles.badge} data-tone={entry.outcome === 'failed' ? 'bad' : 'good'}>
        {entry.outcome === 'failed' ? 'Failed' : 'Done'}
      </span>
    ),
  },
  {
    label: 'Purchase',
    cell: (entry) =>
      entry.sessionId ? (
        <Link to={adminHref({purchase: entry.sessionId})} className={styles.code}>
          {entry.sessionId}
        </Link>
      ) : (
        '—'
      ),
  },
  {label: 'Detail', cell: (entry) => <span className={styles.detail}>{entry.detail ?? '—'}</span>},
];

/** What the admins did, newest first, whether it finished or not. */
export default function AuditLog() {
  const {page = 1} = useAdminQuery();
  const loaded = useAdminData(useCallback((api: AdminApi) => api.auditLog(page), [page]));
  return (
    <section className={styles.panel} aria-labelledby="log-heading">
      <h2 id="log-heading">Admin log</h2>
      <ShowLoaded loaded={loaded} label="Loading the admin log">
        {(log) => (
          <>
            <DataTable
              caption="What the admins did, newest first"
              columns={COLUMNS}
              rows={[...log.items].sort((a, b) => b.at - a.at || b.id - a.id)}
              rowKey={(entry) => entry.id}
              empty="No admin has done anything yet."
            />
            <Pager page={log} noun="entries" href={(next) => adminHref({view: 'log', page: next})} />
          </>
        )}
      </ShowLoaded>
    </section>
  );
}
