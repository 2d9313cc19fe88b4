import React, {useCallback, useState} from 'react';
import Link from '@docusaurus/Link';
import {
  REPOSITORY_DIFFERENCE_KINDS,
  type RepositoryAudit as Audit,
  type RepositoryDifference,
  type RepositoryDifferenceKind,
  type RepositoryFixAllResult,
} from '../../../config/api';
import {appConfig} from '../../../config';
import type {AdminApi} from '../../../lib/adminApi';
import {useAdminApi} from '../../../lib/useAdminApi';
import {adminHref} from './adminUrl';
import Confirm from './Confirm';
import InvitationWindow from './InvitationWindow';
import {DataTable} from './DataTable';
import {when} from './format';
import {ActionResult, useAction} from './useAction';
import {ShowLoaded, useAdminData} from './useAdminData';
import controls from '../../../css/controls.module.css';
import styles from './styles.module.css';
import layout from './repositoryAudit.module.css';

/** Rows a group shows before "Show all": three groups of five fit on a screen. */
const FIRST_ROWS = 5;

interface KindCopy {
  title: string;
  /** The summary's line: "3 paid, but not on the repository". */
  short: string;
  explanation: string;
  /** The verb of the fix, for one account and for many: "Invite", "Remove". */
  verb: string;
  question: (difference: RepositoryDifference, repository: string) => string;
  /** What fixing `count` of `total` does, said before Confirm. */
  all: (count: number, total: number, repository: string) => string;
  /** The sentence once `verb`ed: "Invited 3 accounts." */
  done: (count: number) => string;
}

const accounts = (count: number) => `${count} ${count === 1 ? 'account' : 'accounts'}`;

const WHERE: Record<RepositoryDifference['on'], string> = {
  collaborator: 'Collaborator',
  invitation: 'Invited',
  nowhere: 'Not on the repository',
};

/** What happens to the ones past the limit, said before and after. */
const later = (kind: RepositoryDifferenceKind, left: number) =>
  kind === 'paid_missing'
    ? `The other ${left} stay listed: invite them with the same button once this is done. Invitations past GitHub's daily cap wait in the queue.`
    : `The other ${left} stay listed: remove them with the same button once this is done.`;

const KINDS: Record<RepositoryDifferenceKind, KindCopy> = {
  unpaid_on_repository: {
    title: 'On the repository without a paid purchase',
    short: 'on the repository without a paid purchase',
    explanation: 'Invited by hand, or a removal that failed.',
    verb: 'Remove',
    question: ({login}, repository) =>
      `@${login} is removed from ${repository}: the invitation withdrawn or the collaborator removed.`,
    all: (count, total, repository) =>
      `${count === total ? `All ${accounts(count)}` : `The first ${count} of these ${total} accounts`} listed here lose ${repository}: their invitations are withdrawn and the collaborators removed. Nobody with a paid purchase is removed.`,
    done: (count) => `Removed ${accounts(count)} from the repository.`,
  },
  paid_missing: {
    title: 'Paid, but not on the repository',
    short: 'paid, but not on the repository',
    explanation: 'A paid purchase whose account is neither a collaborator nor invited.',
    verb: 'Invite',
    question: ({login}, repository) => `A new invitation to ${repository} goes to @${login} for their paid purchase.`,
    all: (count, total, repository) =>
      `${count === total ? `All ${accounts(count)}` : `The first ${count} of these ${total} accounts`} listed here get a new invitation to ${repository} for their paid purchase.`,
    done: (count) => `Invited ${accounts(count)} to the repository.`,
  },
  revoked_present: {
    title: 'Revoked, but still on the repository',
    short: 'revoked, but still on the repository',
    explanation: 'Access was taken away (a refund, a dispute or an admin), and the account is still there.',
    verb: 'Remove',
    question: ({login}, repository) => `@${login} is removed from ${repository}.`,
    all: (count, total, repository) =>
      `${count === total ? `All ${accounts(count)}` : `The first ${count} of these ${total} accounts`} listed here are removed from ${repository}: their invitations withdrawn and the collaborators removed.`,
    done: (count) => `Removed ${accounts(count)} from the repository.`,
  },
};

/** The worker's answer to a fix-all, as the seller reads it: what was done, what failed and why, what is left. */
function fixAllText(result: RepositoryFixAllResult): string {
  const copy = KINDS[result.kind];
  const failed = result.failed.length
    ? ` ${accounts(result.failed.length)} could not be done: ${result.failed.map(({login, reason}) => `@${login} (${reason})`).join('; ')}`
    : '';
  return [copy.done(result.done), failed && `${failed.trim()}.`, result.left > 0 ? later(result.kind, result.left) : '']
    .filter(Boolean)
    .join(' ');
}

/**
 * The repository's collaborators and invitations against the paid purchases: a summary first, then
 * the differences by kind, a few rows each, with a fix for each account and one for all of a kind.
 */
export default function RepositoryAudit() {
  const api = useAdminApi();
  // The kit's repository (undefined), or an extra one's key: each has its own audit.
  const [key, setKey] = useState<string | undefined>(undefined);
  const loaded = useAdminData(useCallback((admin: AdminApi) => admin.repositoryAudit(key), [key]));
  const {busy, outcome, run} = useAction();
  const repository = key === undefined ? {} : {repository: key};

  return (
    <section className={styles.panel} aria-labelledby="repository-heading">
      <h2 id="repository-heading">Repository audit</h2>
      <ShowLoaded loaded={loaded} label="Checking the repository">
        {(checked) => {
          const groups = REPOSITORY_DIFFERENCE_KINDS.map((kind) => ({
            kind,
            found: checked.differences.filter((entry) => entry.kind === kind),
          })).filter(({found}) => found.length > 0);
          return (
            <>
              <RepositoryChoice audit={checked} chosen={key} onChoose={setKey} />
              <Summary audit={checked} groups={groups} onCheck={loaded.reload} checking={loaded.loading} />
              <ActionResult outcome={outcome} />
              {groups.map(({kind, found}) => (
                <DifferenceGroup
                  key={kind}
                  kind={kind}
                  found={found}
                  repository={checked.repository}
                  limit={checked.fixAllLimits[kind]}
                  busy={busy}
                  onFix={(difference) =>
                    void run(
                      () => api.repositoryFix({kind, githubUserId: difference.githubUserId, ...repository}),
                      `${KINDS[kind].verb} @${difference.login}: done.`,
                      loaded.reload,
                    )
                  }
                  onFixAll={() => void run(() => api.repositoryFixAll(kind, key), fixAllText, loaded.reload)}
                />
              ))}
              <p className={styles.muted}>
                Not compared: the repository’s owner and the accounts you exempted (the <code>GITHUB_EXEMPT</code>{' '}
                setting): {checked.exempt.length ? checked.exempt.map((login) => `@${login}`).join(', ') : 'nobody'}.
              </p>
            </>
          );
        }}
      </ShowLoaded>
    </section>
  );
}

const extraNames = appConfig.extraRepositories as Record<string, {name: string}>;

/**
 * Which repository is audited: the kit's, or one of the plan's extra repositories the worker has
 * (GITHUB_EXTRA_REPOS). Shown only when there is more than the kit.
 */
function RepositoryChoice({
  audit: checked,
  chosen,
  onChoose,
}: {
  audit: Audit;
  chosen: string | undefined;
  onChoose: (key: string | undefined) => void;
}) {
  if (checked.extraRepositories.length === 0) return null;
  const choices = [
    {key: undefined, label: `${appConfig.appName} (the kit)`},
    ...checked.extraRepositories.map(({key}) => ({key, label: extraNames[key]?.name ?? key})),
  ];
  return (
    <div role="group" aria-label="Repository to audit" className={styles.actions}>
      {choices.map((choice) => (
        <button
          key={choice.key ?? 'kit'}
          type="button"
          className={controls.secondary}
          aria-pressed={chosen === choice.key}
          onClick={() => onChoose(choice.key)}>
          {choice.label}
        </button>
      ))}
    </div>
  );
}

interface Group {
  kind: RepositoryDifferenceKind;
  found: RepositoryDifference[];
}

/** What was compared, and what needs action, with when it was checked. */
function Summary({
  audit: checked,
  groups,
  onCheck,
  checking,
}: {
  audit: Audit;
  groups: Group[];
  onCheck: () => void;
  checking: boolean;
}) {
  const {counts} = checked;
  return (
    <div className={layout.summary}>
      <p className={layout.checked}>
        <span>
          <strong>{checked.repository}</strong>, checked {when(checked.checkedAt)}.
        </span>
        <button type="button" className={controls.secondary} onClick={onCheck} disabled={checking}>
          Check again
        </button>
      </p>
      <dl className={styles.figures}>
        <div>
          <dt>Paid buyers with access</dt>
          <dd>{counts.paid}</dd>
        </div>
        <div>
          <dt>Collaborators</dt>
          <dd>{counts.collaborators}</dd>
        </div>
        <div>
          <dt>Invited, not accepted yet</dt>
          <dd>{counts.invited}</dd>
        </div>
        <div className={groups.length > 0 ? styles.notable : undefined}>
          <dt>Differences</dt>
          <dd>{checked.differences.length}</dd>
        </div>
      </dl>
      <InvitationWindow window={checked.invitations} />
      {groups.length === 0 ? (
        <p className={styles.done}>All in order: the repository holds exactly the paid purchases.</p>
      ) : (
        <div>
          <p className={layout.needs}>
            {checked.differences.length === 1 ? '1 difference needs' : `${checked.differences.length} differences need`}{' '}
            your action:
          </p>
          <ul className={layout.kinds}>
            {groups.map(({kind, found}) => (
              <li key={kind}>
                <a href={`#difference-${kind}`}>
                  {found.length} {KINDS[kind].short}
                </a>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

interface DifferenceGroupProps extends Group {
  repository: string;
  /** How many one fix-all fixes: the worker says, from its plan's subrequests. */
  limit: number;
  busy: boolean;
  onFix: (difference: RepositoryDifference) => void;
  onFixAll: () => void;
}

/** One kind of difference: what it means, its fix-all, and its first rows until "Show all". */
function DifferenceGroup({kind, found, repository, limit, busy, onFix, onFixAll}: DifferenceGroupProps) {
  const [expanded, setExpanded] = useState(false);
  const copy = KINDS[kind];
  const count = Math.min(found.length, limit);
  const left = found.length - count;
  const shown = expanded ? found : found.slice(0, FIRST_ROWS);
  const tableId = `differences-${kind}`;
  return (
    <section aria-labelledby={`difference-${kind}`} className={layout.group}>
      <div className={layout.groupTop}>
        <div>
          <h3 id={`difference-${kind}`}>
            {copy.title} ({found.length})
          </h3>
          <p className={styles.muted}>{copy.explanation}</p>
        </div>
        <Confirm
          label={left > 0 ? `${copy.verb} ${count} of ${found.length}` : `${copy.verb} all ${found.length}`}
          danger={kind !== 'paid_missing'}
          question={`${copy.all(count, found.length, repository)}${left > 0 ? ` ${later(kind, left)}` : ''} Each account is written to the admin log.`}
          disabled={busy}
          onConfirm={onFixAll}
        />
      </div>
      <div id={tableId}>
        <DataTable
          caption={`${copy.title}: ${expanded || found.length <= FIRST_ROWS ? 'all' : `the first ${FIRST_ROWS} of ${found.length}`}`}
          columns={[
            {label: 'Account', cell: (difference) => <strong>@{difference.login}</strong>},
            {label: 'On the repository', cell: (difference) => WHERE[difference.on]},
            {
              label: 'Purchase',
              cell: (difference) =>
                difference.sessionId ? (
                  <Link to={adminHref({purchase: difference.sessionId})}>
                    {difference.email ?? 'Open the purchase'}
                  </Link>
                ) : (
                  <span className={styles.muted}>None</span>
                ),
            },
            {
              label: 'Fix',
              cell: (difference) => (
                <Confirm
                  label={`${copy.verb} @${difference.login}`}
                  danger={kind !== 'paid_missing'}
                  question={copy.question(difference, repository)}
                  disabled={busy}
                  onConfirm={() => onFix(difference)}
                />
              ),
            },
          ]}
          rows={shown}
          rowKey={(difference) => difference.githubUserId}
          empty="None."
        />
      </div>
      {found.length > FIRST_ROWS && (
        <button
          type="button"
          className={controls.secondary}
          aria-expanded={expanded}
          aria-controls={tableId}
          onClick={() => setExpanded(!expanded)}>
          {expanded ? `Show the first ${FIRST_ROWS}` : `Show all ${found.length}`}
        </button>
      )}
    </section>
  );
}
