import React, {useCallback} from 'react';
import Link from '@docusaurus/Link';
import type {AdminJob} from '../../../config/api';
import type {AdminApi} from '../../../lib/adminApi';
import {useAdminApi} from '../../../lib/useAdminApi';
import {adminHref} from './adminUrl';
import {DataTable, type Column} from './DataTable';
import {when} from './format';
import {ActionResult, useAction} from './useAction';
import {ShowLoaded, useAdminData} from './useAdminData';
import controls from '../../../css/controls.module.css';
import styles from './styles.module.css';

const JOB_KINDS: Record<AdminJob['kind'], string> = {
  mail: 'E-mail',
  'release-mail': 'Release e-mails (a batch)',
  'github-invite': 'GitHub invitation',
  'github-remove': 'GitHub removal',
  reconcile: 'Access (invite or take back, every repository)',
  'card-country': "Card's country (fair price)",
  'extra-grants': 'Extra repositories (invite or take back)',
  'extra-withdraw': 'GitHub removal (an extra repository)',
  'team-seats': 'Team seats after a refund of seats (members past the count)',
  'checkout-reminder': 'Reminder of a checkout left unpaid',
  'affiliate-credit': "An affiliate's commission (the buyer's card compared)",
  'affiliate-transfer': "An affiliate's payout through Stripe (its transfer asked again)",
};

/** Removals that failed for good first: each may be a refunded buyer still on GitHub. */
const worstFirst = (jobs: AdminJob[]) =>
  [...jobs].sort((a, b) => Number(b.removalFailed) - Number(a.removalFailed) || b.updatedAt - a.updatedAt);

/** The outbox's failed and retrying jobs, each with its last error and a Retry. */
export default function Failures() {
  const api = useAdminApi();
  const loaded = useAdminData(useCallback((admin: AdminApi) => admin.jobs(), []));
  const {busy, outcome, run} = useAction();

  const columns: Column<AdminJob>[] = [
    {
      label: 'Job',
      cell: (job) => (
        <>
          {JOB_KINDS[job.kind]}
          {job.removalFailed && <strong className={styles.warning}> Removal failed for good</strong>}
        </>
      ),
    },
    {label: 'State', cell: (job) => (job.state === 'failed' ? 'Failed' : `Retries at ${when(job.runAfter)}`)},
    {label: 'Attempts', cell: (job) => job.attempts},
    {label: 'Last error', cell: (job) => <span className={styles.detail}>{job.lastError ?? '—'}</span>},
    {
      label: 'Purchase',
      cell: (job) =>
        job.sessionId ? (
          <Link to={adminHref({purchase: job.sessionId})} className={styles.code}>
            {job.sessionId}
          </Link>
        ) : (
          '—'
        ),
    },
    {
      label: 'Action',
      cell: (job) => (
        <button
          type="button"
          className={controls.secondary}
          disabled={busy}
          aria-label={`Retry ${JOB_KINDS[job.kind]} job ${job.id}`}
          onClick={() =>
            void run(() => api.retryJob(job.id), `${JOB_KINDS[job.kind]} job ${job.id} ran again.`, loaded.reload)
          }>
          Retry
        </button>
      ),
    },
  ];

  return (
    <section className={styles.panel} aria-labelledby="failures-heading">
      <h2 id="failures-heading">Failures</h2>
      <ActionResult outcome={outcome} />
      <ShowLoaded loaded={loaded} label="Loading failed jobs">
        {(jobs) => {
          const removals = jobs.filter((job) => job.removalFailed).length;
          return (
            <>
              {removals > 0 && (
                <p className={styles.alarm} role="alert">
                  {removals === 1 ? 'A removal' : `${removals} removals`} failed for good: a refunded or disputed buyer
                  may still be on GitHub. Retry, or remove the account from the repository audit.
                </p>
              )}
              <DataTable
                caption="Failed and retrying jobs"
                columns={columns}
                rows={worstFirst(jobs)}
                rowKey={(job) => job.id}
                flagged={(job) => job.removalFailed}
                empty="Nothing failed: every e-mail and GitHub job went through."
              />
            </>
          );
        }}
      </ShowLoaded>
    </section>
  );
}
