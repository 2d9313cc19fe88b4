import React from 'react';
import clsx from 'clsx';
import {Check, X} from 'lucide-react';
import {landingExtras, type ComparisonColumn} from '../../../config';
import section from '../section.module.css';
import styles from './styles.module.css';

export interface WithWithoutProps {
  title?: string;
  /** The pains: life before the product. */
  without?: ComparisonColumn;
  /** The gains: the same list, solved. */
  with?: ComparisonColumn;
}

/** Two columns side by side: the pains without the product, and the gains with it. */
export default function WithWithout({
  title = landingExtras.withWithout.title,
  without = landingExtras.withWithout.without,
  with: gains = landingExtras.withWithout.with,
}: WithWithoutProps) {
  return (
    <section className={styles.section} aria-labelledby="with-without-title">
      <div className={clsx(section.inner, styles.inner)}>
        <h2 id="with-without-title" className={section.title}>
          {title}
        </h2>
        <div className={styles.columns}>
          <div className={styles.without}>
            <h3 className={styles.columnTitle}>{without.title}</h3>
            <ul className={styles.list}>
              {without.items.map((item) => (
                <li key={item}>
                  <X size={18} strokeWidth={2.5} className={styles.mark} aria-hidden="true" />
                  {item}
                </li>
              ))}
            </ul>
          </div>
          <div className={styles.with}>
            <h3 className={styles.columnTitle}>{gains.title}</h3>
            <ul className={styles.list}>
              {gains.items.map((item) => (
                <li key={item}>
                  <Check size={18} strokeWidth={2.5} className={styles.mark} aria-hidden="true" />
                  {item}
                </li>
              ))}
            </ul>
          </div>
        </div>
      </div>
    </section>
  );
}
