import React from 'react';
import clsx from 'clsx';
import {appConfig, checkoutPriceId, landing, type Plan, planFeatureNames} from '../../../config';
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

function PlanCard({plan}: {plan: Plan}) {
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
            <span className="sr-only">Regular price </span>${plan.priceAnchor}
          </s>
        )}
        <span className={styles.amount}>
          <span className="sr-only">Now </span>${plan.price}
        </span>
        <span className={styles.currency}>USD</span>
      </p>
      <p className={styles.oneTime}>One-time payment</p>
      <CheckList items={planFeatureNames(plan)} className={styles.features} />
      <ButtonCheckout
        priceId={checkoutPriceId(plan)}
        label={`Get ${appConfig.appName} ${plan.name}`}
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
  return (
    <LandingSection id={id} titleId="pricing-title" kicker="Pricing" title={title} subtitle={subtitle} classNames={styles}>
      <div className={styles.grid}>
        {plans.map((plan) => (
          <PlanCard key={plan.name} plan={plan} />
        ))}
      </div>
    </LandingSection>
  );
}
