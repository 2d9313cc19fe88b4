import {HttpError} from '../errors';
import {log} from '../log';
import type {Settings} from '../settings';
import {accountsFor} from './accountsFor';
import type {AuthUser} from './user';

/**
 * The owner's first verified sign-in, and what it ends. Until an account's e-mail is proven, anyone
 * may have made it or held it:
 * - a guest checkout's payer, who typed the e-mail (a session the checkout exchange opened);
 * - someone who registered the address with a password before its owner ever signed in, or who
 *   set one from the payer's session. The provider marks the account verified when the owner signs
 *   in by link or Google, and keeps that password: it would then sign in with a verified e-mail.
 *
 * The first call this worker sees with the account's e-mail verified is that moment (the site's
 * /finish-sign-in makes it right after a link). It happens once per account (`verified_accounts`):
 * - a password that can predate the proof is removed at the provider (Accounts.removeUnprovenPassword);
 *   when the caller's own session may be that password's, every session ends, the caller's too
 *   (401 SESSION_ENDED: sign in again by link or Google);
 * - otherwise the checkout's sessions end and the owner's own survives.
 * Sessions signed in before an ending are refused here from then on (their ID tokens live up to an
 * hour; the provider already refuses to refresh them), and checkout tokens once the owner is in.
 *
 * Accounts already checked are remembered in the isolate, so a signed-in dashboard pays for the
 * check once, not on every call.
 */
const settled = new Map<string, number | null>();

const ENDED_BY_CHECKOUT_OWNER = 'This sign-in from the checkout has ended. Sign in with the e-mail you paid with.';
const ENDED_BY_PASSWORD_REMOVAL =
  'For your safety, the password of this account was removed: it was set before this e-mail address was confirmed. ' +
  'Sign in again with a link sent to your e-mail (or Google); you can then choose a new password.';

export const sessionEnded = (message = ENDED_BY_CHECKOUT_OWNER) => new HttpError(401, message, 'SESSION_ENDED');

const unavailable = () =>
  new HttpError(503, 'Sign-in cannot be checked right now. Please try again in a minute.', 'AUTH_UNAVAILABLE');

interface Row {
  state: 'checking' | 'done';
  /** Unix seconds: sessions signed in up to this second are refused. */
  sessions_since: number | null;
}

export async function guardSessions(db: D1Database, settings: Settings, user: AuthUser, token: string) {
  if (user.fromCheckout) return guardCheckoutToken(db, user);
  let since = settled.get(user.uid);
  if (since === undefined) since = await settle(db, settings, user, token);
  // In whole seconds, as tokens count: a session of the very second the password went is refused too.
  if (since !== undefined && since !== null && user.authTime <= since) throw sessionEnded(ENDED_BY_PASSWORD_REMOVAL);
}

/** A checkout session ends once the e-mail's owner has signed in. */
async function guardCheckoutToken(db: D1Database, user: AuthUser) {
  const row = await db
    .prepare('SELECT verified_at FROM checkout_accounts WHERE user_id = ?1')
    .bind(user.uid)
    .first<{verified_at: number | null}>();
  if (row?.verified_at) throw sessionEnded();
}

/**
 * The account's cut-off (null: none), once its first verified sign-in is done; undefined while the
 * e-mail is not verified yet and nothing was ended.
 */
async function settle(
  db: D1Database,
  settings: Settings,
  user: AuthUser,
  token: string,
): Promise<number | null | undefined> {
  let row = await readRow(db, user.uid);
  if (!row && user.emailVerified) {
    // One statement both asks and claims: only one request of the account does the work.
    const claimed = await db
      .prepare(
        `INSERT INTO verified_accounts (user_id, state, checked_at) VALUES (?1, 'checking', ?2)
         ON CONFLICT (user_id) DO NOTHING RETURNING user_id`,
      )
      .bind(user.uid, Date.now())
      .first();
    if (claimed) return remember(user.uid, await firstVerifiedSignIn(db, settings, user, token));
    row = await readRow(db, user.uid);
  }
  if (!row) return undefined;
  if (row.state === 'checking') row = await doneSoon(db, user.uid);
  return remember(user.uid, row.sessions_since);
}

async function firstVerifiedSignIn(
  db: D1Database,
  settings: Settings,
  user: AuthUser,
  token: string,
): Promise<number | null> {
  const now = Date.now();
  let since: number | null = null;
  try {
    const accounts = accountsFor(settings);
    const removed = await accounts.removeUnprovenPassword({
      uid: user.uid,
      authTime: user.authTime,
      token,
      signInMethod: user.signInMethod,
    });
    // Ended everywhere: up to now. Ended but the caller's: every session signed in before it.
    if (removed === 'ended') since = Math.floor(now / 1000);
    else if (removed === 'kept') since = user.authTime - 1;
    // A guest checkout's account: its tokens are refused from now on, and its sessions end (the
    // password removal ended them already when there was one).
    const checkout = await db
      .prepare(
        'UPDATE checkout_accounts SET verified_at = ?2 WHERE user_id = ?1 AND verified_at IS NULL RETURNING session_id',
      )
      .bind(user.uid, now)
      .first<{session_id: string}>();
    if (checkout && removed === 'none') {
      await accounts.endOtherSessions({uid: user.uid, authTime: user.authTime, token});
      since = user.authTime - 1;
    }
    if (checkout) log.info('checkout.sessions_ended', {userId: user.uid, sessionId: checkout.session_id});
    if (removed !== 'none')
      log.warn('auth.unproven_password_removed', {userId: user.uid, callerKept: removed === 'kept'});
  } catch (err) {
    // Fail closed, and let the next call try again from the start.
    await db.batch([
      db.prepare(`DELETE FROM verified_accounts WHERE user_id = ?1 AND state = 'checking'`).bind(user.uid),
      db
        .prepare('UPDATE checkout_accounts SET verified_at = NULL WHERE user_id = ?1 AND verified_at = ?2')
        .bind(user.uid, now),
    ]);
    log.error('auth.first_verified_sign_in_failed', {
      userId: user.uid,
      error: err instanceof Error ? err.message : String(err),
    });
    throw unavailable();
  }
  await db
    .prepare(`UPDATE verified_accounts SET state = 'done', sessions_since = ?2 WHERE user_id = ?1`)
    .bind(user.uid, since)
    .run();
  return since;
}

function readRow(db: D1Database, uid: string) {
  return db.prepare('SELECT state, sessions_since FROM verified_accounts WHERE user_id = ?1').bind(uid).first<Row>();
}

/** Another request of the account is checking it (a dashboard makes several calls at once). */
async function doneSoon(db: D1Database, uid: string): Promise<Row> {
  for (let attempt = 0; attempt < 8; attempt++) {
    await scheduler.wait(100 * 2 ** Math.min(attempt, 3));
    const row = await readRow(db, uid);
    if (row?.state === 'done') return row;
    if (!row) break; // the check failed and was released
  }
  throw unavailable();
}

function remember(uid: string, since: number | null): number | null {
  if (settled.size > 10_000) settled.clear();
  settled.set(uid, since);
  return since;
}
