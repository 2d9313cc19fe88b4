import React from 'react';
import type {AdminPurchaseDetail} from '../../../config/api';
import {LIVE_ACCESS} from './format';
import RefundForm, {type RefundEffects} from './RefundForm';

/** A purchase's refund: a full one ends the buyer's access once Stripe confirms it, a partial one keeps it. */
const PURCHASE_EFFECTS: RefundEffects = {
  full: 'their access to the repository ends',
  partial: 'they keep their access',
  summary: "A full refund ends the buyer's access once Stripe confirms it; a partial one keeps it.",
  afterFull: "The buyer's access ends once Stripe confirms it.",
  confirmed: "Stripe confirmed it: the buyer's access has ended.",
};

/** Whether the page shows all a full refund of the purchase does: refunded, and every repository's grant taken back. */
function refundSettled(purchase: AdminPurchaseDetail): boolean {
  return purchase.state === 'refunded' && purchase.grants.every((grant) => !LIVE_ACCESS.includes(grant.status));
}

/** The purchase's own payment, refunded through Stripe by the worker (its upgrades are refunded each on its own). */
export default function Refund({purchase, reload}: {purchase: AdminPurchaseDetail; reload: () => void}) {
  return (
    <section aria-labelledby="refund-heading">
      <h3 id="refund-heading">Refund</h3>
      <RefundForm
        payment={{...purchase, refunded: purchase.state === 'refunded', settled: refundSettled(purchase)}}
        effects={PURCHASE_EFFECTS}
        reload={reload}
      />
    </section>
  );
}
