import React, {useRef, useState, type FormEvent} from 'react';
import clsx from 'clsx';
import {
  addedRepositoriesLine,
  addSeatsLabel,
  findStoredPlan,
  largerTierLabel,
  LAUNCH_CODE_PATTERN,
  planAdds,
  planForSeats,
  ROUTES,
  UPGRADE_CODE_WORDS,
} from '../../../config';
import type {
  BuyerPlan,
  CreateUpgradeSessionRequest,
  SeatsOffer,
  UpgradeCodeStanding,
  UpgradeOffer,
} from '../../../config/api';
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
 * The buyer's plan, as the worker says it is now (a paid upgrade included), the upgrades to a
 * higher plan, each for the difference (for every seat of a team), and more seats for a plan sold
 * for teams. The worker prices them and makes the Checkout Session; the page sends only which plan
 * or how many seats, and comes back here.
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

function PlanAndUpgrades({plan: asLoaded, redirect}: {plan: BuyerPlan; redirect: (url: string) => void}) {
  const api = useApiClient();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The plan priced with the upgrade code the worker took, or null for the prices without one.
  const [withCode, setWithCode] = useState<BuyerPlan | null>(null);
  const plan = withCode ?? asLoaded;
  const applied = withCode?.code ?? null;
  if (!plan.plan) return <p className={styles.muted}>No paid plan.</p>;

  const current = plan.plan;
  const seats = plan.seats?.seats ?? 1;

  /** Opens the worker's checkout for what is asked: `busyAs` marks the button that asked. */
  async function checkout(busyAs: string, asked: Pick<CreateUpgradeSessionRequest, 'planId' | 'addSeats' | 'code'>) {
    setBusy(busyAs);
    setError(null);
    try {
      const back = `${window.location.origin}${ROUTES.dashboard}`;
      const {url} = await api.createUpgradeSession({...asked, successUrl: back, cancelUrl: back});
      redirect(url);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'The upgrade could not start. Please try again.');
      setBusy(null);
    }
  }
  // The code goes along only to an upgrade it takes off: the worker refuses it for another (409).
  const upgrade = (offer: UpgradeOffer) =>
    checkout(offer.planId, {
      planId: offer.planId,
      ...(applied && offer.withoutCode !== null && {code: applied.code}),
    });

  return (
    <>
      <p>
        Your plan: <strong>{planForSeats(current.name, seats)}</strong>
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
            {applied && offer.withoutCode !== null && (
              <p className={styles.withCode}>
                {`${formatPrice(offer.amount, offer.currency)} with code ${applied.code}, `}
                <span>
                  was <s>{formatPrice(offer.withoutCode, offer.currency)}</s>
                </span>
              </p>
            )}
            {adds.length > 0 && <p>{`${offer.name} adds: ${adds.join('; ')}.`}</p>}
            {repositories && <p className={styles.muted}>{repositories}</p>}
          </React.Fragment>
        );
      })}
      {plan.upgrades.length > 0 && (
        <p className={styles.muted}>
          {seats === 1
            ? 'You pay only the difference between the two plans. Your repository access stays as it is.'
            : `Your whole team moves up: you pay only the difference between the two plans, ${
                // A plan sold in fixed tiers prices a team of its size, not each seat.
                plan.seats?.tiers ? `for a team of ${seats}` : `for each of your ${seats} seats`
              }. Every seat's repository access stays as it is.`}
        </p>
      )}
      {plan.upgrades.length > 0 && <UpgradeCode applied={applied} busy={busy !== null} onPriced={setWithCode} />}
      {plan.seats && (
        <AddSeats
          offer={plan.seats}
          busy={busy}
          onAdd={(added) => checkout('seats', {planId: current.id, addSeats: added})}
        />
      )}
      {error && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
    </>
  );
}

/**
 * The field for an upgrade code (past buyers only). Checkout takes one discount and an upgrade's is
 * its credit for the plan already bought, so the code is typed here, never at Stripe: the worker
 * prices the upgrades with it, and says why when it does not apply (UPGRADE_CODE_WORDS). A code it
 * takes is handed up with those prices; a refused one leaves the prices as they were.
 */
function UpgradeCode({
  applied,
  busy,
  onPriced,
}: {
  applied: UpgradeCodeStanding | null;
  busy: boolean;
  onPriced: (priced: BuyerPlan | null) => void;
}) {
  const api = useApiClient();
  const field = useRef<HTMLInputElement>(null);
  const [typed, setTyped] = useState('');
  const [checking, setChecking] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  async function apply(event: FormEvent) {
    event.preventDefault();
    const code = typed.trim();
    if (code === '') return;
    onPriced(null);
    // No code the seller can make has these characters: the worker would only say it is not one.
    if (!LAUNCH_CODE_PATTERN.test(code)) {
      setRefusal(UPGRADE_CODE_WORDS.unknown);
      return;
    }
    setRefusal(null);
    setChecking(true);
    try {
      const priced = await api.upgrades(code);
      if (priced.code && priced.code.refused === null) onPriced(priced);
      // A worker that answers no standing did not price the code: say so rather than nothing.
      else setRefusal(priced.code?.refused ?? 'The code could not be checked. Please try again.');
    } catch (failure) {
      setRefusal(failure instanceof ApiError ? failure.message : 'The code could not be checked. Please try again.');
    } finally {
      setChecking(false);
    }
  }

  function remove() {
    onPriced(null);
    setTyped('');
    setRefusal(null);
    // The button that had focus is gone: the field is where the buyer would go next.
    field.current?.focus();
  }

  return (
    <details className={styles.codeBox}>
      <summary>Have an upgrade code?</summary>
      <form className={styles.request} aria-label="Upgrade code" onSubmit={(event) => void apply(event)}>
        <label htmlFor="upgrade-code" className={styles.label}>
          Upgrade code
        </label>
        <div className={styles.row}>
          <input
            id="upgrade-code"
            ref={field}
            className={clsx(controls.input, styles.input)}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            autoCapitalize="characters"
            autoComplete="off"
            spellCheck={false}
            maxLength={40}
            aria-invalid={refusal !== null}
            aria-describedby="upgrade-code-standing"
          />
          <button
            type="submit"
            className={controls.secondary}
            disabled={busy || checking || typed.trim() === ''}
            aria-busy={checking}>
            {checking && <Spinner label="Checking the code" />}
            Apply
          </button>
          {applied && (
            <button type="button" className={controls.secondary} onClick={remove} disabled={busy}>
              Remove code
            </button>
          )}
        </div>
        <p id="upgrade-code-standing" className={clsx(styles.answer, refusal && styles.error)} role="status">
          {applied ? `${[`Code ${applied.code}`, applied.terms].filter(Boolean).join(': ')}.` : (refusal ?? '')}
        </p>
      </form>
    </details>
  );
}

/**
 * More seats for a plan sold for teams: how many to add (up to the plan's most), priced as the worker
 * will charge them. The buyer gives each new seat under "Your team" once paid.
 */
function AddSeats({offer, busy, onAdd}: {offer: SeatsOffer; busy: string | null; onAdd: (added: number) => void}) {
  const room = offer.most - offer.seats;
  const [added, setAdded] = useState(1);
  if (room < 1) return <p className={styles.muted}>{`Your team has every seat your plan sells (${offer.most}).`}</p>;
  const perSeat = offer.perSeat;
  if (offer.tiers !== null || perSeat === null)
    return <LargerTier offer={offer} tiers={offer.tiers ?? []} busy={busy} onAdd={onAdd} />;
  const count = Math.min(Math.max(1, Math.floor(added) || 1), room);
  return (
    <form
      className={styles.request}
      aria-label="Add seats"
      onSubmit={(event) => {
        event.preventDefault();
        onAdd(count);
      }}>
      <label htmlFor="add-seats" className={styles.label}>
        Seats to add
      </label>
      <div className={styles.row}>
        <input
          id="add-seats"
          type="number"
          inputMode="numeric"
          className={clsx(controls.input, styles.seatsInput)}
          min={1}
          max={room}
          value={added}
          onChange={(event) => setAdded(Number(event.target.value))}
        />
        <button type="submit" className={controls.primary} disabled={busy !== null} aria-busy={busy === 'seats'}>
          {busy === 'seats' && <Spinner label="Opening the checkout" />}
          {addSeatsLabel(count, formatPrice(perSeat * count, offer.currency))}
        </button>
      </div>
      <p className={styles.muted}>
        {`Each seat is one more developer with their own access to every repository of your plan, for as long as they hold it. You have ${offer.seats}, and may add up to ${room} more; you give them under Your team once paid.`}
      </p>
    </form>
  );
}

/**
 * More seats for a plan sold in fixed tiers: the move to a larger tier, priced as the worker will
 * charge it (the larger tier, credited what the team paid). The buyer gives the new seats under
 * "Your team" once paid.
 */
function LargerTier({
  offer,
  tiers,
  busy,
  onAdd,
}: {
  offer: SeatsOffer;
  tiers: NonNullable<SeatsOffer['tiers']>;
  busy: string | null;
  onAdd: (added: number) => void;
}) {
  const [picked, setPicked] = useState(tiers[0]?.seats);
  const tier = tiers.find((sold) => sold.seats === picked) ?? tiers[0];
  if (!tier) return null;
  return (
    <form
      className={styles.request}
      aria-label="Grow your team"
      onSubmit={(event) => {
        event.preventDefault();
        onAdd(tier.seats - offer.seats);
      }}>
      <label htmlFor="larger-tier" className={styles.label}>
        Grow your team to
      </label>
      <div className={styles.row}>
        <select
          id="larger-tier"
          className={controls.input}
          value={tier.seats}
          onChange={(event) => setPicked(Number(event.target.value))}>
          {tiers.map((sold) => (
            <option key={sold.seats} value={sold.seats}>
              {`A team of ${sold.seats}`}
            </option>
          ))}
        </select>
        <button type="submit" className={controls.primary} disabled={busy !== null} aria-busy={busy === 'seats'}>
          {busy === 'seats' && <Spinner label="Opening the checkout" />}
          {largerTierLabel(tier.seats, formatPrice(tier.amount, offer.currency))}
        </button>
      </div>
      <p className={styles.muted}>
        {`Your plan is sold in teams of fixed sizes. You have ${offer.seats} ${offer.seats === 1 ? 'seat' : 'seats'}; the button says what the larger team costs you, what you paid for yours taken off. Each new seat is one more developer with their own access to every repository of your plan; you give them under Your team once paid.`}
      </p>
    </form>
  );
}
