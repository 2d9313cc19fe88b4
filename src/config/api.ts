/**
 * The one contract between the site and the worker: every endpoint path, what each takes and
 * answers, the access statuses and the error codes. The site's client (`src/lib/api.ts`) is typed
 * from it, and the worker's routes and schemas are held to it, so a change on one side that the
 * other does not follow fails `npm run typecheck`. Plain TypeScript: both sides import it.
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
  addUserToRepo: '/addUserToRepo',
  accessStatus: '/accessStatus',
  resendInvitation: '/resendInvitation',
  resendExtraInvitation: '/resendExtraInvitation',
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
   * `/api/unsubscribe/<token>`: the signed one-click link of every release e-mail (RFC 8058). POST
   * unsubscribes from release e-mails, with no sign-in; GET shows a page with the button that does.
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
} as const;

/** POST /api/webhook/mailgun/events, once the signature is good: whether the event changed a release e-mail's record. */
export interface MailgunEventsResult {
  received: true;
  recorded: boolean;
}

/**
 * POST /api/webhook/github, once the signature is good: whether the delivery announced a release,
 * and to how many buyers (e-mailed in batches through the outbox), or why not.
 */
export interface ReleaseWebhookResult {
  announced: boolean;
  reason?: string;
  recipients?: number;
}

/** A release as the dashboard shows it. */
export interface ReleaseNote {
  tag: string;
  name: string;
  /** The notes as HTML the worker rendered from the Markdown: raw HTML as text, links only http(s). */
  notesHtml: string;
  /** The release's page on GitHub, when known. */
  url: string | null;
  publishedAt: number;
}

/**
 * GET /releases. A plan with updates is entitled to every release; one without, to those
 * published up to its purchase. `subscribed`: whether release e-mails go to the purchase's address.
 */
export interface BuyerReleases {
  releases: ReleaseNote[];
  includesUpdates: boolean;
  subscribed: boolean;
  /** The release a download serves now (DownloadLink.ref), marked next to the download; null before the first. */
  latestTag: string | null;
  /**
   * For a plan without updates: the releases published after the purchase, which it does not
   * list, how many and the newest (absent when there are none).
   */
  later?: {count: number; latest: {tag: string; name: string; publishedAt: number}};
}

/** One of the buyer's purchases, and Stripe's page that proves it. Amounts in cents. */
export interface Receipt {
  /** The plan's name as the config has it now; for an upgrade's payment, "Upgrade: Starter → Advanced". */
  plan: string;
  /** When the purchase was made (Unix ms). */
  paidAt: number;
  amount: number | null;
  currency: string | null;
  /** How much of it was refunded since (0 when none). */
  refunded: number;
  /**
   * Stripe's page: the hosted invoice (`invoice`) when Checkout made one, else the charge's receipt
   * (`receipt`); null when Stripe could not be read just now.
   */
  url: string | null;
  kind: 'invoice' | 'receipt' | null;
}

/** GET /receipts: the caller's purchases that were paid (refunded ones too), newest first. */
export interface BuyerReceipts {
  receipts: Receipt[];
}

/** POST /releaseEmails */
export interface ReleaseEmailsRequest {
  subscribed: boolean;
}

/** POST /createCheckoutSession. `priceId` is one of the config's plans, in either Stripe mode. */
export interface CreateCheckoutSessionRequest {
  priceId: string;
  successUrl: string;
  cancelUrl: string;
  email?: string;
}

/** One upgrade the buyer may pay for: the plan, and what it costs now (cents). */
export interface UpgradeOffer {
  planId: string;
  name: string;
  amount: number;
  currency: string;
}

/** GET /upgrades: the plan the buyer's paid purchase gives now (null without one), and its upgrades. */
export interface BuyerPlan {
  plan: {id: string; name: string} | null;
  upgrades: UpgradeOffer[];
}

/**
 * POST /createUpgradeSession. `planId` is the plan to move up to (a config plan's id); the worker
 * finds the purchase and its plan itself, and never reads an amount or a purchase from the browser.
 */
export interface CreateUpgradeSessionRequest {
  planId: string;
  successUrl: string;
  cancelUrl: string;
}

/** Checkout and the billing portal answer where to send the browser. */
/** GET prices: amounts in cents, as the checkout charges them. */
export interface PricesResponse {
  /** ISO 3166-1 alpha-2, as Cloudflare gave it; null when it is not known. */
  country: string | null;
  /** The country's name in English ("Brazil"); null with no country. */
  countryName: string | null;
  /** Whole percent off every plan; 0 when none applies (the list prices). */
  percentOff: number;
  currency: string;
  /** Each plan by its id in the config. */
  plans: {id: string; amount: number; listAmount: number}[];
}

export interface UrlResponse {
  url: string;
}

/** GET /userHasPaid?userId= */
export interface PaidResponse {
  hasPaid: boolean;
  plan?: string;
}

/**
 * What Stripe's success URL carries back to the payer's browser: the Checkout Session id (which its
 * creator knows too) and the claim, a secret the worker put in that URL only, so that the sign-in
 * follows whoever paid, not whoever started the checkout.
 */
export const CHECKOUT_RETURN_PARAMS = {sessionId: 'sessionId', claim: 'claim'} as const;
/** The claim's form: 32 random bytes, base64url. */
export const CHECKOUT_CLAIM_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** GET /retrieveUserFromCheckoutSession?sessionId=&claim= : a one-time sign-in for a guest purchase. */
export interface CheckoutSignInResponse {
  token: string;
}

/**
 * POST /checkoutStatus: the id and the claim Stripe's success URL brought back, in the body (never
 * in a URL that a log would keep). Both are needed, as for the exchange: the id alone tells nothing.
 */
export interface CheckoutStatusRequest {
  sessionId: string;
  claim: string;
}

/**
 * What the worker read from Stripe (and recorded) for that checkout: `paid`; `processing`, completed
 * with a payment Stripe has not confirmed yet (a bank debit takes days; the welcome e-mail goes once
 * it is); `unpaid`, never completed (nothing charged); `failed`, the payment did not go through;
 * `revoked`, paid, then refunded or disputed: it no longer gives access to the code.
 */
export const CHECKOUT_STATUSES = ['paid', 'processing', 'unpaid', 'failed', 'revoked'] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

export interface CheckoutStatusResponse {
  status: CheckoutStatus;
}

/**
 * POST /signedIn: the worker has seen this session. An account's first sign-in with its e-mail
 * proven may end it instead (401 SESSION_ENDED), when a password set before the proof was removed.
 */
export interface SignedInResponse {
  emailVerified: boolean;
}

/**
 * GET /isAdmin: `admin` is true when the token's own account is one of the seller's admins. A
 * signed-in buyer gets `false` (200, not the console's 403), so that opening the account menu logs
 * no refused request in the browser's console.
 */
export interface IsAdminResponse {
  admin: boolean;
}

/** POST /createBillingPortal */
export interface BillingPortalRequest {
  returnUrl: string;
}

/** POST /addUserToRepo */
export interface AddUserToRepoRequest {
  username: string;
  userId: string;
}

/** POST /addUserToRepo and /resendInvitation: invited (an invitation went out), active, or queued. */
export interface AccessResult {
  status: 'invited' | 'active' | 'queued';
}

/**
 * A purchase's repository access, as the worker records it. `removal_failed`: access was taken
 * away (refund or dispute), but removing the GitHub account failed for good.
 */
export const GRANT_STATUSES = ['queued', 'pending', 'active', 'revoked', 'removal_failed', 'failed'] as const;
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

/** A plan a payment bought: by the config's id (null for a plan no longer there), and its name. */
export interface StandingPlan {
  id: string | null;
  name: string;
}

/**
 * One upgrade applied to a purchase, and what became of its payment: its own, apart from the
 * purchase's (worker/src/upgrades/), so refunded, disputed or kept on its own. Amounts in cents.
 */
export interface UpgradeStanding {
  state: PaymentState;
  /** The plan it upgraded the purchase to. */
  plan: StandingPlan;
  /** When it was paid (Unix ms). */
  paidAt: number;
  /** When it came to `state`, as PaymentStanding's `since`; absent for `paid`. */
  since?: number;
  /** What it paid (null when not recorded), and how much went back. */
  amount: number | null;
  refunded: number;
  currency: string;
}

/**
 * One purchase's payment and what became of it, with its upgrades', for the dashboard to say.
 * `state`, `since` and the amounts are the purchase's own payment's, which decides its access.
 * Amounts in cents.
 */
export interface PaymentStanding {
  state: PaymentState;
  /** The plan the purchase's own payment bought (its upgrades are in `upgrades`). */
  plan: StandingPlan;
  /**
   * With a payment that stands (`paid`, `partly_refunded`), the plan the purchase gives now: its
   * latest upgrade still paid, else `plan`.
   */
  planNow?: StandingPlan;
  /** When it was bought (Unix ms). */
  boughtAt: number;
  /**
   * When it came to `state` (Unix ms), as the webhook told the worker: the last refund
   * (`partly_refunded`, `refunded`), the dispute opened (`disputed`) or closed (`dispute_lost`).
   * Absent for `paid`.
   */
  since?: number;
  /** What it paid (null on a purchase recorded before amounts were), and how much went back. */
  amount: number | null;
  refunded: number;
  currency: string | null;
  /**
   * The upgrades applied to it, the oldest first. A refund or dispute of the purchase leaves their
   * payments as they were (a refund at Stripe refunds one payment; the console's full refund
   * refunds the upgrades too), so each says its own.
   */
  upgrades: UpgradeStanding[];
  /**
   * The purchase and its upgrades added up: what was paid in all (null when an amount is not
   * recorded), and how much of it was refunded. Absent when their currencies differ.
   */
  total?: {amount: number | null; refunded: number};
  /**
   * The seller revoked the purchase's access in the console (worker/src/access/sellerRevocation.ts)
   * and has not granted it again. On a purchase refunded or disputed since, it came first: a dispute
   * won does not give back what the seller took.
   */
  revokedBySeller?: true;
}

/** GET /accessStatus: what the dashboard shows. `none`: nothing was asked for yet. */
export interface AccessStatus {
  status: 'none' | GrantStatus;
  hasPaid: boolean;
  /**
   * The payment the dashboard is about: with `hasPaid`, the paid purchase whose access this is;
   * without, the account's latest purchase that was refunded or disputed. Absent when the account
   * has no purchase at all.
   */
  payment?: PaymentStanding;
  /**
   * With `hasPaid`, the account's latest other purchase that was refunded or disputed (a buyer who
   * bought again after a refund, or had a second purchase refunded): its access went, this one's stays.
   */
  otherEnded?: PaymentStanding;
  /**
   * With `hasPaid`, the plan the account holds now: its best paid purchase's, upgrades included
   * (what GET /upgrades names), for what the dashboard says the plan includes.
   */
  plan?: {id: string; name: string};
  /** The private repository buyers are invited to (`owner/name`), when the worker is set up for it. */
  repository?: string;
  /**
   * Its page, with `repository`: on github.com, or, in local mode, the GitHub stand-in's page
   * saying what the repository would be (the worker knows which GitHub it talks to).
   */
  repositoryUrl?: string;
  /** The GitHub account the access is for. */
  username?: string;
  /** A pending invitation GitHub no longer honours (after seven days). */
  expired?: boolean;
  /**
   * With `revoked`: its removal from GitHub is still being tried (GitHub did not answer the first
   * try), so the account may still be on the repository. `removal_failed`: the tries ended, and it
   * may be there until the seller removes it by hand.
   */
  removing?: boolean;
  detail?: string;
  /**
   * The seller revoked the access in the console (not a refund or a dispute): the buyer cannot ask
   * for it again, nor download the code, until the seller grants it again.
   */
  revokedBySeller?: boolean;
  /** How many times this purchase has moved its access to another GitHub account. */
  usernameChanges?: number;
  /** How many more moves the purchase allows. */
  usernameChangesLeft?: number;
  /**
   * A `queued` invitation that waits because GitHub's cap of invitations per repository in 24 hours
   * is reached: its place in the first-in, first-out queue (1 goes next) and when it is expected
   * to go out (ms since the epoch). Only the purchase's own account reads it.
   */
  queue?: {position: number; expectedAt: number};
  /**
   * The private repositories the purchase's plan grants besides the kit (src/config: a plan's
   * `extraRepositories`), each with its own state. Only for a paid purchase whose plan lists some.
   */
  extraRepositories?: ExtraRepositoryAccess[];
}

/**
 * An extra repository's grant, as the worker records it: queued (to be invited: waiting for the
 * next run, or for GitHub's daily cap), pending (invited), active (accepted), revoked (taken back:
 * a refund, an upgrade refunded, the seat moved), failed (not granted; `detail` says why).
 */
export const EXTRA_GRANT_STATUSES = ['queued', 'pending', 'active', 'revoked', 'failed'] as const;
export type ExtraGrantStatus = (typeof EXTRA_GRANT_STATUSES)[number];

/** One extra repository the plan grants, as the dashboard shows it. */
export interface ExtraRepositoryAccess {
  /** The key in src/config's `extraRepositories`: its name and what it holds come from there. */
  key: string;
  /** `owner/name`, when the worker has a repository for the key. */
  repository?: string;
  /** Its page, with `repository` (as AccessStatus's `repositoryUrl`). */
  repositoryUrl?: string;
  /**
   * `none`: nothing yet; the kit's invitation comes first, and the same GitHub account gets this
   * one. `not_configured`: the seller set no repository for the key, so nothing is sent.
   */
  status: 'none' | 'not_configured' | ExtraGrantStatus;
  /** The GitHub account it is for. */
  username?: string;
  detail?: string;
  /** Queued because GitHub's cap of invitations to that repository in 24 hours is reached. */
  waitsForCap?: boolean;
  /** A pending invitation past GitHub's 7 days: the buyer may ask for a new one (`resendExtraInvitation`). */
  expired?: boolean;
}

/** POST /resendExtraInvitation: a new invitation to one extra repository of the plan, once its last one expired. */
export interface ResendExtraInvitationRequest {
  /** The repository's key in src/config's `extraRepositories`. */
  key: string;
}

/** What /resendExtraInvitation answers: the grant's state after it (queued until it goes out). */
export interface ResendExtraInvitationResult {
  status: ExtraGrantStatus;
}

/**
 * POST /downloadLink's body: `repository`, the key (src/config `extraRepositories`) of an extra
 * repository the buyer's plan grants, for its code; absent (or `{}`), the kit's.
 */
export interface DownloadLinkRequest {
  repository?: string;
}

/**
 * POST /downloadLink: where to download the code. The link is the buyer's alone, works once, and
 * expires after a few minutes; the worker checks the purchase (and, for an extra repository, that
 * the plan still grants it) again when it is followed.
 */
export interface DownloadLink {
  /** The path on the worker (`/download/<token>`): put it after the API base, as `apiUrl` does. */
  path: string;
  /**
   * What the archive holds: the newest release GitHub's webhook announced (BuyerReleases.latestTag);
   * before any, GitHub's latest release, or the default branch. An extra repository's: its latest
   * release on GitHub, or its default branch.
   */
  ref: string;
  /** Whether `ref` is a release (a tag) rather than the default branch. */
  release: boolean;
  /** When the link stops working (Unix ms). */
  expiresAt: number;
}

/** POST /api/leads: 201 `stored: true` when new, 200 `stored: false` when already on the list. */
export interface LeadRequest {
  email: string;
}
export interface LeadResult {
  stored: boolean;
  message?: string;
}

// ---------------------------------------------------------------------------------------------
// The seller's console. Every admin route needs the ID token of a verified e-mail listed in the
// worker's ADMIN_EMAILS, and answers 403 ADMIN_ONLY to anyone else. Times are Unix milliseconds;
// amounts are in the currency's smallest unit (cents).

/** The console's endpoints; `:sessionId` and `:jobId` are filled in by `adminPath`. */
export const ADMIN_PATHS = {
  /** GET ?period=: revenue by day (or month) and plan over the period, refunds, disputes, totals. */
  sales: '/admin/sales',
  /**
   * GET ?q=&state=&plan=&sort=&page=: purchases, searchable by e-mail, GitHub username or session
   * id, filtered by state and plan, sorted by `sort` (newest first when absent).
   */
  purchases: '/admin/purchases',
  /** GET, the same filters as `purchases`: every matching purchase as CSV, in that order. */
  purchasesCsv: '/admin/purchases.csv',
  /** GET: one purchase and its history. */
  purchase: '/admin/purchases/:sessionId',
  /** POST {username}: invites that account for the purchase. */
  grant: '/admin/purchases/:sessionId/grant',
  /** POST: takes the purchase's access away. */
  revoke: '/admin/purchases/:sessionId/revoke',
  /** POST: a fresh invitation for the same account, once its pending one expired (else 409). */
  resend: '/admin/purchases/:sessionId/resend',
  /** POST {key}: a fresh invitation to one of the plan's extra repositories, once its pending one expired (else 409). */
  resendExtra: '/admin/purchases/:sessionId/resend-extra',
  /**
   * POST: the seller accepts a purchase flagged because its card's country is not the one its
   * fair-price discount was given for (AdminFairPrice): the flag clears, the buyer keeps it all.
   * An upgrade's session accepts that upgrade's own payment, as `refund` takes it.
   */
  acceptCardCountry: '/admin/purchases/:sessionId/accept-card-country',
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
  /** GET ?page=: what the admins did. */
  auditLog: '/admin/audit-log',
} as const;

export function adminPath(path: string, params: {sessionId?: string; jobId?: number; releaseId?: number} = {}): string {
  return path
    .replace(':sessionId', encodeURIComponent(params.sessionId ?? ''))
    .replace(':jobId', String(params.jobId ?? ''))
    .replace(':releaseId', String(params.releaseId ?? ''));
}

/**
 * A release in the console. Counts are of addresses, per buyer as the worker recorded them:
 * `emailed` accepted by Mailgun and not failed since (`delivered` among them once Mailgun's
 * event says so), `failed` refused by Mailgun or bounced for good (listed in `failures`, the first
 * MAX_LISTED_FAILURES), `waiting` in batches not sent yet. `unsubscribed`: of the buyers this
 * release was queued for, those who have turned release e-mails off.
 */
export interface AdminRelease {
  id: number;
  tag: string;
  name: string;
  publishedAt: number;
  recipients: number;
  emailed: number;
  delivered: number;
  failed: number;
  waiting: number;
  unsubscribed: number;
  failures: AdminReleaseFailure[];
}

export interface AdminReleaseFailure {
  email: string;
  /** Mailgun's words: its refusal, or the receiving server's answer. */
  reason: string | null;
}

/** How many of a release's failed addresses the console lists (all are counted, and all sent again). */
export const MAX_LISTED_FAILURES = 100;

/** A page of a list: `page` starts at 1; `total` counts every row that matches. */
export interface Page<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}

/** Amounts are in the currency's smallest unit (cents). */
export interface SalesDay {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  /** Revenue by plan name that day. */
  byPlan: Record<string, number>;
  purchases: number;
}

/**
 * The periods the console's figures cover, ending today (UTC): the last 7 or 30 days, by day; the
 * last 12 months, or all time, by month. 30 days when `?period=` is absent.
 */
export const SALES_PERIODS = ['7d', '30d', '12m', 'all'] as const;
export type SalesPeriod = (typeof SALES_PERIODS)[number];
export const DEFAULT_SALES_PERIOD: SalesPeriod = '30d';

export interface SalesSummary {
  currency: string;
  period: SalesPeriod;
  /** The period's first moment (Unix ms, UTC midnight); null for all time. */
  since: number | null;
  /** What one entry of `days` covers: a day (7d, 30d) or a calendar month (12m, all; `day` is its first). */
  interval: 'day' | 'month';
  /** The period's days or months, oldest first, every one present (zero when nothing sold). */
  days: SalesDay[];
  /** Bought in the period, and still paid: money kept. */
  revenue: number;
  /** Buyers with a paid purchase made in the period. */
  buyers: number;
  /** Purchases made in the period and refunded in full since. */
  refunds: {count: number; amount: number};
  /** Open: every dispute still open, whenever it began. Won and lost: those that closed in the period. */
  disputes: {open: number; won: number; lost: number};
}

/** What the console calls a purchase's state. */
export const PURCHASE_STATES = ['paid', 'refunded', 'disputed', 'open', 'failed'] as const;
export type PurchaseState = (typeof PURCHASE_STATES)[number];

/** How the purchases list may be sorted: by date or by amount, either way. */
export const PURCHASE_SORTS = ['newest', 'oldest', 'amount_high', 'amount_low'] as const;
export type PurchaseSort = (typeof PURCHASE_SORTS)[number];

/** What a purchase may be flagged for: a card from another country than its discount's (its own payment's, or an upgrade's). */
export const PURCHASE_FLAGS = ['card_country'] as const;
export type PurchaseFlag = (typeof PURCHASE_FLAGS)[number];

/** The purchases list's query (`GET purchases` and `purchasesCsv`); every field may be left out. */
export interface PurchaseFilter {
  q?: string;
  state?: PurchaseState;
  /** A plan's name in the config. */
  plan?: string;
  sort?: PurchaseSort;
  /** Only the purchases flagged for this and not yet accepted by the seller. */
  flagged?: PurchaseFlag;
}

/**
 * A purchase (or an upgrade) made with a fair-price discount (appConfig.fairPrices): the country and
 * percent it was given for, and the country of the card that paid (null until Stripe said; '' for
 * a payment that was no card). `review` is 'flagged' when the card is from another country, tells
 * none, or was never read (flagged with `cardCountry` null: the worker gave up asking Stripe), until
 * the seller accepts it ('accepted') or refunds it.
 */
export interface AdminFairPrice {
  country: string;
  percentOff: number | null;
  cardCountry: string | null;
  review: 'flagged' | 'accepted' | null;
}

export interface AdminPurchase {
  sessionId: string;
  createdAt: number;
  email: string | null;
  plan: string | null;
  /** Cents; null for purchases recorded before amounts were. */
  amount: number | null;
  currency: string | null;
  state: PurchaseState;
  /** Cents refunded so far, as Stripe's `charge.refunded` webhooks last said (0 when none). */
  amountRefunded: number;
  /** The payment's page in Stripe's dashboard, in the mode of the worker's key; null before a payment. */
  stripeUrl: string | null;
  /** Null for a purchase at the list price. */
  fairPrice: AdminFairPrice | null;
  /**
   * An upgrade of this purchase, sold at its fair price, whose own payment is flagged for its
   * card's country (the oldest, if more), until the seller accepts or refunds it; else null.
   */
  flaggedUpgrade: AdminFairPrice | null;
  access: {
    status: GrantStatus;
    username: string;
    usernameChanges: number;
  } | null;
  /**
   * When the seller revoked the purchase's access to the code (Unix ms): its seat, its downloads and
   * its download links, until the seller grants access again. Null while it is not revoked.
   */
  revokedBySellerAt: number | null;
}

/** `upgrade`: an upgrade of the purchase to a higher plan, its own sale (its amount is the difference). */
export type PurchaseEventKind = 'stripe' | 'invitation' | 'removal' | 'email' | 'admin' | 'upgrade';

export interface PurchaseEvent {
  at: number;
  kind: PurchaseEventKind;
  /** One line: the Stripe event type, the job and its outcome, the admin's action. */
  summary: string;
  /** done, failed, retrying, pending: for outbox work. */
  status?: string;
  detail?: string;
}

/**
 * An upgrade's state in the console: `paid` (applied), `refunded` or `disputed` (taken back: the
 * purchase is on `fromPlan` again), `refused` (paid but never applied; the worker refunds it),
 * `failed` (the payment failed).
 */
export type UpgradeState = 'paid' | 'refunded' | 'disputed' | 'refused' | 'failed';

/** One upgrade of a purchase that reached a payment: its own Stripe payment, refunded on its own. */
export interface AdminUpgrade {
  /** The upgrade's Checkout Session: what POST refund takes to refund this payment only. */
  sessionId: string;
  /** The plans' names as the config has them now. */
  fromPlan: string;
  toPlan: string;
  state: UpgradeState;
  /** Cents paid (the difference between the plans), and refunded so far, as Stripe's webhooks last said. */
  amount: number;
  amountRefunded: number;
  currency: string;
  /** Null for a payment that never went through: nothing to refund. */
  paymentIntentId: string | null;
  /** When it was paid (Unix ms); null when it was not. */
  paidAt: number | null;
  /** Null for an upgrade at list prices; else its fair price and its own card's country check. */
  fairPrice: AdminFairPrice | null;
}

export interface AdminPurchaseDetail extends AdminPurchase {
  paymentIntentId: string | null;
  customerId: string | null;
  userId: string | null;
  /**
   * Whether GitHub says the pending invitation expired (read at most once a minute): only then may
   * it be sent again. False for access that is not pending.
   */
  invitationExpired: boolean;
  /** The extra repositories this purchase was granted or refused (worker/src/access/extraGrants.ts), by key. */
  extraGrants: AdminExtraGrant[];
  /** Its upgrades that reached a payment, the oldest first. */
  upgrades: AdminUpgrade[];
  /**
   * The buyer's other paid purchases, the oldest first: made with the same sign-in account, or to
   * the same e-mail (a guest purchase, which the account of that e-mail holds once it is verified).
   * The seller's revocation is each purchase's own: revoking this one leaves each of these the
   * buyer's way to the code until it is revoked too (`revokedBySellerAt`).
   */
  otherPaidPurchases: AdminOtherPurchase[];
  history: PurchaseEvent[];
}

/** Another paid purchase of the same buyer, as its purchase page names it. */
export interface AdminOtherPurchase {
  sessionId: string;
  /** The plan it gives now, as the config names it (null for one the config no longer has). */
  plan: string | null;
  createdAt: number;
  revokedBySellerAt: number | null;
}

/** One extra repository's grant as D1 records it: `detail` says why it is failed, revoked or still queued. */
export interface AdminExtraGrant {
  key: string;
  /** `owner/name`; null when the key had no repository set (GITHUB_EXTRA_REPOS). */
  repository: string | null;
  status: ExtraGrantStatus;
  username: string | null;
  detail: string | null;
  updatedAt: number;
  /** A pending invitation past GitHub's 7 days: the seller may send a new one (`resendExtra`). */
  expired: boolean;
}

/** The reasons Stripe takes for a refund (`reason` of Create a refund). */
export const REFUND_REASONS = ['requested_by_customer', 'duplicate', 'fraudulent'] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

/**
 * POST refund. Without `amount`, all that is left to refund; with it, that many cents (a partial
 * refund keeps the buyer's access). The worker reads what is left from Stripe, never from here.
 * `refundedBefore`: the cents refunded so far as the page showed them when the seller decided.
 * It names the action: the same refund asked again on the same view (a double click, a second tab,
 * another admin) is the first one, answered as it was, never a second refund; and a new refund is
 * made only while Stripe has refunded exactly that much (else 409: read the purchase again).
 */
export interface AdminRefundRequest {
  amount?: number;
  reason: RefundReason;
  refundedBefore: number;
}

/**
 * POST grant: invites `username` to the purchase's seat, and gives back what the seller's revocation
 * took. Without one, only that right comes back (the buyer may download and ask for an invitation
 * again): for a purchase that never had a seat.
 */
export interface AdminGrantRequest {
  username?: string;
}

/**
 * What every admin action answers: where it left things, in a word (`invited`, `revoked`,
 * `reset`, `done`, `fixed`…), and what it did, in a line for the seller.
 */
export interface AdminActionResult {
  status: string;
  detail: string;
}

export interface AdminJob {
  id: number;
  /** `release-mail`: one batch (up to 1,000 buyers) of a release's e-mail. */
  kind:
    'mail' | 'release-mail' | 'github-invite' | 'github-remove' | 'extra-grants' | 'extra-withdraw' | 'card-country';
  /** failed: the outbox gave up; retrying: it will try again at `runAfter`. */
  state: 'failed' | 'retrying';
  attempts: number;
  lastError: string | null;
  runAfter: number;
  updatedAt: number;
  /** The purchase it belongs to, when it belongs to one. */
  sessionId: string | null;
  /** A removal that failed for good: a refunded buyer may still be on GitHub. */
  removalFailed: boolean;
}

export type RepositoryDifferenceKind =
  /** On the repository (collaborator or invitation) with no paid grant: invited by hand, or a removal that failed. */
  | 'unpaid_on_repository'
  /** A paid grant whose account is neither a collaborator nor invited. */
  | 'paid_missing'
  /** A revoked grant whose account is still a collaborator or invited. */
  | 'revoked_present';

export interface RepositoryDifference {
  kind: RepositoryDifferenceKind;
  githubUserId: number;
  login: string;
  /** collaborator, or a pending invitation. */
  on: 'collaborator' | 'invitation' | 'nowhere';
  sessionId: string | null;
  /** The e-mail of that purchase, for the seller to know the buyer by. */
  email: string | null;
}

export const REPOSITORY_DIFFERENCE_KINDS = [
  'unpaid_on_repository',
  'paid_missing',
  'revoked_present',
] as const satisfies readonly RepositoryDifferenceKind[];

/**
 * GET repositoryAudit: the kit's repository, or with `?repository=<key>` one of the plan's extra
 * repositories (GITHUB_EXTRA_REPOS), against its own grants.
 */
export interface RepositoryAudit {
  repository: string;
  /** The extra repository's key this audit is of; null for the kit's. */
  key: string | null;
  /** The extra repositories the worker has (GITHUB_EXTRA_REPOS), each with an audit of its own. */
  extraRepositories: {key: string; repository: string}[];
  checkedAt: number;
  /** What was compared: paid purchases that hold a seat, and who GitHub has on the repository. */
  counts: {
    /** Paid purchases whose access is granted (invited, accepted, queued or failed). */
    paid: number;
    collaborators: number;
    /** Open invitations (not expired). */
    invited: number;
  };
  differences: RepositoryDifference[];
  /** The owner and GITHUB_EXEMPT accounts, left out of the comparison. */
  exempt: string[];
  /** GitHub's cap on invitations, as the worker counts it (from D1, not from GitHub). */
  invitations: InvitationWindow;
  /** How many differences of each kind one fix-all call fixes on this worker (its plan's subrequests). */
  fixAllLimits: Record<RepositoryDifferenceKind, number>;
}

/** The repository's invitations against GitHub's cap, and the queue of those that wait. */
export interface InvitationWindow {
  /** Invitations allowed in any 24 hours (`appConfig.repository.invitationsPerDay`). */
  cap: number;
  /** Invitations the worker sent to the repository in the last 24 hours. */
  usedLast24h: number;
  /** Invitations waiting in the queue. */
  queued: number;
  /** When the last one waiting is expected to go out (ms since the epoch), or null with none waiting. */
  drainsBy: number | null;
}

/** POST repositoryFix. `repository`: an extra repository's key (RepositoryAudit.key); none for the kit. */
export interface RepositoryFixRequest {
  kind: RepositoryDifferenceKind;
  githubUserId: number;
  repository?: string;
}

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

/** POST repositoryFixAll. `repository`: an extra repository's key (RepositoryAudit.key); none for the kit. */
export interface RepositoryFixAllRequest {
  kind: RepositoryDifferenceKind;
  repository?: string;
}

/** What a fix-all did: `status` is `fixed` when nothing failed and nothing is left. */
export interface RepositoryFixAllResult extends AdminActionResult {
  kind: RepositoryDifferenceKind;
  /** Accounts fixed. */
  done: number;
  /** Accounts tried and not fixed, each with the reason, in the seller's words. */
  failed: {login: string; githubUserId: number; reason: string}[];
  /** Differences of this kind past the limit, not tried: for a later call. */
  left: number;
}

export interface AdminLead {
  email: string;
  createdAt: number;
}

export type AdminAction =
  | 'grant'
  | 'revoke'
  | 'resend'
  | 'reset_username_changes'
  | 'refund'
  | 'accept_card_country'
  | 'retry_job'
  | 'repository_fix'
  | 'resend_release';

export interface AdminAuditEntry {
  id: number;
  at: number;
  admin: string;
  action: AdminAction;
  /** `failed`: the action did not finish; `detail` says why and what had changed by then. */
  outcome: 'done' | 'failed';
  sessionId: string | null;
  detail: string | null;
}

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
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Every error answer: `{"error": message, "code"?}`. */
export interface ErrorBody {
  error: string;
  code?: ErrorCode;
}
