import React, {useId, useState} from 'react';
import {appConfig} from '../../../config';
import type {OwnRefundKind, PaymentStanding} from '../../../config/api';
import {ownRefundWords} from '../../../config/guarantee';
import {useApiClient} from '../../../lib/useApiClient';
import Spinner from '../../shared/Spinner';
import controls from '../../../css/controls.module.css';
import styles from './styles.module.css';

/** The purchase a refund acts on, as the second step names it: from the status's payment, to the buyer's address. */
export function refundedPurchase(
  payment: PaymentStanding | undefined,
  email: string | null | undefined,
): OwnRefundProps['purchase'] {
  if (!payment) return undefined;
  const plan = payment.planNow ?? payment.plan;
  return {product: `${appConfig.appName} ${plan.name}`, boughtAt: payment.boughtAt, email: email ?? null};
}

interface OwnRefundProps {
  /** The right used: the money-back guarantee, or the EU consumer's withdrawal. */
  kind: OwnRefundKind;
  /** Until when the worker offers it (Unix ms). */
  until: number;
  /** A withdrawal that delivery ends too: the buyer asked for the code at once at checkout. */
  endsOnDelivery?: boolean;
  /** The purchase it acts on, named in the second step, and where its e-mail goes. */
  purchase?: {product: string; boughtAt: number; email: string | null};
  onRefunded: () => void;
}

/**
 * One of the buyer's own refunds, in two steps, as the worker offers it (GET accessStatus): the
 * guarantee's "Refund my purchase" with an optional reason, or the withdrawal's "Withdraw from
 * contract here", then "Confirm withdrawal". The worker decides again (payments/selfRefund.ts);
 * its refusal is shown in its words. Once refunded, `onRefunded` reads the status again, and the
 * dashboard says the purchase was refunded.
 */
export default function OwnRefund({kind, until, endsOnDelivery, purchase, onRefunded}: OwnRefundProps) {
  const words = ownRefundWords[kind];
  const api = useApiClient();
  const reasonId = useId();
  const [confirming, setConfirming] = useState(false);
  const [reason, setReason] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function refund(event: React.FormEvent) {
    event.preventDefault();
    if (sending) return;
    setSending(true);
    setError(null);
    try {
      await api.refundPurchase(kind, reason.trim() || undefined);
      onRefunded();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
      setSending(false);
    }
  }

  return (
    <div>
      <h3>{words.heading}</h3>
      <p>{words.offer(until, endsOnDelivery)}</p>
      {confirming ? (
        <form onSubmit={refund} aria-label={words.heading}>
          {words.reasonLabel !== null && (
            <>
              <label htmlFor={reasonId}>{words.reasonLabel}</label>
              <textarea
                id={reasonId}
                className={styles.reason}
                maxLength={500}
                rows={3}
                value={reason}
                onChange={(event) => setReason(event.target.value)}
              />
            </>
          )}
          {purchase && <p>{words.details(purchase)}</p>}
          <p>{words.confirmText}</p>
          <div className={styles.links}>
            <button type="submit" className={controls.primary} disabled={sending} aria-busy={sending}>
              {sending && <Spinner label={words.sending} />}
              {words.confirm}
            </button>
            <button
              type="button"
              className={controls.secondary}
              disabled={sending}
              onClick={() => setConfirming(false)}>
              {words.keep}
            </button>
          </div>
        </form>
      ) : (
        <button type="button" className={controls.secondary} onClick={() => setConfirming(true)}>
          {words.button}
        </button>
      )}
      {error && (
        <p className={styles.refusal} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
