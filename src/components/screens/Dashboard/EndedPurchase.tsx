import React from 'react';
import {endedPurchase, type EndedState} from '../../../config';
import type {AccessStatus, PaymentStanding} from '../../../config/api';
import Pricing from '../../landing/Pricing';
import Receipts from './Receipts';
import styles from './styles.module.css';

/**
 * The dashboard of an account whose purchase was refunded or disputed and that holds no other paid
 * one: what became of the payment and when, what that means for the access to the code (as its
 * grant says: a removal from GitHub that failed is not told as done), and the receipts, which stay.
 * The plans follow, to buy again, unless a dispute is still open (its outcome decides whether the
 * purchase comes back).
 */
export default function EndedPurchase({
  access,
  payment,
}: {
  access: AccessStatus;
  payment: PaymentStanding & {state: EndedState};
}) {
  const words = endedPurchase(payment, access);
  return (
    <>
      <div className={styles.dashboard}>
        <h1 className={styles.title}>{words.title}</h1>
        <section className={styles.status} data-status="revoked" aria-labelledby="ended-heading">
          <h2 id="ended-heading" className={styles.statusTitle}>
            What this means for you
          </h2>
          {words.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </section>
        <Receipts />
      </div>
      {payment.state !== 'disputed' && <Pricing />}
    </>
  );
}
