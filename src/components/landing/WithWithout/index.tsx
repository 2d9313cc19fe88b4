import React from 'react';
import {Check, X, type LucideIcon} from 'lucide-react';
import {landingExtras, type ComparisonColumn} from '../../../config';
import LandingSection from '../LandingSection';
import styles from './styles.module.css';

export interface WithWithoutProps {
  title?: string;
  /** The pains: life before the product. */
  without?: ComparisonColumn;
  /** The gains: the same list, solved. */
  with?: ComparisonColumn;
}

/** One column: its title, then each item behind its mark (a cross for the pains, a check for the gains). */
function Column({column, Mark, className}: {column: ComparisonColumn; Mark: LucideIcon; className: string}) {
  return (
    <div className={className}>
      <h3 className={styles.columnTitle}>{column.title}</h3>
      <ul className={styles.list}>
        {column.items.map((item) => (
          <li key={item}>
            <Mark size={18} strokeWidth={2.5} className={styles.mark} aria-hidden="true" />
            {item}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Two columns side by side: the pains without the product, and the gains with it. */
export default function WithWithout({
  title = landingExtras.withWithout.title,
  without = landingExtras.withWithout.without,
  with: gains = landingExtras.withWithout.with,
}: WithWithoutProps) {
  return (
    <LandingSection titleId="with-without-title" title={title} classNames={styles}>
      <div className={styles.columns}>
        <Column column={without} Mark={X} className={styles.without} />
        <Column column={gains} Mark={Check} className={styles.with} />
      </div>
    </LandingSection>
  );
}
