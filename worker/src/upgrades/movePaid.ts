/**
 * SQL for whether purchase `purchase` has a paid move up to plan `toPlan` (seats added are no move):
 * the one test of a move bought already, which the quote, fulfilment and the return from a dispute
 * each ask. `purchase` and `toPlan` are SQL: a bound parameter (`?1`) or a column.
 */
export function movePaid(purchase: string, toPlan: string): string {
  return `EXISTS (SELECT 1 FROM upgrades o WHERE o.purchase_session_id = ${purchase} AND o.to_plan = ${toPlan}
    AND o.status = 'paid' AND o.seats_added = 0)`;
}
