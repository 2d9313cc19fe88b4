import React, {useState} from 'react';
import {appConfig} from '../../../config';
import type {ExtraRepositoryAccess} from '../../../config/api';
import {useApiClient} from '../../../lib/useApiClient';
import {useSnackbar} from '../../shared/Snackbar';
import Spinner from '../../shared/Spinner';
import styles from './styles.module.css';
import controls from '../../../css/controls.module.css';
import {followLink, useDownload} from './useDownload';
import {expected, inLine} from './queueWords';

const described = appConfig.extraRepositories as Record<string, {name: string; holds: string}>;

/** What the buyer reads of one extra repository's state: short, and what to do if anything. */
function stateOf(entry: ExtraRepositoryAccess): string {
  const who = entry.username ? `@${entry.username}` : 'your GitHub account';
  switch (entry.status) {
    case 'none':
      return 'Invited with the same GitHub account once the kit’s invitation goes out.';
    case 'not_configured':
      return 'Not available yet: the seller has not set up this repository. Contact support.';
    case 'queued':
      return entry.queue
        ? `Invitation queued, ${inLine(entry.queue)}: GitHub’s daily limit of invitations to this repository is reached. The invitation for ${who} is expected ${expected(entry.queue.expectedAt)}. Nothing to do.`
        : `Invitation queued for ${who}; it goes out within a few minutes.`;
    case 'pending':
      return entry.expired
        ? `Invitation expired: GitHub invitations last seven days, and the one for ${who} has run out. Send a new one.`
        : `Invited: accept the invitation for ${who} on GitHub (its e-mail, or github.com/notifications).`;
    case 'active':
      return `Active: ${who} can read it.`;
    case 'revoked':
      return 'Access removed.';
    case 'removal_failed':
      // Taken back, but GitHub did not let the worker remove it: the account may still be there.
      return 'Access taken back.';
    case 'failed':
      return `Not granted: ${entry.detail ?? 'GitHub refused the invitation.'} Contact support.`;
  }
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
  const api = useApiClient();
  const snackbar = useSnackbar();
  const [resending, setResending] = useState<string | null>(null);
  if (entries.length === 0) return null;

  async function resend(entry: ExtraRepositoryAccess, name: string) {
    setResending(entry.key);
    try {
      const {status} = await api.resendExtraInvitation(entry.key);
      snackbar.show(
        status === 'active'
          ? `You had accepted the invitation to ${name} already: you have access, and nothing new was sent.`
          : status === 'queued'
            ? `A new invitation to ${name} is queued; it goes out as soon as GitHub allows.`
            : `A new invitation to ${name} is on its way.`,
      );
      onChanged();
    } catch (error) {
      snackbar.show(error instanceof Error ? `Error: ${error.message}` : `Error resending the invitation to ${name}.`);
      onChanged();
    } finally {
      setResending(null);
    }
  }

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
              {about && <> ({about.holds})</>}: {stateOf(entry)}{' '}
              {entry.status === 'active' && entry.repositoryUrl && (
                <a className={styles.link} href={entry.repositoryUrl} target="_blank" rel="noopener noreferrer">
                  Open {name}
                </a>
              )}
              {entry.status === 'pending' && entry.expired && (
                <button
                  type="button"
                  className={controls.secondary}
                  onClick={() => void resend(entry, name)}
                  disabled={busy}
                  aria-busy={busy}>
                  {busy && <Spinner label="Resending" />}
                  Resend the invitation to {name}
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
