import React, {forwardRef, type InputHTMLAttributes} from 'react';
import clsx from 'clsx';
import controls from '../../../css/controls.module.css';
import styles from './styles.module.css';

export interface AuthFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className'> {
  id: string;
  label: string;
  /** What is wrong with the value, read out by screen readers with the field; null when nothing. */
  error: string | null;
}

/** A labelled field of the sign-in cards, with its error under it. */
const AuthField = forwardRef<HTMLInputElement, AuthFieldProps>(function AuthField({id, label, error, ...input}, ref) {
  const errorId = `${id}-error`;
  return (
    <>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      <input
        ref={ref}
        id={id}
        className={clsx(controls.input, styles.input)}
        aria-invalid={error !== null}
        aria-describedby={error ? errorId : undefined}
        {...input}
      />
      {error && (
        <p id={errorId} className={styles.error} role="alert">
          {error}
        </p>
      )}
    </>
  );
});

export default AuthField;
