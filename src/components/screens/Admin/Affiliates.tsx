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

/** How the seller pays an affiliate: by their own means, then marked (`marked`), or a Stripe transfer (`stripe`). */
export type PayoutMethod = NonNullable<AdminAffiliate['lastPayout']>['method'];

export interface PayoutProps {
  affiliate: AdminAffiliate;
  method: PayoutMethod;
  disabled: boolean;
  /** Runs once the seller confirmed the amount (and, marked, gave the payment's reference). */
  onConfirm: (reference: string) => void;
}

/**
 * Mark paid, or Pay through Stripe: the question names the amount and the affiliate; a marked
 * payout also asks for the payment's reference, while a transfer's reference is Stripe's own.
 */
export function Payout({affiliate, method, disabled, onConfirm}: PayoutProps) {
  const id = useId();
  const [reference, setReference] = useState('');
  const {payable, currency} = affiliate.totals;
  const marked = method === 'marked';
  return (
    <Confirm
      label={marked ? WORDS.markPaid : WORDS.payThroughStripe}
      question={(marked ? WORDS.markPaidQuestion : WORDS.payThroughStripeQuestion)(payable, currency, affiliate.code)}
      disabled={disabled}
      canConfirm={!marked || reference.trim() !== ''}
      onConfirm={() => {
        onConfirm(reference.trim());
        setReference('');
      }}>
      {marked && (
        <>
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
        </>
      )}
    </Confirm>
  );
}

/** The last payout as the list says it: a transfer Stripe has not answered yet reads as sending. */
function lastPayoutText({lastPayout, totals}: AdminAffiliate): string {
  if (!lastPayout) return '—';
  const [amount, on] = [lastPayout.amount, day(lastPayout.at)];
  return lastPayout.state === 'sending'
    ? WORDS.lastPayoutSending(amount, totals.currency, on)
    : WORDS.lastPayout(amount, totals.currency, on, lastPayout.reference);
}

/**
 * Each affiliate's clicks, sales and commission by where it stands, their last payout,
 * and Mark paid for what is payable (the seller pays by their own means first); every commission as
 * CSV. The amount sent is the one shown, so a commission that became payable (or was cancelled)
 * since the page was read makes the worker refuse, in its words, rather than mark another amount.
 * When the programme pays through Stripe, each affiliate's Stripe state too, and Pay through Stripe
 * for one whose account takes transfers: the same payout, sent by the worker as a transfer.
 */
function AffiliatesPanel() {
  const api = useAdminApi();
  const loaded = useAdminData(useCallback((admin: AdminApi) => admin.affiliates(), []));
  const csv = useDownload(api.affiliatesCsv, 'commissions', WORDS.csvDone);
  const {busy, outcome, run} = useAction();

  const stripeConnect = loaded.data?.stripeConnect === true;

  const pay = (affiliate: AdminAffiliate, method: PayoutMethod, reference: string) => {
    const {payable: amount, currency} = affiliate.totals;
    // The list's moment: a commission that became payable since is not in what the seller paid.
    const asOf = loaded.data?.asOf;
    const marked = method === 'marked';
    void run(
      () =>
        api.affiliatePayout(affiliate.id, {
          amount,
          ...(marked ? {reference} : {method}),
          ...(asOf !== undefined && {asOf}),
        }),
      // A transfer's outcome is the worker's to say: made (with its id) or still sending (202).
      marked
        ? WORDS.payoutMade(amount, currency, reference)
        : (answer) =>
            answer.detail ||
            (answer.status === 'sending'
              ? WORDS.transferSending(amount, currency)
              : WORDS.transferSent(amount, currency)),
      loaded.reload,
    );
  };
  const methods = (affiliate: AdminAffiliate): PayoutMethod[] =>
    // Onboarding too: Stripe often readies an account after the affiliate left its page, and the
    // worker asks Stripe again before paying (409, in its words, when it is still not ready).
    stripeConnect && (affiliate.stripe === 'ready' || affiliate.stripe === 'onboarding')
      ? ['marked', 'stripe']
      : ['marked'];

  const columns: Column<AdminAffiliate>[] = [
    {label: COLUMNS.code, cell: (affiliate) => <span className={styles.code}>{affiliate.code}</span>},
    ...(stripeConnect
      ? [
          {
            label: COLUMNS.stripe,
            cell: ({stripe}: AdminAffiliate) => (stripe ? WORDS.consoleStripeStates[stripe] : '—'),
          },
        ]
      : []),
    {label: COLUMNS.email, cell: (affiliate) => affiliate.email},
    {label: COLUMNS.joined, cell: (affiliate) => day(affiliate.joinedAt)},
    {label: COLUMNS.clicks, cell: (affiliate) => affiliate.clicks},
    {label: COLUMNS.sales, cell: (affiliate) => affiliate.sales},
    {label: COLUMNS.pending, cell: ({totals}) => money(totals.pending, totals.currency)},
    {
      label: COLUMNS.payable,
      cell: ({totals}) =>
        totals.owedBack > 0
          ? WORDS.payableOwing(money(totals.payable, totals.currency), money(totals.owedBack, totals.currency))
          : money(totals.payable, totals.currency),
    },
    {label: COLUMNS.paid, cell: ({totals}) => money(totals.paid, totals.currency)},
    {label: COLUMNS.lastPayout, cell: lastPayoutText},
    {
      label: COLUMNS.action,
      cell: (affiliate) =>
        affiliate.totals.payable > 0 ? (
          <span className={styles.rowActions}>
            {methods(affiliate).map((method) => (
              <Payout
                key={method}
                affiliate={affiliate}
                method={method}
                disabled={busy}
                onConfirm={(reference) => pay(affiliate, method, reference)}
              />
            ))}
          </span>
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
                  // Only while an affiliate owes some back: commission paid on purchases refunded since.
                  ...(totals.owedBack > 0 ? ([[WORDS.totalOwedBack, totals.owedBack]] as const) : []),
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
