import React, {type ReactNode} from 'react';
import {appConfig} from '../../../config';
import type {AccessStatus} from '../../../config/api';
import {grantWords} from '../../../config/grantWords';
import ExtraRepositories from './ExtraRepositories';
import {resendLabel, useResend} from './useResend';
import Spinner from '../../shared/Spinner';
import styles from './styles.module.css';
import controls from '../../../css/controls.module.css';

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

/**
 * What the worker says about the buyer's access: the kit's repository's grant, in the words every
 * repository's has (src/config/grantWords.ts), with a resend when its invitation expired; then the
 * plan's other repositories.
 */
export default function AccessStatusPanel({access, onChanged}: {access: AccessStatus; onChanged: () => void}) {
  const {resending, resend} = useResend(onChanged);
  if (access.status === 'none') return null;
  // A removal GitHub has not carried out yet reads as one done: the access is not the buyer's to use.
  const status = access.status === 'removal_failed' ? 'revoked' : access.status;
  const shown = grantWords(access, {
    repository: 'the repository',
    seat: true,
    revokedBySeller: access.revokedBySeller === true,
  });
  // A purchase whose access was taken away has no account left to change.
  const left = access.username && status !== 'revoked' ? access.usernameChangesLeft : undefined;

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
          onClick={() => void resend('kit', null)}
          disabled={resending !== null}
          aria-busy={resending === 'kit'}>
          {resending === 'kit' && <Spinner label="Resending" />}
          {resendLabel(null)}
        </button>
      )}
      {status !== 'revoked' && <ExtraRepositories entries={access.extraRepositories ?? []} onChanged={onChanged} />}
    </section>
  );
}
