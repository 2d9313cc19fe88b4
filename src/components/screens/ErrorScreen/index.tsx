import React from 'react';
import Link from '@docusaurus/Link';
import {useLocation} from '@docusaurus/router';
import {appConfig, isTokenPage} from '../../../config';
import {useSiteSettings} from '../../../lib/SiteSettingsContext';
import {openChat} from '../../../lib/tracking/crisp';
import styles from './styles.module.css';

export interface ErrorScreenProps {
  supportEmail?: string;
}

/**
 * 'Something went wrong', with three ways out: reload, ask for help (the
 * chat when there is one, else an e-mail), or go home. The chat never loads
 * on a page that holds a token, so there it is the e-mail too.
 */
export default function ErrorScreen({supportEmail = appConfig.support.email}: ErrorScreenProps) {
  const {crispWebsiteId} = useSiteSettings();
  const {pathname} = useLocation();
  const chat = Boolean(crispWebsiteId) && !isTokenPage(pathname);
  return (
    <div className={styles.screen} role="alert">
      <svg width="56" height="56" viewBox="0 0 24 24" aria-hidden="true" className={styles.icon}>
        <path
          d="M12 3 2 20h20zm0 5v6m0 2.5v1"
          stroke="currentColor"
          strokeWidth="1.8"
          fill="none"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <h1 className={styles.title}>Something went wrong</h1>
      <p className={styles.text}>Reload the page, or tell us what happened and we will fix it.</p>
      <div className={styles.actions}>
        <button type="button" className={styles.primary} onClick={() => window.location.reload()}>
          Refresh
        </button>
        {chat ? (
          <button type="button" className={styles.secondary} onClick={openChat}>
            Support
          </button>
        ) : (
          supportEmail && (
            <a
              className={styles.secondary}
              href={`mailto:${supportEmail}?subject=${encodeURIComponent(`${appConfig.appName}: something went wrong`)}`}>
              Support
            </a>
          )
        )}
        <Link className={styles.secondary} to="/">
          Home
        </Link>
      </div>
    </div>
  );
}
