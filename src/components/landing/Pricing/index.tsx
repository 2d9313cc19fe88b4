import React from 'react';
import clsx from 'clsx';
import {appConfig, landing, type Plan} from '../../../config';
import {useSiteSettings} from '../../../lib/SiteSettingsContext';
import {useSectionAnchor} from '../../../lib/useSectionAnchor';
import ButtonCheckout from '../../ButtonCheckout';
import CheckList from '../../CheckList';
import styles from './styles.module.css';

export interface PricingProps {
  plans?: readonly Plan[];
  title?: string;
  subtitle?: string;
}

function PlanCard({plan}: {plan: Plan}) {
  const {stripeMode} = useSiteSettings();
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
      <CheckList items={plan.features.map((feature) => feature.name)} className={styles.features} />
      <ButtonCheckout
        priceId={plan.priceId[stripeMode]}
        label={`Get ${appConfig.appName} ${plan.name}`}
        className={styles.checkout}
      />
      <p className={styles.forever}>Pay once. Access forever.</p>
    </article>
  );
}

export default function Pricing({
  plans = appConfig.stripe.plans,
  title = landing.pricing.title,
  subtitle = landing.pricing.subtitle,
}: PricingProps) {
  const id = useSectionAnchor('pricing');
  return (
    <section id={id} className={styles.section} aria-labelledby="pricing-title">
      <div className={styles.inner}>
        <p className={styles.kicker}>Pricing</p>
        <h2 id="pricing-title" className={styles.title}>
          {title}
        </h2>
        <p className={styles.subtitle}>{subtitle}</p>
        <div className={styles.grid}>
          {plans.map((plan) => (
            <PlanCard key={plan.name} plan={plan} />
          ))}
        </div>
      </div>
    </section>
  );
}
