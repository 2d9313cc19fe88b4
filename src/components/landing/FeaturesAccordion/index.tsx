import React, {useId, useState} from 'react';
import clsx from 'clsx';
import {ChevronDown} from 'lucide-react';
import {landingExtras, type AccordionFeature} from '../../../config';
import BetterIcon from '../../shared/BetterIcon';
import {featureIcons} from '../featureIcons';
import LandingSection from '../LandingSection';
import styles from './styles.module.css';

/** §5: the accordion takes 2 to 5 features. */
export const MIN_FEATURES = 2;
export const MAX_FEATURES = 5;

export interface FeaturesAccordionProps {
  title?: string;
  /** 2 to 5 features; the first is open at first. */
  features?: readonly AccordionFeature[];
}

/**
 * Features one at a time: the first is open, opening another closes it, and a
 * click on the open one closes it.
 */
export default function FeaturesAccordion({
  title = landingExtras.featuresAccordion.title,
  features = landingExtras.featuresAccordion.features,
}: FeaturesAccordionProps) {
  const [open, setOpen] = useState<number | null>(0);
  const id = useId();
  if (features.length < MIN_FEATURES || features.length > MAX_FEATURES) {
    throw new Error(
      `FeaturesAccordion takes ${MIN_FEATURES} to ${MAX_FEATURES} features; it was given ${features.length}.`,
    );
  }

  return (
    <LandingSection titleId={`${id}-title`} title={title} classNames={styles}>
      <ul className={styles.list}>
        {features.map((feature, index) => {
          const expanded = open === index;
          const buttonId = `${id}-button-${index}`;
          const panelId = `${id}-panel-${index}`;
          const Icon = featureIcons[feature.icon];
          return (
            <li key={feature.title} className={clsx(styles.item, expanded && styles.itemOpen)}>
              <h3 className={styles.heading}>
                <button
                  type="button"
                  id={buttonId}
                  aria-expanded={expanded}
                  aria-controls={panelId}
                  className={styles.button}
                  onClick={() => setOpen(expanded ? null : index)}>
                  <BetterIcon>
                    <Icon />
                  </BetterIcon>
                  <span className={styles.featureTitle}>{feature.title}</span>
                  <ChevronDown className={styles.chevron} size={20} aria-hidden="true" />
                </button>
              </h3>
              <div id={panelId} role="region" aria-labelledby={buttonId} className={styles.panel} hidden={!expanded}>
                <p>{feature.description}</p>
              </div>
            </li>
          );
        })}
      </ul>
    </LandingSection>
  );
}
