import React, {useCallback} from 'react';
import Link from '@docusaurus/Link';
import type {AdminFunnel, SalesPeriod} from '../../../config/api';
import type {AdminApi} from '../../../lib/adminApi';
import {adminHref} from './adminUrl';
import {day, PERIODS} from './format';
import {ShowLoaded, useAdminData} from './useAdminData';
import styles from './styles.module.css';

const percent = new Intl.NumberFormat('en-US', {style: 'percent', maximumFractionDigits: 1});

/** The period before, as the comparison names it. */
const BEFORE: Record<SalesPeriod, string> = {
  '7d': 'the 7 days before',
  '30d': 'the 30 days before',
  '12m': 'the 12 months before',
  all: '',
};

/** A wait in words: "45 min", "3 h 20 min", "2 days 4 h". */
export function duration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return 'under a minute';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return `${days} ${days === 1 ? 'day' : 'days'}${hours % 24 ? ` ${hours % 24} h` : ''}`;
}

/** The change from the period before: "+25%", "−10%", "no change"; nothing to compare with, null. */
function change(now: number, before: number | null): string | null {
  if (before === null) return null;
  if (before === 0) return now === 0 ? 'no change' : 'none before';
  if (now === before) return 'no change';
  const share = (now - before) / before;
  return `${share > 0 ? '+' : '−'}${percent.format(Math.abs(share))}`;
}

/** A step of the funnel: its figure, and the period before's beside it. */
function Step({
  label,
  now,
  before,
  period,
  show = String,
  extra,
  unknown = 'not recorded then',
}: {
  label: string;
  now: number | null;
  before: number | null;
  period: SalesPeriod;
  show?: (value: number) => string;
  extra?: string;
  /** What a period before without a figure reads. */
  unknown?: string;
}) {
  // Null before: nothing was recorded then (migration 0045), or, for the median, nothing reached a buyer.
  const compared = period === 'all' ? null : before === null ? unknown : show(before);
  const delta = now !== null && before !== null && period !== 'all' ? change(now, before) : null;
  return (
    <div>
      <dt>{label}</dt>
      <dd>
        {now === null ? 'none yet' : show(now)}
        {extra && (
          <>
            <br />
            <span className={styles.muted}>{extra}</span>
          </>
        )}
        {compared !== null && (
          <>
            <br />
            <span className={styles.muted}>{`${BEFORE[period]}: ${compared}${delta ? ` (${delta})` : ''}`}</span>
          </>
        )}
      </dd>
    </div>
  );
}

/** `count` as a share of `of`, with what `of` is: "40% of those started"; of none, nothing. */
const shareOf = (count: number, of: number, words: string) =>
  of > 0 ? `${percent.format(count / of)} of ${words}` : undefined;

function NeedsLook({look}: {look: AdminFunnel['needsLook']}) {
  const items: React.ReactNode[] = [];
  if (look.unaccepted > 0)
    items.push(
      `${look.unaccepted} ${look.unaccepted === 1 ? 'invitation' : 'invitations'} sent more than 3 days ago, not accepted yet`,
    );
  if (look.failedGrants > 0)
    items.push(
      `${look.failedGrants} ${look.failedGrants === 1 ? 'grant' : 'grants'} failed for good (an invitation or a removal)`,
    );
  if (look.queued > 0)
    items.push(
      `${look.queued} in line for GitHub's daily cap of invitations${look.queuedSince === null ? '' : `, the first since ${day(look.queuedSince)}`}`,
    );
  if (look.cardCountryFlags > 0)
    items.push(
      <Link to={adminHref({view: 'purchases', flagged: 'card_country'})}>
        {`${look.cardCountryFlags} ${look.cardCountryFlags === 1 ? 'purchase' : 'purchases'} flagged for the card's country`}
      </Link>,
    );
  return (
    <section aria-labelledby="needs-look-heading">
      <h3 id="needs-look-heading">Needs a look, now</h3>
      {items.length === 0 ? (
        <p className={styles.muted}>Nothing needs a look.</p>
      ) : (
        <ul aria-labelledby="needs-look-heading">
          {items.map((item, index) => (
            <li key={index}>{item}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * The funnel over the Sales period (worker/src/admin/funnel.ts): visitors (Plausible, with a key),
 * checkouts started and paid, refunds, the code delivered, each beside the period before; then
 * what needs a look now.
 */
export default function Funnel({period}: {period: SalesPeriod}) {
  const loaded = useAdminData(useCallback((api: AdminApi) => api.funnel(period), [period]));
  return (
    <section aria-labelledby="funnel-heading">
      <h3 id="funnel-heading">Funnel, {PERIODS[period].toLowerCase()}</h3>
      <ShowLoaded loaded={loaded} label="Loading the funnel">
        {(funnel) => (
          <>
            {funnel.visitors.source === 'none' && <p className={styles.muted}>{funnel.visitors.why}</p>}
            {funnel.recordedSince === null ? (
              <p className={styles.muted}>No checkout recorded yet: they are counted from the first one on.</p>
            ) : (
              funnel.since !== null &&
              funnel.recordedSince > funnel.since && (
                <p className={styles.muted}>
                  {`Checkouts started and invitations accepted are recorded since ${day(funnel.recordedSince)}.`}
                </p>
              )
            )}
            <dl className={styles.figures}>
              {funnel.visitors.source === 'plausible' && (
                <Step label="Visitors" now={funnel.visitors.now} before={funnel.visitors.before} period={period} />
              )}
              <Step
                label="Checkouts started"
                {...funnel.checkoutsStarted}
                period={period}
                extra={
                  funnel.visitors.source === 'plausible'
                    ? shareOf(funnel.checkoutsStarted.now, funnel.visitors.now, 'visitors')
                    : undefined
                }
              />
              <Step
                label="Checkouts paid"
                {...funnel.checkoutsPaid}
                period={period}
                extra={shareOf(funnel.checkoutsPaid.now, funnel.checkoutsStarted.now, 'those started')}
              />
              <Step
                label="Purchases refunded in full"
                {...funnel.refunds}
                period={period}
                extra={shareOf(
                  funnel.refunds.now,
                  funnel.payments.now,
                  `${funnel.payments.now} ${funnel.payments.now === 1 ? 'payment' : 'payments'}`,
                )}
              />
              <Step label="Invitations accepted" {...funnel.invitationsAccepted} period={period} />
              <Step label="Downloads" {...funnel.downloads} period={period} />
              <Step
                label="Payment to access, median"
                {...funnel.medianToAccess}
                period={period}
                show={duration}
                unknown="no code reached a buyer"
              />
            </dl>
          </>
        )}
      </ShowLoaded>
      {loaded.data && <NeedsLook look={loaded.data.needsLook} />}
    </section>
  );
}
