import React, {useState} from 'react';
import clsx from 'clsx';
import {
  appConfig,
  checkoutPriceId,
  FEWEST_TEAM_SEATS,
  landing,
  maxSeatsOf,
  PLAN_CURRENCY,
  type Plan,
  planFeatureNames,
  planForSeats,
  saleOf,
  soldInTiers,
  teamTiersOf,
} from '../../../config';
import type {PricesResponse} from '../../../config/api';
import {formatMoney} from '../../../config/money';
import {useFairPrices} from '../../../lib/useFairPrices';
import {useSectionAnchor} from '../../../lib/useSectionAnchor';
import ButtonCheckout from '../../shared/ButtonCheckout';
import CheckList from '../../shared/CheckList';
import LandingSection from '../LandingSection';
import styles from './styles.module.css';

export interface PricingProps {
  plans?: readonly Plan[];
  title?: string;
  subtitle?: string;
}

/** Whole dollars as the cards have always shown them ($69), cents only when there are some ($41.40). */
function dollars(cents: number): string {
  return cents % 100 === 0 ? `$${cents / 100}` : formatMoney(cents, PLAN_CURRENCY);
}

/**
 * What `seats` bought at once cost this visitor (`saleOf`: each seat's price times the seats, a team's
 * own where the plan has one, or a team tier's price), or with `each` one seat's share of it: the
 * worker's fair price when it gives one (the amount the checkout charges), else the list price. The
 * anchor stays the list's, as does the structured data.
 */
function shownPrice(plan: Plan, prices: PricesResponse | null, seats = 1, each = false): string {
  const fair = prices && prices.percentOff > 0 ? prices.plans.find((entry) => entry.id === plan.id) : undefined;
  if (fair && seats === 1) return dollars(fair.amount);
  const sale = saleOf(plan, seats);
  // The country's coupon takes its percent off the whole, as Stripe rounds it.
  const whole = each ? sale.price.amount : sale.amount;
  return dollars(whole - (fair ? Math.round((whole * prices!.percentOff) / 100) : 0));
}

/** The team sizes the picker offers: each of a plan's fixed tiers, else 2 up to its `maxSeats`. */
function teamSizes(plan: Plan): number[] {
  const tiers = teamTiersOf(plan).map((tier) => tier.seats);
  return tiers.length > 0 ? tiers : Array.from({length: maxSeatsOf(plan) - 1}, (_, index) => index + 2);
}

/** What the picker says under it, or null: a team's own price for each seat, or each tier's price. */
function teamPriceLine(plan: Plan, prices: PricesResponse | null): string | null {
  const tiers = teamTiersOf(plan);
  if (tiers.length > 0)
    return `Teams: ${tiers.map((tier) => `${tier.seats} developers for ${shownPrice(plan, prices, tier.seats)}`).join(', ')}`;
  return plan.team?.seatPrice
    ? `Teams of ${FEWEST_TEAM_SEATS} or more: ${shownPrice(plan, prices, FEWEST_TEAM_SEATS, true)} a seat`
    : null;
}

/**
 * For a plan sold for teams: how many seats, 1 (the buyer alone) up to the plan's `maxSeats`, or one
 * of its fixed tiers. The price and the checkout follow it; the worker charges the same. A team's own
 * price for each seat (`team.seatPrice`), or each tier's, is said beside it.
 */
function SeatPicker({
  plan,
  prices,
  seats,
  onChange,
}: {
  plan: Plan;
  prices: PricesResponse | null;
  seats: number;
  onChange: (seats: number) => void;
}) {
  const id = `seats-${plan.id}`;
  const line = teamPriceLine(plan, prices);
  return (
    <div className={styles.seatPicker}>
      <p className={styles.seats}>
        <label htmlFor={id}>Developers</label>
        <select
          id={id}
          value={seats}
          aria-describedby={line ? `${id}-price` : undefined}
          onChange={(event) => onChange(Number(event.target.value))}>
          {[1, ...teamSizes(plan)].map((count) => (
            <option key={count} value={count}>
              {count === 1 ? 'Just me' : `A team of ${count}`}
            </option>
          ))}
        </select>
      </p>
      {line && (
        <p id={`${id}-price`} className={styles.teamPrice}>
          {line}
        </p>
      )}
    </div>
  );
}

function PlanCard({plan, plans, prices}: {plan: Plan; plans: readonly Plan[]; prices: PricesResponse | null}) {
  const [seats, setSeats] = useState(1);
  const headingId = `plan-${plan.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <article className={clsx(styles.card, plan.isFeatured && styles.featured)} aria-labelledby={headingId}>
      {plan.isFeatured && <span className={styles.badge}>MOST POPULAR</span>}
      <h3 id={headingId} className={styles.name}>
        {plan.name}
      </h3>
      {plan.description && <p className={styles.description}>{plan.description}</p>}
      <p className={styles.price}>
        {plan.priceAnchor !== undefined && (
          <s className={styles.anchor}>
            {/* For as many seats as the price beside it: a team's regular price is each seat's. */}
            <span className="sr-only">Regular price </span>${plan.priceAnchor * seats}
          </s>
        )}
        <span className={styles.amount}>
          <span className="sr-only">Now </span>
          {shownPrice(plan, prices, seats)}
        </span>
        <span className={styles.currency}>{PLAN_CURRENCY.toUpperCase()}</span>
      </p>
      <p className={styles.oneTime}>
        {seats === 1
          ? 'One-time payment'
          : soldInTiers(plan)
            ? `One-time payment for a team of ${seats}`
            : `One-time payment for ${seats} seats, ${shownPrice(plan, prices, seats, true)} each`}
      </p>
      {plan.team && <SeatPicker plan={plan} prices={prices} seats={seats} onChange={setSeats} />}
      <CheckList items={planFeatureNames(plan, plans)} className={styles.features} />
      <ButtonCheckout
        priceId={checkoutPriceId(plan)}
        seats={seats}
        label={`Get ${appConfig.appName} ${planForSeats(plan.name, seats)}`}
        className={styles.checkout}
      />
      <p className={styles.forever}>Pay once. Access forever.</p>
    </article>
  );
}

export default function Pricing({
  plans = appConfig.plans,
  title = landing.pricing.title,
  subtitle = landing.pricing.subtitle,
}: PricingProps) {
  const id = useSectionAnchor('pricing');
  const prices = useFairPrices();
  return (
    <LandingSection
      id={id}
      titleId="pricing-title"
      kicker="Pricing"
      title={title}
      subtitle={subtitle}
      classNames={styles}>
      {prices && prices.percentOff > 0 && prices.countryName && (
        <p className={styles.fairPrice}>
          Prices adjusted for {prices.countryName}: {prices.percentOff}% off
        </p>
      )}
      <div className={styles.grid}>
        {plans.map((plan) => (
          <PlanCard key={plan.name} plan={plan} plans={plans} prices={prices} />
        ))}
      </div>
    </LandingSection>
  );
}
