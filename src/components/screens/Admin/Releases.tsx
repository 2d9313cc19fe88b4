import React, {useCallback} from 'react';
import type {AdminRelease} from '../../../config/api';
import type {AdminApi} from '../../../lib/adminApi';
import {useAdminApi} from '../../../lib/useAdminApi';
import Confirm from './Confirm';
import {DataTable, type Column} from './DataTable';
import {day} from './format';
import {ActionResult, useAction} from './useAction';
import {ShowLoaded, useAdminData} from './useAdminData';
import styles from './styles.module.css';

const addresses = (count: number) => `${count} ${count === 1 ? 'address' : 'addresses'}`;

/** The failed addresses and Mailgun's reason for each, folded away under the count. */
function Failed({release}: {release: AdminRelease}) {
  if (release.failed === 0) return <>0</>;
  const unlisted = release.failed - release.failures.length;
  return (
    <details>
      <summary>{release.failed}</summary>
      <ul className={styles.detail}>
        {release.failures.map((failure) => (
          <li key={failure.email}>
            {failure.email}: {failure.reason ?? 'no reason given'}
          </li>
        ))}
        {unlisted > 0 && <li>and {addresses(unlisted)} more</li>}
      </ul>
    </details>
  );
}

/**
 * Each release announced to the buyers, and how its e-mail went per buyer: e-mailed (Mailgun
 * accepted it), delivered (Mailgun's event said so), failed, still waiting in the outbox, and how
 * many of its audience unsubscribed. The failed ones can be sent again; the worker decides who.
 */
export default function Releases() {
  const api = useAdminApi();
  const loaded = useAdminData(useCallback((admin: AdminApi) => admin.releases(), []));
  const {busy, outcome, run} = useAction();

  const columns: Column<AdminRelease>[] = [
    {
      label: 'Release',
      cell: (release) => (
        <>
          {release.name} <span className={styles.code}>{release.tag}</span>
        </>
      ),
    },
    {label: 'Published', cell: (release) => day(release.publishedAt)},
    {label: 'E-mailed', cell: (release) => release.emailed},
    {label: 'Delivered', cell: (release) => release.delivered},
    {label: 'Failed', cell: (release) => <Failed release={release} />},
    {label: 'Waiting', cell: (release) => release.waiting},
    {label: 'Unsubscribed', cell: (release) => release.unsubscribed},
    {
      label: 'Action',
      cell: (release) =>
        release.failed > 0 ? (
          <Confirm
            label={`Send again to the ${release.failed} that failed`}
            question={`${release.name} is e-mailed again to the ${addresses(release.failed)} whose e-mail failed; anyone unsubscribed or refunded since is skipped.`}
            disabled={busy}
            onConfirm={() =>
              void run(
                () => api.resendRelease(release.id),
                `${release.name} is being sent again to ${addresses(release.failed)}.`,
                loaded.reload,
              )
            }
          />
        ) : (
          '—'
        ),
    },
  ];

  return (
    <section className={styles.panel} aria-labelledby="releases-heading">
      <h2 id="releases-heading">Releases</h2>
      <ActionResult outcome={outcome} />
      <ShowLoaded loaded={loaded} label="Loading releases">
        {(releases) => (
          <DataTable
            caption="Releases and their e-mails"
            columns={columns}
            rows={releases}
            rowKey={(release) => release.id}
            flagged={(release) => release.failed > 0}
            empty="No release announced yet: publish one on GitHub and it shows here."
          />
        )}
      </ShowLoaded>
    </section>
  );
}
