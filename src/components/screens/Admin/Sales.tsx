import React, {useCallback} from 'react';
import clsx from 'clsx';
import Link from '@docusaurus/Link';
import {appConfig} from '../../../config';
import {DEFAULT_SALES_PERIOD, SALES_PERIODS, type SalesSummary} from '../../../config/api';
import type {AdminApi} from '../../../lib/adminApi';
import {adminHref, useAdminQuery} from './adminUrl';
import Funnel from './Funnel';
import SalesChart from './SalesChart';
import {day, money, PERIODS} from './format';
import {ShowLoaded, useAdminData} from './useAdminData';
import styles from './styles.module.css';

/** The period's dates in words: "1 Jun 2026 to 30 Jun 2026" (UTC days, like the chart's). */
function span(sales: SalesSummary): string {
  const first = sales.since ?? (sales.days[0] ? Date.parse(`${sales.days[0].day}T00:00:00Z`) : null);
  const today =
    sales.interval === 'day' && sales.days.length
      ? sales.days[sales.days.length - 1]!.day
      : new Date().toISOString().slice(0, 10);
  return first === null ? 'today' : `${day(first)} to ${day(today)}`;
}

const percent = new Intl.NumberFormat('en-US', {style: 'percent', maximumFractionDigits: 1});

/** The period's refund rate: its payments refunded in full, of those that went through. */
const refundRate = ({count, of}: SalesSummary['refunds']) => percent.format(count / of);

/**
 * The morning's numbers over a period the seller picks (in the address, so Back and bookmarks
 * keep it): revenue and buyers, refunds and disputes, and the chart of the same period.
 */
export default function Sales() {
  const {period = DEFAULT_SALES_PERIOD} = useAdminQuery();
  const loaded = useAdminData(useCallback((api: AdminApi) => api.sales(period), [period]));
  const label = PERIODS[period].toLowerCase();
  return (
    <section className={styles.panel} aria-labelledby="sales-heading">
      <div className={styles.panelTop}>
        <h2 id="sales-heading">Sales</h2>
        <ul className={styles.segments} aria-label="Period">
          {SALES_PERIODS.map((name) => (
            <li key={name}>
              <Link to={adminHref({view: 'sales', period: name})} aria-current={name === period ? 'true' : undefined}>
                {PERIODS[name]}
              </Link>
            </li>
          ))}
        </ul>
      </div>
      <ShowLoaded loaded={loaded} label="Loading sales">
        {(sales) => (
          <>
            <p className={styles.muted}>
              {PERIODS[sales.period]}: {span(sales)} (UTC).
            </p>
            <dl className={styles.figures}>
              <div>
                <dt>Revenue, {label}</dt>
                <dd>{money(sales.revenue, sales.currency)}</dd>
              </div>
              <div>
                <dt>Buyers, {label}</dt>
                <dd>
                  {sales.buyers}
                  {/* Teams bought several seats each: say the developers the period gave access. */}
                  {sales.seats > sales.buyers && (
                    <>
                      <br />
                      {`${sales.seats} seats`}
                    </>
                  )}
                </dd>
              </div>
              <div className={clsx(sales.refunds.count > 0 && styles.notable)}>
                <dt>Refunded in full</dt>
                <dd>
                  {sales.refunds.count} ({money(sales.refunds.amount, sales.currency)})
                  {sales.refunds.of > 0 && (
                    <>
                      <br />
                      {refundRate(sales.refunds)} of {sales.refunds.of}{' '}
                      {sales.refunds.of === 1 ? 'payment' : 'payments'}
                    </>
                  )}
                </dd>
              </div>
              <div className={clsx(sales.disputes.open > 0 && styles.alarming)}>
                <dt>Disputes</dt>
                <dd>
                  {sales.disputes.open} open now; {sales.disputes.won} won, {sales.disputes.lost} lost
                </dd>
              </div>
              {/* Shown where reminders go out, or went out before the switch was turned off. */}
              {(appConfig.checkout.recoverAbandoned ||
                sales.recovered.reminders > 0 ||
                sales.recovered.purchases > 0) && (
                <div>
                  <dt>Checkouts won back</dt>
                  <dd>
                    {sales.recovered.purchases} ({money(sales.recovered.revenue, sales.currency)})
                    <br />
                    {`${sales.recovered.reminders} ${sales.recovered.reminders === 1 ? 'reminder' : 'reminders'} sent`}
                  </dd>
                </div>
              )}
            </dl>
            <SalesChart summary={sales} />
          </>
        )}
      </ShowLoaded>
      <Funnel period={period} />
    </section>
  );
}
