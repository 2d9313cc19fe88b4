import React from 'react';
import type {AdminFairPrice, AdminPurchase} from '../../../config/api';
import {ACCESS_STATES, PURCHASE_STATES} from './format';
import styles from './styles.module.css';

/** A purchase's state and its GitHub access, as badges the table and the purchase's page share. */
export function StateBadge({state}: {state: AdminPurchase['state']}) {
  return (
    <span className={styles.badge} data-tone={state === 'paid' ? 'good' : state === 'open' ? 'quiet' : 'bad'}>
      {PURCHASE_STATES[state]}
    </span>
  );
}

/**
 * A fair-price payment whose card is from another country, tells none, or was never read: flagged
 * until the seller accepts it. `upgrade`: the payment is one of the purchase's upgrades', not its own.
 */
const cardOf = (cardCountry: string | null) =>
  cardCountry === null ? 'Card never read' : cardCountry ? `Card from ${cardCountry}` : 'No card country';

export function CardCountryBadge({fairPrice, upgrade = false}: {fairPrice: AdminFairPrice | null; upgrade?: boolean}) {
  if (fairPrice?.review !== 'flagged') return null;
  return (
    <>
      {' '}
      <span className={styles.badge} data-tone="bad">
        {upgrade && 'Upgrade: '}
        {cardOf(fairPrice.cardCountry)}, priced for {fairPrice.country}
      </span>
    </>
  );
}

/**
 * The purchase's access to the code: its GitHub seat, and whether the seller revoked it, which ends
 * its downloads too (a purchase that never asked for an invitation included).
 */
export function AccessBadge({
  purchase,
}: {
  purchase: Pick<AdminPurchase, 'access' | 'revokedBySellerAt' | 'removalFailed'>;
}) {
  const {access, revokedBySellerAt} = purchase;
  const bySeller = revokedBySellerAt !== null;
  if (!access) {
    if (!bySeller) return <span className={styles.muted}>Not asked for</span>;
    return (
      <>
        <span className={styles.badge} data-tone="bad">
          {ACCESS_STATES.revoked}
        </span>{' '}
        by the seller: no downloads (no GitHub account was asked for)
      </>
    );
  }
  const tone =
    access.status === 'active'
      ? 'good'
      : ['revoked', 'removal_failed', 'failed'].includes(access.status)
        ? 'bad'
        : 'quiet';
  return (
    <>
      @{access.username}{' '}
      <span className={styles.badge} data-tone={tone}>
        {ACCESS_STATES[access.status]}
      </span>
      {purchase.removalFailed && access.status !== 'removal_failed' && (
        <>
          {' · '}
          <span className={styles.badge} data-tone="bad">
            {ACCESS_STATES.removal_failed}
          </span>{' '}
          on another repository
        </>
      )}
      {bySeller &&
        (access.status === 'revoked' ? ' by the seller, downloads too' : ' (revoked by the seller, downloads too)')}
    </>
  );
}
