import React, {useCallback} from 'react';
import Link from '@docusaurus/Link';
import type {AdminSelfRefund} from '../../../config/api';
import {ownRefundWords} from '../../../config/guarantee';
import type {AdminApi} from '../../../lib/adminApi';
import {adminHref, useAdminQuery} from './adminUrl';
import {DataTable, Pager, type Column} from './DataTable';
import {money, when} from './format';
import {ShowLoaded, useAdminData} from './useAdminData';
import styles from './styles.module.css';

const COLUMNS: Column<AdminSelfRefund>[] = [
  {label: 'When', cell: (refund) => when(refund.at)},
  {
    label: 'Buyer',
    cell: (refund) => <Link to={adminHref({purchase: refund.sessionId})}>{refund.email ?? refund.sessionId}</Link>,
  },
  // The right the buyer used, in the words their dashboard showed it.
  {label: 'Right', cell: (refund) => ownRefundWords[refund.kind].heading},
  {
    label: 'Refunded',
    cell: (refund) =>
      refund.amount !== null && refund.currency !== null ? (
        money(refund.amount, refund.currency)
      ) : (
        // Claimed, and no refund of Stripe's recorded for it: refused (the buyer was told to write to
        // support), still under way, or made since by other means. The purchase says which.
        <span className={styles.badge} data-tone="bad">
          No refund recorded
        </span>
      ),
  },
  {label: 'Reason', cell: (refund) => <span className={styles.detail}>{refund.reason ?? '—'}</span>},
];

/**
 * The refunds buyers made themselves from their dashboard (the money-back guarantee, or the EU's
 * withdrawal), newest first, with the reasons they gave: why buyers leave, in their words.
 */
export default function SelfRefunds() {
  const {page = 1} = useAdminQuery();
  const loaded = useAdminData(useCallback((admin: AdminApi) => admin.selfRefunds(page), [page]));
  return (
    <section className={styles.panel} aria-labelledby="self-refunds-heading">
      <h2 id="self-refunds-heading">Buyer refunds</h2>
      <p>
        Refunds buyers made themselves from their dashboard, under the money-back guarantee or as a withdrawal, with the
        reasons they gave. Refunds you made are on each purchase.
      </p>
      <ShowLoaded loaded={loaded} label="Loading the buyers' refunds">
        {(refunds) => (
          <>
            <DataTable
              caption="Refunds buyers made themselves"
              columns={COLUMNS}
              rows={refunds.items}
              rowKey={(refund) => refund.sessionId}
              empty="No buyer has refunded a purchase themselves yet."
            />
            <Pager page={refunds} noun="refunds" href={(next) => adminHref({view: 'selfRefunds', page: next})} />
          </>
        )}
      </ShowLoaded>
    </section>
  );
}
