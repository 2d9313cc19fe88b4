import React, {type ReactNode} from 'react';
import clsx from 'clsx';
import styles from './styles.module.css';

export interface BetterIconProps {
  /** The icon to frame, such as a Lucide icon. */
  children: ReactNode;
  /** Says what the icon means; without it the frame is decorative and hidden from screen readers. */
  label?: string;
  className?: string;
}

/** A small rounded square in the brand's tint that frames an icon, for feature lists. */
export default function BetterIcon({children, label, className}: BetterIconProps) {
  return (
    <span
      className={clsx(styles.icon, className)}
      {...(label ? {role: 'img', 'aria-label': label} : {'aria-hidden': true})}>
      {children}
    </span>
  );
}
