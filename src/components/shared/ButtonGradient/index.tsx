import React, {type MouseEvent, type ReactNode} from 'react';
import Link from '@docusaurus/Link';
import clsx from 'clsx';
import styles from './styles.module.css';

export interface ButtonGradientProps {
  /** The call to action; start it with a verb (§5). */
  children: ReactNode;
  /** A path or URL: renders a link there instead of a button. */
  to?: string;
  onClick?: (event: MouseEvent<HTMLElement>) => void;
  /** The button's type, when it is a button. */
  type?: 'button' | 'submit';
  /** Only for a button; a link cannot be disabled. */
  disabled?: boolean;
  className?: string;
}

/**
 * A call-to-action button on a slowly moving gradient (still when the visitor
 * asks for reduced motion). A <button>, or a link when given `to`.
 */
export default function ButtonGradient({
  children,
  to,
  onClick,
  type = 'button',
  disabled,
  className,
}: ButtonGradientProps) {
  const classes = clsx(styles.button, className);
  if (to !== undefined) {
    return (
      <Link to={to} className={classes} onClick={onClick}>
        {children}
      </Link>
    );
  }
  return (
    <button type={type} className={classes} onClick={onClick} disabled={disabled}>
      {children}
    </button>
  );
}
