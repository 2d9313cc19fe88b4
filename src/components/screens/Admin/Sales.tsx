import React, {useCallback} from 'react';
import clsx from 'clsx';
import type {AdminApi} from '../../../lib/adminApi';
import SalesChart from './SalesChart';
import {money} from './format';
import {ShowLoaded, useAdminData} from './useAdminData';
import styles from './styles.module.css';

/** The morning's numbers: revenue and buyers, refunds and disputes, and 30 days by plan. */
export default function Sales() {
  const loaded = useAdminData(useCallback((api: AdminApi) => api.sales(), []));
  return (
    <section className={styles.panel} aria-labelledby="sales-heading">
      <h2 id="sales-heading">Sales</h2>
      <ShowLoaded loaded={loaded} label="Loading sales">
        {(sales) => (
          <>
            <dl className={styles.figures}>
              <div>
                <dt>Revenue</dt>
                <dd>{money(sales.revenue, sales.currency)}</dd>
              </div>
              <div>
                <dt>Buyers</dt>
                <dd>{sales.buyers}</dd>
              </div>
              <div className={clsx(sales.refunds.count > 0 && styles.notable)}>
                <dt>Refunds</dt>
                <dd>
                  {sales.refunds.count} ({money(sales.refunds.amount, sales.currency)})
                </dd>
              </div>
              <div className={clsx(sales.disputes.open > 0 && styles.alarming)}>
                <dt>Disputes</dt>
                <dd>
                  {sales.disputes.open} open, {sales.disputes.won} won, {sales.disputes.lost} lost
                </dd>
              </div>
            </dl>
            <SalesChart summary={sales} />
          </>
        )}
      </ShowLoaded>
    </section>
  );
}
