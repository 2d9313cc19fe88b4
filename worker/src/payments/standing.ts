import {findStoredPlan, storedPlanName} from '../../../src/config';
import type {AccessStatus, PaymentStanding, PaymentState, StandingPlan, UpgradeStanding} from '../../../src/config/api';
import type {AuthUser} from '../auth/user';
import {
  bestPurchase,
  inForce,
  type PaymentOutcome,
  type Purchase,
  purchasesWithOutcomeOf,
  type PurchaseWithOutcome,
  upgradesWithOutcomeOf,
  type UpgradeWithOutcome,
} from '../purchases';
import type {RevokeReason} from './revocations';

/**
 * What became of the buyer's payments, for the dashboard to say in its own words for each: paid,
 * partly refunded, refunded, disputed, or reversed by a lost dispute, and since when. A purchase's
 * upgrades are payments of their own (a refund at Stripe refunds one payment), so each is told
 * beside the purchase's, and the whole is added up. Read from the records the Stripe webhook keeps
 * (revocations.ts, webhooks/stripe.ts); nothing is asked of Stripe.
 */

/** How many of the account's purchases are read: far more than anyone holds. */
const MOST_PURCHASES = 20;

/** Why revocations.ts revoked a payment (RevokeReason), as the buyer's dashboard names it. */
const ENDED_BY: Record<RevokeReason, PaymentState> = {
  refunded: 'refunded',
  disputed: 'disputed',
  'dispute lost': 'dispute_lost',
};

/**
 * A payment's state, from its status and why it was revoked (a final reason replaces `disputed`);
 * null for a revocation that is not about the payment, which this must never call a refund.
 */
function stateOf(payment: PaymentOutcome): PaymentState | null {
  if (payment.status === 'paid') return (payment.amount_refunded ?? 0) > 0 ? 'partly_refunded' : 'paid';
  return Object.hasOwn(ENDED_BY, payment.revoke_reason ?? '') ? ENDED_BY[payment.revoke_reason as RevokeReason] : null;
}

/** When it came to that state; the revocation's record, then the payment's last change, when the precise event is not kept. */
function sinceOf(payment: PaymentOutcome, state: PaymentState): number | undefined {
  const fallback = payment.revoked_at ?? payment.updated_at;
  switch (state) {
    case 'paid':
      return undefined;
    case 'partly_refunded':
      return payment.refunded_at ?? payment.updated_at;
    case 'refunded':
      return payment.refunded_at ?? fallback;
    case 'disputed':
      return payment.dispute_opened_at ?? fallback;
    case 'dispute_lost':
      return payment.dispute_lost_at ?? fallback;
  }
}

/** A payment's state and since when, or null (stateOf). */
function outcomeOf(payment: PaymentOutcome): {state: PaymentState; since?: number} | null {
  const state = stateOf(payment);
  if (!state) return null;
  const since = sinceOf(payment, state);
  return {state, ...(since !== undefined && {since})};
}

/** A stored plan (an id, or a name before ids were stored) as the standing names it. */
function standingPlan(stored: string | null): StandingPlan {
  return {id: findStoredPlan(stored)?.id ?? null, name: storedPlanName(stored) ?? 'Purchase'};
}

function upgradeStanding(upgrade: UpgradeWithOutcome): UpgradeStanding | null {
  const outcome = outcomeOf(upgrade);
  if (!outcome) return null;
  return {
    ...outcome,
    plan: standingPlan(upgrade.to_plan),
    seatsAdded: upgrade.seats_added,
    paidAt: upgrade.paid_at,
    amount: upgrade.amount_paid,
    refunded: upgrade.amount_refunded ?? 0,
    currency: upgrade.currency,
  };
}

/** The purchase's payment and its upgrades' added up; undefined when they are in different currencies. */
function totalOf(
  standing: Pick<PaymentStanding, 'amount' | 'refunded' | 'currency'>,
  upgrades: readonly UpgradeStanding[],
): PaymentStanding['total'] {
  if (upgrades.some((upgrade) => upgrade.currency !== standing.currency)) return undefined;
  const payments = [standing, ...upgrades];
  const amounts = payments.map((payment) => payment.amount);
  return {
    amount: amounts.includes(null) ? null : (amounts as number[]).reduce((sum, amount) => sum + amount, 0),
    refunded: payments.reduce((sum, payment) => sum + payment.refunded, 0),
  };
}

/** The purchase's standing, with `upgrades` those applied to it (upgradesWithOutcomeOf, any purchase's: its own are picked). */
export function standingOf(
  purchase: PurchaseWithOutcome,
  upgrades: readonly UpgradeWithOutcome[] = [],
): PaymentStanding | null {
  const outcome = outcomeOf(purchase);
  if (!outcome) return null;
  const own = upgrades
    .filter((upgrade) => upgrade.purchase_session_id === purchase.session_id)
    .map(upgradeStanding)
    .filter((upgrade): upgrade is UpgradeStanding => upgrade !== null);
  const payment = {amount: purchase.amount_total, refunded: purchase.amount_refunded ?? 0, currency: purchase.currency};
  const stands = outcome.state === 'paid' || outcome.state === 'partly_refunded';
  const total = totalOf(payment, own);
  return {
    ...outcome,
    plan: standingPlan(purchase.bought_plan),
    ...(stands && {planNow: standingPlan(purchase.plan)}),
    boughtAt: purchase.created_at,
    ...payment,
    upgrades: own,
    ...(total && {total}),
    ...(purchase.revoked_by_seller_at != null && {revokedBySeller: true as const}),
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
): Promise<{
  standing: Pick<AccessStatus, 'payment' | 'otherEnded' | 'plan'>;
  ended: Pick<Purchase, 'session_id'> | null;
}> {
  const purchases = await purchasesWithOutcomeOf(db, user, MOST_PURCHASES);
  const ended =
    purchases.filter((purchase) => purchase.status === 'revoked').find((purchase) => standingOf(purchase) !== null) ??
    null;
  const own = seat ? (purchases.find((purchase) => purchase.session_id === seat.session_id) ?? null) : null;
  // The upgrades of the (at most two) purchases told, in one read.
  const upgrades = await upgradesWithOutcomeOf(
    db,
    [own, ended].filter((purchase) => purchase !== null).map((purchase) => purchase.session_id),
  );
  const endedStanding = ended && standingOf(ended, upgrades);
  if (!seat) return {standing: endedStanding ? {payment: endedStanding} : {}, ended};
  const ownStanding = own && standingOf(own, upgrades);
  // The plan of the purchase that stands for the buyer (purchases.ts `bestPaidPurchaseOf`, whose rule this is).
  const held = findStoredPlan(
    bestPurchase(inForce(purchases.filter((purchase) => purchase.status === 'paid')))?.plan ?? null,
  );
  return {
    standing: {
      ...(ownStanding && {payment: ownStanding}),
      ...(endedStanding && {otherEnded: endedStanding}),
      ...(held && {plan: {id: held.id, name: held.name}}),
    },
    ended,
  };
}
