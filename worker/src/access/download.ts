import {Hono} from 'hono';
import {ROUTES} from '../../../src/config/links';
import {TEAM_REMOVED_REASON, TEAM_WORDS} from '../../../src/config/teams';
import {API_PATHS, type DownloadLink} from '../../../src/config/api';
import type {AppEnv} from '../app';
import {currentUser, requireUser} from '../auth/middleware';
import {HttpError} from '../errors';
import {log} from '../log';
import {contextOf, type Context} from '../context';
import {readJson} from '../http';
import {accessSeatOf, refOf} from './accessSeat';
import {downloadLinkBody} from '../../../src/config/apiSchemas';
import {enforceLimit, limits} from '../rateLimit';
import {settingsOf} from '../settings';
import {newSecretToken, tokenHash} from '../secretToken';
import {archiveName, DOWNLOAD_LINK_TTL_MS, refuseWhenOff} from './downloadRules';
import {latestStoredTag} from '../releases/latest';
import {GitHubFailure, repositoryFor} from './github';
import {revokedBySeller} from './grants/sellerRevocation';
import {entitlementOf} from './grants/entitlement';

/**
 * Downloads of the code, for a paid buyer, at once: whatever GitHub's invitation cap allows
 * today, the archive does not wait. The dashboard asks for a link (signed in); the browser
 * follows it (a navigation, which carries no token of its own). So the link itself is the
 * credential, and it is kept narrow: random, stored only as its hash, the buyer's alone,
 * a few minutes long, good for one download, and the purchase is checked again when it is used.
 *
 * The same holds for each extra repository the plan grants (src/config `extraRepositories`, mapped
 * to GitHub by GITHUB_EXTRA_REPOS): a link names its key, and the plan the purchase gives now (an
 * upgrade refunded since takes it away) must grant that key when the link is made and when it is used.
 */

interface LinkRow {
  session_id: string;
  /** The seat it was made for, and on a team's seat the member (migration 0038): a member's link stops with their seat. */
  seat: number;
  member_id: number | null;
  user_id: string;
  ref: string;
  expires_at: number;
  used_at: number | null;
  /** An extra repository's key; null for the kit. */
  repository_key: string | null;
}

/**
 * The GitHub repository an extra key's download comes from, for a purchase entitled to it
 * (entitlement.ts): 403 when its plan does not grant it now, 503 when the seller set no repository
 * for it (fail closed).
 */
function extraRepositoryFor(settings: Context['settings'], repositories: string[], key: string): string {
  if (!repositories.includes(key)) {
    throw new HttpError(403, 'Your plan does not include this repository.', 'NOT_IN_PLAN');
  }
  const repository = settings.extraRepos[key];
  if (!repository) {
    log.error('download.extra_not_configured', {key});
    throw new HttpError(
      503,
      'This repository cannot be downloaded yet: the seller has not set it up. Please write to support.',
      'NOT_CONFIGURED',
    );
  }
  return repository;
}

/**
 * GitHub did not give the archive. Not the buyer's doing either way: 503, with what to do. A
 * failure that retrying cannot fix (the repository is gone, the token may not read it) is the
 * seller's to fix, so it is logged as an error.
 */
function archiveUnavailable(err: unknown, fields: Record<string, string>): unknown {
  if (!(err instanceof GitHubFailure)) return err;
  if (err.transient) {
    log.warn('download.github_unavailable', {...fields, status: err.status});
    return new HttpError(
      503,
      'GitHub is not answering right now. Please try again in a few minutes.',
      'GITHUB_UNAVAILABLE',
      {'Retry-After': '60'},
    );
  }
  log.error('download.github_refused', {...fields, status: err.status});
  return new HttpError(
    503,
    'The code cannot be downloaded right now. Please try again later, or write to support.',
    'MISCONFIGURED',
  );
}

async function settle(db: D1Database, hash: string, outcome: 'served' | 'refused' | 'failed', detail: string | null) {
  await db
    .prepare('UPDATE download_links SET outcome = ?2, detail = ?3 WHERE token_hash = ?1')
    .bind(hash, outcome, detail)
    .run();
}

export const downloadRoutes = new Hono<AppEnv>()
  /**
   * A one-time link to the code, for the purchase whose access the dashboard shows (accessPurchaseOf):
   * refused exactly when the dashboard says the seller revoked it.
   */
  .post(API_PATHS.downloadLink, requireUser, async (c) => {
    refuseWhenOff();
    const user = currentUser(c);
    await enforceLimit(c.env.DB, `download:${user.uid}`, limits.downloadLink);
    const {repository: key} = await readJson(c, downloadLinkBody);
    const at = await accessSeatOf(c.env.DB, user);
    const notPaid = () => new HttpError(402, 'No paid purchase was found for this account', 'NOT_PAID');
    if (!at) throw notPaid();
    const {purchase} = at;
    // The seller's revocation ends downloads too, for a purchase that never asked for an invitation as
    // well. Chosen among those in force, this one is revoked only when every one of the buyer's is.
    const memberId = at.member?.id ?? null;
    const {standing, repositories} = await entitlementOf(c.env.DB, refOf(at), memberId);
    if (standing === 'revoked_by_seller') throw revokedBySeller();
    // Refunded or disputed since it was read, or the member's seat ended since.
    if (standing !== 'entitled') throw notPaid();
    const context = contextOf(c.env);
    const extra = key === undefined ? null : extraRepositoryFor(context.settings, repositories, key);
    let target: {ref: string; release: boolean};
    try {
      if (extra) {
        // The releases the worker records are the kit's: an extra repository's latest is GitHub's.
        target = await repositoryFor(context, extra).downloadRef();
      } else {
        // The newest release GitHub announced, the one the dashboard marks latest; before any was
        // announced, GitHub's latest release or the default branch.
        const stored = await latestStoredTag(c.env.DB);
        target = stored ? {ref: stored, release: true} : await repositoryFor(context).downloadRef();
      }
    } catch (err) {
      throw archiveUnavailable(err, {sessionId: purchase.session_id});
    }
    const token = newSecretToken();
    const now = Date.now();
    const expiresAt = now + DOWNLOAD_LINK_TTL_MS;
    await c.env.DB.prepare(
      `INSERT INTO download_links (token_hash, session_id, user_id, ref, created_at, expires_at, repository_key, seat, member_id)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)`,
    )
      .bind(
        await tokenHash(token),
        purchase.session_id,
        user.uid,
        target.ref,
        now,
        expiresAt,
        key ?? null,
        at.seat,
        memberId,
      )
      .run();
    return c.json({path: `${API_PATHS.download}/${token}`, ...target, expiresAt} satisfies DownloadLink);
  })

  /**
   * The archive, streamed from GitHub. Refused (with a message the browser shows as the page):
   * an unknown, expired or used link, downloads turned off, and a purchase no longer paid
   * (refunded or disputed since the link was made).
   */
  .get(`${API_PATHS.download}/:token`, async (c) => {
    try {
      return await serveDownload(c.env, c.req.param('token'));
    } catch (err) {
      // A browser that followed the link shows the answer as the page: plain words and the way
      // back, not JSON. Callers that ask for JSON get the usual error body.
      const navigation =
        c.req.header('sec-fetch-mode') === 'navigate' || (c.req.header('accept') ?? '').includes('text/html');
      if (!(err instanceof HttpError) || !navigation) throw err;
      for (const [name, value] of Object.entries(err.headers)) c.header(name, value);
      const dashboard = new URL(ROUTES.dashboard, settingsOf(c.env).siteOrigin).toString();
      return c.text(`${err.message}\n\nYour dashboard: ${dashboard}\n`, err.status);
    }
  });

/** Spends the link and streams the archive, or throws the HttpError that says why not. */
async function serveDownload(env: AppEnv['Bindings'], token: string): Promise<Response> {
  refuseWhenOff();
  const hash = await tokenHash(token);
  const now = Date.now();
  // Marks the link used in the same statement that finds it: two clicks race for one download.
  const link = await env.DB.prepare(
    `UPDATE download_links SET used_at = ?2 WHERE token_hash = ?1 AND used_at IS NULL AND expires_at > ?2
     RETURNING session_id, seat, member_id, user_id, ref, expires_at, used_at, repository_key`,
  )
    .bind(hash, now)
    .first<LinkRow>();
  if (!link) {
    const known = await env.DB.prepare('SELECT used_at, expires_at FROM download_links WHERE token_hash = ?1')
      .bind(hash)
      .first<Pick<LinkRow, 'used_at' | 'expires_at'>>();
    if (!known)
      throw new HttpError(404, 'This download link is not valid. Get a new one from your dashboard.', 'NOT_FOUND');
    if (known.used_at !== null)
      throw new HttpError(410, 'This download link was already used. Get a new one from your dashboard.', 'LINK_USED');
    throw new HttpError(410, 'This download link has expired. Get a new one from your dashboard.', 'LINK_EXPIRED');
  }
  // Checked again now: a refund, a dispute or the seller's revocation since the link was made ends it.
  const {standing, repositories} = await entitlementOf(
    env.DB,
    {session_id: link.session_id, seat: link.seat},
    link.member_id,
  );
  if (standing === 'not_paid') {
    await settle(env.DB, hash, 'refused', 'the purchase is no longer paid');
    log.warn('download_refused', {sessionId: link.session_id, userId: link.user_id, reason: 'not_paid'});
    throw new HttpError(
      403,
      'This purchase no longer gives access to the code (it was refunded or disputed).',
      'NOT_PAID',
    );
  }
  if (standing === 'revoked_by_seller') {
    // Revoked in the console after the link was made.
    await settle(env.DB, hash, 'refused', 'the seller revoked the access');
    log.warn('download_refused', {sessionId: link.session_id, userId: link.user_id, reason: 'revoked_by_seller'});
    throw revokedBySeller();
  }
  if (standing === 'seat_ended') {
    // The team's owner removed the member after the link was made.
    await settle(env.DB, hash, 'refused', TEAM_REMOVED_REASON);
    log.warn('download_refused', {sessionId: link.session_id, userId: link.user_id, reason: 'seat_ended'});
    throw new HttpError(403, TEAM_WORDS.seatEnded, 'NOT_PAID');
  }
  const context = contextOf(env);
  let repositoryName = context.settings.GITHUB_REPO ?? 'code';
  if (link.repository_key !== null) {
    try {
      repositoryName = extraRepositoryFor(context.settings, repositories, link.repository_key);
    } catch (err) {
      const notInPlan = err instanceof HttpError && err.status === 403;
      await settle(
        env.DB,
        hash,
        'refused',
        notInPlan
          ? `the plan does not grant ${link.repository_key} now`
          : `no repository is set for ${link.repository_key}`,
      );
      if (notInPlan)
        log.warn('download_refused', {
          sessionId: link.session_id,
          userId: link.user_id,
          reason: 'not_in_plan',
          key: link.repository_key,
        });
      throw err;
    }
  }
  let archive: Response;
  let ref = link.ref;
  try {
    const repository = link.repository_key === null ? repositoryFor(context) : repositoryFor(context, repositoryName);
    try {
      archive = await repository.zipball(ref);
    } catch (err) {
      // The tag is gone from GitHub (deleted or renamed after it was announced): the code as GitHub
      // gives it now, its latest release or the default branch, rather than no download for anyone.
      if (!(err instanceof GitHubFailure && err.status === 404)) throw err;
      const now = await repository.downloadRef();
      if (now.ref === ref) throw err;
      log.warn('download.ref_gone', {sessionId: link.session_id, ref, instead: now.ref});
      ref = now.ref;
      archive = await repository.zipball(ref);
    }
  } catch (err) {
    // GitHub's status only: a failed fetch's message may quote codeload's URL, and its token.
    await settle(
      env.DB,
      hash,
      'failed',
      err instanceof GitHubFailure ? `GitHub answered ${err.status || 'nothing'}` : 'failed',
    );
    // The link is spent, and the buyer asks for another once GitHub answers.
    throw archiveUnavailable(err, {sessionId: link.session_id, ref});
  }
  await settle(env.DB, hash, 'served', ref === link.ref ? null : `${link.ref} is gone from GitHub: served ${ref}`);
  log.info('download_served', {sessionId: link.session_id, userId: link.user_id, ref});
  const headers = new Headers({
    'Content-Type': 'application/zip',
    'Content-Disposition': `attachment; filename="${archiveName(repositoryName, ref)}"`,
    'Cache-Control': 'no-store',
  });
  // The archive's own length, when its bytes pass through as they came (not decoded on the way).
  const length = archive.headers.get('content-length');
  if (length && !archive.headers.get('content-encoding')) headers.set('Content-Length', length);
  return new Response(archive.body, {status: 200, headers});
}
