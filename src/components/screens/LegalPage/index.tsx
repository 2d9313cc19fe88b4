import React, {type ReactNode} from 'react';
import Link from '@docusaurus/Link';
import MarketingLayout from '../../layout/MarketingLayout';
import styles from './styles.module.css';

export interface LegalPageProps {
  title: string;
  description: string;
  children: ReactNode;
}

export default function LegalPage({title, description, children}: LegalPageProps) {
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
        <div className={styles.body}>{children}</div>
      </article>
    </MarketingLayout>
  );
}
