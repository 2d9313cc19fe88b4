import React, {type ReactNode} from 'react';
import clsx from 'clsx';
import controls from '../../../css/controls.module.css';
import styles from './styles.module.css';

export interface FieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'search';
  maxLength?: number;
  /** The button that acts on it, beside it. */
  children: ReactNode;
}

/** A labelled field for what the seller types as it is written (an e-mail, a username, an id). */
export default function Field({id, label, value, onChange, type = 'text', maxLength, children}: FieldProps) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <div className={styles.row}>
        <input
          id={id}
          type={type}
          className={clsx(controls.input, styles.grow)}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          autoCapitalize="none"
          spellCheck={false}
          maxLength={maxLength}
        />
        {children}
      </div>
    </>
  );
}
