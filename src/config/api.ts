/**
 * The one contract between the site and the worker: every endpoint path, what each takes and
 * answers, the access statuses and the error codes. The site's client (`src/lib/api.ts`) is typed
 * from it, and the worker's routes and schemas are held to it, so a change on one side that the
 * other does not follow fails `npm run typecheck`. Plain TypeScript: both sides import it.
 */

/** Where each endpoint is, on the worker's origin. */
export const API_PATHS = {
  createCheckoutSession: '/createCheckoutSession',
  userHasPaid: '/userHasPaid',
  retrieveUserFromCheckoutSession: '/retrieveUserFromCheckoutSession',
  createBillingPortal: '/createBillingPortal',
  addUserToRepo: '/addUserToRepo',
  accessStatus: '/accessStatus',
  resendInvitation: '/resendInvitation',
  leads: '/api/leads',
  stripeWebhook: '/api/webhook/stripe',
  mailgunWebhook: '/api/webhook/mailgun',
  /** Plausible's script and events, proxied: `/plausible/js/script.js`, `/plausible/api/event`. */
  plausible: '/plausible',
} as const;

/** POST /createCheckoutSession. `priceId` is one of the config's plans, in either Stripe mode. */
export interface CreateCheckoutSessionRequest {
  priceId: string;
  successUrl: string;
  cancelUrl: string;
  email?: string;
}

/** Checkout and the billing portal answer where to send the browser. */
export interface UrlResponse {
  url: string;
}

/** GET /userHasPaid?userId= */
export interface PaidResponse {
  hasPaid: boolean;
  plan?: string;
}

/** GET /retrieveUserFromCheckoutSession?sessionId= : a one-time sign-in for a guest purchase. */
export interface CheckoutSignInResponse {
  token: string;
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

/** GET /accessStatus: what the dashboard shows. `none`: nothing was asked for yet. */
export interface AccessStatus {
  status: 'none' | GrantStatus;
  hasPaid: boolean;
  /** The private repository buyers are invited to (`owner/name`), when the worker is set up for it. */
  repository?: string;
  /** The GitHub account the access is for. */
  username?: string;
  /** A pending invitation GitHub no longer honours (after seven days). */
  expired?: boolean;
  detail?: string;
  /** How many times this purchase has moved its access to another GitHub account. */
  usernameChanges?: number;
  /** How many more moves the purchase allows. */
  usernameChangesLeft?: number;
}

/** POST /api/leads: 201 `stored: true` when new, 200 `stored: false` when already on the list. */
export interface LeadRequest {
  email: string;
}
export interface LeadResult {
  stored: boolean;
  message?: string;
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
  'GITHUB_REFUSED',
  'GITHUB_UNAVAILABLE',
  'UNSUPPORTED_MEDIA_TYPE',
  'BAD_SIGNATURE',
  'STALE_SIGNATURE',
  'REPLAYED_SIGNATURE',
  'PAYMENT_PROVIDER',
  'UPSTREAM_UNAVAILABLE',
  'NOT_CONFIGURED',
  'MISCONFIGURED',
  'AUTH_UNAVAILABLE',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Every error answer: `{"error": message, "code"?}`. */
export interface ErrorBody {
  error: string;
  code?: ErrorCode;
}
