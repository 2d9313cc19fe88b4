import React, {useId, useState} from 'react';
import clsx from 'clsx';
import {AFFILIATE_WORDS, COMMISSION_STATES, formatDay} from '../../../config';
import type {AffiliateAnswer, AffiliateCommission} from '../../../config/api';
import {formatMoney} from '../../../config/money';
import controls from '../../../css/controls.module.css';
import Payouts from './Payouts';
import account from './account.module.css';
import styles from './styles.module.css';

type Affiliate = NonNullable<AffiliateAnswer['affiliate']>;

const COLUMNS = AFFILIATE_WORDS.columns;

/** One commission's cells, in the order of COLUMNS. */
function cells(commission: AffiliateCommission): [string, string][] {
  return [
    [COLUMNS.date, formatDay(commission.paidAt)],
    [COLUMNS.amount, formatMoney(commission.amount, commission.currency)],
    [COLUMNS.commission, formatMoney(commission.commission, commission.currency)],
    [COLUMNS.state, COMMISSION_STATES[commission.state]],
    [COLUMNS.payableFrom, formatDay(commission.payableAt)],
  ];
}

/** The link, with a Copy button that says whether the browser let it copy. */
function ShareLink({affiliate}: {affiliate: Affiliate}) {
  const id = useId();
  const [copied, setCopied] = useState<boolean | null>(null);

  function copy() {
    // The clipboard may be refused (no permission, an insecure origin): then the visitor copies by hand.
    Promise.resolve()
      .then(() => navigator.clipboard.writeText(affiliate.link))
      .then(
        () => setCopied(true),
        () => setCopied(false),
      );
  }

  return (
    <section className={styles.card} aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{AFFILIATE_WORDS.linkHeading}</h2>
      <p className={styles.muted}>{AFFILIATE_WORDS.joinedOn(affiliate.code, formatDay(affiliate.joinedAt))}</p>
      <label className={account.label} htmlFor={`${id}-link`}>
        {AFFILIATE_WORDS.linkLabel}
      </label>
      <div className={account.row}>
        <input
          id={`${id}-link`}
          className={clsx(controls.input, account.input)}
          value={affiliate.link}
          readOnly
          onFocus={(event) => event.target.select()}
        />
        <button type="button" className={controls.secondary} onClick={copy}>
          {AFFILIATE_WORDS.copy}
        </button>
      </div>
      {copied !== null && (
        <p className={copied ? account.answer : account.error} role={copied ? 'status' : 'alert'}>
          {copied ? AFFILIATE_WORDS.copied : AFFILIATE_WORDS.copyFailed}
        </p>
      )}
    </section>
  );
}

export interface JoinedProps {
  affiliate: Affiliate;
  /** Where the browser goes with Stripe's link (Payouts); the real navigation unless a test replaces it. */
  redirect?: (url: string) => void;
}

/**
 * A joined affiliate's page: their link, what it brought, their payouts through Stripe when the
 * programme pays that way (`stripe` not null), and each commission with where it stands.
 */
export default function Joined({affiliate, redirect}: JoinedProps) {
  const {totals} = affiliate;
  const figures: [string, string | number][] = [
    [AFFILIATE_WORDS.clicks, affiliate.clicks],
    [AFFILIATE_WORDS.sales, affiliate.sales],
    [AFFILIATE_WORDS.pending, formatMoney(totals.pending, totals.currency)],
    [AFFILIATE_WORDS.payable, formatMoney(totals.payable, totals.currency)],
    [AFFILIATE_WORDS.paid, formatMoney(totals.paid, totals.currency)],
    // Only while something is owed back: commission paid on a purchase refunded since.
    ...(totals.owedBack > 0
      ? [[AFFILIATE_WORDS.owedBack, formatMoney(totals.owedBack, totals.currency)] as [string, string]]
      : []),
  ];
  return (
    <>
      <ShareLink affiliate={affiliate} />
      <section className={styles.card} aria-labelledby="affiliate-figures">
        <h2 id="affiliate-figures">{AFFILIATE_WORDS.figuresHeading}</h2>
        <dl className={account.figures}>
          {figures.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
        <p className={account.hint}>{AFFILIATE_WORDS.clicksNote}</p>
        {totals.owedBack > 0 && <p className={account.hint}>{AFFILIATE_WORDS.owedBackNote}</p>}
      </section>
      {/* Only a state the page has words for: a worker deployed before payouts through Stripe sends none. */}
      {affiliate.stripe && Object.hasOwn(AFFILIATE_WORDS.stripeStates, affiliate.stripe) && (
        <Payouts stripe={affiliate.stripe} redirect={redirect} />
      )}
      <section className={styles.card} aria-labelledby="affiliate-commissions">
        <h2 id="affiliate-commissions">{AFFILIATE_WORDS.commissionsHeading}</h2>
        {affiliate.commissions.length === 0 ? (
          <p className={styles.muted}>{AFFILIATE_WORDS.noCommissions}</p>
        ) : (
          <table className={account.table}>
            <caption className="sr-only">{AFFILIATE_WORDS.commissionsCaption}</caption>
            <thead>
              <tr>
                {Object.values(COLUMNS).map((label) => (
                  <th key={label} scope="col">
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {affiliate.commissions.map((commission, index) => (
                // Commissions have no id of their own here; their order is the worker's, newest first.
                <tr key={`${commission.paidAt}-${index}`}>
                  {cells(commission).map(([label, text]) => (
                    <td key={label} data-label={label}>
                      <span>{text}</span>
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
