import React from 'react';
import Spinner from '../../shared/Spinner';
import {followLink, useDownload} from './useDownload';
import controls from '../../../css/controls.module.css';
import styles from './styles.module.css';

/**
 * The code as a .zip, at once, whatever GitHub's invitation allows today: the worker makes a
 * one-time link and the browser follows it, so the archive streams to disk without passing
 * through this page. The link is asked for on each click, never kept.
 */
export default function DownloadCode({
  follow = followLink,
  latestTag = null,
}: {
  follow?: (url: string) => void;
  /** The release the download serves now, as the worker says (BuyerReleases.latestTag); null: none yet. */
  latestTag?: string | null;
}) {
  const {busy, started, error, download} = useDownload(follow);

  return (
    <div className={styles.download}>
      {/* What the plan includes, updates or not, is said above it (codeIncludes). */}
      <p className={styles.muted}>No need to wait for GitHub: download the code now.</p>
      <button type="button" className={controls.secondary} onClick={download} disabled={busy} aria-busy={busy}>
        {busy && <Spinner label="Preparing your download" />}
        Download the code (.zip)
      </button>
      {latestTag && (
        <p className={styles.muted}>
          The .zip holds the latest release, <strong>{latestTag}</strong>.
        </p>
      )}
      {started && (
        <p className={styles.muted} role="status">
          Your download of {started} has started.
        </p>
      )}
      {error && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
