import React, {useId, useState} from 'react';
import {guaranteeWords} from '../../../config/guarantee';
import {useApiClient} from '../../../lib/useApiClient';
import Spinner from '../../shared/Spinner';
import controls from '../../../css/controls.module.css';
import styles from './styles.module.css';

/**
 * The money-back guarantee, kept by the product: while it runs (`until`, as the worker says), the
 * buyer refunds their own purchase in two steps, with an optional reason. The worker decides again
 * (payments/selfRefund.ts); its refusal is shown in its words. Once refunded, `onRefunded` reads the
 * status again, and the dashboard says the purchase was refunded.
 */
export default function GuaranteeRefund({until, onRefunded}: {until: number; onRefunded: () => void}) {
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
      await api.refundPurchase(reason.trim() || undefined);
      onRefunded();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
      setSending(false);
    }
  }

  return (
    <div>
      <h3>{guaranteeWords.heading}</h3>
      <p>{guaranteeWords.offer(until)}</p>
      {confirming ? (
        <form onSubmit={refund}>
          <label htmlFor={reasonId}>{guaranteeWords.reasonLabel}</label>
          <textarea
            id={reasonId}
            className={styles.reason}
            maxLength={500}
            rows={3}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
          />
          <p>{guaranteeWords.confirmText}</p>
          <div className={styles.links}>
            <button type="submit" className={controls.primary} disabled={sending} aria-busy={sending}>
              {sending && <Spinner label={guaranteeWords.sending} />}
              {guaranteeWords.confirm}
            </button>
            <button
              type="button"
              className={controls.secondary}
              disabled={sending}
              onClick={() => setConfirming(false)}>
              {guaranteeWords.keep}
            </button>
          </div>
        </form>
      ) : (
        <button type="button" className={controls.secondary} onClick={() => setConfirming(true)}>
          {guaranteeWords.button}
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
