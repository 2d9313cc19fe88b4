import type {AdminFunnel, SalesPeriod} from '../../../src/config/api';
import {DAY_MS} from '../../../src/config/dates';
import {countryFlagged} from '../purchases';
import type {Settings} from '../settings';
import {plausibleVisitors} from './plausibleVisitors';
import {monthStart, type Span, windowOf} from './sales';

/**
 * The funnel on the console's first screen (Sales): from the site's visitors (Plausible) to the
 * checkouts started and paid, the refunds, and the code delivered, over the Sales period and the
 * period before it; and what needs a look now. Every figure but the visitors is read from D1:
 * `checkout_starts` and `grants.activated_at` (migration 0045) count from that migration on.
 * Refunds and payments are of purchases (an upgrade's are in the Sales cards).
 */

/**
 * The period so far, and the same stretch of the period before it (none for all time): 6 days and
 * today's hours so far against the 7 days before's first 6 days and as many hours, so that a
 * morning's figures are not read as a fall.
 */
export function spansOf(period: SalesPeriod, now: number): {now: Span; before: Span | null} {
  const since = windowOf(period, now).since;
  const current = {from: since ?? 0, to: now + 1};
  const elapsed = current.to - current.from;
  switch (period) {
    case '7d':
    case '30d': {
      const from = since! - (period === '7d' ? 7 : 30) * DAY_MS;
      return {now: current, before: {from, to: from + elapsed}};
    }
    case '12m': {
      const from = monthStart(now, 23);
      return {now: current, before: {from, to: Math.min(since!, from + elapsed)}};
    }
    case 'all':
      return {now: current, before: null};
  }
}

/** The figures migration 0045 began to record: a span before it has none of them. */
const RECORDED_SINCE_0045 = new Set<keyof SpanFigures>(['checkoutsStarted', 'checkoutsPaid', 'invitationsAccepted']);

/** Sent more than this long ago and still not accepted: worth a look (GitHub's own lapse is 7 days). */
export const UNACCEPTED_AFTER_MS = 3 * DAY_MS;

/** The figures one span has, each a count but the median. */
interface SpanFigures {
  checkoutsStarted: number;
  checkoutsPaid: number;
  refunds: number;
  payments: number;
  invitationsAccepted: number;
  downloads: number;
  medianToAccess: number | null;
}

async function figuresOf(db: D1Database, {from, to}: Span): Promise<SpanFigures> {
  const [counts, delivered] = await db.batch<Record<string, number | null>>([
    db
      .prepare(
        `SELECT
           (SELECT COUNT(*) FROM checkout_starts WHERE created_at >= ?1 AND created_at < ?2) AS started,
           -- Paid through the checkout, or through the recovery link of it a reminder carried.
           (SELECT COUNT(*) FROM checkout_starts s WHERE s.created_at >= ?1 AND s.created_at < ?2
             AND EXISTS (SELECT 1 FROM purchases p WHERE (p.session_id = s.session_id OR p.recovered_from = s.session_id)
               AND p.status IN ('paid', 'revoked'))) AS paid,
           (SELECT COUNT(*) FROM purchases WHERE status IN ('paid', 'revoked') AND created_at >= ?1 AND created_at < ?2)
             AS payments,
           (SELECT COUNT(*) FROM purchases WHERE status = 'revoked' AND revoke_reason = 'refunded'
             AND created_at >= ?1 AND created_at < ?2) AS refunds,
           (SELECT COUNT(*) FROM grants WHERE activated_at >= ?1 AND activated_at < ?2) AS accepted,
           (SELECT COUNT(*) FROM download_links WHERE outcome = 'served' AND used_at >= ?1 AND used_at < ?2)
             AS downloads`,
      )
      .bind(from, to),
    // Each purchase paid in the span whose code has reached its buyer (migration 0033's
    // delivered_at: the first invitation accepted or download served), and how long it took.
    db
      .prepare(
        `SELECT delivered_at - COALESCE(paid_at, created_at) AS wait FROM purchases
         WHERE status IN ('paid', 'revoked') AND delivered_at IS NOT NULL
           AND COALESCE(paid_at, created_at) >= ?1 AND COALESCE(paid_at, created_at) < ?2`,
      )
      .bind(from, to),
  ]);
  const row = counts!.results[0] ?? {};
  return {
    checkoutsStarted: Number(row.started ?? 0),
    checkoutsPaid: Number(row.paid ?? 0),
    refunds: Number(row.refunds ?? 0),
    payments: Number(row.payments ?? 0),
    invitationsAccepted: Number(row.accepted ?? 0),
    downloads: Number(row.downloads ?? 0),
    medianToAccess: median(delivered!.results.map((purchase) => Math.max(0, Number(purchase.wait)))),
  };
}

export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : Math.round((sorted[middle - 1]! + sorted[middle]!) / 2);
}

/** What needs the seller now, whatever the period. */
async function needsLook(db: D1Database, now: number): Promise<AdminFunnel['needsLook']> {
  const row = await db
    .prepare(
      `SELECT
         (SELECT COUNT(*) FROM grants WHERE status = 'pending' AND invited_at < ?1) AS unaccepted,
         (SELECT COUNT(*) FROM grants WHERE status IN ('failed', 'removal_failed')) AS failed,
         (SELECT COUNT(*) FROM grants WHERE status = 'queued' AND waiting_at IS NOT NULL) AS queued,
         (SELECT MIN(waiting_at) FROM grants WHERE status = 'queued' AND waiting_at IS NOT NULL) AS queued_since,
         (SELECT COUNT(*) FROM purchases p WHERE ${countryFlagged('p')}) AS flagged`,
    )
    .bind(now - UNACCEPTED_AFTER_MS)
    .first<Record<string, number | null>>();
  return {
    unaccepted: Number(row?.unaccepted ?? 0),
    failedGrants: Number(row?.failed ?? 0),
    queued: Number(row?.queued ?? 0),
    queuedSince: row?.queued_since ?? null,
    cardCountryFlags: Number(row?.flagged ?? 0),
  };
}

export async function funnelSummary(
  db: D1Database,
  settings: Settings,
  period: SalesPeriod,
  now = Date.now(),
): Promise<AdminFunnel> {
  const spans = spansOf(period, now);
  const [current, before, look, visitors, recorded] = await Promise.all([
    figuresOf(db, spans.now),
    spans.before ? figuresOf(db, spans.before) : null,
    needsLook(db, now),
    plausibleVisitors(settings, period, spans),
    db.prepare('SELECT MIN(created_at) AS at FROM checkout_starts').first<{at: number | null}>(),
  ]);
  // Checkouts started and invitations accepted are recorded from migration 0045 on (about when the
  // first checkout was): a period before that had them, unrecorded, and is compared with nothing.
  const recordedSince = recorded?.at ?? null;
  const unrecorded = recordedSince === null || (spans.before !== null && spans.before.from < recordedSince);
  const pair = (key: Exclude<keyof SpanFigures, 'medianToAccess'>) => ({
    now: current[key],
    before: before && !(unrecorded && RECORDED_SINCE_0045.has(key)) ? before[key] : null,
  });
  return {
    period,
    since: period === 'all' ? null : spans.now.from,
    recordedSince,
    visitors,
    checkoutsStarted: pair('checkoutsStarted'),
    checkoutsPaid: pair('checkoutsPaid'),
    refunds: pair('refunds'),
    payments: pair('payments'),
    invitationsAccepted: pair('invitationsAccepted'),
    downloads: pair('downloads'),
    medianToAccess: {now: current.medianToAccess, before: before ? before.medianToAccess : null},
    needsLook: look,
  };
}
