import React from 'react';
import {findStoredPlan, repositoryKeys} from '../../../config';
import type {AdminPurchaseDetail, AdminUpgrade} from '../../../config/api';
import {CardCountryBadge} from './Badges';
import CardCountryReview from './CardCountryReview';
import RefundForm, {type RefundEffects} from './RefundForm';
import {LIVE_ACCESS, money, UPGRADE_STATES, when} from './format';
import styles from './styles.module.css';

/** An upgrade's refund: a full one takes back only what it added, once Stripe confirms it. */
function effectsOf(upgrade: AdminUpgrade): RefundEffects {
  if (upgrade.seatsAdded > 0) {
    const seats = `${upgrade.seatsAdded} ${upgrade.seatsAdded === 1 ? 'seat' : 'seats'}`;
    return {
      full: `the team loses the ${seats} it added`,
      partial: `they keep the ${seats}`,
      summary: `A full refund takes the ${seats} away once Stripe confirms it: if the team then holds more seats than it has, its newest members lose theirs and are e-mailed why; a partial one keeps them.`,
      afterFull: `The team loses the ${seats} once Stripe confirms it.`,
      confirmed: `Stripe confirmed it: the team no longer has the ${seats}.`,
    };
  }
  return {
    full: `the purchase returns to ${upgrade.fromPlan}`,
    partial: `they keep ${upgrade.toPlan}`,
    summary: `A full refund returns the purchase to ${upgrade.fromPlan} once Stripe confirms it (its access stays); a partial one keeps ${upgrade.toPlan}.`,
    afterFull: `The purchase returns to ${upgrade.fromPlan} once Stripe confirms it.`,
    confirmed: `Stripe confirmed it: the purchase is back on ${upgrade.fromPlan}.`,
  };
}

/**
 * Whether the page shows all a full refund of the upgrade does: the upgrade refunded, and the
 * repositories only its plan granted taken back.
 */
function refundSettled(purchase: AdminPurchaseDetail, upgrade: AdminUpgrade): boolean {
  const kept = repositoryKeys(findStoredPlan(upgrade.fromPlan));
  return (
    upgrade.state === 'refunded' &&
    purchase.grants.every((grant) => kept.includes(grant.key) || !LIVE_ACCESS.includes(grant.status))
  );
}

/** Why an upgrade that is neither paid nor refunded has no refund here. */
const NO_REFUND: Partial<Record<AdminUpgrade['state'], string>> = {
  disputed:
    'The buyer disputed this payment: answer the dispute in Stripe. The purchase is back on the plan before it meanwhile.',
  refused: 'Paid but never applied (the worker refunds such a payment itself).',
  failed: 'The payment failed: nothing to refund.',
};

function Upgrade({
  purchase,
  upgrade,
  index,
  reload,
}: {
  purchase: AdminPurchaseDetail;
  upgrade: AdminUpgrade;
  index: number;
  reload: () => void;
}) {
  const heading = `upgrade-${index}-heading`;
  const label = upgrade.label;
  return (
    <section aria-labelledby={heading} className={styles.upgrade}>
      <h4 id={heading}>{label}</h4>
      <p>
        <span className={styles.badge} data-tone={upgrade.state === 'paid' ? 'good' : 'bad'}>
          {UPGRADE_STATES[upgrade.state]}
        </span>{' '}
        {money(upgrade.amount, upgrade.currency)}
        {upgrade.paidAt !== null && <>, paid {when(upgrade.paidAt)}</>}
        {upgrade.amountRefunded > 0 && <> · {money(upgrade.amountRefunded, upgrade.currency)} refunded</>}
        {upgrade.launchCode && <> · with the upgrade code {upgrade.launchCode}</>}
        <CardCountryBadge fairPrice={upgrade.fairPrice} />
      </p>
      <CardCountryReview
        sessionId={upgrade.sessionId}
        fairPrice={upgrade.fairPrice}
        reload={reload}
        payment="upgrade"
      />
      {upgrade.state === 'paid' || upgrade.state === 'refunded' ? (
        <RefundForm
          payment={{...upgrade, refunded: upgrade.state === 'refunded', settled: refundSettled(purchase, upgrade)}}
          effects={effectsOf(upgrade)}
          label="Refund the upgrade"
          reload={reload}
        />
      ) : (
        <p className={styles.muted}>{NO_REFUND[upgrade.state]}</p>
      )}
    </section>
  );
}

/**
 * The purchase's upgrades, each its own payment with its own refund (by the upgrade's session):
 * refunding one takes back only the plan it added, never the purchase or its access. One sold at
 * the purchase's fair price has its own card's country, flagged and accepted on its own.
 */
export default function Upgrades({purchase, reload}: {purchase: AdminPurchaseDetail; reload: () => void}) {
  if (purchase.upgrades.length === 0) return null;
  return (
    <section aria-labelledby="upgrades-heading">
      <h3 id="upgrades-heading">Upgrades</h3>
      {purchase.upgrades.map((upgrade, index) => (
        <Upgrade key={upgrade.sessionId} purchase={purchase} upgrade={upgrade} index={index} reload={reload} />
      ))}
    </section>
  );
}
