import {useState} from 'react';
import {ApiError} from '../../../lib/api';
import {useApiClient} from '../../../lib/useApiClient';

/**
 * A download of the code as a .zip: the worker makes a one-time link on each click (never kept)
 * and the browser follows it, so the archive streams to disk without passing through the page.
 * `repository`: an extra repository's key (src/config `extraRepositories`); none for the kit.
 */
export function useDownload(follow: (url: string) => void, repository?: string) {
  const api = useApiClient();
  const [busy, setBusy] = useState(false);
  const [started, setStarted] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function download() {
    setBusy(true);
    setError(null);
    try {
      const link = await api.downloadLink(repository);
      follow(link.url);
      setStarted(link.release ? `release ${link.ref}` : `the ${link.ref} branch`);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'The download could not start. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  return {busy, started, error, download};
}

/** Where the browser goes for a download: the link itself, which answers with the .zip. */
export const followLink = (url: string) => window.location.assign(url);
