import React, {type ReactNode} from 'react';
import Link from '@docusaurus/Link';
import MarketingLayout from '../../layout/MarketingLayout';
import styles from './styles.module.css';

export interface LegalPageProps {
  title: string;
  description: string;
  /** The day the text last changed, YYYY-MM-DD: its entry in src/config's `legal`. */
  lastUpdated: string;
  children: ReactNode;
}

/** "November 27, 2026": in UTC, so the prerendered page and the browser write the same day. */
const day = new Intl.DateTimeFormat('en-US', {month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC'});

export default function LegalPage({title, description, lastUpdated, children}: LegalPageProps) {
  return (
    <MarketingLayout title={title} description={description}>
      <article className={styles.article}>
        <Link to="/" className={styles.back}>
          <svg width="16" height="16" viewBox="0 0 20 20" aria-hidden="true">
            <path d="M12.5 4.5 7 10l5.5 5.5" stroke="currentColor" strokeWidth="2" fill="none" strokeLinecap="round" />
          </svg>
          Back
        </Link>
        <h1 className={styles.title}>{title}</h1>
        <div className={styles.body}>
          <p>
            <strong>
              Last updated: <time dateTime={lastUpdated}>{day.format(new Date(`${lastUpdated}T00:00:00Z`))}</time>
            </strong>
          </p>
          {children}
        </div>
      </article>
    </MarketingLayout>
  );
}
