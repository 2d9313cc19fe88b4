import {appConfig} from '../../src/config';
import {HttpError} from './errors';

export interface Limit {
  /** Requests allowed per window. */
  max: number;
  windowSeconds: number;
  /** What a refused caller is told, when "wait a moment" is not the truth (a window of a day). */
  refusal?: string;
}

const DAY_SECONDS = 86_400;
/** New invitations a buyer may ask for in a UTC day, per purchase and repository (`invitationResends`). */
const RESENDS_A_DAY = 3;

export const limits = {
  checkout: {max: 10, windowSeconds: 60},
  addUserToRepo: {max: 10, windowSeconds: 60},
  /** The dashboard reads it on load and after each action: 30 a minute is a person reloading, not a script. */
  accessStatus: {max: 30, windowSeconds: 60},
  leads: {max: 5, windowSeconds: 60},
  /**
   * The pricing section asks once a page load, and the browser keeps the answer five minutes. Many
   * visitors can share one address (an office, a mobile carrier's NAT), and a visitor past the
   * limit sees list prices: 300 a minute stops a script in a loop, not a crowd.
   */
  prices: {max: 300, windowSeconds: 60},
  /** Each read asks Stripe once per purchase: a person reloading the dashboard, not a script. */
  receipts: {max: 30, windowSeconds: 60},
  /** Each call is a write to Stripe, whose rate limit every visitor's checkout shares: a person clicking, not a script. */
  billingPortal: {max: 10, windowSeconds: 60},
  /** A buyer's own refund: each call reads Stripe, and a person clicks once or twice. */
  refundPurchase: {max: 5, windowSeconds: 60},
  checkoutExchange: {max: 10, windowSeconds: 60},
  /** The success page asks once a load, and each answer reads Stripe: a person reloading, not a script. */
  checkoutStatus: {max: 10, windowSeconds: 60},
  /**
   * A visit through an affiliate's link, per address: a page load asks once. 30 a minute is a person
   * opening links, not a script inflating an affiliate's clicks (each visitor counts once a day anyway).
   */
  affiliateVisit: {max: 30, windowSeconds: 60},
  /**
   * An upgrade code asked about on the dashboard (GET /upgrades?code=): a person typing a code or
   * two, not a script guessing every word (each answer says whether a code exists).
   */
  upgradeCode: {max: 10, windowSeconds: 60},
  /** Joining the affiliate programme: a person trying a code or two, not a script trying every code. */
  joinAffiliates: {max: 10, windowSeconds: 60},
  /** An affiliate's Stripe link: each call writes to Stripe (a link, the account once), and a person clicks once or twice. */
  affiliateConnect: {max: 10, windowSeconds: 60},
  /**
   * An affiliate's page asking Stripe whether their account is ready yet (GET /affiliate, only while
   * it is being set up): past this, the page says "being set up" without asking, so reloads never
   * spend the seller's Stripe rate limit.
   */
  affiliateStripeRead: {max: 6, windowSeconds: 60},
  /** Each link downloads once, so this also bounds the downloads: 10 an hour is a person, not a mirror. */
  downloadLink: {max: 10, windowSeconds: 3600},
  /**
   * A buyer's new invitation after the last one expired or was declined, per purchase and
   * repository. Each takes one of GitHub's 50 invitations a day to the repository, shared by every
   * buyer: without this, declining and asking again in a loop would use them all up. Windows are
   * UTC days.
   */
  invitationResends: {
    max: RESENDS_A_DAY,
    windowSeconds: DAY_SECONDS,
    refusal: `This purchase has asked for ${RESENDS_A_DAY} new invitations today, the most in a day. Try again after midnight UTC, or write to ${appConfig.support.email}.`,
  },
} satisfies Record<string, Limit>;

/** A write that only a request within its limit may make (see `limitedWrite`). */
export interface GuardedWrite {
  /** The statement, given the SQL condition that is true while the window has room. */
  sql(hasRoom: string): string;
  /** Its own parameters, ?1 to ?n; the condition's follow them. */
  params: unknown[];
}

function windowOf(limit: Limit, now: number) {
  const ms = limit.windowSeconds * 1000;
  const start = now - (now % ms);
  return {start, end: start + ms};
}

/** Counts the request in its window: one statement, so concurrent requests count exactly. */
function countStatement(db: D1Database, key: string, windowStart: number) {
  return db
    .prepare(
      `INSERT INTO rate_limits (key, window_start, count) VALUES (?1, ?2, 1)
       ON CONFLICT (key, window_start) DO UPDATE SET count = count + 1
       RETURNING count`,
    )
    .bind(key, windowStart);
}

function refuseOverLimit(count: number | undefined, limit: Limit, windowEnd: number, now: number) {
  if ((count ?? 0) <= limit.max) return;
  const retryAfter = Math.max(1, Math.ceil((windowEnd - now) / 1000));
  throw new HttpError(429, limit.refusal ?? 'Too many requests. Please wait a moment and try again.', 'RATE_LIMITED', {
    'Retry-After': String(retryAfter),
  });
}

/**
 * A fixed-window counter in D1. Answers 429 with Retry-After once the window is used up. Several
 * keys (a caller known by its account and by its address) are counted in one round trip, and any
 * over the limit refuses.
 */
export async function enforceLimit(db: D1Database, key: string | readonly string[], limit: Limit, now = Date.now()) {
  const window = windowOf(limit, now);
  const keys = typeof key === 'string' ? [key] : key;
  const counted = await db.batch<{count: number}>(keys.map((each) => countStatement(db, each, window.start)));
  for (const result of counted) refuseOverLimit(result.results[0]?.count, limit, window.end, now);
}

/**
 * `enforceLimit` and the write it guards in one D1 batch: one round trip instead of two, and one
 * transaction, so the write happens only while the window still has room (a request over the
 * limit counts and writes nothing), however many requests race. Answers the write's first row
 * (RETURNING), or null when it wrote none; 429 over the limit.
 */
export async function limitedWrite<T>(
  db: D1Database,
  key: string,
  limit: Limit,
  write: GuardedWrite,
  now = Date.now(),
): Promise<T | null> {
  const window = windowOf(limit, now);
  const n = write.params.length;
  const hasRoom = `EXISTS (SELECT 1 FROM rate_limits WHERE key = ?${n + 1} AND window_start = ?${n + 2} AND count <= ?${n + 3})`;
  const [counted, written] = await db.batch<Record<string, unknown>>([
    countStatement(db, key, window.start),
    db.prepare(write.sql(hasRoom)).bind(...write.params, key, window.start, limit.max),
  ]);
  refuseOverLimit(counted!.results[0]?.count as number | undefined, limit, window.end, now);
  return (written!.results[0] as T | undefined) ?? null;
}

/** The longest window: a counter younger than this may still be in use. */
const LONGEST_WINDOW_MS = Math.max(...Object.values(limits).map((limit: Limit) => limit.windowSeconds)) * 1000;

/** Windows that have ended are useless; the scheduled handler clears them. */
export async function pruneLimits(db: D1Database, now = Date.now()) {
  await db
    .prepare('DELETE FROM rate_limits WHERE window_start < ?1')
    .bind(now - LONGEST_WINDOW_MS)
    .run();
}
