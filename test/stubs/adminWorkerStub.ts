/**
 * A stand-in for the worker's admin endpoints, for the console's unit tests: a real HTTP server
 * over an in-memory store, whose actions change the store as the worker would (a revoke revokes
 * and is logged), and which records every request. Typed with the contract (`src/config/api.ts`)
 * only, so a drift of the contract or of the console fails the typecheck.
 */
import http from 'node:http';
import {
  ADMIN_PATHS,
  type AdminActionResult,
  type AdminAuditEntry,
  type AdminAction,
  type AdminGrant,
  type AdminGrantRequest,
  type TakeBackMemberRequest,
  type AdminJob,
  type AdminLead,
  type AdminLaunchCode,
  type AdminAffiliate,
  type AffiliatePayoutRequest,
  type LaunchCodeBody,
  type AdminSelfRefund,
  type AdminPurchaseDetail,
  type AdminRefundRequest,
  type AdminRelease,
  type AdminUpgrade,
  type ErrorBody,
  type Page,
  type RepositoryAudit,
  REPOSITORY_FIX_ALL_LIMITS,
  type RepositoryFixAllRequest,
  type RepositoryFixAllResult,
  type RepositoryFixRequest,
  type SalesPeriod,
  type SalesSummary,
  type AdminFunnel,
  SALES_PERIODS,
} from '../../src/config/api';
import {listen} from '../../scripts/support/listen';
import {serviceName} from '../../src/config/serviceName';
import {
  AFFILIATE_WORDS,
  appConfig,
  FUNNEL_WORDS,
  LAUNCH_CODE_ENDING,
  LAUNCH_CODE_WORDS,
  PLAN_CURRENCY,
  seatRefundAmount,
} from '../../src/config';

/** The signed-in seller: an address on the product's own domain. */
export const ADMIN_EMAIL = `admin@${appConfig.domainName}`;
/** The repository the stub's audits compare, and its owner, named after the product. */
export const REPOSITORY = `${serviceName}/kit`;
export const REPOSITORY_OWNER = `${serviceName}-owner`;
export const NOT_AN_ADMIN: ErrorBody = {error: 'This account is not an admin.', code: 'ADMIN_ONLY'};

export interface AdminStore {
  sales: SalesSummary;
  funnel: AdminFunnel;
  /** Newest first. */
  purchases: AdminPurchaseDetail[];
  jobs: AdminJob[];
  /** Newest first. */
  releases: AdminRelease[];
  audit: RepositoryAudit;
  /** The extra repositories' audits, by key (`?repository=<key>`); the kit's `audit` lists them in `extraRepositories`. */
  extraAudits: Record<string, RepositoryAudit>;
  leads: AdminLead[];
  /** Newest first. */
  selfRefunds: AdminSelfRefund[];
  /** Newest first. */
  launchCodes: AdminLaunchCode[];
  /** Newest first. */
  affiliates: AdminAffiliate[];
  /** Whether the programme pays through Stripe (the list's `stripeConnect`); each affiliate's `stripe` is the test's to set. */
  stripeConnect: boolean;
  /**
   * How Stripe answers the next transfer of a payout through Stripe: `made`; `sending` (no answer
   * yet: the worker answers 202 and its outbox asks again); `insufficient` (refused: the seller's
   * available balance is too low).
   */
  stripeTransfer: 'made' | 'sending' | 'insufficient';
  /** Newest first. */
  log: AdminAuditEntry[];
  pageSize: number;
  /**
   * How many reads of a purchase after a full refund Stripe's confirmation takes to arrive (its
   * webhook): the refunded amount shows at once, as the worker records what Stripe answered; the
   * state, the seat and the extra repositories change when the webhook does. 1: the next read;
   * Infinity: only once the test calls `confirmRefunds`.
   */
  confirmationAfterReads: number;
}

export interface SeenRequest {
  method: string;
  /** The route's pattern in ADMIN_PATHS, e.g. `/admin/purchases/:sessionId/revoke`. */
  route: string;
  path: string;
  query: URLSearchParams;
  /** The Authorization header, as the console sent it. */
  authorization?: string;
  body: unknown;
}

export interface AdminWorkerStub {
  url: string;
  store: AdminStore;
  requests: SeenRequest[];
  /** Requests that change something (every POST). */
  actions: () => SeenRequest[];
  /** From now on, answers every request to `route` (or every request, with '*') with this error. */
  refuse: (route: string, status: number, body: ErrorBody) => void;
  reset: (store?: Partial<AdminStore>) => void;
  /** Stripe's confirmation of every full refund still waiting arrives: the next read of its purchase shows it. */
  confirmRefunds: () => void;
  close: () => Promise<void>;
}

const DAY_MS = 86_400_000;
export const NOW = Date.UTC(2026, 5, 30, 12, 0, 0);

/** Thirty days, oldest first, with sales on some of them. */
/** A repository with no invitation sent in the last 24 hours and none waiting. */
export const EMPTY_WINDOW = {cap: appConfig.repository.invitationsPerDay, usedLast24h: 0, queued: 0, drainsBy: null};

export function salesSummary(overrides: Partial<SalesSummary> = {}): SalesSummary {
  const days = Array.from({length: 30}, (_, index) => {
    const day = new Date(NOW - (29 - index) * DAY_MS).toISOString().slice(0, 10);
    const byPlan: Record<string, number> = index % 3 === 0 ? {Starter: 6900, Advanced: 9900 * (index % 2)} : {};
    return {day, byPlan, purchases: Object.values(byPlan).filter(Boolean).length};
  });
  return {
    currency: 'usd',
    period: '30d',
    since: Date.parse(`${days[0]!.day}T00:00:00Z`),
    interval: 'day',
    days,
    revenue: 123_400,
    buyers: 14,
    seats: 14,
    refunds: {count: 2, amount: 16_800, of: 40},
    disputes: {open: 1, won: 0, lost: 1},
    recovered: {reminders: 0, purchases: 0, revenue: 0},
    ...overrides,
  };
}

/** The funnel of the last 30 days beside the 30 before, with no key for Plausible, and nothing to look at. */
export function funnelSummary(overrides: Partial<AdminFunnel> = {}): AdminFunnel {
  return {
    period: '30d',
    since: NOW - 29 * DAY_MS,
    recordedSince: NOW - 400 * DAY_MS,
    visitors: {source: 'none', why: FUNNEL_WORDS.noKey},
    checkoutsStarted: {now: 50, before: 40},
    checkoutsPaid: {now: 20, before: 20},
    refunds: {now: 1, before: 2},
    payments: {now: 20, before: 20},
    invitationsAccepted: {now: 15, before: 12},
    downloads: {now: 9, before: 0},
    medianToAccess: {now: 95 * 60_000, before: 3 * 3600_000},
    needsLook: {unaccepted: 0, failedGrants: 0, queued: 0, queuedSince: null, cardCountryFlags: 0},
    ...overrides,
  };
}

/** A paid upgrade of the purchase `purchase()` makes, Starter to Advanced, at list prices unless told. */
export function upgrade(overrides: Partial<AdminUpgrade> = {}): AdminUpgrade {
  return {
    sessionId: 'cs_test_ada_up',
    fromPlan: 'Starter',
    toPlan: 'Advanced',
    label: 'Upgrade: Starter → Advanced',
    seatsAdded: 0,
    state: 'paid',
    amount: 3000,
    amountRefunded: 0,
    currency: 'usd',
    paymentIntentId: 'pi_ada_up',
    paidAt: Date.parse('2026-06-03T14:05:00Z'),
    fairPrice: null,
    launchCode: null,
    ...overrides,
  };
}

/** The purchase's seat as the console lists it among its grants (the first), from its `access`. */
function seatGrant(access: AdminPurchaseDetail['access'], expired: boolean): AdminGrant[] {
  return access
    ? [
        {
          key: 'kit',
          repository: 'slipway/kit',
          status: access.status,
          username: access.username,
          updatedAt: NOW - DAY_MS + 120_000,
          expired,
        },
      ]
    : [];
}

/**
 * A purchase's page as the worker answers it. Its grants are its seat's (from `access`; its
 * invitation GitHub no longer honours with `seatExpired`), then `extras` (the plan's prompts by default).
 */
export function purchase(
  overrides: Partial<Omit<AdminPurchaseDetail, 'grants'>> & {extras?: AdminGrant[]; seatExpired?: boolean} = {},
): AdminPurchaseDetail {
  const {extras, seatExpired = false, ...rest} = overrides;
  const made = {
    sessionId: 'cs_test_ada',
    createdAt: NOW - DAY_MS,
    email: 'ada@example.com',
    plan: 'Advanced',
    amount: 9900,
    currency: 'usd',
    state: 'paid',
    amountRefunded: 0,
    stripeUrl: 'https://dashboard.stripe.com/test/payments/pi_ada',
    fairPrice: null,
    flaggedUpgrade: null,
    access: {status: 'active', username: 'ada-l', usernameChanges: 1},
    revokedBySellerAt: null,
    paymentIntentId: 'pi_ada',
    customerId: 'cus_ada',
    userId: 'uid-ada',
    seats: 1,
    members: [],
    seatRefund: null,
    upgrades: [],
    otherPaidPurchases: [],
    history: [
      {at: NOW - DAY_MS, kind: 'stripe', summary: 'checkout.session.completed'},
      {at: NOW - DAY_MS + 60_000, kind: 'email', summary: 'Welcome e-mail', status: 'done'},
      {at: NOW - DAY_MS + 120_000, kind: 'invitation', summary: 'Invited @ada-l', status: 'done'},
    ],
    launchCode: null,
    referredBy: null,
    ...rest,
  } satisfies Omit<AdminPurchaseDetail, 'removalFailed' | 'grants'>;
  const grants: AdminGrant[] = [
    ...seatGrant(made.access, seatExpired),
    ...(extras ?? [
      {
        key: 'prompts',
        repository: 'slipway/prompts',
        status: 'active',
        username: 'ada-l',
        updatedAt: NOW - DAY_MS + 180_000,
        expired: false,
      },
    ]),
  ];
  // As the worker reads it: a grant of any repository whose removal failed for good.
  const removalFailed = grants.some((grant) => grant.status === 'removal_failed');
  return {...made, grants, removalFailed: overrides.removalFailed ?? removalFailed};
}

/** Changes the purchase's seat, as the worker's actions do: its `access` and its grant alike. */
function setSeat(found: AdminPurchaseDetail, status: AdminGrant['status'], username = found.access?.username) {
  if (username === undefined) return;
  found.access = {status, username, usernameChanges: found.access?.usernameChanges ?? 0};
  found.grants = [...seatGrant(found.access, false), ...found.grants.filter((grant) => grant.key !== 'kit')];
}

export function defaultStore(): AdminStore {
  return {
    sales: salesSummary(),
    funnel: funnelSummary(),
    purchases: [
      purchase(),
      purchase({
        sessionId: 'cs_test_bob',
        createdAt: NOW - 2 * DAY_MS,
        email: 'bob@example.com',
        plan: 'Starter',
        amount: 6900,
        state: 'refunded',
        access: {status: 'removal_failed', username: 'bobby', usernameChanges: 0},
        history: [],
      }),
    ],
    jobs: [],
    releases: [],
    audit: {
      repository: REPOSITORY,
      key: null,
      extraRepositories: [],
      checkedAt: NOW,
      counts: {paid: 0, collaborators: 0, invited: 0},
      differences: [],
      exempt: [REPOSITORY_OWNER],
      invitations: EMPTY_WINDOW,
      fixAllLimits: REPOSITORY_FIX_ALL_LIMITS,
    },
    extraAudits: {},
    leads: [],
    selfRefunds: [],
    launchCodes: [],
    affiliates: [],
    stripeConnect: false,
    stripeTransfer: 'made',
    log: [],
    pageSize: 25,
    confirmationAfterReads: 1,
  };
}

/** The route of ADMIN_PATHS a path is, with its parameters. */
function routeOf(path: string): {
  route: string;
  sessionId?: string;
  jobId?: number;
  releaseId?: number;
  codeId?: string;
  affiliateId?: string;
} | null {
  for (const route of Object.values(ADMIN_PATHS)) {
    const pattern = new RegExp(
      `^${route.replace(':sessionId', '(?<sessionId>[^/]+)').replace(':jobId', '(?<jobId>\\d+)').replace(':releaseId', '(?<releaseId>\\d+)').replace(':codeId', '(?<codeId>[^/]+)').replace(':affiliateId', '(?<affiliateId>[^/]+)').replace('.', '\\.')}$`,
    );
    const match = pattern.exec(path);
    if (match) {
      const {sessionId, jobId, releaseId, codeId, affiliateId} = match.groups ?? {};
      return {
        route,
        sessionId: sessionId && decodeURIComponent(sessionId),
        jobId: jobId ? Number(jobId) : undefined,
        releaseId: releaseId ? Number(releaseId) : undefined,
        codeId,
        affiliateId: affiliateId && decodeURIComponent(affiliateId),
      };
    }
  }
  return null;
}

function pageOf<T>(items: T[], query: URLSearchParams, pageSize: number): Page<T> {
  const page = Math.max(1, Number(query.get('page') ?? 1));
  return {items: items.slice((page - 1) * pageSize, page * pageSize), page, pageSize, total: items.length};
}

export async function startAdminWorkerStub(): Promise<AdminWorkerStub> {
  let store = defaultStore();
  const requests: SeenRequest[] = [];
  const refusals = new Map<string, {status: number; body: ErrorBody}>();
  let logId = 0;

  function log(action: AdminAction, sessionId: string | null, detail: string | null) {
    store.log.unshift({
      id: ++logId,
      at: NOW + logId * 1000,
      admin: ADMIN_EMAIL,
      action,
      outcome: 'done',
      sessionId,
      detail,
    });
  }

  /**
   * As the worker does for an upgrade's session: that payment only; Stripe's webhook then takes a
   * fully refunded upgrade back, and the purchase gives the plan it had before.
   */
  function refundUpgrade(owner: AdminPurchaseDetail, sessionId: string, seen: SeenRequest): [number, unknown] {
    const upgrade = owner.upgrades.find((entry) => entry.sessionId === sessionId)!;
    return refundOf(upgrade, seen, () => {
      upgrade.state = 'refunded';
      owner.plan = upgrade.fromPlan;
    });
  }

  /** Stripe's confirmations still on their way, by purchase: what each does, and after how many more reads. */
  const confirmations = new Map<string, {reads: number; confirm: () => void}[]>();

  /**
   * As the worker does: what is left is the worker's to know (409 when the page's figures are not
   * Stripe's); the amount refunded shows at once, and a full refund's confirmation (Stripe's
   * webhook) arrives `confirmationAfterReads` reads of the purchase later.
   */
  function refundOf(
    payment: {sessionId: string; amount: number | null; amountRefunded: number},
    seen: SeenRequest,
    confirm: () => void,
  ): [number, unknown] {
    const {amount, reason, refundedBefore} = seen.body as AdminRefundRequest;
    const left = (payment.amount ?? 0) - payment.amountRefunded;
    if (refundedBefore !== payment.amountRefunded)
      return [409, {error: 'This payment changed since the page was read.', code: 'CONFLICT'} satisfies ErrorBody];
    if (left <= 0)
      return [409, {error: 'This payment has already been refunded in full.', code: 'CONFLICT'} satisfies ErrorBody];
    if ((amount ?? left) > left)
      return [400, {error: `At most ${left} cents are left to refund on this payment.`} satisfies ErrorBody];
    payment.amountRefunded += amount ?? left;
    const full = payment.amountRefunded === payment.amount;
    if (full) {
      const owner = store.purchases.find(
        (entry) => entry === payment || entry.upgrades.includes(payment as AdminUpgrade),
      )!;
      confirmations.set(owner.sessionId, [
        ...(confirmations.get(owner.sessionId) ?? []),
        {reads: store.confirmationAfterReads, confirm},
      ]);
    }
    log('refund', payment.sessionId, `${amount ?? left} (${reason})`);
    return [
      200,
      {status: full ? 'refunded' : 'partly_refunded', detail: `${amount ?? left} refunded`} satisfies AdminActionResult,
    ];
  }

  /**
   * As the worker's seat refund does (worker/src/team/seatRefund.ts): priced from the purchase's
   * offer, the seats off the count at once, the members picked and then the newest ended.
   */
  function refundSeats(found: AdminPurchaseDetail, seen: SeenRequest): [number, unknown] {
    const {seats, members = [], refundedBefore} = seen.body as AdminRefundRequest & {seats: number};
    const offer = found.seatRefund;
    if (!offer || seats > offer.most || refundedBefore !== found.amountRefunded)
      return [409, {error: 'These seats cannot be refunded.', code: 'CONFLICT'} satisfies ErrorBody];
    found.amountRefunded += seatRefundAmount(offer.paid, offer.bought, seats);
    found.seats -= seats;
    const held = found.members.filter((member) => member.state === 'invited' || member.state === 'joined');
    // As the worker: its count of seats taken (a seat whose take-back is stuck included) says how many go.
    const past = Math.max(0, offer.held - (found.seats - 1));
    const ending = [
      ...held.filter((member) => members.includes(member.id)),
      ...held.filter((member) => !members.includes(member.id)),
    ].slice(0, past);
    for (const member of ending) Object.assign(member, {state: 'removed', endReason: 'seats_refunded'});
    found.seatRefund = {
      ...offer,
      most: offer.most - seats,
      refunded: offer.refunded + seats,
      held: offer.held - ending.length,
    };
    log('refund', found.sessionId, `${seats} seats (${members.join(', ') || 'the newest'})`);
    return [200, {status: 'seats_refunded', detail: `${ending.length} lost theirs`} satisfies AdminActionResult];
  }

  /** A read of the purchase: Stripe's confirmations due by now have arrived. */
  function read(found: AdminPurchaseDetail): AdminPurchaseDetail {
    const waiting = (confirmations.get(found.sessionId) ?? []).map((entry) => ({...entry, reads: entry.reads - 1}));
    for (const entry of waiting) if (entry.reads <= 0) entry.confirm();
    confirmations.set(
      found.sessionId,
      waiting.filter((entry) => entry.reads > 0),
    );
    return found;
  }

  /** As the worker does for an upgrade's session: that upgrade's flag clears, logged on its purchase. */
  function acceptUpgradeCard(owner: AdminPurchaseDetail, sessionId: string): [number, unknown] {
    const upgrade = owner.upgrades.find((entry) => entry.sessionId === sessionId)!;
    if (upgrade.fairPrice?.review !== 'flagged')
      return [409, {error: 'This upgrade is not flagged.', code: 'CONFLICT'} satisfies ErrorBody];
    upgrade.fairPrice = {...upgrade.fairPrice, review: 'accepted'};
    owner.flaggedUpgrade = owner.upgrades.find((entry) => entry.fairPrice?.review === 'flagged')?.fairPrice ?? null;
    log('accept_card_country', owner.sessionId, `card accepted, on the upgrade's payment (${sessionId})`);
    return [200, {status: 'accepted', detail: 'card accepted'} satisfies AdminActionResult];
  }

  /** The purchases a query means, as the worker reads it: search, state, plan, then the order. */
  function matchingPurchases(query: URLSearchParams): AdminPurchaseDetail[] {
    const q = (query.get('q') ?? '').toLowerCase();
    const [state, plan, sort, flagged] = [
      query.get('state'),
      query.get('plan'),
      query.get('sort') ?? 'newest',
      query.get('flagged'),
    ];
    const order: Record<string, (a: AdminPurchaseDetail, b: AdminPurchaseDetail) => number> = {
      newest: (a, b) => b.createdAt - a.createdAt,
      oldest: (a, b) => a.createdAt - b.createdAt,
      amount_high: (a, b) => (b.amount ?? 0) - (a.amount ?? 0),
      amount_low: (a, b) => (a.amount ?? 0) - (b.amount ?? 0),
    };
    return store.purchases
      .filter(
        (entry) =>
          !q || [entry.email, entry.sessionId, entry.access?.username].some((text) => text?.toLowerCase().includes(q)),
      )
      .filter((entry) => !state || entry.state === state)
      .filter((entry) => !plan || entry.plan === plan)
      .filter(
        (entry) =>
          flagged !== 'card_country' ||
          entry.fairPrice?.review === 'flagged' ||
          entry.upgrades.some((upgrade) => upgrade.fairPrice?.review === 'flagged'),
      )
      .sort(order[sort]);
  }

  /** What the worker answers: [status, body]; a string body is sent as CSV. */
  function answer(
    seen: SeenRequest,
    params: {sessionId?: string; jobId?: number; releaseId?: number; codeId?: string; affiliateId?: string},
  ): [number, unknown] {
    const found = store.purchases.find((entry) => entry.sessionId === params.sessionId);
    // The refund route also takes an upgrade's session: it refunds that payment only.
    const upgradeOwner = store.purchases.find((entry) =>
      entry.upgrades.some((upgrade) => upgrade.sessionId === params.sessionId),
    );
    if (upgradeOwner && `${seen.method} ${seen.route}` === `POST ${ADMIN_PATHS.refund}`)
      return refundUpgrade(upgradeOwner, params.sessionId!, seen);
    // So does the accept of a card's country: that upgrade's own payment.
    if (upgradeOwner && `${seen.method} ${seen.route}` === `POST ${ADMIN_PATHS.acceptCardCountry}`)
      return acceptUpgradeCard(upgradeOwner, params.sessionId!);
    if (params.sessionId !== undefined && !found)
      return [404, {error: 'No such purchase.', code: 'NOT_FOUND'} satisfies ErrorBody];
    switch (`${seen.method} ${seen.route}`) {
      case `GET ${ADMIN_PATHS.sales}`: {
        // The period the console asked for comes back, as the worker's does; the figures are the store's.
        const period = seen.query.get('period') ?? store.sales.period;
        if (!(SALES_PERIODS as readonly string[]).includes(period))
          return [400, {error: `period must be one of ${SALES_PERIODS.join(', ')}`} satisfies ErrorBody];
        return [200, {...store.sales, period: period as SalesPeriod}];
      }
      case `GET ${ADMIN_PATHS.funnel}`: {
        const period = seen.query.get('period') ?? store.funnel.period;
        if (!(SALES_PERIODS as readonly string[]).includes(period))
          return [400, {error: `period must be one of ${SALES_PERIODS.join(', ')}`} satisfies ErrorBody];
        return [200, {...store.funnel, period: period as SalesPeriod}];
      }
      case `GET ${ADMIN_PATHS.purchases}`:
        return [
          200,
          pageOf(
            matchingPurchases(seen.query).map(
              ({history: _h, paymentIntentId: _p, customerId: _c, userId: _u, upgrades: _g, ...row}) => row,
            ),
            seen.query,
            store.pageSize,
          ),
        ];
      case `GET ${ADMIN_PATHS.purchasesCsv}`:
        return [
          200,
          ['email,state', ...matchingPurchases(seen.query).map((entry) => `${entry.email},${entry.state}`)].join('\n') +
            '\n',
        ];
      case `GET ${ADMIN_PATHS.purchase}`:
        return [200, read(found!)];
      case `POST ${ADMIN_PATHS.grant}`: {
        // As the worker: the account named is invited; none gives back only what the seller's revocation took.
        const {username, member: memberId} = seen.body as AdminGrantRequest;
        if (memberId !== undefined) {
          // As the worker: a joined member still holding a seat of this purchase moves to the account.
          const member = found!.members.find((entry) => entry.id === memberId && entry.state === 'joined');
          if (!member)
            return [
              409,
              {error: 'This member no longer holds a seat of this team.', code: 'CONFLICT'} satisfies ErrorBody,
            ];
          Object.assign(member, {username, access: 'pending'});
          log('grant', found!.sessionId, `@${username} (seat ${member.seat})`);
          return [
            200,
            {status: 'invited', detail: `@${username}: invited (seat ${member.seat})`} satisfies AdminActionResult,
          ];
        }
        if (username === undefined) {
          if (found!.revokedBySellerAt === null || found!.access)
            return [400, {error: 'Name the GitHub account to invite.'} satisfies ErrorBody];
          found!.revokedBySellerAt = null;
          log('grant', found!.sessionId, 'access given back');
          return [200, {status: 'granted', detail: 'access given back'} satisfies AdminActionResult];
        }
        setSeat(found!, 'pending', username);
        found!.revokedBySellerAt = null;
        found!.history.push({at: NOW + 5000, kind: 'admin', summary: `Granted @${username}`});
        log('grant', found!.sessionId, `@${username}`);
        return [200, {status: 'invited', detail: `@${username}: invited`} satisfies AdminActionResult];
      }
      case `POST ${ADMIN_PATHS.revoke}`:
        // As the worker: a paid purchase's right to the code, with its seat if it has one.
        if (found!.state !== 'paid' || found!.revokedBySellerAt !== null)
          return [409, {error: 'Nothing to revoke.', code: 'CONFLICT'} satisfies ErrorBody];
        found!.revokedBySellerAt = NOW + 5000;
        // Every repository's grant is taken back.
        setSeat(found!, 'revoked');
        found!.grants = found!.grants.map((grant) => ({...grant, status: 'revoked'}));
        log('revoke', found!.sessionId, null);
        return [
          200,
          {
            status: 'revoked',
            detail: found!.access ? `@${found!.access.username}: access revoked` : 'access revoked',
          } satisfies AdminActionResult,
        ];
      case `POST ${ADMIN_PATHS.resend}`: {
        // As the worker: only a pending grant of that key (the kit's when none is named) whose invitation expired.
        const key = (seen.body as {key?: string} | null)?.key ?? 'kit';
        // A team member's seat: the worker asks GitHub; here, a member still holding a pending one is invited afresh.
        const seat = (seen.body as {seat?: number} | null)?.seat ?? 1;
        if (seat !== 1) {
          const member = found!.members.find((entry) => entry.seat === seat && entry.state === 'joined');
          if (!member || member.access !== 'pending')
            return [409, {error: 'This seat has no pending invitation.', code: 'CONFLICT'} satisfies ErrorBody];
          log('resend', found!.sessionId, `seat ${seat}`);
          return [
            200,
            {status: 'invited', detail: `@${member.username}: invited (seat ${seat})`} satisfies AdminActionResult,
          ];
        }
        const grant = found!.grants.find((entry) => entry.key === key);
        if (!grant || grant.status !== 'pending' || !grant.expired) {
          return [
            409,
            {
              error: 'The invitation has not expired: the buyer accepted it, or GitHub still honours it.',
              code: 'CONFLICT',
            } satisfies ErrorBody,
          ];
        }
        grant.expired = false;
        log('resend', found!.sessionId, key === 'kit' ? null : `${key}: invited`);
        return [200, {status: 'invited', detail: `@${grant.username}: invited`} satisfies AdminActionResult];
      }
      case `POST ${ADMIN_PATHS.acceptCardCountry}`:
        if (found!.fairPrice?.review !== 'flagged')
          return [409, {error: 'This purchase is not flagged.', code: 'CONFLICT'} satisfies ErrorBody];
        found!.fairPrice = {...found!.fairPrice, review: 'accepted'};
        log('accept_card_country', found!.sessionId, null);
        return [200, {status: 'accepted', detail: 'card accepted'} satisfies AdminActionResult];
      case `POST ${ADMIN_PATHS.takeBackMember}`: {
        // As the worker: a member holding a seat of this purchase; an invitation is withdrawn, a seat ended.
        const {member: memberId} = seen.body as TakeBackMemberRequest;
        const member = found!.members.find(
          (entry) => entry.id === memberId && (entry.state === 'joined' || entry.state === 'invited'),
        );
        if (!member)
          return [
            409,
            {error: 'This member no longer holds a seat of this team.', code: 'CONFLICT'} satisfies ErrorBody,
          ];
        const state = member.state === 'invited' ? 'withdrawn' : 'removed';
        Object.assign(member, {state, endReason: 'seller', access: member.access === 'none' ? 'none' : 'revoked'});
        log('take_back_member', found!.sessionId, `seat ${member.seat}`);
        return [200, {status: state, detail: `seat ${member.seat} taken back`} satisfies AdminActionResult];
      }
      case `POST ${ADMIN_PATHS.resetUsernameChanges}`:
        if (found!.access) found!.access.usernameChanges = 0;
        log('reset_username_changes', found!.sessionId, null);
        return [
          200,
          {status: 'reset', detail: 'the purchase may change its GitHub account again'} satisfies AdminActionResult,
        ];
      case `POST ${ADMIN_PATHS.refund}`:
        if ((seen.body as AdminRefundRequest).seats !== undefined) return refundSeats(found!, seen);
        // Stripe's webhook then revokes the seat and the extra repositories of a full refund.
        return refundOf(found!, seen, () => {
          found!.state = 'refunded';
          setSeat(found!, 'revoked');
          found!.grants = found!.grants.map((grant) => ({...grant, status: 'revoked'}));
        });
      case `GET ${ADMIN_PATHS.jobs}`:
        return [200, store.jobs];
      case `POST ${ADMIN_PATHS.retryJob}`: {
        const job = store.jobs.find((entry) => entry.id === params.jobId);
        if (!job) return [404, {error: 'No such job.', code: 'NOT_FOUND'} satisfies ErrorBody];
        store.jobs = store.jobs.filter((entry) => entry !== job);
        log('retry_job', job.sessionId, `job ${job.id}`);
        return [200, {status: 'done', detail: `job ${job.id}: done`} satisfies AdminActionResult];
      }
      case `GET ${ADMIN_PATHS.releases}`:
        return [200, store.releases];
      case `POST ${ADMIN_PATHS.releaseResend}`: {
        const release = store.releases.find((entry) => entry.id === params.releaseId);
        if (!release) return [404, {error: 'There is no release with that id.', code: 'NOT_FOUND'} satisfies ErrorBody];
        if (release.failed === 0)
          return [
            409,
            {
              error: 'No e-mail of this release failed: there is nobody to send it to again.',
              code: 'CONFLICT',
            } satisfies ErrorBody,
          ];
        // As the worker: the failed addresses are queued again (waiting), and sent as the outbox runs.
        const addresses = release.failed;
        store.releases = store.releases.map((entry) =>
          entry === release ? {...entry, failed: 0, failures: [], waiting: entry.waiting + addresses} : entry,
        );
        log('resend_release', null, `release ${release.id}: ${addresses} addresses`);
        return [
          200,
          {
            status: 'sending_again',
            detail: `release ${release.id}: sent again to the ${addresses} addresses whose e-mail failed`,
          } satisfies AdminActionResult,
        ];
      }
      case `GET ${ADMIN_PATHS.repositoryAudit}`: {
        const key = seen.query.get('repository') ?? undefined;
        return key === undefined
          ? [200, store.audit]
          : store.extraAudits[key]
            ? [200, store.extraAudits[key]]
            : [404, {error: `There is no extra repository "${key}".`, code: 'NOT_FOUND'} satisfies ErrorBody];
      }
      case `POST ${ADMIN_PATHS.repositoryFix}`: {
        const fix = seen.body as RepositoryFixRequest;
        const audit = fix.repository === undefined ? store.audit : store.extraAudits[fix.repository]!;
        const fixed = {
          ...audit,
          differences: audit.differences.filter(
            (entry) => entry.kind !== fix.kind || entry.githubUserId !== fix.githubUserId,
          ),
        };
        if (fix.repository === undefined) store.audit = fixed;
        else store.extraAudits[fix.repository] = fixed;
        log('repository_fix', null, `${fix.kind} ${fix.githubUserId}`);
        return [200, {status: 'fixed', detail: `fixed ${fix.githubUserId}`} satisfies AdminActionResult];
      }
      case `POST ${ADMIN_PATHS.repositoryFixAll}`: {
        // As the worker: the accounts are its own list, up to the kind's limit; the body names only the kind.
        const {kind, repository} = seen.body as RepositoryFixAllRequest;
        const audit = repository === undefined ? store.audit : store.extraAudits[repository]!;
        const found = audit.differences.filter((entry) => entry.kind === kind);
        const fixed = found.slice(0, audit.fixAllLimits[kind]);
        const after = {...audit, differences: audit.differences.filter((entry) => !fixed.includes(entry))};
        if (repository === undefined) store.audit = after;
        else store.extraAudits[repository] = after;
        for (const entry of fixed) log('repository_fix', entry.sessionId, `${kind} ${entry.githubUserId}`);
        const left = found.length - fixed.length;
        return [
          200,
          {
            kind,
            status: left > 0 ? 'partly_fixed' : 'fixed',
            detail: `fixed ${fixed.length}`,
            done: fixed.length,
            failed: [],
            left,
          } satisfies RepositoryFixAllResult,
        ];
      }
      case `GET ${ADMIN_PATHS.leads}`:
        return [200, pageOf(store.leads, seen.query, store.pageSize)];
      case `GET ${ADMIN_PATHS.leadsCsv}`:
        return [
          200,
          [
            'email,created_at',
            ...store.leads.map((lead) => `${lead.email},${new Date(lead.createdAt).toISOString()}`),
          ].join('\n') + '\n',
        ];
      case `GET ${ADMIN_PATHS.selfRefunds}`:
        return [200, pageOf(store.selfRefunds, seen.query, store.pageSize)];
      case `GET ${ADMIN_PATHS.launchCodes}`:
        return [200, {items: store.launchCodes}];
      case `POST ${ADMIN_PATHS.createLaunchCode}`: {
        // As the worker: a code not ended nor past its end date (used up too), whatever its case, is
        // refused; Stripe checks the rest.
        const body = seen.body as LaunchCodeBody;
        const twin = store.launchCodes.find(
          (entry) =>
            entry.state !== 'ended' &&
            entry.state !== 'expired' &&
            entry.code.toUpperCase() === body.code.toUpperCase(),
        );
        if (twin) return [409, {error: LAUNCH_CODE_WORDS.codeTaken(twin.code), code: 'CONFLICT'} satisfies ErrorBody];
        if (body.forUpgrades && body.firstTimeOnly)
          return [400, {error: LAUNCH_CODE_WORDS.upgradeFirstTime} satisfies ErrorBody];
        const made: AdminLaunchCode = {
          // As the worker names them: an upgrade code is its own (`upcode_` and 24 hex digits), never Stripe's.
          id: body.forUpgrades
            ? `upcode_${(store.launchCodes.length + 1).toString(16).padStart(24, '0')}`
            : `promo_${store.launchCodes.length + 1}${body.code.replace(/-/g, '')}`,
          code: body.code,
          percentOff: body.percentOff ?? null,
          amountOff: body.amountOff ?? null,
          currency: PLAN_CURRENCY,
          maxUses: body.maxUses ?? null,
          endsAt: body.endsAt ?? null,
          firstTimeOnly: body.firstTimeOnly ?? false,
          forUpgrades: body.forUpgrades ?? false,
          plan: body.plan ?? null,
          createdAt: NOW,
          endedAt: null,
          state: 'active',
          uses: 0,
          held: 0,
          revenue: 0,
        };
        store.launchCodes = [made, ...store.launchCodes];
        log('create_code', null, body.code);
        return [201, made];
      }
      case `POST ${ADMIN_PATHS.endLaunchCode}`: {
        const code = store.launchCodes.find((entry) => entry.id === params.codeId);
        if (!code) return [404, {error: LAUNCH_CODE_WORDS.notOurs, code: 'NOT_FOUND'} satisfies ErrorBody];
        if (code.endedAt !== null)
          return [409, {error: LAUNCH_CODE_WORDS.alreadyEnded, code: 'CONFLICT'} satisfies ErrorBody];
        store.launchCodes = store.launchCodes.map((entry) =>
          entry === code ? {...entry, endedAt: NOW + 5000, state: 'ended'} : entry,
        );
        log('end_code', null, `${code.code} ended`);
        return [200, {status: 'ended', detail: LAUNCH_CODE_ENDING.done(code)} satisfies AdminActionResult];
      }
      case `GET ${ADMIN_PATHS.affiliates}`: {
        const sum = (key: 'pending' | 'payable' | 'paid' | 'owedBack') =>
          store.affiliates.reduce((total, entry) => total + entry.totals[key], 0);
        return [
          200,
          {
            items: store.affiliates,
            totals: {
              currency: PLAN_CURRENCY,
              pending: sum('pending'),
              payable: sum('payable'),
              paid: sum('paid'),
              owedBack: sum('owedBack'),
            },
            asOf: Date.now(),
            stripeConnect: store.stripeConnect,
          },
        ];
      }
      case `GET ${ADMIN_PATHS.affiliatesCsv}`:
        return [
          200,
          [
            'code,email,pending,payable,paid',
            ...store.affiliates.map(
              ({code, email, totals}) => `${code},${email},${totals.pending},${totals.payable},${totals.paid}`,
            ),
          ].join('\n') + '\n',
        ];
      case `POST ${ADMIN_PATHS.affiliatePayout}`: {
        // As the worker: what is payable now, and only if it is the amount the seller saw.
        const affiliate = store.affiliates.find((entry) => entry.id === params.affiliateId);
        if (!affiliate) return [404, {error: 'There is no such affiliate.', code: 'NOT_FOUND'} satisfies ErrorBody];
        const {amount, method = 'marked', reference = ''} = seen.body as AffiliatePayoutRequest;
        const {payable, currency} = affiliate.totals;
        const refused = (error: string): [number, ErrorBody] => [409, {error, code: 'CONFLICT'}];
        if (method === 'stripe' && !store.stripeConnect) return refused(AFFILIATE_WORDS.connectOff);
        if (method === 'stripe' && affiliate.stripe !== 'ready') return refused(AFFILIATE_WORDS.stripeNotReady);
        if (payable === 0) return refused(AFFILIATE_WORDS.payoutNothing);
        if (amount !== payable) return refused(AFFILIATE_WORDS.payoutChanged(payable, currency));
        if (method === 'stripe' && store.stripeTransfer === 'insufficient')
          return refused(AFFILIATE_WORDS.transferRefused(AFFILIATE_WORDS.balanceInsufficient));
        // A transfer Stripe has not answered has no id yet; its commissions are the payout's all the same.
        const sending = method === 'stripe' && store.stripeTransfer === 'sending';
        const transferId = `tr_stub${String(logId + 1).padStart(4, '0')}`;
        const lastPayout = {
          amount: payable,
          reference: method === 'marked' ? reference.trim() : sending ? '' : transferId,
          at: NOW,
          method,
          state: sending ? 'sending' : 'made',
        } as const;
        store.affiliates = store.affiliates.map((entry) =>
          entry === affiliate
            ? {...entry, totals: {...entry.totals, payable: 0, paid: entry.totals.paid + payable}, lastPayout}
            : entry,
        );
        log('affiliate_payout', null, `${affiliate.code}: ${payable} (${lastPayout.reference || 'sending'})`);
        if (method === 'marked')
          return [200, {status: 'paid', detail: `${affiliate.code}: ${payable} paid`} satisfies AdminActionResult];
        return sending
          ? [
              202,
              {
                status: 'sending',
                detail: AFFILIATE_WORDS.transferSending(payable, currency),
              } satisfies AdminActionResult,
            ]
          : [
              200,
              {
                status: 'paid',
                detail: AFFILIATE_WORDS.transferMade(payable, currency, transferId),
              } satisfies AdminActionResult,
            ];
      }
      case `GET ${ADMIN_PATHS.auditLog}`:
        return [200, pageOf(store.log, seen.query, store.pageSize)];
      default:
        return [404, {error: 'Not found', code: 'NOT_FOUND'} satisfies ErrorBody];
    }
  }

  const server = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      const url = new URL(request.url!, 'http://stub');
      const matched = routeOf(url.pathname);
      const seen: SeenRequest = {
        method: request.method!,
        route: matched?.route ?? url.pathname,
        path: url.pathname,
        query: url.searchParams,
        authorization: request.headers.authorization,
        body: raw ? JSON.parse(raw) : undefined,
      };
      requests.push(seen);
      const refusal = refusals.get(seen.route) ?? refusals.get('*');
      const [status, body] = refusal
        ? [refusal.status, refusal.body]
        : matched
          ? answer(seen, matched)
          : [404, {error: 'Not found'}];
      response.writeHead(status, {'Content-Type': typeof body === 'string' ? 'text/csv' : 'application/json'});
      response.end(typeof body === 'string' ? body : JSON.stringify(body));
    });
  });

  const running = await listen(server);
  return {
    url: running.url,
    get store() {
      return store;
    },
    requests,
    actions: () => requests.filter((seen) => seen.method === 'POST'),
    refuse: (route, status, body) => refusals.set(route, {status, body}),
    confirmRefunds: () => {
      for (const waiting of confirmations.values()) for (const entry of waiting) entry.reads = 1;
    },
    reset: (overrides = {}) => {
      store = {...defaultStore(), ...overrides};
      requests.length = 0;
      refusals.clear();
      confirmations.clear();
      logId = 0;
    },
    close: running.close,
  };
}

/** One stand-in for a test file, fresh (default store, no requests) before each test. */
export function useAdminWorkerStub(): () => AdminWorkerStub {
  let stub: AdminWorkerStub | undefined;
  beforeAll(async () => {
    stub = await startAdminWorkerStub();
  });
  beforeEach(() => stub?.reset());
  afterAll(() => stub?.close());
  return () => {
    if (!stub) throw new Error('The admin stand-in is not started yet: call it inside a test.');
    return stub;
  };
}
