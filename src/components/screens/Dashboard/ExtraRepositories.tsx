import React from 'react';
import {appConfig} from '../../../config';
import type {ExtraRepositoryAccess} from '../../../config/api';
import {grantWords} from '../../../config/grantWords';
import Spinner from '../../shared/Spinner';
import styles from './styles.module.css';
import controls from '../../../css/controls.module.css';
import {followLink, useDownload} from './useDownload';
import {resendLabel, useResend} from './useResend';

const described = appConfig.extraRepositories as Record<string, {name: string; holds: string}>;

/** One extra repository's state, in the words every repository's grant has (src/config/grantWords.ts). */
function wordsOf(entry: ExtraRepositoryAccess, name: string): string {
  const {title, text} = grantWords(entry, {repository: name, seat: false});
  return `${title}. ${text}`;
}

/** Whether the repository's code can be downloaded now: the plan grants it and the seller set it up. */
const downloadable = (entry: ExtraRepositoryAccess) =>
  appConfig.repository.downloads && entry.status !== 'not_configured' && entry.status !== 'revoked';

/**
 * The repository's code as a .zip, at once, as the kit's (DownloadCode): no need to wait for the
 * invitation, which GitHub's daily limit may hold back.
 */
function DownloadExtra({
  entry,
  name,
  follow,
}: {
  entry: ExtraRepositoryAccess;
  name: string;
  follow: (url: string) => void;
}) {
  const {busy, started, error, download} = useDownload(follow, entry.key);
  return (
    <>
      <button
        type="button"
        className={controls.secondary}
        onClick={() => void download()}
        disabled={busy}
        aria-busy={busy}>
        {busy && <Spinner label={`Preparing your download of ${name}`} />}
        Download {name} (.zip)
      </button>
      {started && (
        <span className={styles.muted} role="status">
          {' '}
          Your download of {name}, {started}, has started.
        </span>
      )}
      {error && (
        <span className={styles.error} role="alert">
          {' '}
          {error}
        </span>
      )}
    </>
  );
}

/**
 * The private repositories the buyer's plan grants besides the kit, each with its own state: the
 * worker invites the kit's GitHub account to each (worker/src/access/grants/reconcile.ts), and each can
 * be downloaded at once (access/download.ts) when downloads are on.
 */
export default function ExtraRepositories({
  entries,
  onChanged,
  follow = followLink,
}: {
  entries: ExtraRepositoryAccess[];
  onChanged: () => void;
  follow?: (url: string) => void;
}) {
  const {resending, resend} = useResend(onChanged);
  if (entries.length === 0) return null;

  return (
    <section aria-label="More repositories in your plan">
      <h3 className={styles.statusTitle}>More repositories in your plan</h3>
      <ul>
        {entries.map((entry) => {
          const about = described[entry.key];
          const name = about?.name ?? entry.key;
          const busy = resending === entry.key;
          return (
            <li key={entry.key} data-status={entry.status}>
              <strong>{about?.name ?? entry.key}</strong>
              {about && <> ({about.holds})</>}: {wordsOf(entry, name)}{' '}
              {entry.status === 'active' && entry.repositoryUrl && (
                <a className={styles.link} href={entry.repositoryUrl} target="_blank" rel="noopener noreferrer">
                  Open {name}
                </a>
              )}
              {entry.status === 'pending' && entry.expired && (
                <button
                  type="button"
                  className={controls.secondary}
                  onClick={() => void resend(entry.key, name)}
                  disabled={busy}
                  aria-busy={busy}>
                  {busy && <Spinner label="Resending" />}
                  {resendLabel(name)}
                </button>
              )}{' '}
              {downloadable(entry) && <DownloadExtra entry={entry} name={name} follow={follow} />}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
