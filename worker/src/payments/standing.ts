import {findStoredPlan, storedPlanName} from '../../../src/config';
import type {AccessStatus, PaymentStanding, PaymentState} from '../../../src/config/api';
import type {AuthUser} from '../auth/user';
import {bestPurchase, inForce, type Purchase, purchasesWithOutcomeOf, type PurchaseWithOutcome} from '../purchases';
import type {RevokeReason} from './revocations';

/**
 * What became of the buyer's payments, for the dashboard to say in its own words for each: paid,
 * partly refunded, refunded, disputed, or reversed by a lost dispute, and since when. Read from the
 * records the Stripe webhook keeps (revocations.ts, webhooks/stripe.ts); nothing is asked of Stripe.
 */

/** How many of the account's purchases are read: far more than anyone holds. */
const MOST_PURCHASES = 20;

/** Why revocations.ts revoked a payment (RevokeReason), as the buyer's dashboard names it. */
const ENDED_BY: Record<RevokeReason, PaymentState> = {refunded: 'refunded', disputed: 'disputed', 'dispute lost': 'dispute_lost'};

/**
 * A purchase's state, from its status and why it was revoked (a final reason replaces `disputed`);
 * null for a revocation that is not about the payment, which this must never call a refund.
 */
function stateOf(purchase: PurchaseWithOutcome): PaymentState | null {
  if (purchase.status === 'paid') return (purchase.amount_refunded ?? 0) > 0 ? 'partly_refunded' : 'paid';
  return Object.hasOwn(ENDED_BY, purchase.revoke_reason ?? '') ? ENDED_BY[purchase.revoke_reason as RevokeReason] : null;
}

/** When it came to that state; the revocation's record, then the purchase's last change, when the precise event is not kept. */
function sinceOf(purchase: PurchaseWithOutcome, state: PaymentState): number | undefined {
  const fallback = purchase.revoked_at ?? purchase.updated_at;
  switch (state) {
    case 'paid':
      return undefined;
    case 'partly_refunded':
      return purchase.refunded_at ?? purchase.updated_at;
    case 'refunded':
      return purchase.refunded_at ?? fallback;
    case 'disputed':
      return purchase.dispute_opened_at ?? fallback;
    case 'dispute_lost':
      return purchase.dispute_lost_at ?? fallback;
  }
}

export function standingOf(purchase: PurchaseWithOutcome): PaymentStanding | null {
  const state = stateOf(purchase);
  if (!state) return null;
  const since = sinceOf(purchase, state);
  return {
    state,
    plan: {id: findStoredPlan(purchase.plan)?.id ?? null, name: storedPlanName(purchase.plan) ?? 'Purchase'},
    boughtAt: purchase.created_at,
    ...(since !== undefined && {since}),
    amount: purchase.amount_total,
    refunded: purchase.amount_refunded ?? 0,
    currency: purchase.currency,
  };
}

/**
 * The payments part of GET /accessStatus. `seat` is the paid purchase whose access the dashboard
 * shows (null when the account has none paid): its payment, the latest other purchase refunded or
 * disputed, and the plan the account holds now (its best paid purchase in force). Without a paid one, the latest purchase refunded
 * or disputed is the payment. `ended` is that latest purchase refunded or disputed, whose access
 * record the dashboard reads when no paid purchase has one.
 */
export async function paymentStandingOf(
  db: D1Database,
  user: AuthUser,
  seat: Pick<Purchase, 'session_id'> | null,
): Promise<{standing: Pick<AccessStatus, 'payment' | 'otherEnded' | 'plan'>; ended: Pick<Purchase, 'session_id'> | null}> {
  const purchases = await purchasesWithOutcomeOf(db, user, MOST_PURCHASES);
  const ended = purchases.filter((purchase) => purchase.status === 'revoked').find((purchase) => standingOf(purchase) !== null) ?? null;
  const endedStanding = ended && standingOf(ended);
  if (!seat) return {standing: endedStanding ? {payment: endedStanding} : {}, ended};
  const own = purchases.find((purchase) => purchase.session_id === seat.session_id);
  const ownStanding = own && standingOf(own);
  // The plan of the purchase that stands for the buyer (purchases.ts `bestPaidPurchaseOf`, whose rule this is).
  const held = findStoredPlan(bestPurchase(inForce(purchases.filter((purchase) => purchase.status === 'paid')))?.plan ?? null);
  return {
    standing: {
      ...(ownStanding && {payment: ownStanding}),
      ...(endedStanding && {otherEnded: endedStanding}),
      ...(held && {plan: {id: held.id, name: held.name}}),
    },
    ended,
  };
}
