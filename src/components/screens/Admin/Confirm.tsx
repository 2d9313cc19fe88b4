import React, {useEffect, useRef, useState, type ReactNode} from 'react';
import clsx from 'clsx';
import controls from '../../../css/controls.module.css';
import styles from './styles.module.css';

export interface ConfirmProps {
  /** The button that asks first: "Revoke access". */
  label: string;
  /** What will happen, in a sentence: "@octocat loses the repository." */
  question: ReactNode;
  /** Runs only after Confirm. */
  onConfirm: () => void;
  disabled?: boolean;
  /** Takes something away: the button is drawn as a warning. */
  danger?: boolean;
  /** What the question asks for besides a yes (a payment's reference): shown under it, focused first. */
  children?: ReactNode;
  /** Whether Confirm may be pressed yet: false until `children` has what it asks for. */
  canConfirm?: boolean;
}

/**
 * A button whose action runs only once it is confirmed, in the page: the button becomes "Are you
 * sure? … Confirm / Cancel" (focus on Cancel, or on the field the question holds; Escape cancels)
 * and nothing is sent before Confirm.
 */
export default function Confirm({
  label,
  question,
  onConfirm,
  disabled = false,
  danger = false,
  children,
  canConfirm = true,
}: ConfirmProps) {
  const [asking, setAsking] = useState(false);
  const group = useRef<HTMLDivElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);

  useEffect(() => {
    // A field the question holds is what to fill first; else Cancel, the safe answer.
    if (asking) (group.current?.querySelector('input') ?? cancel.current)?.focus();
    else if (returnFocus.current) trigger.current?.focus();
    returnFocus.current = false;
  }, [asking]);

  function close(confirmed: boolean) {
    returnFocus.current = true;
    setAsking(false);
    if (confirmed) onConfirm();
  }

  if (!asking) {
    return (
      <button
        ref={trigger}
        type="button"
        className={clsx(controls.secondary, danger && styles.danger)}
        disabled={disabled}
        onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <div
      ref={group}
      className={styles.confirm}
      role="group"
      aria-label={label}
      onKeyDown={(event) => {
        if (event.key === 'Escape') close(false);
      }}>
      <p>
        <strong>Are you sure?</strong> {question}
      </p>
      {children}
      <div className={styles.actions}>
        <button
          type="button"
          className={clsx(controls.primary, danger && styles.dangerPrimary)}
          disabled={!canConfirm}
          onClick={() => close(true)}>
          Confirm
        </button>
        <button ref={cancel} type="button" className={controls.secondary} onClick={() => close(false)}>
          Cancel
        </button>
      </div>
    </div>
  );
}
