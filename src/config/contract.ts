/**
 * Every endpoint the worker serves, stated once: its method and path, who may call it, what it takes
 * (body, query or path parameters, the zod schemas the worker validates with), what it answers and
 * the error codes it may answer with. The worker's routes are held to this list
 * (`test/worker/contract.test.ts`), the OpenAPI document is written from it (`openApi.ts`), and so
 * is the endpoint table of `worker/README.md` (`scripts/endpointTable.ts`).
 *
 * The worker and the tests import it; the site never does at run time (zod would join its bundle):
 * its client takes the types (`EndpointAnswer`, `api.ts`'s names).
 */
import {z} from 'zod';
import {ADMIN_PATHS, API_PATHS, type ErrorCode, PLAUSIBLE_PATHS} from './apiPaths';
import * as schema from './apiSchemas';

/**
 * Who may call an endpoint: anyone (`public`); anyone, and a signed-in caller is known
 * (`optional`); a signed-in caller (`user`: an ID token); one of the seller's admins (`admin`: a
 * verified e-mail in ADMIN_EMAILS); or the service whose webhook it is, by its signature.
 */
export const ACCESS = {
  public: 'none',
  optional: 'optional: a signed-in caller is known',
  user: 'signed in (ID token)',
  admin: 'an admin: a verified e-mail in ADMIN_EMAILS',
  link: 'a signed link the worker sent',
  stripe: 'Stripe signature',
  mailgun: 'Mailgun signature',
  github: 'GitHub signature',
} as const;
export type Access = keyof typeof ACCESS;

/** What one endpoint answers with success: a JSON body (its schema), or something else, said in words. */
export type Answer = {status: number; json: z.ZodType} | {status: number; type: string; description: string};

export interface Endpoint {
  method: 'GET' | 'POST';
  /** Hono's form: `:name` for a path parameter. */
  path: string;
  access: Access;
  /** What it does, in a line: the endpoint table's last column. */
  summary: string;
  body?: z.ZodType;
  /** Raw bodies the worker checks itself (a webhook's signed bytes), said in words. */
  rawBody?: string;
  query?: z.ZodObject;
  params?: z.ZodObject;
  answers: Answer[];
  /** The `code`s its error answers may carry, besides those every endpoint of its access may (`commonCodes`). */
  codes: ErrorCode[];
}

/** A JSON answer: its schema, and its status. */
export const json = <S extends z.ZodType>(answer: S, status = 200) => ({status, json: answer});
const sessionParams = schema.sessionParams;

/** The codes any endpoint of a kind may answer with: a worker set up wrongly, and what its access checks. */
export function commonCodes(endpoint: Pick<Endpoint, 'access' | 'body'>): ErrorCode[] {
  const codes: ErrorCode[] = ['MISCONFIGURED'];
  // A JSON body, read: sent as JSON or refused (one the route does not read, `emptyBody`, is not).
  if (endpoint.body && endpoint.body !== schema.emptyBody) codes.push('UNSUPPORTED_MEDIA_TYPE');
  // A change the browser asks for: on the site's origin, with the anti-forgery token (webhooks,
  // Plausible's event and the unsubscribe link have raw bodies or none, and sameOrigin.ts lets them by).
  if (endpoint.body) codes.push('XSRF_FAILED');
  if (['optional', 'user', 'admin'].includes(endpoint.access))
    codes.push('TOKEN_EXPIRED', 'SESSION_ENDED', 'AUTH_UNAVAILABLE');
  if (endpoint.access === 'admin') codes.push('ADMIN_ONLY');
  if (['stripe', 'mailgun', 'github'].includes(endpoint.access)) codes.push('BAD_SIGNATURE', 'NOT_CONFIGURED');
  return codes;
}

const GITHUB_CODES: ErrorCode[] = ['GITHUB_REFUSED', 'GITHUB_UNAVAILABLE', 'INVITATION_CAP', 'NOT_CONFIGURED'];

/** Every endpoint, by the name the site's client and API_PATHS/ADMIN_PATHS know it by. */
export const ENDPOINTS = {
  health: {
    method: 'GET',
    path: '/',
    access: 'public',
    summary: "the worker's health (`/api` too), which sets the anti-forgery cookie",
    answers: [json(schema.healthResponse)],
    codes: [],
  },
  openApi: {
    method: 'GET',
    path: API_PATHS.openApi,
    access: 'public',
    summary: "this API's OpenAPI 3.1 document, written from the contract: served by the dev server only (404 deployed)",
    answers: [{status: 200, type: 'application/json', description: 'the OpenAPI document'}],
    codes: [],
  },
  createCheckoutSession: {
    method: 'POST',
    path: API_PATHS.createCheckoutSession,
    access: 'optional',
    summary:
      'a one-time Checkout Session for a plan of `../src/config/` (either of its price ids names it; the Stripe ' +
      "key's mode decides which one is charged), success and cancel URLs held to `SITE_URL`; 10 a minute per " +
      'address, and per account when signed in',
    body: schema.checkoutBody,
    answers: [json(schema.urlResponse)],
    codes: ['CONFLICT', 'RATE_LIMITED', 'PAYMENT_PROVIDER', 'NOT_CONFIGURED'],
  },
  affiliateVisit: {
    method: 'POST',
    path: API_PATHS.affiliateVisit,
    access: 'public',
    summary:
      "a visit through an affiliate's link, counted once per visitor and day; answers the visit's id for the " +
      'checkout and until when it counts; 30 a minute per address',
    body: schema.affiliateVisitBody,
    answers: [json(schema.affiliateVisit)],
    codes: ['NOT_FOUND', 'RATE_LIMITED'],
  },
  affiliate: {
    method: 'GET',
    path: API_PATHS.affiliate,
    access: 'user',
    summary: "the caller's affiliate link, clicks, sales and commission, or the programme's terms to join",
    answers: [json(schema.affiliateAnswer)],
    codes: ['NOT_FOUND'],
  },
  joinAffiliates: {
    method: 'POST',
    path: API_PATHS.joinAffiliates,
    access: 'user',
    summary: 'the caller joins the affiliate programme with the code they named (a verified e-mail)',
    body: schema.joinAffiliatesBody,
    answers: [json(schema.affiliateAnswer, 201)],
    codes: ['CONFLICT', 'EMAIL_NOT_VERIFIED', 'NOT_FOUND', 'RATE_LIMITED'],
  },
  affiliateConnect: {
    method: 'POST',
    path: API_PATHS.affiliateConnect,
    access: 'user',
    summary:
      "the caller's single-use Stripe link: to set up payouts (their Express account, made once) or, once " +
      'ready, their Stripe dashboard; when the programme pays through Stripe',
    answers: [json(schema.affiliateConnectAnswer)],
    codes: ['NOT_FOUND', 'RATE_LIMITED', 'PAYMENT_PROVIDER'],
  },
  userHasPaid: {
    method: 'GET',
    path: API_PATHS.userHasPaid,
    access: 'user',
    summary:
      "`{hasPaid, plan?}` for the caller's own id only: a purchase made signed in, or a guest purchase whose " +
      "e-mail is the caller's *verified* e-mail",
    query: schema.userHasPaidQuery,
    answers: [json(schema.paidResponse)],
    codes: [],
  },
  retrieveUserFromCheckoutSession: {
    method: 'GET',
    path: API_PATHS.retrieveUserFromCheckoutSession,
    access: 'public',
    summary:
      "`{token}` for an account this paid session (under 24 h old) created, with the claim Stripe's redirect " +
      "brought the payer's browser (the checkout's creator never gets it), once: 410 `SESSION_USED` after; 409 " +
      '`SIGN_IN_REQUIRED` when the e-mail already had an account or its owner has signed in; 10 a minute per IP',
    query: schema.checkoutSignInQuery,
    answers: [json(schema.checkoutSignInResponse)],
    codes: ['RATE_LIMITED', 'SESSION_USED', 'SIGN_IN_REQUIRED', 'PAYMENT_PROVIDER', 'NOT_CONFIGURED'],
  },
  checkoutStatus: {
    method: 'POST',
    path: API_PATHS.checkoutStatus,
    access: 'public',
    summary:
      '`{status}` of the checkout the success page came back from (`paid`, `processing`, `unpaid`, `failed`, ' +
      '`revoked`), read from Stripe and recorded as fulfilment records it; the id and the claim in the body; 409 ' +
      "`SIGN_IN_REQUIRED` for a claim that is not the session's; consumes nothing; 10 a minute per IP",
    body: schema.checkoutStatusBody,
    answers: [json(schema.checkoutStatusResponse)],
    codes: ['RATE_LIMITED', 'SIGN_IN_REQUIRED', 'PAYMENT_PROVIDER', 'NOT_CONFIGURED'],
  },
  refundPurchase: {
    method: 'POST',
    path: API_PATHS.refundPurchase,
    access: 'user',
    summary:
      "the buyer's own full refund under the money-back guarantee (within `guarantee.days` of the payment, once per buyer): Stripe refunds, and access ends at once",
    body: schema.refundPurchaseBody,
    answers: [json(schema.refundPurchaseResult)],
    codes: ['NOT_PAID', 'REFUND_BY_SUPPORT', 'CONFLICT', 'RATE_LIMITED', 'PAYMENT_PROVIDER'],
  },
  createBillingPortal: {
    method: 'POST',
    path: API_PATHS.createBillingPortal,
    access: 'user',
    summary: "Stripe's billing portal for the buyer's customer; return URL held to `SITE_URL`",
    body: schema.billingPortalBody,
    answers: [json(schema.urlResponse)],
    codes: ['NOT_FOUND', 'PAYMENT_PROVIDER', 'NOT_CONFIGURED'],
  },
  addUserToRepo: {
    method: 'POST',
    path: API_PATHS.addUserToRepo,
    access: 'user',
    summary:
      "checks payment, resolves the username to GitHub's numeric id, invites it: 200 `invited` or `active`, 202 " +
      '`queued`; 409 `GITHUB_ACCOUNT_TAKEN` for an account already on the repository or held by another ' +
      'purchase; 429 `SWAP_LIMIT` after 3 moves to another account; 10 a minute',
    body: schema.addUserToRepoBody,
    answers: [json(schema.accessResult), json(schema.accessResult, 202)],
    codes: [
      'RATE_LIMITED',
      'NOT_PAID',
      'ACCESS_REVOKED',
      'GITHUB_USER_NOT_FOUND',
      'GITHUB_ACCOUNT_TAKEN',
      'SWAP_LIMIT',
      ...GITHUB_CODES,
    ],
  },
  signedIn: {
    method: 'POST',
    path: API_PATHS.signedIn,
    access: 'user',
    summary:
      "the site says a sign-in just finished: the account's first verified sign-in is checked now (401 " +
      '`SESSION_ENDED` when it removed a password and ended the session)',
    body: schema.emptyBody,
    answers: [json(schema.signedInResponse)],
    codes: [],
  },
  accessStatus: {
    method: 'GET',
    path: API_PATHS.accessStatus,
    access: 'user',
    summary:
      "what the dashboard shows: the access's status, its repository and account, the purchase's payment and what " +
      'became of it (`payment`, `otherEnded`), the plan, the extra repositories; GitHub is read at most once a ' +
      'minute per grant; 30 a minute per user',
    answers: [json(schema.accessStatus)],
    codes: ['RATE_LIMITED', 'GITHUB_UNAVAILABLE'],
  },
  resendInvitation: {
    method: 'POST',
    path: API_PATHS.resendInvitation,
    access: 'user',
    summary:
      "a new invitation to one repository of the purchase (the kit's unless `key` names one of the plan's extra repositories), once its last one expired",
    body: schema.resendBody,
    answers: [json(schema.accessResult), json(schema.accessResult, 202)],
    codes: ['NOT_PAID', 'ACCESS_REVOKED', 'CONFLICT', 'RATE_LIMITED', 'GITHUB_USER_NOT_FOUND', ...GITHUB_CODES],
  },
  team: {
    method: 'GET',
    path: API_PATHS.team,
    access: 'user',
    summary:
      "the owner's team purchase: its seats, how many are free, and each member with their access (read as recorded, GitHub not asked)",
    answers: [json(schema.team)],
    codes: ['NOT_FOUND', 'RATE_LIMITED'],
  },
  addTeamMember: {
    method: 'POST',
    path: API_PATHS.addTeamMember,
    access: 'user',
    summary:
      'the owner gives a free seat to a member: by e-mail (a link that works once, for that address, for 7 days) or by GitHub username (invited as Request Access invites)',
    body: schema.teamMemberBody,
    answers: [json(schema.teamMemberAdded), json(schema.teamMemberAdded, 202)],
    codes: [
      'NOT_FOUND',
      'TEAM_FULL',
      'CONFLICT',
      'ACCESS_REVOKED',
      'RATE_LIMITED',
      'GITHUB_USER_NOT_FOUND',
      ...GITHUB_CODES,
    ],
  },
  removeTeamMember: {
    method: 'POST',
    path: API_PATHS.removeTeamMember,
    access: 'user',
    summary:
      'the owner removes a member, whose access is taken back and whose links stop, or withdraws an invitation; the seat is free again',
    body: schema.teamSeatBody,
    answers: [json(schema.team)],
    codes: ['NOT_FOUND', 'RATE_LIMITED'],
  },
  resendTeamInvitation: {
    method: 'POST',
    path: API_PATHS.resendTeamInvitation,
    access: 'user',
    summary: 'the owner sends an invited member a new link, for 7 more days; the old link stops',
    body: schema.teamSeatBody,
    answers: [json(schema.team)],
    codes: ['NOT_FOUND', 'CONFLICT', 'RATE_LIMITED'],
  },
  joinTeam: {
    method: 'POST',
    path: API_PATHS.joinTeam,
    access: 'user',
    summary:
      'a member takes the seat their link offers, signed in with the verified address it was sent to; the link works once',
    body: schema.joinTeamBody,
    answers: [json(schema.teamJoined)],
    codes: ['NOT_FOUND', 'OTHER_ADDRESS', 'LINK_USED', 'LINK_EXPIRED', 'CONFLICT', 'RATE_LIMITED'],
  },
  downloadLink: {
    method: 'POST',
    path: API_PATHS.downloadLink,
    access: 'user',
    summary: "a one-time link (a few minutes long) to download the kit's code, or an extra repository's",
    body: schema.downloadLinkBody,
    answers: [json(schema.downloadLink)],
    codes: ['NOT_PAID', 'NOT_IN_PLAN', 'ACCESS_REVOKED', 'DOWNLOADS_OFF', 'RATE_LIMITED', 'GITHUB_UNAVAILABLE'],
  },
  download: {
    method: 'GET',
    path: `${API_PATHS.download}/:token`,
    access: 'link',
    summary: 'the code as a .zip, streamed from GitHub; each link works once',
    params: schema.downloadParams,
    answers: [{status: 200, type: 'application/zip', description: 'the archive'}],
    codes: ['LINK_EXPIRED', 'LINK_USED', 'NOT_FOUND', 'NOT_PAID', 'NOT_IN_PLAN', 'ACCESS_REVOKED', 'DOWNLOADS_OFF'],
  },
  releases: {
    method: 'GET',
    path: API_PATHS.releases,
    access: 'user',
    summary: '"What\'s new": the releases the buyer\'s plans entitle them to, newest first, and the e-mail choice',
    answers: [json(schema.buyerReleases)],
    codes: ['NOT_PAID'],
  },
  releaseEmails: {
    method: 'POST',
    path: API_PATHS.releaseEmails,
    access: 'user',
    summary: 'release e-mails on or off for the buyer',
    body: schema.releaseEmailsBody,
    answers: [json(schema.releaseEmailsResult)],
    codes: ['NOT_PAID'],
  },
  receipts: {
    method: 'GET',
    path: API_PATHS.receipts,
    access: 'user',
    summary: "the buyer's own purchases, each with Stripe's invoice or receipt page",
    answers: [json(schema.buyerReceipts)],
    codes: ['PAYMENT_PROVIDER', 'NOT_CONFIGURED'],
  },
  prices: {
    method: 'GET',
    path: API_PATHS.prices,
    access: 'public',
    summary: "the visitor's country (from Cloudflare), its fair-price discount and each plan's price there",
    answers: [json(schema.pricesResponse)],
    codes: [],
  },
  upgrades: {
    method: 'GET',
    path: API_PATHS.upgrades,
    access: 'user',
    summary: "the buyer's plan now and the upgrades on offer, priced by the worker (with an upgrade code, `?code=`)",
    query: schema.upgradesQuery,
    answers: [json(schema.buyerPlan)],
    codes: ['RATE_LIMITED'],
  },
  createUpgradeSession: {
    method: 'POST',
    path: API_PATHS.createUpgradeSession,
    access: 'user',
    summary: "a Checkout Session upgrading the buyer's paid purchase, for the difference the worker computes",
    body: schema.upgradeBody,
    answers: [json(schema.urlResponse)],
    codes: ['RATE_LIMITED', 'NOT_PAID', 'CONFLICT', 'PAYMENT_PROVIDER', 'NOT_CONFIGURED'],
  },
  isAdmin: {
    method: 'GET',
    path: API_PATHS.isAdmin,
    access: 'user',
    summary:
      "`{admin}`: whether the caller's own account may open the console, for the account menu's link; a buyer " +
      "gets `false`, not a 403. Display only: the console's routes check again",
    answers: [json(schema.isAdminResponse)],
    codes: [],
  },
  leads: {
    method: 'POST',
    path: API_PATHS.leads,
    access: 'public',
    summary: 'stores a waitlist e-mail once: 201 new, 200 known; 5 a minute per address',
    body: schema.leadBody,
    answers: [json(schema.leadResult, 201), json(schema.leadResult)],
    codes: ['RATE_LIMITED'],
  },
  plausibleScript: {
    method: 'GET',
    path: `${API_PATHS.plausible}${PLAUSIBLE_PATHS.script}`,
    access: 'public',
    summary: "Plausible's script through this origin",
    answers: [{status: 200, type: 'text/javascript', description: "Plausible's script"}],
    codes: ['UPSTREAM_UNAVAILABLE'],
  },
  plausibleEvent: {
    method: 'POST',
    path: `${API_PATHS.plausible}${PLAUSIBLE_PATHS.event}`,
    access: 'public',
    summary: "a page view or event, forwarded to Plausible with the visitor's address",
    rawBody: "Plausible's event, as its script sends it",
    answers: [{status: 202, type: 'text/plain', description: "Plausible's answer"}],
    codes: ['RATE_LIMITED', 'ANALYTICS_REFUSED', 'UPSTREAM_UNAVAILABLE'],
  },
  stripeWebhook: {
    method: 'POST',
    path: API_PATHS.stripeWebhook,
    access: 'stripe',
    summary: 'fulfilment, refunds and disputes',
    rawBody: 'a Stripe event, signed (Stripe-Signature)',
    answers: [json(schema.stripeWebhookResult)],
    codes: [],
  },
  mailgunWebhook: {
    method: 'POST',
    path: API_PATHS.mailgunWebhook,
    access: 'mailgun',
    summary:
      'forwards an inbound e-mail to `forwardRepliesTo`; 413 over 5 MB or 200 fields, counted before anything is parsed',
    rawBody: "Mailgun's inbound form post (multipart/form-data)",
    answers: [json(schema.webhookReceived)],
    codes: ['STALE_SIGNATURE', 'REPLAYED_SIGNATURE'],
  },
  mailgunEvents: {
    method: 'POST',
    path: API_PATHS.mailgunEvents,
    access: 'mailgun',
    summary: "Mailgun's delivered and permanent-failure events of release e-mails, for the console's counts",
    rawBody: "Mailgun's event webhook (JSON, signed inside)",
    answers: [json(schema.mailgunEventsResult)],
    codes: ['STALE_SIGNATURE', 'REPLAYED_SIGNATURE'],
  },
  githubWebhook: {
    method: 'POST',
    path: API_PATHS.githubWebhook,
    access: 'github',
    summary: "GitHub's `release` webhook: a published release is e-mailed to the buyers entitled to it",
    rawBody: "GitHub's delivery, signed (X-Hub-Signature-256)",
    answers: [json(schema.releaseWebhookResult)],
    codes: [],
  },
  unsubscribePage: {
    method: 'GET',
    path: `${API_PATHS.releaseUnsubscribe}/:token`,
    access: 'link',
    summary:
      "the one-click unsubscribe link of a release e-mail or a checkout's reminder: a page with the button that does it",
    params: schema.unsubscribeParams,
    answers: [{status: 200, type: 'text/html', description: 'the page'}],
    codes: ['NOT_CONFIGURED'],
  },
  unsubscribe: {
    method: 'POST',
    path: `${API_PATHS.releaseUnsubscribe}/:token`,
    access: 'link',
    summary: "unsubscribes from release e-mails and a checkout's reminder, with no sign-in (RFC 8058)",
    params: schema.unsubscribeParams,
    answers: [{status: 200, type: 'text/html', description: 'the page that says so'}],
    codes: ['NOT_CONFIGURED'],
  },

  // The seller's console.
  sales: {
    method: 'GET',
    path: ADMIN_PATHS.sales,
    access: 'admin',
    summary: 'revenue by day (or month) and plan over the period, refunds, disputes, totals',
    query: schema.salesQuery,
    answers: [json(schema.salesSummary)],
    codes: [],
  },
  funnel: {
    method: 'GET',
    path: ADMIN_PATHS.funnel,
    access: 'admin',
    summary:
      'the funnel over the period, from visitors to the code delivered, beside the period before; what needs a look',
    query: schema.salesQuery,
    answers: [json(schema.adminFunnel)],
    codes: [],
  },
  purchases: {
    method: 'GET',
    path: ADMIN_PATHS.purchases,
    access: 'admin',
    summary: 'purchases, searched, filtered by state, plan and flag, sorted, a page at a time',
    query: schema.purchasesQuery,
    answers: [json(schema.pageOf(schema.adminPurchase))],
    codes: [],
  },
  purchasesCsv: {
    method: 'GET',
    path: ADMIN_PATHS.purchasesCsv,
    access: 'admin',
    summary: 'every matching purchase as CSV, in that order',
    query: schema.purchaseFilter,
    answers: [{status: 200, type: 'text/csv', description: 'the purchases'}],
    codes: [],
  },
  purchase: {
    method: 'GET',
    path: ADMIN_PATHS.purchase,
    access: 'admin',
    summary: 'one purchase, its upgrades, extra repositories, other purchases and history',
    params: sessionParams,
    answers: [json(schema.adminPurchaseDetail)],
    codes: ['NOT_FOUND', 'GITHUB_UNAVAILABLE'],
  },
  grant: {
    method: 'POST',
    path: ADMIN_PATHS.grant,
    access: 'admin',
    summary:
      "invites an account to the purchase's seat, or to a team member's seat (`member`), and gives back what the seller's revocation took",
    params: sessionParams,
    body: schema.grantBody,
    answers: [json(schema.adminActionResult)],
    codes: ['NOT_FOUND', 'CONFLICT', 'GITHUB_USER_NOT_FOUND', 'GITHUB_ACCOUNT_TAKEN', ...GITHUB_CODES],
  },
  revoke: {
    method: 'POST',
    path: ADMIN_PATHS.revoke,
    access: 'admin',
    summary: "takes the purchase's access away: its seat, downloads and links",
    params: sessionParams,
    body: schema.emptyBody,
    answers: [json(schema.adminActionResult)],
    codes: ['NOT_FOUND', 'CONFLICT', ...GITHUB_CODES],
  },
  resend: {
    method: 'POST',
    path: ADMIN_PATHS.resend,
    access: 'admin',
    summary:
      "a fresh invitation for the same account to one repository of the purchase (the kit's unless `key` names another), once its pending one expired",
    params: sessionParams,
    body: schema.resendBody,
    answers: [json(schema.adminActionResult)],
    codes: ['NOT_FOUND', 'CONFLICT', ...GITHUB_CODES],
  },
  acceptCardCountry: {
    method: 'POST',
    path: ADMIN_PATHS.acceptCardCountry,
    access: 'admin',
    summary: "accepts a purchase flagged for its card's country: the flag clears",
    params: sessionParams,
    body: schema.emptyBody,
    answers: [json(schema.adminActionResult)],
    codes: ['NOT_FOUND', 'CONFLICT'],
  },
  takeBackMember: {
    method: 'POST',
    path: ADMIN_PATHS.takeBackMember,
    access: 'admin',
    summary: "takes back one team member's seat: their access and links end, the seat is free again",
    params: sessionParams,
    body: schema.takeBackMemberBody,
    answers: [json(schema.adminActionResult)],
    codes: ['NOT_FOUND', 'CONFLICT'],
  },
  resetUsernameChanges: {
    method: 'POST',
    path: ADMIN_PATHS.resetUsernameChanges,
    access: 'admin',
    summary: 'the purchase may move its seat again, as if it never had',
    params: sessionParams,
    body: schema.emptyBody,
    answers: [json(schema.adminActionResult)],
    codes: ['NOT_FOUND', 'CONFLICT'],
  },
  refund: {
    method: 'POST',
    path: ADMIN_PATHS.refund,
    access: 'admin',
    summary: 'refunds the payment through Stripe, all that is left or an amount, once per action',
    params: sessionParams,
    body: schema.refundBody,
    answers: [json(schema.adminActionResult)],
    codes: ['NOT_FOUND', 'CONFLICT', 'PAYMENT_PROVIDER', 'NOT_CONFIGURED'],
  },
  jobs: {
    method: 'GET',
    path: ADMIN_PATHS.jobs,
    access: 'admin',
    summary: "the outbox's failed and retrying jobs",
    answers: [json(schema.adminJobs)],
    codes: [],
  },
  retryJob: {
    method: 'POST',
    path: ADMIN_PATHS.retryJob,
    access: 'admin',
    summary: 'runs a failed or waiting job again now',
    params: schema.jobParams,
    body: schema.emptyBody,
    answers: [json(schema.adminActionResult)],
    codes: ['NOT_FOUND', 'CONFLICT'],
  },
  adminReleases: {
    method: 'GET',
    path: ADMIN_PATHS.releases,
    access: 'admin',
    summary: 'each release announced, newest first, with how its e-mails went',
    answers: [json(schema.adminReleases)],
    codes: [],
  },
  releaseResend: {
    method: 'POST',
    path: ADMIN_PATHS.releaseResend,
    access: 'admin',
    summary: "queues a release's e-mail again for exactly the addresses whose e-mail failed",
    params: schema.releaseParams,
    body: schema.emptyBody,
    answers: [json(schema.adminActionResult)],
    codes: ['NOT_FOUND', 'CONFLICT'],
  },
  repositoryAudit: {
    method: 'GET',
    path: ADMIN_PATHS.repositoryAudit,
    access: 'admin',
    summary: "the repository's collaborators and invitations against the paid grants (or an extra repository's)",
    query: schema.repositoryAuditQuery,
    answers: [json(schema.repositoryAudit)],
    codes: ['NOT_FOUND', ...GITHUB_CODES],
  },
  repositoryFix: {
    method: 'POST',
    path: ADMIN_PATHS.repositoryFix,
    access: 'admin',
    summary: 'the one-click fix of one difference',
    body: schema.fixBody,
    answers: [json(schema.adminActionResult)],
    codes: ['NOT_FOUND', 'CONFLICT', ...GITHUB_CODES],
  },
  repositoryFixAll: {
    method: 'POST',
    path: ADMIN_PATHS.repositoryFixAll,
    access: 'admin',
    summary: 'fixes every difference of a kind the worker finds now, up to its limit; the rest is counted',
    body: schema.fixAllBody,
    answers: [json(schema.repositoryFixAllResult)],
    codes: ['NOT_FOUND', 'CONFLICT', ...GITHUB_CODES],
  },
  adminLeads: {
    method: 'GET',
    path: ADMIN_PATHS.leads,
    access: 'admin',
    summary: 'the waitlist, a page at a time',
    query: schema.pageQueryObject,
    answers: [json(schema.pageOf(schema.adminLead))],
    codes: [],
  },
  adminSelfRefunds: {
    method: 'GET',
    path: ADMIN_PATHS.selfRefunds,
    access: 'admin',
    summary: "the buyers' own refunds (the guarantee, a withdrawal) with their reasons, a page at a time",
    query: schema.pageQueryObject,
    answers: [json(schema.pageOf(schema.adminSelfRefund))],
    codes: [],
  },
  leadsCsv: {
    method: 'GET',
    path: ADMIN_PATHS.leadsCsv,
    access: 'admin',
    summary: 'the whole waitlist as CSV',
    answers: [{status: 200, type: 'text/csv', description: 'the waitlist'}],
    codes: [],
  },
  launchCodes: {
    method: 'GET',
    path: ADMIN_PATHS.launchCodes,
    access: 'admin',
    summary: 'the launch codes made in the console, newest first, with their uses and revenue',
    answers: [json(schema.adminLaunchCodes)],
    codes: [],
  },
  createLaunchCode: {
    method: 'POST',
    path: ADMIN_PATHS.createLaunchCode,
    access: 'admin',
    summary:
      'makes a launch code: a Stripe coupon and its promotion code, with their limits; or an upgrade code (past buyers only), kept by the worker',
    body: schema.launchCodeBody,
    answers: [json(schema.adminLaunchCode, 201)],
    codes: ['CONFLICT', 'PAYMENT_PROVIDER', 'NOT_CONFIGURED'],
  },
  endLaunchCode: {
    method: 'POST',
    path: ADMIN_PATHS.endLaunchCode,
    access: 'admin',
    summary: 'ends a launch code (at Stripe, for a promotion code): no buyer can use it from then on',
    params: schema.launchCodeParams,
    body: schema.emptyBody,
    answers: [json(schema.adminActionResult)],
    codes: ['NOT_FOUND', 'CONFLICT', 'PAYMENT_PROVIDER', 'NOT_CONFIGURED'],
  },
  affiliates: {
    method: 'GET',
    path: ADMIN_PATHS.affiliates,
    access: 'admin',
    summary: 'the affiliates, with their clicks, sales and commission pending, payable and paid',
    answers: [json(schema.adminAffiliates)],
    codes: [],
  },
  affiliatesCsv: {
    method: 'GET',
    path: ADMIN_PATHS.affiliatesCsv,
    access: 'admin',
    summary: 'every commission as CSV, newest first',
    answers: [{status: 200, type: 'text/csv', description: 'the commissions'}],
    codes: [],
  },
  affiliatePayout: {
    method: 'POST',
    path: ADMIN_PATHS.affiliatePayout,
    access: 'admin',
    summary:
      "marks the affiliate's payable commission paid, with the seller's reference, or sends it as a Stripe " +
      'transfer to their connected account, if it is the amount they saw',
    params: schema.affiliateParams,
    body: schema.affiliatePayoutBody,
    answers: [json(schema.adminActionResult), json(schema.adminActionResult, 202)],
    codes: ['NOT_FOUND', 'CONFLICT', 'PAYMENT_PROVIDER'],
  },
  auditLog: {
    method: 'GET',
    path: ADMIN_PATHS.auditLog,
    access: 'admin',
    summary: 'what the admins did, a page at a time',
    query: schema.pageQueryObject,
    answers: [json(schema.pageOf(schema.adminAuditEntry))],
    codes: [],
  },
} as const satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof ENDPOINTS;

/** What an endpoint answers with success, as the site reads it (its first JSON answer's output). */
export type EndpointAnswer<N extends EndpointName> = (typeof ENDPOINTS)[N]['answers'][0] extends {json: infer S}
  ? S extends z.ZodType
    ? z.output<S>
    : never
  : never;

/** The endpoint at a method and a path as API_PATHS and ADMIN_PATHS spell it: what the site's client calls. */
export type EndpointAt<M extends string, P extends string> = {
  [N in EndpointName]: (typeof ENDPOINTS)[N] extends {method: M; path: P} ? N : never;
}[EndpointName];

/** Every path the contract states for a method. */
export type EndpointPath<M extends string> = {
  [N in EndpointName]: (typeof ENDPOINTS)[N] extends {method: M; path: infer P} ? P : never;
}[EndpointName];

/** What an endpoint takes in its query, as the site sends it (its schema's input). */
export type EndpointQuery<N extends EndpointName> = (typeof ENDPOINTS)[N] extends {query: infer S}
  ? S extends z.ZodType
    ? z.input<S>
    : never
  : never;

/** What an endpoint takes as its body, as the site sends it (its schema's input). */
export type EndpointBody<N extends EndpointName> = (typeof ENDPOINTS)[N] extends {body: infer S}
  ? S extends z.ZodType
    ? z.input<S>
    : never
  : never;
