import {createMiddleware} from 'hono/factory';
import type {AdminAction, AdminAuditEntry} from '../../../src/config/api';
import type {AppEnv} from '../app';
import type {AuthUser} from '../auth/user';
import {currentUser, requireUser} from '../auth/middleware';
import {HttpError} from '../errors';
import {settingsOf} from '../settings';

/**
 * The seller's console is for the verified e-mails in ADMIN_EMAILS only: the server checks every
 * call, the page is only a view. With ADMIN_EMAILS unset nobody gets in.
 */
export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  await requireUser(c, async () => {
    if (!isAdmin(currentUser(c), c.env)) {
      throw new HttpError(403, "Only the seller's admins may use the console", 'ADMIN_ONLY');
    }
    await next();
  });
});

/** The one rule: a verified e-mail listed in ADMIN_EMAILS (the console's routes and GET /isAdmin). */
export function isAdmin(user: AuthUser, env: Env): boolean {
  return Boolean(user.email && user.emailVerified && settingsOf(env).adminEmails.includes(user.email));
}

/** Writes down an admin action: who, what, when, on which purchase, and how it ended. */
export function recordAction(
  db: D1Database,
  entry: {
    admin: string;
    action: AdminAction;
    outcome: AdminAuditEntry['outcome'];
    sessionId?: string | null;
    detail?: string | null;
  },
) {
  return db
    .prepare(
      'INSERT INTO admin_audit (admin_email, action, session_id, detail, created_at, outcome) VALUES (?1, ?2, ?3, ?4, ?5, ?6)',
    )
    .bind(entry.admin, entry.action, entry.sessionId ?? null, entry.detail ?? null, Date.now(), entry.outcome)
    .run();
}
