import React from 'react';
import type {LocalService} from '../../../buildTime/siteSettings';
import styles from './styles.module.css';

const WHAT: Record<LocalService, string> = {
  'sign-in': 'sign-in uses the Firebase Auth emulator (links are printed in the terminal)',
  payments: 'payments go to a local checkout page, no card is charged',
  github: 'GitHub invitations are recorded in the terminal',
  email: 'e-mails are printed in the terminal',
};

/**
 * Says plainly, on every page, which services `npm start` is standing in for, so nobody mistakes
 * a local purchase for a real one.
 */
export default function LocalModeBanner({services}: {services: readonly LocalService[]}) {
  if (services.length === 0) return null;
  return (
    <aside className={styles.banner} aria-label="Local mode">
      <strong>Local mode:</strong> {services.map((service) => WHAT[service]).join('; ')}.
    </aside>
  );
}
