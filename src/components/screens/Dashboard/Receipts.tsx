import React from 'react';
import type {Receipt} from '../../../config/api';
import {formatDay} from '../../../config';
import {formatMoney} from '../../../config/money';
import type {ApiClient} from '../../../lib/api';
import {useWorkerRead} from '../../../lib/useWorkerRead';
import Spinner from '../../shared/Spinner';
import styles from './styles.module.css';

const LINK_TEXT = {invoice: 'Invoice', receipt: 'Receipt'} as const;

const readReceipts = (api: ApiClient) => api.receipts();

/**
 * The buyer's receipts: each purchase with Stripe's page for it, the invoice when Checkout made one
 * (with the buyer's tax ID, for their books), else the payment's receipt. The worker reads them
 * from Stripe for the signed-in account's own purchases.
 */
export default function Receipts() {
  const loaded = useWorkerRead(readReceipts, 'the receipts');

  return (
    <section className={styles.card} aria-labelledby="receipts-heading">
      <h2 id="receipts-heading">Receipts</h2>
      {loaded === null && <Spinner label="Loading your receipts" />}
      {loaded === 'failed' && (
        <p className={styles.error} role="alert">
          Your receipts could not be loaded. Please reload the page.
        </p>
      )}
      {loaded && loaded !== 'failed' && loaded.receipts.length === 0 && (
        <p className={styles.muted}>No receipts yet.</p>
      )}
      {loaded && loaded !== 'failed' && loaded.receipts.length > 0 && (
        <ul>
          {loaded.receipts.map((receipt) => (
            <li key={`${receipt.paidAt}-${receipt.url ?? receipt.plan}`}>
              <ReceiptLine receipt={receipt} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ReceiptLine({receipt}: {receipt: Receipt}) {
  return (
    <>
      {receipt.plan}, {formatMoney(receipt.amount, receipt.currency)}, paid on{' '}
      <time dateTime={new Date(receipt.paidAt).toISOString()}>{formatDay(receipt.paidAt)}</time>
      {receipt.refunded > 0 && <>, {formatMoney(receipt.refunded, receipt.currency)} refunded</>}
      {' · '}
      {receipt.url && receipt.kind ? (
        <a href={receipt.url} target="_blank" rel="noopener noreferrer">
          {LINK_TEXT[receipt.kind]}
        </a>
      ) : (
        <span className={styles.muted}>Stripe could not be reached: reload the page for the link.</span>
      )}
    </>
  );
}
