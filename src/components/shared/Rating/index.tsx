import React from 'react';
import styles from './styles.module.css';

/** Five stars, filled up to `value` (rounded to the nearest half). */
export default function Rating({value = 5, max = 5}: {value?: number; max?: number}) {
  const filled = Math.round(value * 2) / 2;
  return (
    <span className={styles.stars} role="img" aria-label={`Rated ${value} out of ${max}`}>
      {Array.from({length: max}, (_, index) => {
        const fill = filled >= index + 1 ? 'full' : filled > index ? 'half' : 'empty';
        return (
          <svg key={index} viewBox="0 0 20 20" width="20" height="20" aria-hidden="true" className={styles[fill]}>
            <path d="M10 1.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L10 14.9l-5.2 2.7 1-5.8L1.5 7.7l5.9-.9z" />
          </svg>
        );
      })}
    </span>
  );
}
