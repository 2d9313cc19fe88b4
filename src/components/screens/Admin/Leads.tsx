import React, {useCallback} from 'react';
import type {AdminLead} from '../../../config/api';
import type {AdminApi} from '../../../lib/adminApi';
import {useAdminApi} from '../../../lib/useAdminApi';
import {adminHref, useAdminQuery} from './adminUrl';
import {DataTable, Pager, type Column} from './DataTable';
import {useDownload} from './useDownload';
import {when} from './format';
import {ShowLoaded, useAdminData} from './useAdminData';
import styles from './styles.module.css';

const COLUMNS: Column<AdminLead>[] = [
  {label: 'E-mail', cell: (lead) => lead.email},
  {label: 'Joined', cell: (lead) => when(lead.createdAt)},
];

/** The waitlist, a page at a time, and all of it as CSV. */
export default function Leads() {
  const api = useAdminApi();
  const {page = 1} = useAdminQuery();
  const loaded = useAdminData(useCallback((admin: AdminApi) => admin.leads(page), [page]));
  const csv = useDownload(api.leadsCsv, 'leads', 'The waitlist was downloaded as CSV.');

  return (
    <section className={styles.panel} aria-labelledby="leads-heading">
      <div className={styles.panelTop}>
        <h2 id="leads-heading">Leads</h2>
        {csv.button}
      </div>
      {csv.result}
      <ShowLoaded loaded={loaded} label="Loading the waitlist">
        {(leads) => (
          <>
            <DataTable
              caption="The waitlist"
              columns={COLUMNS}
              rows={leads.items}
              rowKey={(lead) => lead.email}
              empty="Nobody is on the waitlist yet."
            />
            <Pager page={leads} noun="e-mails" href={(next) => adminHref({view: 'leads', page: next})} />
          </>
        )}
      </ShowLoaded>
    </section>
  );
}
