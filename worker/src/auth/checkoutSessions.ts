import {HttpError} from '../errors';
import {log} from '../log';
import type {Settings} from '../settings';
import {accountsFor} from './accountsFor';
import type {AuthUser} from './user';

/**
 * A guest checkout opens a session for an account made from the e-mail the payer typed, which
 * the payer may not own. When the e-mail's owner first signs in with a verified method (a link
 * sent to that address, or Google), every other session of the account ends: the provider revokes
 * them, and this worker refuses the ID tokens they still hold (they live up to an hour).
 *
 * Callers whose uid has nothing left to do are remembered in the isolate, so a signed-in
 * dashboard pays for the check once, not on every call.
 */
const settled = new Set<string>();

export const sessionEnded = () =>
  new HttpError(401, 'This sign-in from the checkout has ended. Sign in with the e-mail you paid with.', 'SESSION_ENDED');

export async function guardCheckoutSessions(db: D1Database, settings: Settings, user: AuthUser, token: string) {
  if (user.fromCheckout) {
    const row = await db
      .prepare('SELECT verified_at FROM checkout_accounts WHERE user_id = ?1')
      .bind(user.uid)
      .first<{verified_at: number | null}>();
    if (row?.verified_at) throw sessionEnded();
    return;
  }
  if (!user.emailVerified || settled.has(user.uid)) return;
  // One statement both asks and claims: only the first verified call of the owner ends sessions.
  const claimed = await db
    .prepare('UPDATE checkout_accounts SET verified_at = ?2 WHERE user_id = ?1 AND verified_at IS NULL RETURNING session_id')
    .bind(user.uid, Date.now())
    .first<{session_id: string}>();
  if (claimed) {
    try {
      await accountsFor(settings).endOtherSessions({uid: user.uid, authTime: user.authTime, token});
      log.info('checkout.sessions_ended', {userId: user.uid, sessionId: claimed.session_id});
    } catch (err) {
      // Try again on the owner's next call rather than leave the payer signed in for good.
      await db.prepare('UPDATE checkout_accounts SET verified_at = NULL WHERE user_id = ?1').bind(user.uid).run();
      log.error('checkout.sessions_not_ended', {userId: user.uid, error: err instanceof Error ? err.message : String(err)});
      return;
    }
  }
  if (settled.size > 10_000) settled.clear();
  settled.add(user.uid);
}
