import {appConfig} from '../../../src/config';
import type {RepositoryDifference} from '../../../src/config/api';
import type {Context} from '../context';
import {HttpError} from '../errors';
import {GitHubFailure, INVITATION_LIFETIME_MS} from '../access/github';
import {type Seat, seatPath} from '../access/grants/records';
import {hasFreeSlot} from '../access/grants/invitationQueue';
import {DAY_MS} from '../../../src/config/dates';
import {reportGitHub} from '../access/reportGitHub';
import {RetryableError} from '../jobs';
import {log} from '../log';
import {type AuditDigest, auditDigestMail, digestHasNews, mailOnce} from '../mail';
import {SUBREQUESTS_PER} from '../subrequests';
import {recordAction} from './auth';
import {applyFix, compareRepository, differenceSeat} from './repositoryAudit';

/**
 * The repository audit on a schedule (daily, from the cron that runs every 5 minutes), not only when the seller asks.
 * It invites again a paid buyer who accepted and is missing from the repository (removed by hand),
 * within the invitation cap; an invitation declined or withdrawn is the seller's to send again. It removes nobody: accounts on the repository without a
 * paid grant, and revoked ones still there, are reported to the seller, whose explicit fix in the
 * console removes them. Each re-invitation is written to the Admin log, as the seller's fixes are.
 * The seller gets a digest of what the daily run found and did; with nothing to say, no e-mail.
 */
export const AUDIT_EVERY_MS = DAY_MS;
/** The name of this step's row in `scheduled_runs`. */
export const AUDIT_RUN = 'repository-audit';
/** Who the Admin log names for the schedule's own fixes. */
export const SCHEDULED_AUDITOR = 'scheduled audit';
/** A run claimed holds this long, so that two cron runs alongside do not both audit. */
const LEASE_MS = 10 * 60_000;
/** A run stopped by the cap (or a GitHub that does not answer) looks again this much later. */
const RETRY_MS = 3600_000;

/**
 * Whether the schedule invites this missing buyer again: one who accepted (active) and was taken
 * off the repository. Not a pending one: an invitation GitHub no longer lists was declined by the
 * invitee or withdrawn by hand, and inviting it again every day would invite for ever someone
 * who said no (the digest names it for the seller); one GitHub still lists, expired, is
 * expiryResends.ts's, counted. Not a queued grant (the queue sends it) nor a failed one (the
 * seller's, on Failures).
 */
function reinvitable(grant: GrantState | undefined): boolean {
  return grant?.status === 'active';
}

/**
 * A missing buyer the schedule leaves to the queue or the seller: queued, failed, or pending with an
 * invitation GitHub no longer lists (declined, or withdrawn by hand).
 */
function leftToOthers(grant: GrantState | undefined, listed: Set<number>): boolean {
  if (grant?.status === 'queued' || grant?.status === 'failed') return true;
  return grant?.status === 'pending' && (grant.invitation_id === null || !listed.has(grant.invitation_id));
}

/**
 * Runs the audit when it is due, invites again at most `maxFixes` missing paid buyers, and sends
 * the digest (a run that carries on where the last stopped sends none: the first one told).
 * Answers the digest, or null when the audit was not due or could not run.
 */
export async function runScheduledAudit(context: Context, maxFixes: number): Promise<AuditDigest | null> {
  const {db, settings} = context;
  if (!settings.GITHUB_REPO || !settings.GITHUB_TOKEN) return null;
  // The two listings and the digest at least, or the run waits for a cron run with room.
  if (!context.subrequests.has(3)) return null;
  const run = await claimRun(db);
  if (!run) return null;
  let next = {at: Date.now() + AUDIT_EVERY_MS, continuing: false};
  try {
    const {audit, invitations} = await compareRepository(context);
    const grants = await grantStates(db, audit.differences);
    const listed = new Set(invitations.map((invitation) => invitation.id));
    const missingOf = (status: (grant: GrantState | undefined) => boolean) =>
      audit.differences.filter(
        (entry) => entry.kind === 'paid_missing' && status(grants.get(seatPath(differenceSeat(entry)))),
      );
    const digest: AuditDigest = {
      repository: audit.repository,
      reinvited: [],
      failed: [],
      unpaid: audit.differences
        .filter((entry) => entry.kind === 'unpaid_on_repository')
        .map(({login, on}) => ({login, on})),
      revokedPresent: audit.differences
        .filter((entry) => entry.kind === 'revoked_present')
        .map(({login, email}) => ({login, email})),
      missingLeft: missingOf((grant) => leftToOthers(grant, listed)).map(({login, email}) => ({login, email})),
      expiredForGood: await expiredForGood(db),
      left: 0,
    };
    const missing = missingOf(reinvitable);
    for (const [index, difference] of missing.entries()) {
      const atCap = !(await hasFreeSlot(context, settings.GITHUB_REPO));
      // One subrequest kept for the digest.
      if (index >= maxFixes || atCap || !context.subrequests.has(SUBREQUESTS_PER.invitation + 1)) {
        digest.left = missing.length - index;
        next = {at: Date.now() + (atCap ? RETRY_MS : 0), continuing: true};
        break;
      }
      const done: string[] = [];
      try {
        const {detail} = await applyFix(context, difference, invitations, done, {healing: true});
        digest.reinvited.push({login: difference.login, email: difference.email});
        await recordAction(db, {
          admin: SCHEDULED_AUDITOR,
          action: 'repository_fix',
          outcome: 'done',
          sessionId: difference.sessionId,
          detail,
        });
      } catch (err) {
        const reported = reportGitHub(err);
        const reason = reported instanceof HttpError ? reported.message : 'Something went wrong on our side.';
        digest.failed.push({login: difference.login, reason});
        await recordAction(db, {
          admin: SCHEDULED_AUDITOR,
          action: 'repository_fix',
          outcome: 'failed',
          sessionId: difference.sessionId,
          detail: `paid_missing @${difference.login}: ${reason}`,
        });
      }
    }
    log.info('audit.scheduled', {
      reinvited: digest.reinvited.length,
      failed: digest.failed.length,
      found: audit.differences.length,
      left: digest.left,
    });
    if (!run.continuing && digestHasNews(digest)) await sendDigest(context, digest);
    return digest;
  } catch (err) {
    if (!(err instanceof GitHubFailure || err instanceof RetryableError)) throw err;
    // GitHub could not list the repository: looked at again later, as the run it was.
    log.warn('audit.scheduled_paused', {error: err.message});
    next = {at: Date.now() + RETRY_MS, continuing: run.continuing};
    return null;
  } finally {
    await db
      .prepare('UPDATE scheduled_runs SET next_run_at = ?2, continuing = ?3 WHERE name = ?1')
      .bind(AUDIT_RUN, next.at, next.continuing ? 1 : 0)
      .run();
  }
}

/**
 * Claims the run when it is due, in one conditional UPDATE (two cron runs alongside: one audits).
 * A worker's first cron only starts the schedule: the first audit is a day later (the seller can
 * run one from the console at any time).
 */
async function claimRun(db: D1Database, now = Date.now()): Promise<{continuing: boolean} | null> {
  await db
    .prepare('INSERT INTO scheduled_runs (name, next_run_at) VALUES (?1, ?2) ON CONFLICT (name) DO NOTHING')
    .bind(AUDIT_RUN, now + AUDIT_EVERY_MS)
    .run();
  const row = await db
    .prepare(
      'UPDATE scheduled_runs SET next_run_at = ?2 + ?3 WHERE name = ?1 AND next_run_at <= ?2 RETURNING continuing',
    )
    .bind(AUDIT_RUN, now, LEASE_MS)
    .first<{continuing: number}>();
  return row && {continuing: row.continuing === 1};
}

type GrantState = Pick<Seat, 'session_id' | 'seat' | 'status' | 'invitation_id'>;

/** The kit's grant of each seat the differences name, by `seatPath`. */
async function grantStates(db: D1Database, differences: RepositoryDifference[]): Promise<Map<string, GrantState>> {
  const sessionIds = differences.map((entry) => entry.sessionId).filter((id): id is string => id !== null);
  if (sessionIds.length === 0) return new Map();
  const {results} = await db
    .prepare(
      `SELECT session_id, seat, status, invitation_id FROM grants
       WHERE repository_key = 'kit' AND session_id IN (SELECT value FROM json_each(?1))`,
    )
    .bind(JSON.stringify(sessionIds))
    .all<GrantState>();
  return new Map(results.map((row) => [seatPath(row), row]));
}

/**
 * Invitations the cron stopped sending again (expiryResends.ts; an extra repository's named by
 * `repository`) that expired since the last daily run: each is in one digest, not in every one after.
 */
async function expiredForGood(db: D1Database, now = Date.now()) {
  const {results} = await db
    .prepare(
      `SELECT g.github_username AS login, p.email, g.repository FROM grants g
         JOIN purchases p ON p.session_id = g.session_id
         WHERE g.status = 'pending' AND p.status = 'paid' AND g.expiry_resends >= ?1 AND g.invited_at <= ?2 AND g.invited_at > ?2 - ?3
       ORDER BY g.invited_at LIMIT 50`,
    )
    .bind(appConfig.repository.resendsAfterExpiry, now - INVITATION_LIFETIME_MS, AUDIT_EVERY_MS)
    .all<{login: string; email: string | null; repository: string | null}>();
  return results.map(({login, email, repository}) => ({login, email, ...(repository !== null && {repository})}));
}

/** The digest, through the outbox's mail job (sent now, retried by the cron if Mailgun is busy). */
async function sendDigest(context: Context, digest: AuditDigest) {
  await mailOnce(context, `audit-digest:${new Date().toISOString()}`, auditDigestMail(context.settings, digest));
}
