import type {AuthUser} from '../auth/user';

export type PurchaseStatus = 'open' | 'paid' | 'failed' | 'revoked';

export interface Purchase {
  session_id: string;
  customer_id: string | null;
  user_id: string | null;
  email: string | null;
  price_id: string | null;
  plan: string | null;
  payment_intent_id: string | null;
  status: PurchaseStatus;
  created_at: number;
}

/**
 * The user's paid purchase: one made while signed in (or claimed through the checkout exchange),
 * or a guest purchase whose e-mail equals the user's *verified* e-mail. Stripe never verifies the
 * e-mail typed at checkout, so an unverified account must not match it.
 */
export function paidPurchaseOf(db: D1Database, user: AuthUser) {
  const verifiedEmail = user.emailVerified && user.email ? user.email.toLowerCase() : null;
  return db
    .prepare(
      `SELECT * FROM purchases
       WHERE status = 'paid' AND (user_id = ?1 OR (?2 IS NOT NULL AND user_id IS NULL AND email = ?2))
       ORDER BY created_at LIMIT 1`,
    )
    .bind(user.uid, verifiedEmail)
    .first<Purchase>();
}

/** The Stripe customer behind any of the user's purchases (paid or not), for the billing portal. */
export async function customerOf(db: D1Database, user: AuthUser): Promise<string | null> {
  const verifiedEmail = user.emailVerified && user.email ? user.email.toLowerCase() : null;
  const row = await db
    .prepare(
      `SELECT customer_id FROM purchases
       WHERE customer_id IS NOT NULL AND (user_id = ?1 OR (?2 IS NOT NULL AND user_id IS NULL AND email = ?2))
       ORDER BY status = 'paid' DESC, created_at DESC LIMIT 1`,
    )
    .bind(user.uid, verifiedEmail)
    .first<{customer_id: string}>();
  return row?.customer_id ?? null;
}
