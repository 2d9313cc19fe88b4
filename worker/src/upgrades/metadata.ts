import type Stripe from 'stripe';

/**
 * The metadata that ties an upgrade's Checkout Session to the purchase it upgrades. Fulfilment
 * routes a session by it, then trusts only the worker's own row in D1 (`upgrades`), which must
 * agree with it: metadata says which record to read, never what to grant.
 */
export const UPGRADE_METADATA = {
  kind: 'kind',
  upgradeOf: 'upgradeOf',
  fromPlan: 'fromPlan',
  toPlan: 'toPlan',
  amount: 'amount',
  seatsAdded: 'seatsAdded',
  /** The upgrade code the session was priced with (the seller reads it in Stripe's dashboard). */
  launchCode: 'launchCode',
} as const;

export const UPGRADE_KIND = 'upgrade';

export function isUpgradeSession(session: Pick<Stripe.Checkout.Session, 'metadata'>): boolean {
  return session.metadata?.[UPGRADE_METADATA.kind] === UPGRADE_KIND;
}
