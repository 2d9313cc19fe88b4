import React, {useCallback} from 'react';
import type {AdminLead} from '../../../config/api';
import type {AdminApi} from '../../../lib/adminApi';
import {useAdminApi} from '../../../lib/useAdminApi';
import Spinner from '../../shared/Spinner';
import {adminHref, useAdminQuery} from './adminUrl';
import {DataTable, Pager, type Column} from './DataTable';
import {when} from './format';
import {ActionResult, useAction} from './useAction';
import {ShowLoaded, useAdminData} from './useAdminData';
import controls from '../../../css/controls.module.css';
import styles from './styles.module.css';

const COLUMNS: Column<AdminLead>[] = [
  {label: 'E-mail', cell: (lead) => lead.email},
  {label: 'Joined', cell: (lead) => when(lead.createdAt)},
];

/** Hands a Blob to the browser as a file download. */
function save(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The waitlist, a page at a time, and all of it as CSV. */
export default function Leads() {
  const api = useAdminApi();
  const {page = 1} = useAdminQuery();
  const loaded = useAdminData(useCallback((admin: AdminApi) => admin.leads(page), [page]));
  const {busy, outcome, run} = useAction();

  function download() {
    // The CSV needs the admin's token, which a plain link cannot carry: fetch it, then save it.
    void run(async () => {
      save(await api.leadsCsv(), `leads-${new Date().toISOString().slice(0, 10)}.csv`);
    }, 'The waitlist was downloaded as CSV.');
  }

  return (
    <section className={styles.panel} aria-labelledby="leads-heading">
      <div className={styles.panelTop}>
        <h2 id="leads-heading">Leads</h2>
        <button type="button" className={controls.secondary} onClick={download} disabled={busy} aria-busy={busy}>
          {busy && <Spinner label="Downloading" />}
          Download CSV
        </button>
      </div>
      <ActionResult outcome={outcome} />
      <ShowLoaded loaded={loaded} label="Loading the waitlist">
        {(leads) => (
          <>
            <DataTable caption="The waitlist" columns={COLUMNS} rows={leads.items} rowKey={(lead) => lead.email} empty="Nobody is on the waitlist yet." />
            <Pager page={leads} noun="e-mails" href={(next) => adminHref({view: 'leads', page: next})} />
          </>
        )}
      </ShowLoaded>
    </section>
  );
}
