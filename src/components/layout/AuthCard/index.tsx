import React, {type ReactNode} from 'react';
import styles from './styles.module.css';

/** The centred card of the sign-in screens. */
export default function AuthCard({title, children}: {title: string; children: ReactNode}) {
  return (
    <div className={styles.card}>
      <h1 className={styles.title}>{title}</h1>
      {children}
    </div>
  );
}

export {styles as authCardStyles};
