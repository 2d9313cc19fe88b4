import {HttpError} from './errors';

export interface Limit {
  /** Requests allowed per window. */
  max: number;
  windowSeconds: number;
}

export const limits = {
  checkout: {max: 10, windowSeconds: 60},
  addUserToRepo: {max: 10, windowSeconds: 60},
  leads: {max: 5, windowSeconds: 60},
  checkoutExchange: {max: 10, windowSeconds: 60},
} satisfies Record<string, Limit>;

/**
 * A fixed-window counter in D1: one statement, so concurrent requests count exactly. Answers 429
 * with Retry-After once the window is used up.
 */
export async function enforceLimit(db: D1Database, key: string, limit: Limit, now = Date.now()) {
  const windowMs = limit.windowSeconds * 1000;
  const windowStart = now - (now % windowMs);
  const row = await db
    .prepare(
      `INSERT INTO rate_limits (key, window_start, count) VALUES (?1, ?2, 1)
       ON CONFLICT (key, window_start) DO UPDATE SET count = count + 1
       RETURNING count`,
    )
    .bind(key, windowStart)
    .first<{count: number}>();
  if ((row?.count ?? 0) > limit.max) {
    const retryAfter = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
    throw new HttpError(429, 'Too many requests. Please wait a moment and try again.', 'RATE_LIMITED', {
      'Retry-After': String(retryAfter),
    });
  }
}

/** Old windows are useless; the scheduled handler clears them. */
export async function pruneLimits(db: D1Database, now = Date.now()) {
  await db.prepare('DELETE FROM rate_limits WHERE window_start < ?1').bind(now - 3600_000).run();
}
