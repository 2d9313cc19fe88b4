/**
 * The contract's values, which the site needs at run time: where each endpoint is, the statuses and
 * states, the error codes and the anti-forgery names. No zod: the site's bundle imports this.
 * What each endpoint takes and answers is `apiSchemas.ts`; the endpoints themselves, `contract.ts`.
 */
import {appConfig} from './app';

/**
 * Where the worker answers on the site's own origin: one Worker that also serves the built site
 * (`wrangler deploy --env site`), a host's rewrite, or the dev server's proxy. The site then calls
 * it with relative URLs: no CORS preflight, and the anti-forgery cookie reaches it.
 */
export const SAME_ORIGIN_PREFIX = '/api';

/** The anti-forgery token (§7): the worker sets the cookie; the site echoes it in the header. */
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'X-XSRF-TOKEN';

/**
 * An endpoint's URL at a base: the worker's origin (`https://api.example.com`), or the
 * same-origin prefix. Paths already under the prefix (leads, webhooks) are not prefixed twice.
 */
export function apiUrl(baseUrl: string, path: string): string {
  if (baseUrl === SAME_ORIGIN_PREFIX && (path === SAME_ORIGIN_PREFIX || path.startsWith(`${SAME_ORIGIN_PREFIX}/`)))
    return path;
  return `${baseUrl}${path}`;
}

/** Where each endpoint is, on the worker's origin (or under SAME_ORIGIN_PREFIX on the site's). */
export const API_PATHS = {
  createCheckoutSession: '/createCheckoutSession',
  userHasPaid: '/userHasPaid',
  retrieveUserFromCheckoutSession: '/retrieveUserFromCheckoutSession',
  /**
   * POST {sessionId, claim}: whether the checkout the payer's browser came back from is paid, for
   * the success page. Consumes nothing. See CheckoutStatusRequest.
   */
  checkoutStatus: '/checkoutStatus',
  createBillingPortal: '/createBillingPortal',
  refundPurchase: '/refundPurchase',
  addUserToRepo: '/addUserToRepo',
  accessStatus: '/accessStatus',
  resendInvitation: '/resendInvitation',
  /** GET: the signed-in owner's team purchase, its seats and members. See Team. */
  team: '/team',
  /** POST {email} or {username}: the owner gives a free seat to a member. See TeamMemberRequest. */
  addTeamMember: '/addTeamMember',
  /** POST {seat}: the owner removes a member (their access is taken back) or withdraws an invitation. */
  removeTeamMember: '/removeTeamMember',
  /** POST {seat}: the owner sends an invited member a new link, the old one ending. */
  resendTeamInvitation: '/resendTeamInvitation',
  /** POST {token}: a signed-in member takes the seat their e-mailed link offers. See JoinTeamRequest. */
  joinTeam: '/joinTeam',
  /** POST: a one-time link to download the code, for a paid buyer (see DownloadLink). */
  downloadLink: '/downloadLink',
  /** GET /download/:token: the code as a .zip, streamed from GitHub; each link works once. */
  download: '/download',
  /**
   * GET: "What's new", the releases the signed-in buyer's paid plans entitle them to, newest first,
   * their notes rendered safely; and whether release e-mails go to them. See BuyerReleases.
   */
  releases: '/releases',
  /** POST {subscribed}: the signed-in buyer turns release e-mails on again (or off). See ReleaseEmailsRequest. */
  releaseEmails: '/releaseEmails',
  /**
   * GET: the signed-in buyer's own purchases with where to read each one's receipt (Stripe's hosted
   * invoice, else the payment's receipt), read from Stripe by the worker. See BuyerReceipts.
   */
  receipts: '/receipts',
  /**
   * GET: the visitor's country (from Cloudflare, never from the browser), its fair-price discount
   * and what each plan costs there, from the same calculation as the checkout. See PricesResponse.
   */
  prices: '/prices',
  /**
   * GET: the signed-in buyer's plan now (upgrades included) and the upgrades on offer, each priced
   * by the worker from its own record of the purchase. See BuyerPlan.
   */
  upgrades: '/upgrades',
  /**
   * POST {planId, successUrl, cancelUrl}: a Checkout Session for upgrading the buyer's paid purchase
   * to that plan, for the difference the worker computes. See CreateUpgradeSessionRequest.
   */
  createUpgradeSession: '/createUpgradeSession',
  /**
   * POST {code}: a visit through an affiliate's link (`?via=code`), counted once per visitor and
   * day. Answers the visit's id, which the browser keeps and sends with its checkout. See AffiliateVisit.
   */
  affiliateVisit: '/affiliateVisit',
  /** GET: the signed-in user's affiliate link and figures, or the programme's terms to join. See AffiliateAnswer. */
  affiliate: '/affiliate',
  /** POST {code}: the signed-in user joins the affiliate programme with the code they named. See JoinAffiliatesRequest. */
  joinAffiliates: '/joinAffiliates',
  /**
   * POST: the signed-in affiliate sets up payouts through Stripe (the programme's `stripeConnect`):
   * the worker makes their Express account once, and answers a single-use Stripe link to finish
   * setting it up, or to their Stripe dashboard once it is ready. See AffiliateConnectAnswer.
   */
  affiliateConnect: '/affiliateConnect',
  /** POST: the site says a sign-in just finished (an e-mail link, a reset), before anything else. */
  signedIn: '/signedIn',
  leads: '/api/leads',
  stripeWebhook: '/api/webhook/stripe',
  mailgunWebhook: '/api/webhook/mailgun',
  /**
   * POST: Mailgun's event webhooks (tick "Delivered" and "Permanent failure"), signed with
   * MAILGUN_WEBHOOK_SIGNING_KEY. Events of release e-mails move the console's per-buyer counts;
   * others are answered 200 and ignored. See MailgunEventsResult.
   */
  mailgunEvents: '/api/webhook/mailgun/events',
  /**
   * POST: GitHub's `release` webhook (signed with GITHUB_WEBHOOK_SECRET). A published release that
   * is neither a draft nor a pre-release is e-mailed to the buyers entitled to it. See ReleaseWebhookResult.
   */
  githubWebhook: '/api/webhook/github',
  /**
   * `/api/unsubscribe/<token>`: the signed one-click link (RFC 8058) of every release e-mail and of
   * a checkout's reminder. POST unsubscribes from both, with no sign-in; GET shows a page with the
   * button that does.
   */
  releaseUnsubscribe: '/api/unsubscribe',
  /** Plausible's script and events, proxied: `/plausible/js/script.js`, `/plausible/api/event`. */
  plausible: '/plausible',
  /**
   * GET: whether the caller's own account may open the seller's console, for the account menu's
   * link to it (display only: every ADMIN_PATHS call still checks). See IsAdminResponse.
   */
  isAdmin: '/isAdmin',
  /** The seller's console (admins only): see ADMIN_PATHS. */
  admin: '/admin',
  /** GET: this API's OpenAPI 3.1 document, written from the contract (src/config/openApi.ts). */
  openApi: '/openapi.json',
} as const;

/** Plausible's own paths, the same under our proxy's prefix (API_PATHS.plausible). */
export const PLAUSIBLE_PATHS = {script: '/js/script.js', event: '/api/event'} as const;

/**
 * What Stripe's success URL carries back to the payer's browser: the Checkout Session id (which its
 * creator knows too) and the claim, a secret the worker put in that URL only, so that the sign-in
 * follows whoever paid, not whoever started the checkout.
 */
export const CHECKOUT_RETURN_PARAMS = {sessionId: 'sessionId', claim: 'claim'} as const;
/** The claim's form: 32 random bytes, base64url. */
export const CHECKOUT_CLAIM_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * What the worker read from Stripe (and recorded) for that checkout: `paid`; `processing`, completed
 * with a payment Stripe has not confirmed yet (a bank debit takes days; the welcome e-mail goes once
 * it is); `unpaid`, never completed (nothing charged); `failed`, the payment did not go through;
 * `revoked`, paid, then refunded or disputed: it no longer gives access to the code.
 */
export const CHECKOUT_STATUSES = ['paid', 'processing', 'unpaid', 'failed', 'revoked'] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

/**
 * A grant of one repository (the kit's, or a plan's extra one), as the worker records it: queued
 * (to be invited: waiting for the next run, or for GitHub's daily cap), pending (invited), active
 * (accepted), revoked (taken back: a refund, a dispute, an upgrade refunded, the seat moved),
 * `removal_failed` (taken back, but removing what the worker created on GitHub failed for good:
 * the account may still be there), failed (not granted; `detail` says why).
 */
export const GRANT_STATUSES = ['queued', 'pending', 'active', 'revoked', 'removal_failed', 'failed'] as const;

/**
 * Why a team member's seat ended (team_members.end_reason; src/config/teams.ts words each): the
 * owner removed them, seats were refunded or disputed, or the seller took the seat back.
 */
export const SEAT_END_REASON_KEYS = ['removed', 'seats_refunded', 'seller'] as const;
export type GrantStatus = (typeof GRANT_STATUSES)[number];

/**
 * What became of a purchase's payment, as the worker's records say (Stripe's webhooks): `paid`;
 * `partly_refunded` (part of it went back; the purchase and its access stay); `refunded` (in full:
 * access taken back, for good); `disputed` (the buyer's bank was asked to reverse it: access is
 * taken back while the dispute is open, and comes back if it closes in the seller's favour);
 * `dispute_lost` (the bank reversed it: access taken back, for good).
 */
export const PAYMENT_STATES = ['paid', 'partly_refunded', 'refunded', 'disputed', 'dispute_lost'] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];

// ---------------------------------------------------------------------------------------------
// The seller's console. Every admin route needs the ID token of a verified e-mail listed in the
// worker's ADMIN_EMAILS, and answers 403 ADMIN_ONLY to anyone else. Times are Unix milliseconds;
// amounts are in the currency's smallest unit (cents).

/** The console's endpoints; `:sessionId` and `:jobId` are filled in by `adminPath`. */
export const ADMIN_PATHS = {
  /** GET ?period=: revenue by day (or month) and plan over the period, refunds, disputes, totals. */
  sales: '/admin/sales',
  /** GET ?period=: the funnel, from visitors to the code delivered, beside the period before; what needs a look. */
  funnel: '/admin/funnel',
  /**
   * GET ?q=&state=&plan=&sort=&page=: purchases, searchable by e-mail, GitHub username or session
   * id, filtered by state and plan, sorted by `sort` (newest first when absent).
   */
  purchases: '/admin/purchases',
  /** GET, the same filters as `purchases`: every matching purchase as CSV, in that order. */
  purchasesCsv: '/admin/purchases.csv',
  /** GET: one purchase and its history. */
  purchase: '/admin/purchases/:sessionId',
  /** POST {username, member?}: invites that account for the purchase, or for that team member's seat (a move). */
  grant: '/admin/purchases/:sessionId/grant',
  /** POST: takes the purchase's access away. */
  revoke: '/admin/purchases/:sessionId/revoke',
  /**
   * POST {key?}: a fresh invitation for the same account to one repository of the purchase (the
   * kit's, or the plan's extra repository `key`), once its pending one expired (else 409).
   */
  resend: '/admin/purchases/:sessionId/resend',
  /**
   * POST: the seller accepts a purchase flagged because its card's country is not the one its
   * fair-price discount was given for (AdminFairPrice): the flag clears, the buyer keeps it all.
   * An upgrade's session accepts that upgrade's own payment, as `refund` takes it.
   */
  acceptCardCountry: '/admin/purchases/:sessionId/accept-card-country',
  /**
   * POST {member}: the seller takes back one team member's seat (AdminMember.id): their access is
   * taken back, their links stop, the seat is free again for the owner, and both are e-mailed why.
   */
  takeBackMember: '/admin/purchases/:sessionId/take-back-member',
  /** POST: the purchase may move its seat again, as if it never had. */
  resetUsernameChanges: '/admin/purchases/:sessionId/reset-username-changes',
  /**
   * POST {amount?, reason}: refunds the purchase's payment through Stripe, all that is left of it
   * or `amount` cents of it. Stripe's `charge.refunded` webhook then revokes a full refund's access.
   */
  refund: '/admin/purchases/:sessionId/refund',
  /** GET: the outbox's failed and retrying jobs. */
  jobs: '/admin/jobs',
  /** POST: runs a failed or waiting job again now. */
  retryJob: '/admin/jobs/:jobId/retry',
  /** GET: the repository's collaborators and invitations against the paid grants. */
  repositoryAudit: '/admin/repository-audit',
  /** POST {kind, githubUserId}: the one-click fix of one difference. */
  repositoryFix: '/admin/repository-audit/fix',
  /**
   * POST {kind}: fixes every difference of that kind, as the worker finds them now (never a list
   * from the browser), at most `REPOSITORY_FIX_ALL_LIMITS[kind]` in one call; the rest is counted.
   */
  repositoryFixAll: '/admin/repository-audit/fix-all',
  /** GET: each release announced, newest first, with how its e-mails went. See AdminRelease. */
  releases: '/admin/releases',
  /**
   * POST: queues the release's e-mail again for exactly the addresses whose e-mail failed, as the
   * worker recorded them (never a list from the browser); 409 when none failed.
   */
  releaseResend: '/admin/releases/:releaseId/resend',
  /** GET ?page=: the waitlist. */
  leads: '/admin/leads',
  /** GET: the whole waitlist as CSV. */
  leadsCsv: '/admin/leads.csv',
  /** GET ?page=: the refunds buyers made themselves (the guarantee, a withdrawal), with their reasons. */
  selfRefunds: '/admin/self-refunds',
  /** GET ?page=: what the admins did. */
  auditLog: '/admin/audit-log',
  /** GET: the launch codes made in the console, newest first, with their uses and revenue. */
  launchCodes: '/admin/codes',
  /** GET: the affiliates, with their clicks, sales and commission pending, payable and paid. */
  affiliates: '/admin/affiliates',
  /** GET: every commission as CSV, newest first: whom, on which purchase, how much, where it stands. */
  affiliatesCsv: '/admin/affiliates.csv',
  /**
   * POST {amount, reference}: the seller paid the affiliate what is payable; marks those commissions
   * paid. POST {amount, method: 'stripe'}: the worker sends it as a Stripe transfer to the
   * affiliate's connected account. See AffiliatePayoutRequest.
   */
  affiliatePayout: '/admin/affiliates/:affiliateId/payout',
  /**
   * POST {code, percentOff | amountOff, maxUses?, endsAt?, firstTimeOnly?, forUpgrades?, plan?}: a
   * Stripe promotion code, or with `forUpgrades` an upgrade code the worker keeps.
   */
  createLaunchCode: '/admin/codes',
  /** POST: ends the code (at Stripe, for a promotion code): no buyer can use it from then on. */
  endLaunchCode: '/admin/codes/:codeId/end',
} as const;

export function adminPath(
  path: string,
  params: {sessionId?: string; jobId?: number; releaseId?: number; codeId?: string; affiliateId?: string} = {},
): string {
  return path
    .replace(':sessionId', encodeURIComponent(params.sessionId ?? ''))
    .replace(':codeId', encodeURIComponent(params.codeId ?? ''))
    .replace(':affiliateId', encodeURIComponent(params.affiliateId ?? ''))
    .replace(':jobId', String(params.jobId ?? ''))
    .replace(':releaseId', String(params.releaseId ?? ''));
}

/** How many of a release's failed addresses the console lists (all are counted, and all sent again). */
export const MAX_LISTED_FAILURES = 100;

/**
 * The periods the console's figures cover, ending today (UTC): the last 7 or 30 days, by day; the
 * last 12 months, or all time, by month. 30 days when `?period=` is absent.
 */
export const SALES_PERIODS = ['7d', '30d', '12m', 'all'] as const;
export type SalesPeriod = (typeof SALES_PERIODS)[number];
export const DEFAULT_SALES_PERIOD: SalesPeriod = '30d';

/** What the console calls a purchase's state. */
export const PURCHASE_STATES = ['paid', 'refunded', 'disputed', 'open', 'failed'] as const;
export type PurchaseState = (typeof PURCHASE_STATES)[number];

/** How the purchases list may be sorted: by date or by amount, either way. */
export const PURCHASE_SORTS = ['newest', 'oldest', 'amount_high', 'amount_low'] as const;
export type PurchaseSort = (typeof PURCHASE_SORTS)[number];

/** What a purchase may be flagged for: a card from another country than its discount's (its own payment's, or an upgrade's). */
export const PURCHASE_FLAGS = ['card_country'] as const;
export type PurchaseFlag = (typeof PURCHASE_FLAGS)[number];

/** The reasons Stripe takes for a refund (`reason` of Create a refund). */
export const REFUND_REASONS = ['requested_by_customer', 'duplicate', 'fraudulent'] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

/** What the repository audit finds. */
export const REPOSITORY_DIFFERENCE_KINDS = [
  /** On the repository (collaborator or invitation) with no paid grant: invited by hand, or a removal that failed. */
  'unpaid_on_repository',
  /** A paid grant whose account is neither a collaborator nor invited. */
  'paid_missing',
  /** A revoked grant whose account is still a collaborator or invited. */
  'revoked_present',
] as const;
export type RepositoryDifferenceKind = (typeof REPOSITORY_DIFFERENCE_KINDS)[number];

/**
 * The most differences of a kind one fix-all call fixes. Invitations: GitHub accepts at most
 * `appConfig.repository.invitationsPerDay` per repository in 24 hours (more wait in the queue).
 * Removals: a hundred at a time. A call also stops where its subrequests would run out (50 on
 * Cloudflare's Free plan, SUBREQUEST_LIMIT): the audit says how many one call fixes there
 * (`RepositoryAudit.fixAllLimits`), and the rest stay listed for the next call.
 */
export const REPOSITORY_FIX_ALL_LIMITS: Record<RepositoryDifferenceKind, number> = {
  paid_missing: appConfig.repository.invitationsPerDay,
  unpaid_on_repository: 100,
  revoked_present: 100,
};

/** Every `code` an error answer may carry. */
export const ERROR_CODES = [
  'TOKEN_EXPIRED',
  'SESSION_ENDED',
  'RATE_LIMITED',
  'NOT_PAID',
  'SIGN_IN_REQUIRED',
  'SESSION_USED',
  'GITHUB_USER_NOT_FOUND',
  'GITHUB_ACCOUNT_TAKEN',
  'SWAP_LIMIT',
  'ACCESS_REVOKED',
  'GITHUB_REFUSED',
  'GITHUB_UNAVAILABLE',
  'INVITATION_CAP',
  'UNSUPPORTED_MEDIA_TYPE',
  'BAD_SIGNATURE',
  'STALE_SIGNATURE',
  'REPLAYED_SIGNATURE',
  'PAYMENT_PROVIDER',
  'UPSTREAM_UNAVAILABLE',
  'ANALYTICS_REFUSED',
  'NOT_CONFIGURED',
  'MISCONFIGURED',
  'AUTH_UNAVAILABLE',
  'ADMIN_ONLY',
  'NOT_FOUND',
  'CONFLICT',
  'XSRF_FAILED',
  'DOWNLOADS_OFF',
  'LINK_EXPIRED',
  'LINK_USED',
  'NOT_IN_PLAN',
  'REFUND_BY_SUPPORT',
  'TEAM_FULL',
  'OTHER_ADDRESS',
  'EMAIL_NOT_VERIFIED',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
