import React, {useState} from 'react';
import {repositoryUrl} from '../../config';
import type {AccessStatus} from '../../lib/api';
import {useApiClient} from '../../lib/useApiClient';
import {useSnackbar} from '../Snackbar';
import {ACCESS_MESSAGES} from './RequestAccess';
import Spinner from '../Spinner';
import styles from './styles.module.css';
import controls from '../../css/controls.module.css';

function describe(access: AccessStatus): {title: string; text: string} | null {
  const who = access.username ? `@${access.username}` : 'your GitHub account';
  switch (access.status) {
    case 'queued':
      return {title: 'Invitation queued', text: `GitHub is busy. The invitation for ${who} goes out as soon as it answers; nothing to do.`};
    case 'pending':
      return access.expired
        ? {title: 'Invitation expired', text: `GitHub invitations last seven days, and the one for ${who} has run out. Send a new one.`}
        : {
            title: 'Invitation pending',
            text: `An invitation for ${who} is waiting. Accept it from GitHub's e-mail or at github.com/notifications.`,
          };
    case 'active':
      return {title: 'Access active', text: `${who} can read the repository.`};
    case 'revoked':
      return {title: 'Access revoked', text: 'This purchase was refunded or disputed, so repository access was removed.'};
    case 'failed':
      return {title: 'Invitation failed', text: `${access.detail ?? 'GitHub refused the invitation.'} Try another username or contact support.`};
    default:
      return null;
  }
}

/** What the worker says about the buyer's access, with a resend when an invitation expired. */
export default function AccessStatusPanel({access, onChanged}: {access: AccessStatus; onChanged: () => void}) {
  const api = useApiClient();
  const snackbar = useSnackbar();
  const [resending, setResending] = useState(false);
  const shown = describe(access);
  if (!shown) return null;

  async function resend() {
    setResending(true);
    try {
      await api.resendInvitation();
      snackbar.show(ACCESS_MESSAGES.sent);
      onChanged();
    } catch (error) {
      console.error('Resending the invitation failed:', error);
      snackbar.show(error instanceof Error ? `Error: ${error.message}` : 'Error resending the invitation.');
    } finally {
      setResending(false);
    }
  }

  return (
    <section className={styles.status} data-status={access.status} aria-label="Repository access">
      <h2 className={styles.statusTitle}>{shown.title}</h2>
      <p>{shown.text}</p>
      {access.status === 'active' && (
        <a className={styles.link} href={repositoryUrl} target="_blank" rel="noopener noreferrer">
          Open the repository
        </a>
      )}
      {access.status === 'pending' && access.expired && (
        <button type="button" className={controls.secondary} onClick={resend} disabled={resending} aria-busy={resending}>
          {resending && <Spinner label="Resending" />}
          Resend invitation
        </button>
      )}
    </section>
  );
}
