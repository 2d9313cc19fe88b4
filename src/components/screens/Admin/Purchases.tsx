import React, {useCallback, useEffect, useState, type FormEvent} from 'react';
import Link from '@docusaurus/Link';
import {useHistory} from '@docusaurus/router';
import {appConfig, planForSeats} from '../../../config';
import {
  PURCHASE_FLAGS,
  PURCHASE_SORTS,
  PURCHASE_STATES,
  type AdminPurchase,
  type PurchaseSort,
} from '../../../config/api';
import type {AdminApi} from '../../../lib/adminApi';
import {useAdminApi} from '../../../lib/useAdminApi';
import {adminHref, useAdminQuery, type AdminQuery} from './adminUrl';
import {AccessBadge, CardCountryBadge, StateBadge} from './Badges';
import {DataTable, Pager, type Column} from './DataTable';
import Field from './Field';
import {money, PURCHASE_FLAGS as FLAG_NAMES, PURCHASE_STATES as STATE_NAMES, when} from './format';
import {useDownload} from './useDownload';
import {ShowLoaded, useAdminData} from './useAdminData';
import controls from '../../../css/controls.module.css';
import styles from './styles.module.css';

const SORTS: Record<PurchaseSort, string> = {
  newest: 'Newest first',
  oldest: 'Oldest first',
  amount_high: 'Highest amount first',
  amount_low: 'Lowest amount first',
};

const COLUMNS: Column<AdminPurchase>[] = [
  {label: 'Date', cell: (purchase) => when(purchase.createdAt)},
  {
    label: 'Buyer',
    cell: (purchase) => (
      <Link to={adminHref({purchase: purchase.sessionId})} className={styles.rowLink}>
        {purchase.email ?? purchase.sessionId}
      </Link>
    ),
  },
  {label: 'Plan', cell: (purchase) => (purchase.plan ? planForSeats(purchase.plan, purchase.seats) : '—')},
  {
    label: 'Amount',
    cell: (purchase) => (
      <>
        {money(purchase.amount, purchase.currency)}
        {purchase.amountRefunded > 0 && purchase.state !== 'refunded' && (
          <span className={styles.muted}> ({money(purchase.amountRefunded, purchase.currency)} refunded)</span>
        )}
      </>
    ),
  },
  {
    label: 'State',
    cell: (purchase) => (
      <>
        <StateBadge state={purchase.state} />
        <CardCountryBadge fairPrice={purchase.fairPrice} />
        <CardCountryBadge fairPrice={purchase.flaggedUpgrade} upgrade />
      </>
    ),
  },
  {label: 'GitHub access', cell: (purchase) => <AccessBadge purchase={purchase} />},
];

/** A labelled select whose choice applies at once (the list is read again). */
function Choice<T extends string>(props: {
  id: string;
  label: string;
  value: T | '';
  all?: string;
  options: readonly T[];
  names: (value: T) => string;
  onChange: (value: T | '') => void;
}) {
  return (
    <div>
      <label htmlFor={props.id}>{props.label}</label>
      <select
        id={props.id}
        className={controls.input}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value as T | '')}>
        {props.all && <option value="">{props.all}</option>}
        {props.options.map((option) => (
          <option key={option} value={option}>
            {props.names(option)}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * Every purchase, searchable by e-mail, GitHub username or session id, filtered by state and plan,
 * sorted, and downloadable as CSV with the same filters. The worker does the work (the list may be
 * long); the filters are in the address, so Back and bookmarks keep them.
 */
export default function Purchases() {
  const query = useAdminQuery();
  const {q = '', page = 1, state, plan, sort, flagged} = query;
  const history = useHistory();
  const api = useAdminApi();
  const [search, setSearch] = useState(q);
  useEffect(() => setSearch(q), [q]);
  const filtered = Boolean(q || state || plan || flagged);
  // The table's words come with its rows: while the next search loads, the rows shown are the last
  // one's, and so must be what the caption and the empty message say.
  const loaded = useAdminData(
    useCallback(
      async (admin: AdminApi) => ({
        found: await admin.purchases({q, page, state, plan, sort, flagged}),
        caption: `${q ? `Purchases matching ${q}` : filtered ? 'Purchases that match the filters' : 'Purchases'}, ${SORTS[sort ?? 'newest'].toLowerCase()}`,
        empty: filtered
          ? `No purchase matches${q ? ` “${q}”` : ''}${state || plan || flagged ? ' with these filters' : ''}.`
          : 'No purchases yet.',
      }),
      [q, page, state, plan, sort, flagged, filtered],
    ),
  );
  const csv = useDownload(
    () => api.purchasesCsv({q, state, plan, sort, flagged}),
    'purchases',
    filtered ? 'The matching purchases were downloaded as CSV.' : 'Every purchase was downloaded as CSV.',
  );

  /** Another filter or order starts again at the first page. */
  const go = (change: Partial<AdminQuery>) =>
    history.push(adminHref({view: 'purchases', q, state, plan, sort, flagged, ...change, page: undefined}));

  function find(event: FormEvent) {
    event.preventDefault();
    go({q: search.trim()});
  }

  return (
    <section className={styles.panel} aria-labelledby="purchases-heading">
      <div className={styles.panelTop}>
        <h2 id="purchases-heading">Purchases</h2>
        {csv.button}
      </div>
      {csv.result}
      <form className={styles.search} role="search" onSubmit={find}>
        <Field
          id="purchase-search"
          type="search"
          label="E-mail, GitHub username or session id"
          value={search}
          onChange={setSearch}>
          <button type="submit" className={controls.primary}>
            Search
          </button>
        </Field>
      </form>
      <div className={styles.filters}>
        <Choice
          id="purchase-state"
          label="State"
          value={state ?? ''}
          all="All states"
          options={PURCHASE_STATES}
          names={(name) => STATE_NAMES[name]}
          onChange={(value) => go({state: value || undefined})}
        />
        <Choice
          id="purchase-plan"
          label="Plan"
          value={plan ?? ''}
          all="All plans"
          options={appConfig.plans.map((entry) => entry.name)}
          names={(name) => name}
          onChange={(value) => go({plan: value || undefined})}
        />
        <Choice
          id="purchase-flagged"
          label="Flagged"
          value={flagged ?? ''}
          all="Flagged or not"
          options={PURCHASE_FLAGS}
          names={(name) => FLAG_NAMES[name]}
          onChange={(value) => go({flagged: value || undefined})}
        />
        <Choice
          id="purchase-sort"
          label="Order"
          value={sort ?? 'newest'}
          options={PURCHASE_SORTS}
          names={(name) => SORTS[name]}
          onChange={(value) => go({sort: (value || undefined) as PurchaseSort | undefined})}
        />
        {filtered && (
          <Link to={adminHref({view: 'purchases', sort})} className={styles.clear}>
            Clear filters
          </Link>
        )}
      </div>
      <ShowLoaded loaded={loaded} label="Loading purchases">
        {({found, caption, empty}) => (
          <>
            <DataTable
              caption={caption}
              columns={COLUMNS}
              rows={found.items}
              rowKey={(purchase) => purchase.sessionId}
              flagged={(purchase) => purchase.removalFailed || purchase.fairPrice?.review === 'flagged'}
              empty={empty}
            />
            <Pager
              page={found}
              noun="purchases"
              href={(next) => adminHref({view: 'purchases', q, state, plan, sort, flagged, page: next})}
            />
          </>
        )}
      </ShowLoaded>
    </section>
  );
}
