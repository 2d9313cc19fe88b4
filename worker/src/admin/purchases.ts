import {
  appConfig,
  findStoredPlan,
  PLAN_CURRENCY,
  planAmount,
  type SeatEndReason,
  storedPlanName,
} from '../../../src/config';
import type {
  AdminFairPrice,
  AdminMember,
  AdminOtherPurchase,
  AdminPurchase,
  AdminPurchaseDetail,
  GrantStatus,
  Page,
  PurchaseEvent,
  PurchaseFilter,
  PurchaseSort,
  PurchaseState,
} from '../../../src/config/api';
import {seatRefundOffer} from '../team/seatRefund';
import {countryFlagged, effectivePlan, effectiveSeats, sameBuyer, upgradeFlagged} from '../purchases';
import {csv} from './csv';
import {OWNER_SEAT} from '../access/grants/records';
import {maskSessionIds} from '../log';
import {stripePaymentUrl} from '../payments/refunds';
import {adminUpgrade, upgradeEvent, upgradesOfStatement} from './upgradeEvents';

/**
 * Purchases as the seller's console shows them: a page at a time, searched by e-mail, GitHub
 * username or session id, filtered by state and plan, sorted, each with its GitHub access; or all
 * of them as CSV. One D1 round trip for the page and its count; the search is a prefix, so it
 * runs on an index.
 */
export const PAGE_SIZE = 25;

interface Row {
  session_id: string;
  created_at: number;
  email: string | null;
  /** The plan the purchase gives now: a paid upgrade's, else the plan bought. */
  plan: string | null;
  /** The plan bought, which the amount of a purchase recorded before amounts were is read from. */
  plan_bought: string | null;
  amount_total: number | null;
  amount_refunded: number;
  currency: string | null;
  status: 'open' | 'paid' | 'failed' | 'revoked';
  revoke_reason: string | null;
  payment_intent_id: string | null;
  customer_id: string | null;
  user_id: string | null;
  grant_status: GrantStatus | null;
  github_username: string | null;
  username_changes: number | null;
  fair_price_country: string | null;
  fair_price_percent: number | null;
  card_country: string | null;
  country_review: 'flagged' | 'accepted' | null;
  /** JSON: an upgrade of the purchase flagged for its card's country (its country, percent and card). */
  flagged_upgrade: string | null;
  revoked_by_seller_at: number | null;
  /** 1 when a grant of any repository of the purchase is removal_failed. */
  removal_failed: number;
  /** Its seats now (purchases.ts `effectiveSeats`). */
  seats: number;
}

const SELECT = `SELECT p.session_id, p.created_at, p.email, ${effectivePlan('p')} AS plan, p.plan AS plan_bought, p.amount_total, p.amount_refunded, p.currency, p.status, p.revoke_reason,
    p.payment_intent_id, p.customer_id, p.user_id, p.fair_price_country, p.fair_price_percent, p.card_country, p.country_review,
    (SELECT json_object('country', u.fair_price_country, 'percentOff', u.fair_price_percent, 'cardCountry', u.card_country, 'review', u.country_review)
      FROM upgrades u WHERE u.purchase_session_id = p.session_id AND ${upgradeFlagged('u')} ORDER BY u.created_at LIMIT 1) AS flagged_upgrade,
    p.revoked_by_seller_at, g.status AS grant_status, g.github_username, g.username_changes,
    EXISTS (SELECT 1 FROM grants r WHERE r.session_id = p.session_id AND r.status = 'removal_failed') AS removal_failed,
    ${effectiveSeats('p')} AS seats
  FROM purchases p LEFT JOIN grants g ON g.session_id = p.session_id AND g.seat = ${OWNER_SEAT} AND g.repository_key = 'kit'`;

/** The end of a prefix range: every string that starts with `prefix` sorts below it. */
const upTo = (prefix: string) => `${prefix}\u{10FFFF}`;

/** What each state is in D1's columns. */
const STATE_WHERE: Record<PurchaseState, string> = {
  paid: "p.status = 'paid'",
  refunded: "p.status = 'revoked' AND p.revoke_reason = 'refunded'",
  disputed: "p.status = 'revoked' AND p.revoke_reason IS NOT 'refunded'",
  open: "p.status = 'open'",
  failed: "p.status = 'failed'",
};

/** Each order ends in the session id, so that OFFSET paging has one order to page through. */
const ORDER_BY: Record<PurchaseSort, string> = {
  newest: 'p.created_at DESC, p.session_id DESC',
  oldest: 'p.created_at ASC, p.session_id ASC',
  amount_high: 'p.amount_total DESC, p.created_at DESC, p.session_id DESC',
  amount_low: 'p.amount_total ASC, p.created_at DESC, p.session_id DESC',
};

/**
 * Which rows a filter means. The search is a session id (`cs_…`), or else the start of an e-mail
 * or of a GitHub username (case does not matter for either); state and plan narrow it.
 */
function filterFor(filter: PurchaseFilter): {where: string; params: unknown[]} {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => `?${params.push(value)}`;
  const q = (filter.q ?? '').trim();
  if (q.startsWith('cs_')) conditions.push(`p.session_id >= ${param(q)} AND p.session_id < ${param(upTo(q))}`);
  else if (q !== '') {
    const [from, to] = [param(q.toLowerCase()), param(upTo(q.toLowerCase()))];
    conditions.push(`((p.email >= ${from} AND p.email < ${to}) OR p.session_id IN (SELECT session_id FROM grants
      WHERE repository_key = 'kit' AND github_username >= ${from} COLLATE NOCASE AND github_username < ${to} COLLATE NOCASE))`);
  }
  if (filter.state) conditions.push(STATE_WHERE[filter.state]);
  // The purchase's own payment, or one of its upgrades': either waits on the seller.
  if (filter.flagged === 'card_country') conditions.push(countryFlagged('p'));
  if (filter.plan) {
    // The filter names the plan; purchases record its id, or its name when recorded before ids were.
    const plan = appConfig.plans.find((candidate) => candidate.name === filter.plan);
    conditions.push(`${effectivePlan('p')} IN (${param(plan?.id ?? filter.plan)}, ${param(filter.plan)})`);
  }
  return {
    where: conditions.length ? `WHERE ${conditions.map((condition) => `(${condition})`).join(' AND ')}` : '',
    params,
  };
}

/** The Stripe key's mode decides which of Stripe's dashboards a purchase links to. */
export interface PaymentLinks {
  stripeKey: string | undefined;
}

export async function listPurchases(
  db: D1Database,
  links: PaymentLinks,
  filter: PurchaseFilter,
  page: number,
): Promise<Page<AdminPurchase>> {
  const {where, params} = filterFor(filter);
  const offset = (page - 1) * PAGE_SIZE;
  const [rows, count] = await db.batch<Row | {total: number}>([
    db
      .prepare(`${SELECT} ${where} ORDER BY ${ORDER_BY[filter.sort ?? 'newest']} LIMIT ${PAGE_SIZE} OFFSET ${offset}`)
      .bind(...params),
    db.prepare(`SELECT COUNT(*) AS total FROM purchases p ${where}`).bind(...params),
  ]);
  return {
    items: (rows!.results as Row[]).map((row) => toPurchase(row, links)),
    page,
    pageSize: PAGE_SIZE,
    total: (count!.results[0] as {total: number}).total,
  };
}

/** Every purchase the filter matches, in its order, as CSV: the seller's spreadsheet or accounts. */
export async function purchasesCsv(db: D1Database, links: PaymentLinks, filter: PurchaseFilter): Promise<string> {
  const {where, params} = filterFor(filter);
  const {results} = await db
    .prepare(`${SELECT} ${where} ORDER BY ${ORDER_BY[filter.sort ?? 'newest']}`)
    .bind(...params)
    .all<Row>();
  const header = [
    ...[
      'created_at',
      'session_id',
      'email',
      'plan',
      'seats',
      'amount',
      'amount_refunded',
      'currency',
      'state',
      'github_username',
      'access',
    ],
    ...['fair_price_country', 'card_country', 'country_review', 'upgrade_country_review'],
  ];
  const lines = results.map((row) => {
    const purchase = toPurchase(row, links);
    return [
      new Date(purchase.createdAt).toISOString(),
      purchase.sessionId,
      purchase.email ?? '',
      purchase.plan ?? '',
      String(purchase.seats),
      purchase.amount === null ? '' : String(purchase.amount),
      String(purchase.amountRefunded),
      purchase.currency ?? '',
      purchase.state,
      purchase.access?.username ?? '',
      purchase.access?.status ?? '',
      purchase.fairPrice?.country ?? '',
      // 'unread': the worker gave up asking Stripe; '' is a payment that tells no country.
      purchase.fairPrice && purchase.fairPrice.cardCountry === null && purchase.fairPrice.review !== null
        ? 'unread'
        : (purchase.fairPrice?.cardCountry ?? ''),
      purchase.fairPrice?.review ?? '',
      // An upgrade's own payment flagged: the purchase is in the Flagged filter for it.
      purchase.flaggedUpgrade ? 'flagged' : '',
    ];
  });
  return csv([header, ...lines]);
}

/** A purchase's page as D1 has it; the route adds its grants as GitHub says they are now. */
export async function purchaseDetail(
  db: D1Database,
  links: PaymentLinks,
  sessionId: string,
): Promise<Omit<AdminPurchaseDetail, 'grants'> | null> {
  const row = await db.prepare(`${SELECT} WHERE p.session_id = ?1`).bind(sessionId).first<Row>();
  if (!row) return null;
  const [events, jobs, actions, grant, upgrades, others, members, sale] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT type, received_at, processed_at FROM stripe_events
         WHERE object_id = ?1 OR (?2 IS NOT NULL AND payment_intent_id = ?2) ORDER BY received_at`,
      )
      .bind(sessionId, row.payment_intent_id),
    db
      .prepare(
        'SELECT key, kind, status, attempts, last_error, payload, created_at, updated_at, session_id FROM jobs WHERE session_id = ?1 ORDER BY id',
      )
      .bind(sessionId),
    db
      .prepare(
        'SELECT action, admin_email, detail, created_at, outcome FROM admin_audit WHERE session_id = ?1 ORDER BY id',
      )
      .bind(sessionId),
    db
      .prepare(`SELECT * FROM grants WHERE session_id = ?1 AND seat = ?2 AND repository_key = 'kit'`)
      .bind(sessionId, OWNER_SEAT),
    upgradesOfStatement(db, sessionId),
    // The seller's revocation is each purchase's own: the page says which others the buyer holds.
    db
      .prepare(
        `SELECT q.session_id, ${effectivePlan('q')} AS plan, q.created_at, q.revoked_by_seller_at FROM purchases p JOIN purchases q
           ON q.session_id != p.session_id AND q.status = 'paid' AND ${sameBuyer('q', 'p')}
         WHERE p.session_id = ?1 ORDER BY q.created_at, q.session_id`,
      )
      .bind(sessionId),
    // Each seat given, with the kit's grant of that seat while it is the member's own (member_id).
    db
      .prepare(
        `SELECT m.id, m.seat, m.state, m.email, m.end_reason, m.updated_at, g.github_username, g.status AS grant_status
         FROM team_members m LEFT JOIN grants g ON g.session_id = m.session_id AND g.seat = m.seat
           AND g.repository_key = 'kit' AND g.member_id = m.id
         WHERE m.session_id = ?1 ORDER BY m.created_at DESC, m.id DESC`,
      )
      .bind(sessionId),
    // What brought the sale: the launch code it was paid with, the affiliate credited with it.
    db
      .prepare(
        `SELECT (SELECT l.code FROM launch_codes l WHERE l.id = p.promotion_code_id) AS launch_code,
           (SELECT a.code FROM commissions c JOIN affiliates a ON a.id = c.affiliate_id WHERE c.session_id = p.session_id) AS referred_by
         FROM purchases p WHERE p.session_id = ?1`,
      )
      .bind(sessionId),
  ]);
  const history: PurchaseEvent[] = [
    ...events!.results.map((event) => ({
      at: event.received_at as number,
      kind: 'stripe' as const,
      summary: event.type as string,
      status: event.processed_at ? 'done' : 'pending',
    })),
    ...jobs!.results.map(jobEvent),
    ...actions!.results.map((action) => ({
      at: action.created_at as number,
      kind: 'admin' as const,
      summary: `${action.action as string} by ${action.admin_email as string}${action.outcome === 'failed' ? ' (failed)' : ''}`,
      status: action.outcome as string,
      detail: (action.detail as string | null) ?? undefined,
    })),
    ...grant!.results.map(grantEvent),
    ...upgrades!.results.map(upgradeEvent),
  ].sort((a, b) => a.at - b.at);
  return {
    ...toPurchase(row, links),
    paymentIntentId: row.payment_intent_id,
    customerId: row.customer_id,
    userId: row.user_id,
    upgrades: upgrades!.results.map(adminUpgrade),
    seatRefund: await seatRefundOffer(db, sessionId),
    members: members!.results.map((member): AdminMember => ({
      id: member.id as number,
      seat: member.seat as number,
      state: member.state as AdminMember['state'],
      email: (member.email as string | null) ?? null,
      username: (member.github_username as string | null) ?? null,
      access: (member.grant_status as GrantStatus | null) ?? 'none',
      endReason:
        member.state === 'removed' || member.state === 'withdrawn'
          ? ((member.end_reason as SeatEndReason | null) ?? 'removed')
          : null,
      updatedAt: member.updated_at as number,
    })),
    otherPaidPurchases: others!.results.map((other): AdminOtherPurchase => ({
      sessionId: other.session_id as string,
      plan: storedPlanName(other.plan as string | null),
      createdAt: other.created_at as number,
      revokedBySellerAt: other.revoked_by_seller_at as number | null,
    })),
    history,
    launchCode: (sale!.results[0]?.launch_code as string | null | undefined) ?? null,
    referredBy: (sale!.results[0]?.referred_by as string | null | undefined) ?? null,
  };
}

function toPurchase(row: Row, links: PaymentLinks): AdminPurchase {
  const amount = row.amount_total ?? fallbackAmount(row.plan_bought);
  const state = stateOf(row);
  return {
    sessionId: row.session_id,
    createdAt: row.created_at,
    email: row.email,
    plan: storedPlanName(row.plan),
    seats: row.seats,
    amount,
    // Recorded before currencies were: the plans' currency.
    currency: row.currency ?? PLAN_CURRENCY,
    state,
    // A full refund may have reached D1 only as a revocation (it came before the purchase did).
    amountRefunded: state === 'refunded' ? Math.max(row.amount_refunded, amount ?? 0) : row.amount_refunded,
    stripeUrl: stripePaymentUrl(links.stripeKey, row.payment_intent_id),
    fairPrice: row.fair_price_country
      ? {
          country: row.fair_price_country,
          percentOff: row.fair_price_percent,
          cardCountry: row.card_country,
          review: row.country_review,
        }
      : null,
    flaggedUpgrade: row.flagged_upgrade ? (JSON.parse(row.flagged_upgrade) as AdminFairPrice) : null,
    access:
      row.grant_status && row.github_username
        ? {status: row.grant_status, username: row.github_username, usernameChanges: row.username_changes ?? 0}
        : null,
    removalFailed: row.removal_failed === 1,
    revokedBySellerAt: row.revoked_by_seller_at,
  };
}

/** Purchases recorded before amounts were: the plan's price in the config. */
export function fallbackAmount(plan: string | null): number | null {
  const found = findStoredPlan(plan);
  return found ? planAmount(found) : null;
}

export function stateOf(row: {status: Row['status']; revoke_reason: string | null}): PurchaseState {
  if (row.status !== 'revoked') return row.status;
  return row.revoke_reason === 'refunded' ? 'refunded' : 'disputed';
}

const JOB_SUMMARY: Record<string, (key: string, sessionId: string) => string> = {
  mail: (key) =>
    key.startsWith('sale:')
      ? 'New-sale e-mail to the seller'
      : key.startsWith('seat:')
        ? 'Seat e-mail to the buyer'
        : 'Welcome e-mail to the buyer',
  'github-invite': () => 'Invitation (queued while GitHub was busy)',
  // Keyed remove:<session>:<repository key>:… (removal.ts): the kit's, or an extra repository's.
  'github-remove': (key) => {
    const repository = key.split(':')[2];
    return repository && repository !== 'kit'
      ? `Removal from the ${repository} repository`
      : 'Removal from the repository';
  },
  'extra-withdraw': (key) => `Removal from the ${key.split(':')[1] ?? 'extra'} repository`,
  reconcile: () => 'Access brought in step with the purchase',
  // Queued before each refund of seats, due a quarter of an hour later (team/seatRefund.ts).
  'team-seats': () => 'Seats settled after a refund of seats (its members past the count)',
  // Queued before the reconcile took in the seat and its name (jobs.ts): as the console said then.
  'extra-grants': () => 'Extra repositories brought in step with the plan',
  // Keyed by the session that paid: the purchase's own, or one of its upgrades'.
  'card-country': (key, sessionId) =>
    `The card's country${key === `card-country:${sessionId}` ? '' : " of an upgrade's payment"} read from Stripe (fair price)`,
  'affiliate-credit': () => "The affiliate's commission on the purchase (their link brought it)",
};

function jobEvent(job: Record<string, unknown>): PurchaseEvent {
  const kind = job.kind as string;
  const status = job.status === 'pending' && (job.attempts as number) > 0 ? 'retrying' : (job.status as string);
  return {
    at: job.created_at as number,
    kind:
      kind === 'mail'
        ? 'email'
        : kind === 'github-remove' || kind === 'extra-withdraw' || kind === 'team-seats'
          ? 'removal'
          : kind === 'card-country' || kind === 'affiliate-credit'
            ? 'stripe'
            : 'invitation',
    summary: JOB_SUMMARY[kind]?.(job.key as string, job.session_id as string) ?? kind,
    status,
    detail: job.last_error ? maskSessionIds(job.last_error as string) : undefined,
  };
}

function grantEvent(grant: Record<string, unknown>): PurchaseEvent {
  const invitation = grant.invitation_id ? ` (invitation ${grant.invitation_id as number})` : '';
  return {
    at: grant.updated_at as number,
    kind: 'invitation',
    summary: `@${grant.github_username as string}${invitation}: ${grant.status as string}`,
    status: grant.status as string,
    detail: (grant.detail as string | null) ?? undefined,
  };
}
