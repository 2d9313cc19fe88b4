import React from 'react';
import type {AdminPurchaseDetail} from '../../../config/api';
import RefundForm, {type RefundEffects} from './RefundForm';

/** A purchase's refund: a full one ends the buyer's access once Stripe confirms it, a partial one keeps it. */
const PURCHASE_EFFECTS: RefundEffects = {
  full: 'their access to the repository ends',
  partial: 'they keep their access',
  summary: "A full refund ends the buyer's access once Stripe confirms it; a partial one keeps it.",
  afterFull: "The buyer's access ends once Stripe confirms it.",
};

/** The purchase's own payment, refunded through Stripe by the worker (its upgrades are refunded each on its own). */
export default function Refund({purchase, reload}: {purchase: AdminPurchaseDetail; reload: () => void}) {
  return (
    <section aria-labelledby="refund-heading">
      <h3 id="refund-heading">Refund</h3>
      <RefundForm payment={{...purchase, refunded: purchase.state === 'refunded'}} effects={PURCHASE_EFFECTS} reload={reload} />
    </section>
  );
}
