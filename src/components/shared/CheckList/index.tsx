import React from 'react';
import clsx from 'clsx';
import styles from './styles.module.css';

/** A list of items, each behind a checkmark: what a plan or a feature gives. */
export default function CheckList({items, className}: {items: readonly string[]; className?: string}) {
  return (
    <ul className={clsx(styles.list, className)}>
      {items.map((item) => (
        <li key={item}>
          <svg width="18" height="18" viewBox="0 0 20 20" aria-hidden="true">
            <path
              d="m4.5 10.5 3.5 3.5 7.5-8"
              stroke="currentColor"
              strokeWidth="2.2"
              fill="none"
              strokeLinecap="round"
            />
          </svg>
          {item}
        </li>
      ))}
    </ul>
  );
}
