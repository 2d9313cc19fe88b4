import React, {useEffect, useState} from 'react';
import clsx from 'clsx';
import {REFUND_REASONS, type AdminPurchaseDetail, type RefundReason} from '../../../config/api';
import {moneyInput, parseMoney} from '../../../config/money';
import {PLAN_CURRENCY} from '../../../config/plans';
import {useAdminApi} from '../../../lib/useAdminApi';
import Spinner from '../../shared/Spinner';
import Confirm from './Confirm';
import {money} from './format';
import {ActionResult, useAction} from './useAction';
import controls from '../../../css/controls.module.css';
import styles from './styles.module.css';

/** Stripe's three reasons, as a seller says them. */
const REASONS: Record<RefundReason, string> = {
  requested_by_customer: 'The buyer asked for it',
  duplicate: 'A duplicate payment',
  fraudulent: 'Fraudulent (Stripe blocks the card and e-mail)',
};

/**
 * A refund, full or partial, with its reason: sent to Stripe by the worker, which checks what is
 * left there. Access follows Stripe's confirmation: a full refund ends it, a partial one keeps it.
 */
export default function Refund({purchase, reload}: {purchase: AdminPurchaseDetail; reload: () => void}) {
  const api = useAdminApi();
  const {busy, outcome, run} = useAction();
  const currency = purchase.currency ?? PLAN_CURRENCY;
  const left = Math.max(0, (purchase.amount ?? 0) - purchase.amountRefunded);
  const [amountText, setAmountText] = useState(() => moneyInput(left, currency));
  // Read again after a refund: the form offers what is left now.
  useEffect(() => setAmountText(moneyInput(left, currency)), [left, currency]);
  const [reason, setReason] = useState<RefundReason>('requested_by_customer');
  const amount = parseMoney(amountText, currency);
  const invalid = amount === null || amount < 1 || amount > left;
  const full = amount === left;

  if (!purchase.paymentIntentId || left === 0 || purchase.state === 'refunded') {
    return (
      <section aria-labelledby="refund-heading">
        <h3 id="refund-heading">Refund</h3>
        <p className={styles.muted}>
          {purchase.state === 'refunded' || (purchase.paymentIntentId && left === 0)
            ? 'Refunded in full.'
            : 'Nothing to refund: this purchase was never paid.'}
        </p>
        <ActionResult outcome={outcome} />
      </section>
    );
  }
  return (
    <section aria-labelledby="refund-heading">
      <h3 id="refund-heading">Refund</h3>
      <p className={styles.muted}>
        {purchase.amountRefunded > 0 ? `${money(purchase.amountRefunded, currency)} refunded so far; ` : ''}
        {money(left, currency)} can still be refunded. A full refund ends the buyer's access once Stripe confirms it; a
        partial one keeps it.
      </p>
      <div className={styles.refund}>
        <div>
          <label htmlFor="refund-amount">Amount ({currency.toUpperCase()})</label>
          <input
            id="refund-amount"
            className={controls.input}
            inputMode="decimal"
            value={amountText}
            onChange={(event) => setAmountText(event.target.value)}
            aria-invalid={invalid}
            aria-describedby="refund-amount-rule"
          />
          <p id="refund-amount-rule" className={clsx(styles.hint, invalid && styles.refusedText)}>
            {invalid ? `Enter an amount from ${money(1, currency)} to ${money(left, currency)}.` : full ? 'A full refund.' : 'A partial refund.'}
          </p>
        </div>
        <div>
          <label htmlFor="refund-reason">Reason</label>
          <select id="refund-reason" className={controls.input} value={reason} onChange={(event) => setReason(event.target.value as RefundReason)}>
            {REFUND_REASONS.map((name) => (
              <option key={name} value={name}>
                {REASONS[name]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className={styles.actions}>
        <Confirm
          label="Refund"
          danger
          disabled={busy || invalid}
          question={
            full
              ? `${money(left, currency)} goes back to the buyer through Stripe, and their access to the repository ends.`
              : `${money(amount ?? 0, currency)} goes back to the buyer through Stripe; they keep their access.`
          }
          onConfirm={() =>
            void run(
              // A full refund is asked as "all that is left", so a refund made in Stripe meanwhile is not counted twice.
              () => api.refund(purchase.sessionId, full ? {reason} : {amount: amount!, reason}),
              full
                ? `Refunded ${money(left, currency)} in full. The buyer's access ends once Stripe confirms it.`
                : `Refunded ${money(amount, currency)}. ${money(left - amount!, currency)} is left, and the buyer keeps access.`,
              reload,
            )
          }
        />
      </div>
      {busy && <Spinner label="Refunding" />}
      <ActionResult outcome={outcome} />
    </section>
  );
}
