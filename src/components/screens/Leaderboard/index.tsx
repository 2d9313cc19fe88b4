import React from 'react';
import Link from '@docusaurus/Link';
import {appConfig} from '../../../config';
import type {LeaderboardEntry} from '../../../config';
import styles from './styles.module.css';

interface Props {
  entries?: readonly LeaderboardEntry[];
}

/** Products shipped with the kit, fastest first sale first. */
export default function Leaderboard({entries = appConfig.leaderboard}: Props) {
  const ranked = [...entries].sort((a, b) => a.daysToFirstSale - b.daysToFirstSale);
  const {email: supportEmail} = appConfig.support;
  return (
    <article className={styles.board}>
      <h1 className={styles.title}>Shipped with {appConfig.appName}</h1>
      <p className={styles.lead}>
        Makers who built on {appConfig.appName}, ranked by the days from clone to their first sale.
      </p>
      <ol className={styles.list}>
        {ranked.map((entry) => (
          <li key={entry.url} className={styles.entry}>
            <Link to={entry.url} className={styles.name}>
              {entry.name}
            </Link>
            <span className={styles.tagline}>{entry.tagline}</span>
            <span className={styles.days}>
              {entry.daysToFirstSale} {entry.daysToFirstSale === 1 ? 'day' : 'days'} to first sale
            </span>
          </li>
        ))}
      </ol>
      {supportEmail && (
        <p>
          Shipped yours? <a href={`mailto:${supportEmail}?subject=Leaderboard`}>Send us the link</a>.
        </p>
      )}
    </article>
  );
}
