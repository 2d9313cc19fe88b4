import React, {useCallback, useId, useState} from 'react';
import {AFFILIATE_WORDS, affiliateProgramme} from '../../../config';
import type {AdminAffiliate} from '../../../config/api';
import type {AdminApi} from '../../../lib/adminApi';
import {useAdminApi} from '../../../lib/useAdminApi';
import Confirm from './Confirm';
import {DataTable, type Column} from './DataTable';
import {day, money} from './format';
import {ActionResult, useAction} from './useAction';
import {ShowLoaded, useAdminData} from './useAdminData';
import {useDownload} from './useDownload';
import controls from '../../../css/controls.module.css';
import styles from './styles.module.css';

const WORDS = AFFILIATE_WORDS;
const COLUMNS = WORDS.consoleColumns;

export interface MarkPaidProps {
  affiliate: AdminAffiliate;
  disabled: boolean;
  /** Runs once the seller gave a reference and confirmed the amount. */
  onConfirm: (reference: string) => void;
}

/** Mark paid: the question names the amount and the affiliate, and asks for the payment's reference. */
export function MarkPaid({affiliate, disabled, onConfirm}: MarkPaidProps) {
  const id = useId();
  const [reference, setReference] = useState('');
  const {payable, currency} = affiliate.totals;
  return (
    <Confirm
      label={WORDS.markPaid}
      question={WORDS.markPaidQuestion(payable, currency, affiliate.code)}
      disabled={disabled}
      canConfirm={reference.trim() !== ''}
      onConfirm={() => {
        onConfirm(reference.trim());
        setReference('');
      }}>
      <label htmlFor={`${id}-reference`}>{WORDS.referenceLabel}</label>
      <input
        id={`${id}-reference`}
        className={controls.input}
        value={reference}
        onChange={(event) => setReference(event.target.value)}
        maxLength={200}
        spellCheck={false}
        aria-describedby={`${id}-hint`}
      />
      <p id={`${id}-hint`} className={styles.hint}>
        {WORDS.referenceHint}
      </p>
    </Confirm>
  );
}

/**
 * Each affiliate's clicks, sales and commission by where it stands, their last payout,
 * and Mark paid for what is payable (the seller pays by their own means first); every commission as
 * CSV. The amount sent is the one shown, so a commission that became payable (or was cancelled)
 * since the page was read makes the worker refuse, in its words, rather than mark another amount.
 */
function AffiliatesPanel() {
  const api = useAdminApi();
  const loaded = useAdminData(useCallback((admin: AdminApi) => admin.affiliates(), []));
  const csv = useDownload(api.affiliatesCsv, 'commissions', WORDS.csvDone);
  const {busy, outcome, run} = useAction();

  const pay = (affiliate: AdminAffiliate, reference: string) => {
    const {payable: amount, currency} = affiliate.totals;
    // The list's moment: a commission that became payable since is not in what the seller paid.
    const asOf = loaded.data?.asOf;
    void run(
      () => api.affiliatePayout(affiliate.id, {amount, reference, ...(asOf !== undefined && {asOf})}),
      WORDS.payoutMade(amount, currency, reference),
      loaded.reload,
    );
  };

  const columns: Column<AdminAffiliate>[] = [
    {label: COLUMNS.code, cell: (affiliate) => <span className={styles.code}>{affiliate.code}</span>},
    {label: COLUMNS.email, cell: (affiliate) => affiliate.email},
    {label: COLUMNS.joined, cell: (affiliate) => day(affiliate.joinedAt)},
    {label: COLUMNS.clicks, cell: (affiliate) => affiliate.clicks},
    {label: COLUMNS.sales, cell: (affiliate) => affiliate.sales},
    {label: COLUMNS.pending, cell: ({totals}) => money(totals.pending, totals.currency)},
    {label: COLUMNS.payable, cell: ({totals}) => money(totals.payable, totals.currency)},
    {label: COLUMNS.paid, cell: ({totals}) => money(totals.paid, totals.currency)},
    {
      label: COLUMNS.lastPayout,
      cell: ({lastPayout, totals}) =>
        lastPayout
          ? WORDS.lastPayout(lastPayout.amount, totals.currency, day(lastPayout.at), lastPayout.reference)
          : '—',
    },
    {
      label: COLUMNS.action,
      cell: (affiliate) =>
        affiliate.totals.payable > 0 ? (
          <MarkPaid affiliate={affiliate} disabled={busy} onConfirm={(reference) => pay(affiliate, reference)} />
        ) : (
          '—'
        ),
    },
  ];

  return (
    <section className={styles.panel} aria-labelledby="affiliates-heading">
      <div className={styles.panelTop}>
        <h2 id="affiliates-heading">{WORDS.heading}</h2>
        {csv.button}
      </div>
      {csv.result}
      <p className={styles.muted}>{WORDS.consoleIntro}</p>
      <ActionResult outcome={outcome} />
      <ShowLoaded loaded={loaded} label={WORDS.loadingAffiliates}>
        {({items, totals}) => (
          <>
            <dl className={styles.figures}>
              {(
                [
                  [WORDS.totalPending, totals.pending],
                  [WORDS.totalPayable, totals.payable],
                  [WORDS.totalPaid, totals.paid],
                ] as const
              ).map(([label, amount]) => (
                <div key={label}>
                  <dt>{label}</dt>
                  <dd>{money(amount, totals.currency)}</dd>
                </div>
              ))}
            </dl>
            <DataTable
              caption={WORDS.consoleCaption}
              columns={columns}
              rows={items}
              rowKey={(affiliate) => affiliate.id}
              empty={WORDS.noAffiliates}
            />
          </>
        )}
      </ShowLoaded>
    </section>
  );
}

/** The view, or, with no programme in the config, a sentence that says so (the worker runs none either). */
export default function Affiliates() {
  if (affiliateProgramme()) return <AffiliatesPanel />;
  return (
    <section className={styles.panel} aria-labelledby="affiliates-heading">
      <h2 id="affiliates-heading">{WORDS.heading}</h2>
      <p className={styles.muted}>{WORDS.noProgramme}</p>
    </section>
  );
}
