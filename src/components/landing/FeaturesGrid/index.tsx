import React from 'react';
import clsx from 'clsx';
import {landingExtras, type GridFeature} from '../../../config';
import BetterIcon from '../../shared/BetterIcon';
import {featureIcons} from '../featureIcons';
import LandingSection from '../LandingSection';
import styles from './styles.module.css';

/** §9: a card spans up to 3 columns. */
export const MAX_SPAN = 3;

export interface FeaturesGridProps {
  title?: string;
  subtitle?: string;
  features?: readonly GridFeature[];
}

const spanClass = {1: styles.span1, 2: styles.span2, 3: styles.span3} as const;

/**
 * Feature cards on a three-column grid; a card spans 1 to 3 columns. Two
 * columns on a tablet, one on a phone.
 */
export default function FeaturesGrid({
  title = landingExtras.featuresGrid.title,
  subtitle,
  features = landingExtras.featuresGrid.features,
}: FeaturesGridProps) {
  for (const feature of features) {
    const span = feature.span ?? 1;
    if (!Number.isInteger(span) || span < 1 || span > MAX_SPAN) {
      throw new Error(`FeaturesGrid: "${feature.title}" spans ${span} columns; a card spans 1 to ${MAX_SPAN}.`);
    }
  }

  return (
    <LandingSection title={title} subtitle={subtitle} classNames={styles}>
      <ul className={styles.grid}>
        {features.map((feature) => {
          const Icon = featureIcons[feature.icon];
          return (
            <li key={feature.title} className={clsx(styles.card, spanClass[feature.span ?? 1])}>
              <BetterIcon>
                <Icon />
              </BetterIcon>
              <h3 className={styles.cardTitle}>{feature.title}</h3>
              <p className={styles.description}>{feature.description}</p>
            </li>
          );
        })}
      </ul>
    </LandingSection>
  );
}
