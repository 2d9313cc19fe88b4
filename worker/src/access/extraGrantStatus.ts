import {extraRepositoryKeys, findStoredPlan} from '../../../src/config';
import type {ExtraRepositoryAccess} from '../../../src/config/api';
import type {Context} from '../context';
import {log} from '../log';
import {type Invitation, repositoryFor} from './github';
import {repositoryPage} from './repositoryPage';
import {claim} from './claims';
import {GRANT_DETAIL, type ExtraGrant, extraGrantsOf, extraInvitationExpired, markActive} from './extraGrantRecords';

/** A pending invitation is read on GitHub at most this often for the dashboard and the console. */
const CHECK_EVERY_MS = 60_000;

/**
 * A pending grant as GitHub sees it, for the dashboard and the console: once the invitation is no
 * longer open and the account is a collaborator, it is active. GitHub is asked at most once a
 * minute per grant, by the one request that claims the read; a failed read shows the record.
 */
export async function observeExtraGrant(context: Context, row: ExtraGrant): Promise<ExtraGrant> {
  const {db} = context;
  if (row.status !== 'pending' || row.repository === null || row.github_user_id === null) return row;
  if (!(await claim(db, row, 'checked_at', {status: 'pending'}, Date.now(), CHECK_EVERY_MS))) return row;
  try {
    return (await activeIfAccepted(context, row)) ?? row;
  } catch (err) {
    log.warn('access.status_unread', {
      sessionId: row.session_id,
      key: row.repository_key,
      error: err instanceof Error ? err.message : String(err),
    });
    return row;
  }
}

/**
 * Records a pending grant, of any repository (the row's own, else `repositoryName`: the kit's row
 * names none), active when GitHub says its invitation was accepted: gone from the repository's
 * invitations (`listed`, when the caller has just read them) and the account, by its id, a
 * collaborator. Answers the active grant, or null when it is still pending. Throws GitHubFailure
 * when GitHub cannot answer.
 */
export async function activeIfAccepted<G extends ExtraGrant>(
  context: Context,
  row: G,
  listed?: readonly Invitation[],
  repositoryName = row.repository!,
): Promise<G | null> {
  const repository = repositoryFor(context, repositoryName);
  if ((listed ?? (await repository.invitations())).some((invitation) => invitation.id === row.invitation_id))
    return null;
  const login = await repository.loginOf(row.github_user_id!);
  if (!login || !(await repository.isCollaborator(login))) return null;
  return markActive(context.db, row, login);
}

/**
 * What the dashboard shows of a paid purchase's extra repositories: one entry per key its plan
 * (now) grants, in the plan's order, with the grant's state as GitHub last said.
 */
export async function extraAccessOf(
  context: Context,
  purchase: {session_id: string; plan: string | null},
): Promise<ExtraRepositoryAccess[]> {
  const keys = extraRepositoryKeys(findStoredPlan(purchase.plan));
  if (keys.length === 0) return [];
  const rows = new Map((await extraGrantsOf(context.db, purchase.session_id)).map((row) => [row.repository_key, row]));
  const entries: ExtraRepositoryAccess[] = [];
  for (const key of keys) {
    const repository = context.settings.extraRepos[key];
    const recorded = rows.get(key);
    // A grant for another repository than the one set now is on its way out: not this key's state.
    const row =
      recorded && (recorded.repository === null || recorded.repository === repository)
        ? await observeExtraGrant(context, recorded)
        : undefined;
    if (!repository) {
      entries.push({key, status: 'not_configured', detail: GRANT_DETAIL.notConfigured(key)});
      continue;
    }
    const named = {key, repository, repositoryUrl: repositoryPage(context.settings, repository)};
    if (!row || row.status === 'revoked' || (row.status === 'failed' && row.repository === null)) {
      entries.push({...named, status: 'none'});
      continue;
    }
    entries.push({
      ...named,
      status: row.status,
      ...(row.github_username && {username: row.github_username}),
      ...(row.detail && {detail: row.detail}),
      ...(row.status === 'queued' && row.waiting_at !== null && {waitsForCap: true}),
      // The buyer may then ask for a new one (extraRenew.ts), as for the kit's.
      ...(extraInvitationExpired(row) && {expired: true}),
    });
  }
  return entries;
}
