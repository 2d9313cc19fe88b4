import React, {useState} from 'react';
import {addedRepositoriesLine, findStoredPlan, planAdds, ROUTES} from '../../../config';
import type {BuyerPlan, UpgradeOffer} from '../../../config/api';
import {formatPrice} from '../../../config/money';
import {ApiError, type ApiClient} from '../../../lib/api';
import {useApiClient} from '../../../lib/useApiClient';
import {useWorkerRead} from '../../../lib/useWorkerRead';
import Spinner from '../../shared/Spinner';
import controls from '../../../css/controls.module.css';
import styles from './styles.module.css';

const readPlan = (api: ApiClient) => api.upgrades();

/** The card's id: What's new links to it for a plan without updates. */
export const YOUR_PLAN_ID = 'your-plan';

/** The button's words: "Upgrade to Advanced for $30", the amount as the worker priced it. */
export function upgradeLabelOf(offer: UpgradeOffer): string {
  return `Upgrade to ${offer.name} for ${formatPrice(offer.amount, offer.currency)}`;
}

/**
 * The buyer's plan, as the worker says it is now (a paid upgrade included), and the upgrades to a
 * higher plan, each for the difference. The worker prices them and makes the Checkout Session;
 * the page sends only which plan, and comes back here.
 */
export default function YourPlan({
  redirect = (url: string) => window.location.assign(url),
}: {
  redirect?: (url: string) => void;
}) {
  const loaded = useWorkerRead(readPlan, 'your plan');

  return (
    <section className={styles.card} id={YOUR_PLAN_ID} aria-labelledby="plan-heading">
      <h2 id="plan-heading">Your plan</h2>
      {loaded === null && <Spinner label="Loading your plan" />}
      {loaded === 'failed' && (
        <p className={styles.error} role="alert">
          Your plan could not be loaded. Please reload the page.
        </p>
      )}
      {loaded && loaded !== 'failed' && <PlanAndUpgrades plan={loaded} redirect={redirect} />}
    </section>
  );
}

function PlanAndUpgrades({plan, redirect}: {plan: BuyerPlan; redirect: (url: string) => void}) {
  const api = useApiClient();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (!plan.plan) return <p className={styles.muted}>No paid plan.</p>;

  async function upgrade(offer: UpgradeOffer) {
    setBusy(offer.planId);
    setError(null);
    try {
      const back = `${window.location.origin}${ROUTES.dashboard}`;
      const {url} = await api.createUpgradeSession({planId: offer.planId, successUrl: back, cancelUrl: back});
      redirect(url);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'The upgrade could not start. Please try again.');
      setBusy(null);
    }
  }

  return (
    <>
      <p>
        Your plan: <strong>{plan.plan.name}</strong>
      </p>
      {plan.upgrades.map((offer) => {
        const from = findStoredPlan(plan.plan!.id);
        const to = findStoredPlan(offer.planId);
        const adds = from && to ? planAdds(from, to) : [];
        const repositories = from && to ? addedRepositoriesLine(from, to) : null;
        return (
          <React.Fragment key={offer.planId}>
            <p>
              <button
                type="button"
                className={controls.primary}
                onClick={() => upgrade(offer)}
                disabled={busy !== null}
                aria-busy={busy === offer.planId}>
                {busy === offer.planId && <Spinner label="Opening the checkout" />}
                {upgradeLabelOf(offer)}
              </button>
            </p>
            {adds.length > 0 && <p>{`${offer.name} adds: ${adds.join('; ')}.`}</p>}
            {repositories && <p className={styles.muted}>{repositories}</p>}
          </React.Fragment>
        );
      })}
      {plan.upgrades.length > 0 && (
        <p className={styles.muted}>
          You pay only the difference between the two plans. Your repository access stays as it is.
        </p>
      )}
      {error && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
    </>
  );
}
