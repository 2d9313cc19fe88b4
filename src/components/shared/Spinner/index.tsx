import React from 'react';
import styles from './styles.module.css';

export default function Spinner({label = 'Loading'}: {label?: string}) {
  return <span className={styles.spinner} role="progressbar" aria-label={label} />;
}
