import React, {useState} from 'react';
import {ApiError} from '../../../lib/api';
import {useApiClient} from '../../../lib/useApiClient';
import Spinner from '../../shared/Spinner';
import controls from '../../../css/controls.module.css';
import styles from './styles.module.css';

/**
 * The code as a .zip, at once, whatever GitHub's invitation allows today: the worker makes a
 * one-time link and the browser follows it, so the archive streams to disk without passing
 * through this page. The link is asked for on each click, never kept.
 */
export default function DownloadCode({
  follow = (url: string) => window.location.assign(url),
  latestTag = null,
}: {
  follow?: (url: string) => void;
  /** The release the download serves now, as the worker says (BuyerReleases.latestTag); null: none yet. */
  latestTag?: string | null;
}) {
  const api = useApiClient();
  const [busy, setBusy] = useState(false);
  const [started, setStarted] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function download() {
    setBusy(true);
    setError(null);
    try {
      const link = await api.downloadLink();
      follow(link.url);
      setStarted(link.release ? `release ${link.ref}` : `the ${link.ref} branch`);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'The download could not start. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className={styles.download}>
      <p className={styles.muted}>No need to wait for GitHub: download the code now, and get updates through the repository.</p>
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
