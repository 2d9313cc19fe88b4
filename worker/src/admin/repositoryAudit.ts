import {
  REPOSITORY_FIX_ALL_LIMITS,
  type RepositoryAudit,
  type RepositoryDifference,
  type RepositoryDifferenceKind,
  type RepositoryFixAllResult,
  type RepositoryFixRequest,
} from '../../../src/config/api';
import {SEAT_HELD} from '../access/grants/entitlement';
import {reconcileSoon} from '../access/grants/reconcileSoon';
import {type Context, OWNER_SEAT, type Seat, type SeatRef, readGrant} from '../access/grants/records';
import {invitationWindow} from '../access/grants/invitationQueue';
import {holderOf} from '../access/grants/holders';
import {resendInvitation} from '../access/grants/seat';
import {type Repository, repositoryFor} from '../access/github';
import {reportGitHub} from '../access/reportGitHub';
import {HttpError} from '../errors';
import {SUBREQUESTS_PER} from '../subrequests';

/**
 * The repository as GitHub has it, against the paid grants: who is there without paying (added by
 * hand, or a removal that failed), which paid grants are missing, and which revoked ones are still
 * there. The repository's owner and GITHUB_EXEMPT are left out. Each difference has a fix.
 *
 * The same for each extra repository a plan grants (GITHUB_EXTRA_REPOS, access/grants/reconcile.ts),
 * against its own rows of grants: its audit is asked for by its key.
 */
interface GrantRow extends Pick<Seat, 'session_id' | 'seat' | 'github_username' | 'github_user_id' | 'status'> {
  purchase_status: string;
  email: string | null;
  /** 1 while the grant's seat is held by the one it is for (a team's member not removed). */
  seat_held: number;
}

export type Invitations = Awaited<ReturnType<Repository['invitations']>>;

/** The repository an audit is of: the kit's (`key` null), or an extra one by its key. */
export interface AuditTarget {
  key: string | null;
  name: string;
}

/** The kit's repository, or the extra one of `key`: 404 for a key the worker has no repository for. */
export function auditTarget(settings: Context['settings'], key?: string): AuditTarget {
  if (key === undefined) return {key: null, name: settings.GITHUB_REPO!};
  const name = settings.extraRepos[key];
  if (!name) {
    const known = Object.keys(settings.extraRepos);
    throw new HttpError(
      404,
      `There is no extra repository "${key}" (GITHUB_EXTRA_REPOS names ${known.length > 0 ? known.join(', ') : 'none'}).`,
      'NOT_FOUND',
    );
  }
  return {key, name};
}

/** Every grant of the repository, with its purchase: the kit's seats, or an extra repository's grants. */
async function grantsOf(db: D1Database, target: AuditTarget) {
  return db
    .prepare(
      `SELECT g.session_id, g.seat, g.github_user_id, COALESCE(g.github_username, '') AS github_username, g.status, p.status AS purchase_status, p.email,
         ${SEAT_HELD('g')} AS seat_held
       FROM grants g JOIN purchases p ON p.session_id = g.session_id
       WHERE CASE WHEN ?1 IS NULL THEN g.repository_key = 'kit' ELSE g.repository = ?1 END`,
    )
    .bind(target.key === null ? null : target.name)
    .all<GrantRow>();
}

/**
 * The grants a paid purchase still holds its seat by: not only a sent invitation (pending, active)
 * but one queued while GitHub was busy, or one that failed. Leaving those out would list a paying
 * buyer on the repository as "without a paid grant", and the fix would remove them.
 */
const ENTITLED: readonly Seat['status'][] = ['queued', 'pending', 'active', 'failed'];

export async function auditRepository(
  context: Context,
  target: AuditTarget = auditTarget(context.settings),
): Promise<RepositoryAudit> {
  return (await compareRepository(context, target)).audit;
}

/** The audit, and the invitations GitHub listed for it (a fix withdraws from those). */
export async function compareRepository(
  context: Context,
  target: AuditTarget = auditTarget(context.settings),
): Promise<{audit: RepositoryAudit; invitations: Invitations}> {
  const {settings, db} = context;
  const repository = target.key === null ? repositoryFor(context) : repositoryFor(context, target.name);
  const [collaborators, invitations, grants] = await Promise.all([
    repository.collaborators(),
    repository.invitations(),
    grantsOf(db, target),
  ]);
  const exempt = [settings.GITHUB_REPO!.split('/')[0]!.toLowerCase(), ...settings.githubExempt];

  const present = new Map<number, {login: string; on: 'collaborator' | 'invitation'}>();
  for (const user of collaborators) present.set(user.id, {login: user.login, on: 'collaborator'});
  for (const invitation of invitations) {
    if (invitation.expired || invitation.inviteeId === null || present.has(invitation.inviteeId)) continue;
    present.set(invitation.inviteeId, {
      login: invitation.inviteeLogin ?? String(invitation.inviteeId),
      on: 'invitation',
    });
  }
  const presentLogins = new Set([...present.values()].map(({login}) => login.toLowerCase()));

  // A paying buyer's account is known by its id, or only by the login typed while GitHub could
  // not be asked; either match counts, so that a doubt never offers to remove them.
  const entitledById = new Map<number, GrantRow>();
  const entitledLogins = new Set<string>();
  const revoked = new Map<number, GrantRow>();
  let paid = 0;
  for (const grant of grants.results) {
    // A removed member's grant still live is not a paid one: listed as revoked, never re-invited.
    if (grant.purchase_status === 'paid' && grant.seat_held === 1 && ENTITLED.includes(grant.status)) {
      paid += 1;
      entitledLogins.add(grant.github_username.toLowerCase());
      // One account may be named by a live grant and by another purchase's failed one: keep the live.
      const known = grant.github_user_id === null ? undefined : entitledById.get(grant.github_user_id);
      if (grant.github_user_id !== null && (!known || known.status === 'failed'))
        entitledById.set(grant.github_user_id, grant);
    } else if (grant.github_user_id !== null) {
      revoked.set(grant.github_user_id, grant);
    }
  }

  const differences: RepositoryDifference[] = [];
  for (const [githubUserId, {login, on}] of present) {
    if (
      entitledById.has(githubUserId) ||
      entitledLogins.has(login.toLowerCase()) ||
      exempt.includes(login.toLowerCase())
    )
      continue;
    const gone = revoked.get(githubUserId);
    differences.push({
      kind: gone ? 'revoked_present' : 'unpaid_on_repository',
      githubUserId,
      login,
      on,
      sessionId: gone?.session_id ?? null,
      ...(gone && memberSeat(gone.seat)),
      email: gone?.email ?? null,
    });
  }
  // A grant with no GitHub id yet is the outbox's to invite (Failures shows it if that fails).
  for (const [githubUserId, grant] of entitledById) {
    if (present.has(githubUserId) || presentLogins.has(grant.github_username.toLowerCase())) continue;
    differences.push({
      kind: 'paid_missing',
      githubUserId,
      login: grant.github_username,
      on: 'nowhere',
      sessionId: grant.session_id,
      ...memberSeat(grant.seat),
      email: grant.email,
    });
  }
  const counts = {
    paid,
    collaborators: collaborators.length,
    invited: invitations.filter((invitation) => !invitation.expired).length,
  };
  const window = await invitationWindow(context, target.name);
  const fixAllLimits = {
    paid_missing: fixAllLimit(context, 'paid_missing'),
    unpaid_on_repository: fixAllLimit(context, 'unpaid_on_repository'),
    revoked_present: fixAllLimit(context, 'revoked_present'),
  };
  const extraRepositories = Object.entries(settings.extraRepos).map(([key, name]) => ({key, repository: name}));
  return {
    audit: {
      repository: target.name,
      key: target.key,
      extraRepositories,
      checkedAt: Date.now(),
      counts,
      differences,
      exempt,
      invitations: window,
      fixAllLimits,
    },
    invitations,
  };
}

/**
 * How many of a kind a fix-all fixes after the audit's own reads: the kind's limit, or fewer when
 * the invocation's subrequests would run out first (the Free plan's 50 take about a dozen).
 */
function fixAllLimit(context: Context, kind: RepositoryDifferenceKind): number {
  const each = kind === 'paid_missing' ? SUBREQUESTS_PER.invitation : SUBREQUESTS_PER.fix;
  return Math.min(REPOSITORY_FIX_ALL_LIMITS[kind], Math.floor(context.subrequests.left / each));
}

/**
 * The fix of one difference, as it stands now; answers what was done, for the admin log. Each step
 * on GitHub is added to `done` as it happens, so a fix that stops half-way says how far it got.
 */
export async function fixDifference(
  context: Context,
  request: RepositoryFixRequest,
  done: string[] = [],
): Promise<{detail: string; sessionId: string | null}> {
  const target = auditTarget(context.settings, request.repository);
  const {audit, invitations} = await compareRepository(context, target);
  const difference = audit.differences.find(
    (entry) => entry.kind === request.kind && entry.githubUserId === request.githubUserId,
  );
  if (!difference)
    throw new HttpError(
      409,
      'That difference is gone: the repository and the grants agree on this account now.',
      'CONFLICT',
    );
  return applyFix(context, difference, invitations, done, {target});
}

/** One fix-all's account, as the admin log writes it down. */
export interface FixedAccount {
  difference: RepositoryDifference;
  outcome: 'done' | 'failed';
  /** What was done, or why it failed and how far it got. */
  detail: string;
}

/**
 * Fixes every difference of `kind` as the worker finds them now, at most the kind's limit, one
 * account after another: a failure is told to `record` with its reason and the next is tried.
 */
export async function fixAllOfKind(
  context: Context,
  kind: RepositoryDifferenceKind,
  record: (account: FixedAccount) => Promise<unknown>,
  target: AuditTarget = auditTarget(context.settings),
): Promise<RepositoryFixAllResult> {
  const {audit, invitations} = await compareRepository(context, target);
  const found = audit.differences.filter((difference) => difference.kind === kind);
  const limit = fixAllLimit(context, kind);
  const result: RepositoryFixAllResult = {
    kind,
    status: 'fixed',
    detail: '',
    done: 0,
    failed: [],
    left: Math.max(0, found.length - limit),
  };
  for (const difference of found.slice(0, limit)) {
    const done: string[] = [];
    try {
      const {detail} = await applyFix(context, difference, invitations, done, {target});
      result.done += 1;
      await record({difference, outcome: 'done', detail});
    } catch (err) {
      const reported = reportGitHub(err);
      const reason = reported instanceof HttpError ? reported.message : 'Something went wrong on our side.';
      result.failed.push({login: difference.login, githubUserId: difference.githubUserId, reason});
      const progress =
        done.length > 0 ? `Done before it stopped: ${done.join('; ')}.` : 'Nothing was changed on GitHub.';
      await record({difference, outcome: 'failed', detail: `${reason} ${progress}`});
    }
  }
  if (result.failed.length > 0 || result.left > 0) result.status = 'partly_fixed';
  result.detail =
    `${kind}: fixed ${result.done} of ${found.length}` +
    `${result.failed.length > 0 ? `, ${result.failed.length} failed` : ''}${result.left > 0 ? `, ${result.left} left for a later call` : ''}`;
  return result;
}

/** A difference names a member's seat; the buyer's own is the one it names by naming none. */
const memberSeat = (seat: number) => (seat === OWNER_SEAT ? {} : {seat});

/** The seat a difference of a purchase names (the buyer's own when it names none). */
export const differenceSeat = (difference: RepositoryDifference): SeatRef => ({
  session_id: difference.sessionId!,
  seat: difference.seat ?? OWNER_SEAT,
});

export async function applyFix(
  context: Context,
  difference: RepositoryDifference,
  invitations: Invitations,
  done: string[],
  {healing = false, target = auditTarget(context.settings)}: {healing?: boolean; target?: AuditTarget} = {},
): Promise<{detail: string; sessionId: string | null}> {
  if (target.key !== null)
    return applyExtraFix(context, target as AuditTarget & {key: string}, difference, invitations, done);
  if (difference.kind === 'paid_missing') {
    const grant = await readGrant(context.db, differenceSeat(difference));
    if (!grant) throw new HttpError(409, 'The grant changed meanwhile; run the audit again.', 'CONFLICT');
    // The seller's fix chooses the account as the seller; the schedule's leaves the grant's choice
    // as it was (byAdmin would mark the seat the owner's, and the owner's take-back a counted move).
    const result = await resendInvitation(context, grant, grant.user_id, healing ? {healing} : {byAdmin: true});
    // By the login the account has today (resendInvitation looked it up by numeric id).
    const invited = (await readGrant(context.db, grant))?.github_username ?? difference.login;
    return {detail: `invited @${invited} again: ${result.status}`, sessionId: difference.sessionId};
  }
  // On the repository without a paid seat: the seller decided it goes.
  await refuseWhileHeld(context, target, difference);
  await removeAccount(repositoryFor(context), difference, invitations, done, 'the repository');
  await recordRemoved(context.db, target, difference.githubUserId);
  return {detail: `removed @${difference.login} (${difference.on})`, sessionId: difference.sessionId};
}

/**
 * The account is off the repository now, so what the outbox could not do is done: a grant of it
 * left `removal_failed` is revoked, and the removals of this account from it still failed or waiting are
 * closed, so that Failures stops showing a buyer who is gone.
 */
async function recordRemoved(db: D1Database, target: AuditTarget, githubUserId: number) {
  const now = Date.now();
  // The kit's rows name no repository (it is GITHUB_REPO); an extra's names the one it was for,
  // which may be another than its key's now.
  const key = target.key ?? 'kit';
  await db.batch([
    db
      .prepare(
        `UPDATE grants SET status = 'revoked', detail = NULL, updated_at = ?2
         WHERE repository_key = ?3 AND (?3 = 'kit' OR repository = ?4) AND github_user_id = ?1 AND status = 'removal_failed'`,
      )
      .bind(githubUserId, now, key, target.name),
    db
      .prepare(
        `UPDATE jobs SET status = 'done', last_error = NULL, updated_at = ?2
         WHERE kind = 'github-remove' AND status IN ('failed', 'pending') AND json_extract(payload, '$.githubUserId') = ?1
           AND json_extract(payload, '$.repositoryKey') = ?3 AND (?3 = 'kit' OR json_extract(payload, '$.repository') = ?4)`,
      )
      .bind(githubUserId, now, key, target.name),
  ]);
}

/**
 * Takes the account off the repository: its invitations (as listed for the audit, a moment ago:
 * one listing for a whole fix-all) withdrawn, and the collaborator, by the login its numeric id has
 * today, removed. Each step is added to `done` as it happens.
 */
async function removeAccount(
  repository: Repository,
  difference: RepositoryDifference,
  invitations: Invitations,
  done: string[],
  where: string,
) {
  for (const invitation of invitations) {
    if (invitation.inviteeId !== difference.githubUserId) continue;
    await repository.withdrawInvitation(invitation.id);
    done.push(`withdrew invitation ${invitation.id} of @${difference.login}`);
  }
  const login = await repository.loginOf(difference.githubUserId);
  if (login) {
    await repository.removeCollaborator(login);
    done.push(`removed @${login} from ${where}`);
  }
}

/**
 * A fix on an extra repository. A paid grant missing there is queued again (its invitation, if
 * GitHub still lists it expired, withdrawn first) and sent by its reconcile, within that
 * repository's cap. An account there without a live grant is removed, as on the kit's; one a live
 * grant holds is that grant's reconcile's to take back.
 */
async function applyExtraFix(
  context: Context,
  target: AuditTarget & {key: string},
  difference: RepositoryDifference,
  invitations: Invitations,
  done: string[],
): Promise<{detail: string; sessionId: string | null}> {
  const {db} = context;
  const repository = repositoryFor(context, target.name);
  if (difference.kind === 'paid_missing') {
    const sessionId = difference.sessionId!;
    // A difference names a purchase and the seat whose grant it is.
    const grant = await db
      .prepare(
        'SELECT id, invitation_id, status FROM grants WHERE session_id = ?1 AND seat = ?4 AND repository_key = ?2 AND repository = ?3',
      )
      .bind(sessionId, target.key, target.name, differenceSeat(difference).seat)
      .first<{id: number; invitation_id: number | null; status: string}>();
    if (!grant) throw new HttpError(409, 'The grant changed meanwhile; run the audit again.', 'CONFLICT');
    const ours = invitations.find((invitation) => invitation.id === grant.invitation_id);
    if (ours) {
      await repository.withdrawInvitation(ours.id);
      done.push(`withdrew the expired invitation ${ours.id} of @${difference.login}`);
    }
    const now = Date.now();
    // A grant already queued keeps its place: only its reconcile is run again.
    const queued = await db
      .prepare(
        `UPDATE grants SET status = 'queued', invitation_id = NULL, invited_at = NULL, checked_at = NULL, detail = NULL,
           queued_at = CASE WHEN status = 'queued' THEN queued_at ELSE ?3 END, expiry_resends = 0, updated_at = ?3,
           waiting_at = CASE WHEN status = 'queued' THEN waiting_at END
         WHERE id = ?1 AND repository = ?2 AND status IN ('queued', 'pending', 'active', 'failed')
         RETURNING id`,
      )
      .bind(grant.id, target.name, now)
      .first();
    if (!queued) throw new HttpError(409, 'The grant changed meanwhile; run the audit again.', 'CONFLICT');
    await reconcileSoon(context, sessionId, `audit:${target.key}:${now}`);
    const after = await db.prepare('SELECT status FROM grants WHERE id = ?1').bind(grant.id).first<{status: string}>();
    return {detail: `invited @${difference.login} to ${target.name} again: ${after?.status ?? 'queued'}`, sessionId};
  }
  await refuseWhileHeld(context, target, difference);
  await removeAccount(repository, difference, invitations, done, target.name);
  await recordRemoved(db, target, difference.githubUserId);
  return {
    detail: `removed @${difference.login} from ${target.name} (${difference.on})`,
    sessionId: difference.sessionId,
  };
}

/**
 * The seller's fix takes an account off a repository only where no live grant holds it (its
 * purchase refunded a moment ago, before the grant was revoked): that grant's own take-back
 * removes it, and knows which invitation is its.
 */
async function refuseWhileHeld(context: Context, target: AuditTarget, difference: RepositoryDifference) {
  const holder = await holderOf(context, target.name, {githubUserId: difference.githubUserId});
  if (holder) {
    throw new HttpError(
      409,
      `@${difference.login} holds a live grant to ${target.name} of purchase ${holder}: revoke that purchase's access from its page instead.`,
      'CONFLICT',
    );
  }
}
