import React, {useState, type ReactNode} from 'react';
import {afterPurchase, appConfig} from '../../../config';
import type {AccessStatus} from '../../../config/api';
import {useApiClient} from '../../../lib/useApiClient';
import {useSnackbar} from '../../shared/Snackbar';
import {ACCESS_MESSAGES} from './RequestAccess';
import ExtraRepositories from './ExtraRepositories';
import {expected, inLine} from './queueWords';
import Spinner from '../../shared/Spinner';
import styles from './styles.module.css';
import controls from '../../../css/controls.module.css';

type ShownStatus = Exclude<AccessStatus['status'], 'removal_failed'>;

/**
 * A removal GitHub has not carried out yet is still a removal to the buyer: the worker retries it,
 * and the access is not theirs to use.
 */
function shownStatus(status: AccessStatus['status']): ShownStatus {
  return status === 'removal_failed' ? 'revoked' : status;
}

function describe(access: AccessStatus, status: ShownStatus): {title: string; text: string} | null {
  const who = access.username ? `@${access.username}` : 'your GitHub account';
  switch (status) {
    case 'queued':
      return access.queue
        ? {
            title: `Invitation queued: ${inLine(access.queue)}`,
            text: `GitHub lets a repository send only so many invitations a day, and today's are used up. The invitation for ${who} is expected ${expected(access.queue.expectedAt)}; we e-mail you when it goes out. Nothing to do.`,
          }
        : {
            title: 'Invitation queued',
            text: `GitHub is busy. The invitation for ${who} goes out as soon as it answers; nothing to do.`,
          };
    case 'pending':
      return access.expired
        ? {
            title: 'Invitation expired',
            text: `GitHub invitations last seven days, and the one for ${who} has run out. Send a new one.`,
          }
        : {
            title: 'Invitation pending',
            text: `An invitation for ${who} is waiting. Accept it from GitHub's e-mail or at github.com/notifications.`,
          };
    case 'active':
      return {title: 'Access active', text: `${who} can read the repository.`};
    case 'revoked':
      return {
        title: 'Access revoked',
        text: access.revokedBySeller
          ? afterPurchase.revokedBySeller
          : 'This purchase was refunded or disputed, so repository access was removed.',
      };
    case 'failed':
      return {
        title: 'Invitation failed',
        text: `${access.detail ?? 'GitHub refused the invitation.'} Try another username or contact support.`,
      };
    default:
      return null;
  }
}

/** How many more times the purchase may move its access to another GitHub account. */
function changesLeft(left: number): ReactNode {
  if (left <= 0) {
    const {email: supportEmail} = appConfig.support;
    return (
      <>
        This purchase cannot change its GitHub account again; write to{' '}
        <a href={`mailto:${supportEmail}`}>{supportEmail}</a>.
      </>
    );
  }
  return `You can change the GitHub account ${left === 1 ? 'once more' : `${left} more times`}.`;
}

/** What the worker says about the buyer's access, with a resend when an invitation expired. */
export default function AccessStatusPanel({access, onChanged}: {access: AccessStatus; onChanged: () => void}) {
  const api = useApiClient();
  const snackbar = useSnackbar();
  const [resending, setResending] = useState(false);
  const status = shownStatus(access.status);
  const shown = describe(access, status);
  if (!shown) return null;
  // A purchase whose access was taken away has no account left to change.
  const left = access.username && status !== 'revoked' ? access.usernameChangesLeft : undefined;

  async function resend() {
    setResending(true);
    try {
      const {status: now} = await api.resendInvitation();
      // GitHub is asked first: an invitation accepted meanwhile needs no new one, and none was sent.
      snackbar.show(
        now === 'active'
          ? 'You had accepted the invitation already: you have access, and nothing new was sent.'
          : now === 'queued'
            ? `${ACCESS_MESSAGES.sent} It is queued: the access panel says when it goes out.`
            : ACCESS_MESSAGES.sent,
      );
      onChanged();
    } catch (error) {
      console.error('Resending the invitation failed:', error);
      snackbar.show(error instanceof Error ? `Error: ${error.message}` : 'Error resending the invitation.');
    } finally {
      setResending(false);
    }
  }

  return (
    <section className={styles.status} data-status={status} aria-label="Repository access">
      <h2 className={styles.statusTitle}>{shown.title}</h2>
      <p>{shown.text}</p>
      {typeof left === 'number' && <p>{changesLeft(left)}</p>}
      {status === 'active' && access.repositoryUrl && (
        <a className={styles.link} href={access.repositoryUrl} target="_blank" rel="noopener noreferrer">
          Open the repository
        </a>
      )}
      {status === 'pending' && access.expired && (
        <button
          type="button"
          className={controls.secondary}
          onClick={resend}
          disabled={resending}
          aria-busy={resending}>
          {resending && <Spinner label="Resending" />}
          Resend invitation
        </button>
      )}
      {status !== 'revoked' && <ExtraRepositories entries={access.extraRepositories ?? []} onChanged={onChanged} />}
    </section>
  );
}
