import React, {useCallback} from 'react';
import Link from '@docusaurus/Link';
import type {RepositoryDifference, RepositoryDifferenceKind} from '../../../config/api';
import type {AdminApi} from '../../../lib/adminApi';
import {useAdminApi} from '../../../lib/useAdminApi';
import {adminHref} from './adminUrl';
import Confirm from './Confirm';
import {when} from './format';
import {ActionResult, useAction} from './useAction';
import {ShowLoaded, useAdminData} from './useAdminData';
import controls from '../../../css/controls.module.css';
import styles from './styles.module.css';

interface KindCopy {
  title: string;
  explanation: string;
  fix: (login: string) => string;
  question: (difference: RepositoryDifference, repository: string) => string;
}

const WHERE: Record<RepositoryDifference['on'], string> = {
  collaborator: 'collaborator',
  invitation: 'invited',
  nowhere: 'not on the repository',
};

const KINDS: Record<RepositoryDifferenceKind, KindCopy> = {
  unpaid_on_repository: {
    title: 'On the repository without a paid purchase',
    explanation: 'Invited by hand, or a removal that failed.',
    fix: (login) => `Remove @${login}`,
    question: ({login}, repository) => `@${login} is removed from ${repository}: the invitation withdrawn or the collaborator removed.`,
  },
  paid_missing: {
    title: 'Paid, but not on the repository',
    explanation: 'A paid purchase whose account is neither a collaborator nor invited.',
    fix: (login) => `Invite @${login}`,
    question: ({login}, repository) => `A new invitation to ${repository} goes to @${login} for their paid purchase.`,
  },
  revoked_present: {
    title: 'Revoked, but still on the repository',
    explanation: 'Access was taken away (a refund, a dispute or an admin), and the account is still there.',
    fix: (login) => `Remove @${login}`,
    question: ({login}, repository) => `@${login} is removed from ${repository}.`,
  },
};

/** The repository's collaborators and invitations against the paid grants, with a fix for each difference. */
export default function RepositoryAudit() {
  const api = useAdminApi();
  const loaded = useAdminData(useCallback((admin: AdminApi) => admin.repositoryAudit(), []));
  const {busy, outcome, run} = useAction();

  return (
    <section className={styles.panel} aria-labelledby="repository-heading">
      <h2 id="repository-heading">Repository audit</h2>
      <ActionResult outcome={outcome} />
      <ShowLoaded loaded={loaded} label="Checking the repository">
        {(audit) => (
          <>
            <p>
              <strong>{audit.repository}</strong>, checked {when(audit.checkedAt)}.{' '}
              <button type="button" className={controls.secondary} onClick={loaded.reload} disabled={loaded.loading}>
                Check again
              </button>
            </p>
            {audit.differences.length === 0 && <p>No differences: the repository holds exactly the paid purchases.</p>}
            {(Object.keys(KINDS) as RepositoryDifferenceKind[]).map((kind) => {
              const found = audit.differences.filter((difference) => difference.kind === kind);
              if (found.length === 0) return null;
              const copy = KINDS[kind];
              return (
                <section key={kind} aria-labelledby={`difference-${kind}`}>
                  <h3 id={`difference-${kind}`}>
                    {copy.title} ({found.length})
                  </h3>
                  <p className={styles.muted}>{copy.explanation}</p>
                  <ul className={styles.cards}>
                    {found.map((difference) => (
                      <li key={difference.githubUserId}>
                        <strong>@{difference.login}</strong> <span className={styles.muted}>{WHERE[difference.on]}</span>
                        {difference.sessionId && (
                          <>
                            {' · '}
                            <Link to={adminHref({purchase: difference.sessionId})} className={styles.code}>
                              {difference.sessionId}
                            </Link>
                          </>
                        )}
                        <Confirm
                          label={copy.fix(difference.login)}
                          danger={kind !== 'paid_missing'}
                          question={copy.question(difference, audit.repository)}
                          disabled={busy}
                          onConfirm={() =>
                            void run(
                              () => api.repositoryFix({kind, githubUserId: difference.githubUserId}),
                              `${copy.fix(difference.login)}: done.`,
                              loaded.reload,
                            )
                          }
                        />
                      </li>
                    ))}
                  </ul>
                </section>
              );
            })}
            <p className={styles.muted}>
              Left out of the comparison (the owner and <code>GITHUB_EXEMPT</code>):{' '}
              {audit.exempt.length ? audit.exempt.map((login) => `@${login}`).join(', ') : 'nobody'}.
            </p>
          </>
        )}
      </ShowLoaded>
    </section>
  );
}
