import {appConfig, extraRepositoryKeys, findStoredPlan} from '../../../../src/config';
import type {AdminGrant, ExtraRepositoryAccess, GrantShown as ShownInContract} from '../../../../src/config/api';
import type {Context} from '../../context';
import {log} from '../../log';
import {claim} from './claims';
import {reconcileSoon} from './reconcileSoon';
import {type Invitation, type Repository, repositoryFor} from '../github';
import {
  grantsOf,
  GRANT_DETAIL,
  type Grant,
  type GrantStatus,
  invitationLapsed,
  markActive,
  OWNER_SEAT,
  type Seat,
} from './records';
import {grantKey, placeInQueue} from './invitationQueue';
import {removalUnderWay} from './removal';
import {repositoryOf} from './repositoryKind';
import {repositoryPage} from '../repositoryPage';

/**
 * What GitHub says of a grant, of any repository (the kit's and a plan's extras, one read): a
 * pending invitation accepted, still open or expired, and the account's login of today. Then what
 * the dashboard and the console read of a purchase's grants: the seat's record, GitHub's word, and
 * a queued invitation's place in line; each extra repository's entry.
 */

/** Polling the dashboard must not spend the token's quota: GitHub is read once a minute per grant. */
export const CHECK_EVERY_MS = 60_000;

/** A GitHub read that failed is tried again after this, not at the next poll. */
export const RETRY_FAILED_READ_MS = 15_000;

/**
 * An accepted grant's login is read again at most this often: GitHub lets an account change its
 * login at any time, and the grant follows the numeric id, so the dashboard and the console
 * catch up with a rename within the hour.
 */
export const LOGIN_CHECK_EVERY_MS = 3600_000;

/** A grant's row as the status read uses it, of any repository. */
export type ObservedRow = Pick<
  Grant,
  | 'id'
  | 'session_id'
  | 'seat'
  | 'repository_key'
  | 'repository'
  | 'status'
  | 'github_username'
  | 'github_user_id'
  | 'invitation_id'
  | 'version'
  | 'checked_at'
  | 'invitation_expired'
>;

/**
 * Records the account's login of today when it is not the stored one (only while the grant is
 * still the one read: `version`, and the same account: an extra's row keeps its version when its
 * reconcile points it at another), and answers the login to show. A null login (GitHub did not
 * say) leaves the stored one.
 */
async function renamed<G extends ObservedRow>(db: D1Database, row: G, login: string | null): Promise<G> {
  if (login === null || login === row.github_username) return row;
  await db
    .prepare(
      `UPDATE grants SET github_username = ?3
       WHERE id = ?1 AND version = ?2 AND github_user_id IS ?4`,
    )
    .bind(row.id, row.version, login, row.github_user_id)
    .run();
  log.info('access.login_renamed', {
    sessionId: row.session_id,
    key: row.repository_key,
    githubUserId: row.github_user_id,
    from: row.github_username,
    to: login,
  });
  return {...row, github_username: login};
}

/** Records what GitHub said of a pending invitation that is still the grant's (`version` and the invitation read). */
async function recordExpired(db: D1Database, row: ObservedRow, expired: boolean, now: number) {
  await db
    .prepare(
      `UPDATE grants SET checked_at = ?3, invitation_expired = ?4
       WHERE id = ?1 AND version = ?2 AND status = 'pending' AND invitation_id IS ?5`,
    )
    .bind(row.id, row.version, now, expired ? 1 : 0, row.invitation_id)
    .run();
}

/**
 * The grant's account's login today, by its numeric id (a grant from before numeric ids: the
 * stored login). Null when GitHub no longer knows the id: an account gone accepted nothing, and
 * its old login may be someone else's now, so it is never asked about.
 */
const loginToday = (repository: Repository, row: ObservedRow) =>
  row.github_user_id === null ? Promise.resolve(row.github_username) : repository.loginOf(row.github_user_id);

/**
 * Records a pending grant active when GitHub says its invitation was accepted: gone from the
 * repository's invitations (`listed`, when the caller has just read them) and the account, by its
 * id, a collaborator (a grant from before numeric ids: by its login). Answers the active grant, as
 * a new version with the login of today, or null when it is still pending. Throws GitHubFailure
 * when GitHub cannot answer.
 */
export async function activeIfAccepted<G extends ObservedRow>(
  context: Context,
  row: G,
  listed?: readonly Invitation[],
  repositoryName = repositoryOf(context, row)!,
): Promise<G | null> {
  const repository = repositoryFor(context, repositoryName);
  if ((listed ?? (await repository.invitations())).some((invitation) => invitation.id === row.invitation_id))
    return null;
  return (await activeIfCollaborator(context.db, repository, row)).active;
}

/**
 * The account's login of today and, when it is a collaborator, the grant recorded active by it
 * (`notOurs`: not by the worker's invitation, see markActive). Throws GitHubFailure when GitHub
 * cannot answer.
 */
async function activeIfCollaborator<G extends ObservedRow>(
  db: D1Database,
  repository: Repository,
  row: G,
  {notOurs = false} = {},
): Promise<{login: string | null; active: G | null}> {
  const login = await loginToday(repository, row);
  const active = login && (await repository.isCollaborator(login)) ? await markActive(db, row, login, {notOurs}) : null;
  return {login, active};
}

/**
 * A pending invitation as GitHub lists it, the login of today recorded either way: open; gone
 * and the account a collaborator (accepted); still listed, expired, and the account a collaborator
 * all the same (the seller added it by hand: active, not the worker's to remove); or else expired
 * (or declined), for the buyer to ask for a new one.
 */
async function readPending<G extends ObservedRow>(context: Context, row: G, repository: Repository, now: number) {
  const {db} = context;
  const invitation = (await repository.invitations()).find((candidate) => candidate.id === row.invitation_id);
  if (invitation && !invitation.expired) {
    await recordExpired(db, row, false, now);
    return renamed(db, {...row, invitation_expired: 0}, invitation.inviteeLogin);
  }
  const {login, active} = await activeIfCollaborator(db, repository, row, {notOurs: invitation !== undefined});
  if (active) {
    // The kit's seat is the account every other repository follows: they may be sent now.
    if (row.repository_key === 'kit') await reconcileSoon(context, row, `active:${row.version}`);
    return active;
  }
  await recordExpired(db, row, true, now);
  return renamed(db, {...row, invitation_expired: 1}, login);
}

/**
 * A grant of any repository as GitHub sees it, answered as its row: an accepted invitation
 * becomes `active`, a pending one records whether it expired, and the login follows a rename.
 * GitHub is asked at most once a minute per pending grant and once an hour per active one
 * (`fresh` asks now), by the one request whose conditional UPDATE claims the read in D1; requests
 * alongside it, and those within the minute, get the stored row. If GitHub cannot answer, the
 * stored row is answered and GitHub is asked again after RETRY_FAILED_READ_MS.
 */
export async function observeGrant<G extends ObservedRow>(context: Context, row: G, {fresh = false} = {}): Promise<G> {
  const {db} = context;
  const repositoryName = repositoryOf(context, row);
  const everyMs = row.status === 'pending' ? CHECK_EVERY_MS : LOGIN_CHECK_EVERY_MS;
  if (
    repositoryName === null ||
    !(row.status === 'pending' || (row.status === 'active' && row.github_user_id !== null))
  )
    return row;
  const now = Date.now();
  if (!fresh && row.checked_at !== null && now - row.checked_at < everyMs) return row;
  // Another request is asking GitHub, or just did.
  if (!(await claim(db, row, 'checked_at', {status: row.status}, now, fresh ? 0 : everyMs))) return row;
  try {
    const repository = repositoryFor(context, repositoryName);
    if (row.status === 'pending') return await readPending(context, row, repository, now);
    return await renamed(db, row, await loginToday(repository, row));
  } catch (err) {
    log.warn('access.status_unread', {
      sessionId: row.session_id,
      key: row.repository_key,
      error: err instanceof Error ? err.message : String(err),
    });
    // The claim holds for RETRY_FAILED_READ_MS instead of the minute (or the hour).
    await db
      .prepare('UPDATE grants SET checked_at = ?3 WHERE id = ?1 AND checked_at = ?2')
      .bind(row.id, now, now - everyMs + RETRY_FAILED_READ_MS)
      .run();
    return row;
  }
}

/**
 * What every repository's grant shows alike, on the dashboard and the console (the contract's
 * `grantShown`): its account, why it is as it is, whether its invitation expired, and a queued
 * invitation's place in its repository's line. A grant shown always says whether it expired.
 */
type GrantShown = ShownInContract & {expired: boolean};

/** A grant of any repository as it is shown, once GitHub was read (`observeGrant`). */
async function shownGrant(context: Context, seen: Grant): Promise<GrantShown> {
  const repository = repositoryOf(context, seen);
  const queue = seen.status === 'queued' && repository ? await placeInQueue(context, repository, grantKey(seen)) : null;
  return {
    ...(repository && {repository, repositoryUrl: repositoryPage(context.settings, repository)}),
    ...(seen.github_username !== null && {username: seen.github_username}),
    ...(seen.detail !== null && {detail: seen.detail}),
    expired: invitationLapsed(seen),
    ...(queue && {queue}),
  };
}

export interface ObservedGrant extends GrantShown {
  status: GrantStatus;
  /** The seat always names its account. */
  username: string;
  usernameChanges: number;
  usernameChangesLeft: number;
  /** A revoked grant whose removal from GitHub is still being tried (removal.ts `removalUnderWay`). */
  removing?: boolean;
}

/** The purchase's seat (its kit grant) as the dashboard and the console show it, GitHub read as `observeGrant` does. */
export async function observeSeat(context: Context, grant: Seat, {fresh = false} = {}): Promise<ObservedGrant> {
  const seen = await observeGrant(context, grant, {fresh});
  const shown: ObservedGrant = {
    status: seen.status,
    ...(await shownGrant(context, seen)),
    username: seen.github_username,
    usernameChanges: seen.username_changes,
    usernameChangesLeft: Math.max(0, appConfig.repository.maxUsernameChanges - seen.username_changes),
  };
  if (seen.status === 'revoked' && (await removalUnderWay(context.db, seen))) return {...shown, removing: true};
  return shown;
}

/**
 * Every grant of the purchase as the console shows it, the seat's first: each read from GitHub and
 * shown as the dashboard shows it (`observeGrant`, `shownGrant`).
 */
export async function shownGrantsOf(context: Context, sessionId: string): Promise<AdminGrant[]> {
  // GitHub is read for every repository at once: the page waits for the slowest, not the sum.
  return Promise.all(
    (await grantsOf(context.db, sessionId)).map(async (row): Promise<AdminGrant> => {
      const seen = await observeGrant(context, row);
      return {
        key: seen.repository_key,
        status: seen.status,
        updatedAt: seen.updated_at,
        ...(await shownGrant(context, seen)),
      };
    }),
  );
}

/**
 * Asks GitHub now whether the purchase's pending invitations were accepted: an accepted one becomes
 * active (and marks the purchase delivered, migration 0033's trigger). For a decision that turns
 * on delivery, which the once-a-minute reads could leave a minute behind.
 */
export async function observeAcceptances(context: Context, sessionId: string): Promise<void> {
  // Every seat's: an acceptance on any of them delivers the purchase.
  const {results: pending} = await context.db
    .prepare(`SELECT * FROM grants WHERE session_id = ?1 AND status = 'pending'`)
    .bind(sessionId)
    .all<Grant>();
  await Promise.all(pending.map((row) => observeGrant(context, row, {fresh: true})));
}

/**
 * What the dashboard shows of a paid purchase's extra repositories: one entry per key its plan
 * (now) grants, in the plan's order, with the grant's state as GitHub last said.
 */
export async function extraAccessOf(
  context: Context,
  purchase: {session_id: string; plan: string | null},
  seat: number = OWNER_SEAT,
): Promise<ExtraRepositoryAccess[]> {
  const keys = extraRepositoryKeys(findStoredPlan(purchase.plan));
  if (keys.length === 0) return [];
  const rows = new Map(
    (await grantsOf(context.db, {session_id: purchase.session_id, seat})).map((row) => [row.repository_key, row]),
  );
  const entries: ExtraRepositoryAccess[] = [];
  for (const key of keys) {
    const repository = context.settings.extraRepos[key];
    const recorded = rows.get(key);
    // A grant for another repository than the one set now is on its way out: not this key's state.
    const row =
      recorded && (recorded.repository === null || recorded.repository === repository)
        ? await observeGrant(context, recorded)
        : undefined;
    if (!repository) {
      entries.push({key, status: 'not_configured', detail: GRANT_DETAIL.notConfigured(key)});
      continue;
    }
    const named = {key, repository, repositoryUrl: repositoryPage(context.settings, repository)};
    if (
      !row ||
      row.status === 'revoked' ||
      row.status === 'removal_failed' ||
      (row.status === 'failed' && row.repository === null)
    ) {
      entries.push({...named, status: 'none'});
      continue;
    }
    // An expired invitation: the buyer may ask for a new one (renew.ts), as for the kit's.
    entries.push({...named, status: row.status, ...(await shownGrant(context, row))});
  }
  return entries;
}
