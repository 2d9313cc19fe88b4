import {storedPlanName, upgradeLabel} from '../../../src/config';

/** The columns of an `upgrades` row that say what it bought. */
export interface UpgradeRowLabel {
  from_plan: string;
  to_plan: string;
  seats_added: number;
  from_seats: number;
}

/**
 * How a recorded upgrade reads on a receipt, in the console and in logs: "Upgrade: Starter →
 * Advanced", a team's "…, 5 seats", or "2 more seats: Advanced". Plans by their names in the config
 * now; one no longer there by `unknown` (its stored id when left out).
 */
export function upgradeRowLabel(row: UpgradeRowLabel, unknown?: string): string {
  return upgradeLabel(
    storedPlanName(row.from_plan) ?? unknown ?? row.from_plan,
    storedPlanName(row.to_plan) ?? unknown ?? row.to_plan,
    {added: row.seats_added, of: row.from_seats},
  );
}
