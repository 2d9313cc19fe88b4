import {findStoredPlan, repositoryKeys} from '../../../../src/config';
import {effectivePlan} from '../../purchases';

/**
 * May this purchase have the code now, and which of it? One answer for every delivery: an
 * invitation sent, re-sent or kept (the seat's and the extra repositories' reconcile), a download
 * link made or followed. A purchase is entitled while it is paid (not refunded, not lost to a
 * dispute) and the seller has not revoked it; it is entitled to the kit's repository and to the
 * extra ones its plan grants now (its latest paid upgrade's: purchases.ts `effectivePlan`).
 */

/** The same answer as SQL, for the statements that send or record a delivery: a purchase row `alias`. */
export const ENTITLED = (alias: string) => `${alias}.status = 'paid' AND ${alias}.revoked_by_seller_at IS NULL`;

export type Standing = 'entitled' | 'not_paid' | 'revoked_by_seller';

export interface Entitlement {
  standing: Standing;
  /** The repository keys it may have: 'kit', then the plan's extra keys; none unless entitled. */
  repositories: string[];
}

export async function entitlementOf(db: D1Database, sessionId: string): Promise<Entitlement> {
  const row = await db
    .prepare(
      `SELECT p.status, p.revoked_by_seller_at, ${effectivePlan('p')} AS plan FROM purchases p WHERE p.session_id = ?1`,
    )
    .bind(sessionId)
    .first<{status: string; revoked_by_seller_at: number | null; plan: string | null}>();
  const standing: Standing =
    row?.status !== 'paid' ? 'not_paid' : row.revoked_by_seller_at !== null ? 'revoked_by_seller' : 'entitled';
  return {
    standing,
    repositories: standing === 'entitled' ? repositoryKeys(findStoredPlan(row!.plan)) : [],
  };
}
