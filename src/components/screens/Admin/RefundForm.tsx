import React, {useEffect, useId, useState} from 'react';
import clsx from 'clsx';
import {REFUND_REASONS, type RefundReason} from '../../../config/api';
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

/** Stripe's reason for a refund, chosen in the seller's words. */
export function ReasonSelect({
  id,
  reason,
  onChange,
}: {
  id: string;
  reason: RefundReason;
  onChange: (reason: RefundReason) => void;
}) {
  return (
    <div>
      <label htmlFor={id}>Reason</label>
      <select
        id={id}
        className={controls.input}
        value={reason}
        onChange={(event) => onChange(event.target.value as RefundReason)}>
        {REFUND_REASONS.map((name) => (
          <option key={name} value={name}>
            {REASONS[name]}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A payment the console may refund: a purchase's, or an upgrade's own. Cents. */
export interface RefundablePayment {
  /** The Checkout Session the worker's refund route takes. */
  sessionId: string;
  amount: number | null;
  amountRefunded: number;
  currency: string | null;
  /** Null when the payment never went through: nothing to refund. */
  paymentIntentId: string | null;
  /** Refunded in full, as Stripe's webhook said. */
  refunded: boolean;
  /**
   * Whether the page shows all that follows a full refund (Stripe's webhook has arrived and done
   * its work: access ended, the plan back): until then the form reads the purchase again.
   */
  settled: boolean;
}

/** What a refund of this payment does, in the words of the question and of the answer. */
export interface RefundEffects {
  /** Ends "…goes back to the buyer through Stripe, and …": what a full refund takes back. */
  full: string;
  /** Ends "…goes back to the buyer through Stripe; …": what a partial one leaves. */
  partial: string;
  /** The form's sentence: what each kind of refund does, and when. */
  summary: string;
  /** Said once a full refund is sent: what follows when Stripe confirms it. */
  afterFull: string;
  /** Said once Stripe has confirmed a full refund, and the page shows what followed. */
  confirmed: string;
}

/** How often, and how many times, the page is read again while Stripe's confirmation is awaited. */
export const CONFIRMATION_READ_EVERY_MS = 2000;
export const CONFIRMATION_READS = 30;

/**
 * A refund of one payment, full or partial, with its reason: sent to Stripe by the worker, which
 * checks what is left there. What follows (access, or the plan an upgrade gave) is up to Stripe's
 * confirmation, so the form says it in `effects`. Several may share a page: ids are its own.
 */
export default function RefundForm({
  payment,
  effects,
  label = 'Refund',
  reload,
}: {
  payment: RefundablePayment;
  effects: RefundEffects;
  /** The button, and the question it asks. */
  label?: string;
  reload: () => void;
}) {
  const api = useAdminApi();
  const id = useId();
  const {busy, outcome, run, say} = useAction();
  const currency = payment.currency ?? PLAN_CURRENCY;
  const left = Math.max(0, (payment.amount ?? 0) - payment.amountRefunded);
  const [amountText, setAmountText] = useState(() => moneyInput(left, currency));
  // Read again after a refund: the form offers what is left now.
  useEffect(() => setAmountText(moneyInput(left, currency)), [left, currency]);
  const [reason, setReason] = useState<RefundReason>('requested_by_customer');
  // The figures a refund was sent on: the same view is never sent twice; once the page is read
  // again with what Stripe refunded, the form is for the next refund.
  const [sentOn, setSentOn] = useState<number | null>(null);
  const spent = sentOn === payment.amountRefunded;
  // After a full refund: read the page again until it shows what Stripe's confirmation does.
  const [awaiting, setAwaiting] = useState<{said: string; reads: number} | null>(null);
  const [unconfirmed, setUnconfirmed] = useState(false);
  useEffect(() => {
    if (!awaiting) return;
    if (payment.settled) {
      setAwaiting(null);
      say({ok: true, text: `${awaiting.said} ${effects.confirmed}`});
      return;
    }
    if (awaiting.reads >= CONFIRMATION_READS) {
      setAwaiting(null);
      setUnconfirmed(true);
      return;
    }
    const next = setTimeout(() => {
      setAwaiting({...awaiting, reads: awaiting.reads + 1});
      reload();
    }, CONFIRMATION_READ_EVERY_MS);
    return () => clearTimeout(next);
  }, [awaiting, payment.settled, effects.confirmed, reload, say]);
  const amount = parseMoney(amountText, currency);
  const invalid = amount === null || amount < 1 || amount > left;
  const full = amount === left;

  const confirmation = (
    <>
      {awaiting && (
        <p className={styles.muted} role="status">
          <Spinner label="Waiting for Stripe" /> Waiting for Stripe to confirm the refund: this page reads the purchase
          again until it does.
        </p>
      )}
      {unconfirmed && (
        <p className={styles.muted} role="status">
          Stripe has not confirmed the refund yet. What follows it shows here once Stripe does and the purchase is read
          again.
        </p>
      )}
    </>
  );
  if (!payment.paymentIntentId || left === 0 || payment.refunded) {
    return (
      <>
        <p className={styles.muted}>
          {payment.refunded || (payment.paymentIntentId && left === 0)
            ? 'Refunded in full.'
            : 'Nothing to refund: this purchase was never paid.'}
        </p>
        <ActionResult outcome={outcome} />
        {confirmation}
      </>
    );
  }
  return (
    <>
      <p className={styles.muted}>
        {payment.amountRefunded > 0 ? `${money(payment.amountRefunded, currency)} refunded so far; ` : ''}
        {money(left, currency)} can still be refunded. {effects.summary}
      </p>
      <div className={styles.refund}>
        <div>
          <label htmlFor={`${id}-amount`}>Amount ({currency.toUpperCase()})</label>
          <input
            id={`${id}-amount`}
            className={controls.input}
            inputMode="decimal"
            value={amountText}
            onChange={(event) => setAmountText(event.target.value)}
            aria-invalid={invalid}
            aria-describedby={`${id}-rule`}
          />
          <p id={`${id}-rule`} className={clsx(styles.hint, invalid && styles.refusedText)}>
            {invalid
              ? `Enter an amount from ${money(1, currency)} to ${money(left, currency)}.`
              : full
                ? 'A full refund.'
                : 'A partial refund.'}
          </p>
        </div>
        <ReasonSelect id={`${id}-reason`} reason={reason} onChange={setReason} />
      </div>
      <div className={styles.actions}>
        <Confirm
          label={label}
          danger
          disabled={busy || spent || invalid}
          question={
            full
              ? `${money(left, currency)} goes back to the buyer through Stripe, and ${effects.full}.`
              : `${money(amount ?? 0, currency)} goes back to the buyer through Stripe; ${effects.partial}.`
          }
          onConfirm={() => {
            const refundedBefore = payment.amountRefunded;
            const said = `Refunded ${money(left, currency)} in full.`;
            void run(
              // A full refund is asked as "all that is left", so a refund made in Stripe meanwhile is
              // not counted twice; `refundedBefore` is what this page showed, the action's own name.
              async () => {
                const answer = await api.refund(
                  payment.sessionId,
                  full ? {reason, refundedBefore} : {amount: amount!, reason, refundedBefore},
                );
                setSentOn(refundedBefore);
                if (full) setAwaiting({said, reads: 0});
                return answer;
              },
              full
                ? `${said} ${effects.afterFull}`
                : `Refunded ${money(amount, currency)}. ${money(left - amount!, currency)} is left, and ${effects.partial}.`,
              reload,
            );
          }}
        />
      </div>
      {busy && <Spinner label="Refunding" />}
      <ActionResult outcome={outcome} />
      {confirmation}
    </>
  );
}
