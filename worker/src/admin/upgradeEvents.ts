import {storedPlanName, upgradeLabel} from '../../../src/config';
import {formatMoney} from '../../../src/config/money';
import type {PurchaseEvent} from '../../../src/config/api';

/** A purchase's upgrades that reached a payment (or its failure), for its page in the console. */
export function upgradesOfStatement(db: D1Database, sessionId: string): D1PreparedStatement {
  return db
    .prepare(
      `SELECT session_id, from_plan, to_plan, amount, amount_paid, amount_refunded, currency, status, refused_reason, revoke_reason, paid_at, updated_at
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
    summary: upgradeLabel(storedPlanName(row.from_plan as string) ?? 'Other', storedPlanName(row.to_plan as string) ?? 'Other'),
    status: row.status as string,
    detail: [
      `${formatMoney((row.amount_paid ?? row.amount) as number, row.currency as string)} (${row.session_id as string})`,
      ...(why ? [why] : []),
      ...(refunded > 0 ? [`refunded ${formatMoney(refunded, row.currency as string)}`] : []),
    ].join('; '),
  };
}
