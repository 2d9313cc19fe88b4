import React, {useCallback, useEffect, useState, type FormEvent} from 'react';
import Link from '@docusaurus/Link';
import {useHistory} from '@docusaurus/router';
import type {AdminPurchase} from '../../../config/api';
import type {AdminApi} from '../../../lib/adminApi';
import {adminHref, useAdminQuery} from './adminUrl';
import {AccessBadge, StateBadge} from './Badges';
import {DataTable, Pager, type Column} from './DataTable';
import Field from './Field';
import {money, when} from './format';
import {ShowLoaded, useAdminData} from './useAdminData';
import controls from '../../../css/controls.module.css';
import styles from './styles.module.css';

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
  {label: 'Plan', cell: (purchase) => purchase.plan ?? '—'},
  {label: 'Amount', cell: (purchase) => money(purchase.amount, purchase.currency)},
  {label: 'State', cell: (purchase) => <StateBadge state={purchase.state} />},
  {label: 'GitHub access', cell: (purchase) => <AccessBadge access={purchase.access} />},
];

/** Every purchase, newest first, searchable by e-mail, GitHub username or session id. */
export default function Purchases() {
  const {q = '', page = 1} = useAdminQuery();
  const history = useHistory();
  const [search, setSearch] = useState(q);
  useEffect(() => setSearch(q), [q]);
  const loaded = useAdminData(useCallback((api: AdminApi) => api.purchases({q, page}), [q, page]));

  function find(event: FormEvent) {
    event.preventDefault();
    history.push(adminHref({view: 'purchases', q: search.trim()}));
  }

  return (
    <section className={styles.panel} aria-labelledby="purchases-heading">
      <h2 id="purchases-heading">Purchases</h2>
      <form className={styles.search} role="search" onSubmit={find}>
        <Field id="purchase-search" type="search" label="E-mail, GitHub username or session id" value={search} onChange={setSearch}>
          <button type="submit" className={controls.primary}>
            Search
          </button>
        </Field>
      </form>
      <ShowLoaded loaded={loaded} label="Loading purchases">
        {(found) => (
          <>
            <DataTable
              caption={q ? `Purchases matching ${q}` : 'Purchases, newest first'}
              columns={COLUMNS}
              rows={found.items}
              rowKey={(purchase) => purchase.sessionId}
              flagged={(purchase) => purchase.access?.status === 'removal_failed'}
              empty={q ? `No purchase matches “${q}”.` : 'No purchases yet.'}
            />
            <Pager page={found} noun="purchases" href={(next) => adminHref({view: 'purchases', q, page: next})} />
          </>
        )}
      </ShowLoaded>
    </section>
  );
}
