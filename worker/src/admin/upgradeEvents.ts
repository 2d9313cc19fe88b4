import {storedPlanName} from '../../../src/config';
import {formatMoney} from '../../../src/config/money';
import type {AdminFairPrice, AdminUpgrade, PurchaseEvent, UpgradeState} from '../../../src/config/api';
import {upgradeRowLabel, type UpgradeRowLabel} from '../upgrades/rowLabel';

/**
 * A purchase's upgrades on its page in the console: each as a line of the history, and as an
 * upgrade of its own that the seller may refund.
 */

/** A purchase's upgrades that reached a payment (or its failure), the oldest first. */
export function upgradesOfStatement(db: D1Database, sessionId: string): D1PreparedStatement {
  return db
    .prepare(
      `SELECT session_id, from_plan, to_plan, seats_added, from_seats, amount, amount_paid, amount_refunded, currency, status, refused_reason, revoke_reason, payment_intent_id, paid_at, updated_at,
         fair_price_country, fair_price_percent, card_country, country_review,
         (SELECT code FROM launch_codes WHERE id = upgrades.launch_code_id) AS launch_code
       FROM upgrades WHERE purchase_session_id = ?1 AND status != 'open' ORDER BY created_at`,
    )
    .bind(sessionId);
}

/** One upgrade as a line of the purchase's history: "Upgrade: Starter → Advanced", its state and amount. */
export function upgradeEvent(row: Record<string, unknown>): PurchaseEvent {
  const why = (row.refused_reason ?? row.revoke_reason) as string | null;
  const refunded = Number(row.amount_refunded ?? 0);
  return {
    at: (row.paid_at ?? row.updated_at) as number,
    kind: 'upgrade',
    summary: upgradeRowLabel(row as unknown as UpgradeRowLabel, 'Other'),
    status: row.status as string,
    detail: [
      `${formatMoney((row.amount_paid ?? row.amount) as number, row.currency as string)} (${row.session_id as string})`,
      ...(why ? [why] : []),
      ...(refunded > 0 ? [`refunded ${formatMoney(refunded, row.currency as string)}`] : []),
    ].join('; '),
  };
}

/** One upgrade as the console's refund needs it: its own payment, what was paid and refunded. */
export function adminUpgrade(row: Record<string, unknown>): AdminUpgrade {
  const state = upgradeState(row.status as string, row.revoke_reason as string | null);
  const amount = (row.amount_paid ?? row.amount) as number;
  const refunded = Number(row.amount_refunded ?? 0);
  return {
    sessionId: row.session_id as string,
    fromPlan: storedPlanName(row.from_plan as string) ?? 'Other',
    toPlan: storedPlanName(row.to_plan as string) ?? 'Other',
    label: upgradeRowLabel(row as unknown as UpgradeRowLabel, 'Other'),
    seatsAdded: Number(row.seats_added ?? 0),
    state,
    amount,
    // A full refund may have reached D1 only as a revocation (charge.refunded's amount not yet recorded).
    amountRefunded: state === 'refunded' ? Math.max(refunded, amount) : refunded,
    currency: row.currency as string,
    paymentIntentId: (row.payment_intent_id as string | null) ?? null,
    paidAt: (row.paid_at as number | null) ?? null,
    // Sold at the purchase's fair price: its own card's country, checked as the purchase's was.
    fairPrice: row.fair_price_country
      ? {
          country: row.fair_price_country as string,
          percentOff: (row.fair_price_percent as number | null) ?? null,
          cardCountry: (row.card_country as string | null) ?? null,
          review: (row.country_review as AdminFairPrice['review']) ?? null,
        }
      : null,
    launchCode: (row.launch_code as string | null) ?? null,
  };
}

function upgradeState(status: string, revokeReason: string | null): UpgradeState {
  if (status === 'revoked') return revokeReason === 'refunded' ? 'refunded' : 'disputed';
  return status as UpgradeState;
}
