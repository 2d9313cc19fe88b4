/**
 * The one typed client for the worker's endpoints, typed from the contract (`src/config/contract.ts`):
 * each call names its endpoint by method and path, and takes the body and answers the types the
 * contract's schemas give that endpoint, so a call the contract does not state fails
 * `npm run typecheck`. Every call answers the parsed body or throws an ApiError whose message can
 * be shown to a person.
 */
import {
  type AccessResult,
  type AccessStatus,
  type AddUserToRepoRequest,
  type AffiliateAnswer,
  type AffiliateConnectAnswer,
  type AffiliateVisit,
  type AffiliateVisitRequest,
  type JoinAffiliatesRequest,
  adminPath,
  API_PATHS,
  type BuyerPlan,
  type BuyerReceipts,
  type BuyerReleases,
  apiUrl,
  CHECKOUT_RETURN_PARAMS,
  CHECKOUT_STATUSES,
  type CheckoutStatus,
  type CheckoutStatusRequest,
  type CreateCheckoutSessionRequest,
  type CreateUpgradeSessionRequest,
  type DownloadLink,
  type DownloadLinkRequest,
  type ResendRequest,
  type Team,
  type TeamJoined,
  type TeamMemberAdded,
  type TeamMemberRequest,
  type RefundPurchaseRequest,
  type OwnRefundKind,
  type RefundPurchaseResult,
  type ErrorCode,
  ERROR_CODES,
  type LeadResult,
  type PaidResponse,
  type SignedInResponse,
  type UrlResponse,
  XSRF_COOKIE,
  XSRF_HEADER,
} from '../config/api';
// Types only: the contract's schemas are zod, which stays out of the site's bundle.
import type {EndpointAnswer, EndpointAt, EndpointBody, EndpointPath, EndpointQuery} from '../config/contract';
import {SessionEndedError} from './auth/types';

export class ApiError extends Error {
  readonly status: number;
  readonly code?: ErrorCode;

  constructor(message: string, status: number, code?: ErrorCode) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

export interface ApiClientOptions {
  /** The worker's origin, or SAME_ORIGIN_PREFIX when the worker answers on the site's own origin. */
  baseUrl: string;
  /** The signed-in user's token, or null; `refresh` asks for a new one after TOKEN_EXPIRED. */
  idToken?: (refresh: boolean) => Promise<string | null>;
  /** The page's cookies, for the anti-forgery token (§7). */
  cookies?: () => string;
  /**
   * Told when the worker says the session has ended for good (`SESSION_ENDED`: a checkout sign-in
   * whose e-mail's owner has since signed in), so the site can sign out.
   */
  onSessionEnded?: () => void;
}

/**
 * Whether the worker refused a request for good (a 4xx other than 429): the same request will be
 * refused again. Unreachable, rate-limited or failing (5xx), it may be answered later.
 */
export function refusedForGood(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429;
}

export const UNREACHABLE_MESSAGE = 'Could not reach the server. Check your connection and try again.';

function cookieValue(cookies: string, name: string): string | null {
  for (const part of cookies.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

/**
 * The anti-forgery header for a request, as Angular's HttpClient sends it: only on requests that
 * change something (not GET or HEAD) and only to relative URLs, so the token never leaves the
 * site's own origin.
 */
export function xsrfHeader(method: string, url: string, cookies: string): Record<string, string> {
  if (!carriesXsrf(method, url)) return {};
  const token = cookieValue(cookies, XSRF_COOKIE);
  return token ? {[XSRF_HEADER]: token} : {};
}

function carriesXsrf(method: string, url: string): boolean {
  if (method === 'GET' || method === 'HEAD') return false;
  return !(/^[a-z][a-z\d+.-]*:/i.test(url) || url.startsWith('//'));
}

async function errorFrom(response: Response): Promise<ApiError> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const {error, code} = (body ?? {}) as {error?: unknown; code?: unknown};
  const message = typeof error === 'string' && error.trim() ? error : `Request failed with status ${response.status}`;
  return new ApiError(message, response.status, isErrorCode(code) ? code : undefined);
}

function isErrorCode(code: unknown): code is ErrorCode {
  return (ERROR_CODES as readonly unknown[]).includes(code);
}

function isHttpUrl(url: unknown): url is string {
  if (typeof url !== 'string') return false;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:';
  } catch {
    return false;
  }
}

function urlFrom(body: UrlResponse | null, what: string): UrlResponse {
  const url = body?.url;
  if (!isHttpUrl(url)) throw new ApiError(`The server sent no ${what} URL`, 502);
  return {url};
}

/** The affiliate's answer, read fail-closed: no terms, no page to show. */
function affiliateFrom(body: AffiliateAnswer | null): AffiliateAnswer {
  if (typeof body?.terms?.commissionPercent !== 'number' || body.affiliate === undefined)
    throw new ApiError('The server sent no affiliate programme', 502);
  return body;
}

const noToken = async () => null;
const noCookies = () => (typeof document === 'undefined' ? '' : document.cookie);

export type Method = 'GET' | 'POST';

/**
 * The worker's request machinery, for any endpoint: the token (one refresh after TOKEN_EXPIRED),
 * the anti-forgery header (one retry after XSRF_FAILED), and every failure as an ApiError carrying
 * the worker's own message.
 * `response` answers a successful Response as it is (a CSV download); `json` answers its body.
 */
export function createRequest({baseUrl, idToken = noToken, cookies = noCookies, onSessionEnded}: ApiClientOptions) {
  async function send(method: Method, path: string, body: unknown, token: string | null): Promise<Response> {
    const url = apiUrl(baseUrl, path);
    // The worker sets the anti-forgery cookie on any answer: a first change in this browser asks
    // for one so that it has a token to send.
    if (carriesXsrf(method, url) && !cookieValue(cookies(), XSRF_COOKIE))
      await fetch(apiUrl(baseUrl, '/')).catch(() => undefined);
    const headers: Record<string, string> = {...xsrfHeader(method, url, cookies())};
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (token) headers.Authorization = `Bearer ${token}`;
    try {
      return await fetch(url, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
    } catch {
      throw new ApiError(UNREACHABLE_MESSAGE, 0);
    }
  }

  /** The user's token; a session over for good ends here as the worker's SESSION_ENDED would. */
  async function token(refresh: boolean): Promise<string | null> {
    try {
      return await idToken(refresh);
    } catch (error) {
      if (!(error instanceof SessionEndedError)) throw error;
      onSessionEnded?.();
      throw new ApiError(error.message, 401, 'SESSION_ENDED');
    }
  }

  async function response(method: Method, path: string, body?: unknown): Promise<Response> {
    let answer = await send(method, path, body, await token(false));
    if (answer.status === 403 && carriesXsrf(method, apiUrl(baseUrl, path))) {
      const error = await errorFrom(answer);
      if (error.code !== 'XSRF_FAILED') throw error;
      // The browser held no token the worker could read (cleared, or not one of its own), and the
      // refusal set a fresh one: send once more with it.
      answer = await send(method, path, body, await token(false));
    }
    if (answer.status === 401) {
      const error = await errorFrom(answer);
      if (error.code === 'SESSION_ENDED') onSessionEnded?.();
      if (error.code !== 'TOKEN_EXPIRED') throw error;
      // An ID token lives an hour; a tab left open outlives it. One fresh token, one retry.
      answer = await send(method, path, body, await token(true));
    }
    if (!answer.ok) throw await errorFrom(answer);
    return answer;
  }

  /** The answer's body; `T` is what the caller was promised of it (the contract), not a check. */
  async function json<T = unknown>(method: Method, path: string, body?: unknown): Promise<T> {
    const answer = await response(method, path, body);
    try {
      return (await answer.json()) as T;
    } catch {
      throw new ApiError('The server sent an answer that is not JSON', answer.status);
    }
  }

  /**
   * One endpoint of the contract, by the method and path it states (`:sessionId` and the like filled
   * from `params`, as `adminPath` does): the body and query it takes and the answer it gives are the
   * contract's types for that endpoint, so a call the contract does not state fails to compile. The
   * worker is held to those answers (test/worker/contractAnswers.test.ts); the clients still read
   * them fail-closed where a wrong one would matter, for a worker of another version in between.
   */
  function endpoint<M extends Method, P extends EndpointPath<M>, N extends EndpointAt<M, P> = EndpointAt<M, P>>(
    method: M,
    path: P,
    request: {
      body?: EndpointBody<N>;
      query?: EndpointQuery<N> & Record<string, string | number | undefined>;
      params?: Parameters<typeof adminPath>[1];
    } = {},
  ): Promise<EndpointAnswer<N> | null> {
    const filled = request.params ? adminPath(path, request.params) : path;
    return json<EndpointAnswer<N> | null>(method, withQuery(filled, request.query ?? {}), request.body);
  }

  return {response, json, endpoint};
}

/** `path?name=value&…`, leaving out the empty ones. */
export function withQuery(path: string, params: Record<string, string | number | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') query.set(name, String(value));
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

export type ApiRequest = ReturnType<typeof createRequest>;

export function createApiClient(options: ApiClientOptions) {
  const call = createRequest(options).endpoint;

  return {
    async createCheckoutSession(request: CreateCheckoutSessionRequest): Promise<UrlResponse> {
      return urlFrom(await call('POST', API_PATHS.createCheckoutSession, {body: request}), 'checkout');
    },
    async userHasPaid(userId: string): Promise<PaidResponse> {
      const body = await call('GET', API_PATHS.userHasPaid, {query: {userId}});
      return {hasPaid: body?.hasPaid === true, ...(typeof body?.plan === 'string' ? {plan: body.plan} : {})};
    },
    async retrieveUserFromCheckoutSession(sessionId: string, claim: string): Promise<{token: string}> {
      const body = await call('GET', API_PATHS.retrieveUserFromCheckoutSession, {
        query: {[CHECKOUT_RETURN_PARAMS.sessionId]: sessionId, [CHECKOUT_RETURN_PARAMS.claim]: claim},
      });
      if (typeof body?.token !== 'string' || !body.token) throw new ApiError('The server sent no sign-in token', 502);
      return {token: body.token};
    },
    /** Whether the checkout this browser came back from is paid (the success page): the id and claim go in the body. */
    async checkoutStatus(request: CheckoutStatusRequest): Promise<CheckoutStatus> {
      const status = (await call('POST', API_PATHS.checkoutStatus, {body: request}))?.status;
      if (status === undefined || !CHECKOUT_STATUSES.includes(status))
        throw new ApiError('The server sent no checkout status', 502);
      return status;
    },
    async createBillingPortal(returnUrl: string): Promise<UrlResponse> {
      return urlFrom(await call('POST', API_PATHS.createBillingPortal, {body: {returnUrl}}), 'billing portal');
    },
    async addUserToRepo(request: AddUserToRepoRequest): Promise<AccessResult> {
      return (await call('POST', API_PATHS.addUserToRepo, {body: request}))!;
    },
    async accessStatus(): Promise<AccessStatus> {
      return (await call('GET', API_PATHS.accessStatus))!;
    },
    /**
     * A one-time link to download the code (the buyer's alone, a few minutes long), as a full URL:
     * the kit's, or with `repository` (a key of src/config `extraRepositories`) that repository's.
     */
    async downloadLink(repository?: string): Promise<DownloadLink & {url: string}> {
      const request: DownloadLinkRequest = repository === undefined ? {} : {repository};
      const body = await call('POST', API_PATHS.downloadLink, {body: request});
      if (
        typeof body?.path !== 'string' ||
        !body.path.startsWith(`${API_PATHS.download}/`) ||
        typeof body.ref !== 'string'
      ) {
        throw new ApiError('The server sent no download link', 502);
      }
      return {
        path: body.path,
        ref: body.ref,
        release: body.release === true,
        expiresAt: Number(body.expiresAt),
        url: apiUrl(options.baseUrl, body.path),
      };
    },
    /** "What's new": the releases the buyer's plan entitles them to, newest first, and their e-mail choice. */
    async releases(): Promise<BuyerReleases> {
      const body = await call('GET', API_PATHS.releases);
      if (!Array.isArray(body?.releases)) throw new ApiError('The server sent no releases', 502);
      return {
        releases: body.releases,
        includesUpdates: body.includesUpdates === true,
        subscribed: body.subscribed === true,
        latestTag: typeof body.latestTag === 'string' ? body.latestTag : null,
        ...(typeof body.teamOwner === 'string' && {teamOwner: body.teamOwner}),
        ...(body.later && typeof body.later.count === 'number' && body.later.latest && {later: body.later}),
      };
    },
    /** The buyer's own purchases, newest first, each with Stripe's invoice or receipt page. */
    async receipts(): Promise<BuyerReceipts> {
      const body = await call('GET', API_PATHS.receipts);
      if (!Array.isArray(body?.receipts)) throw new ApiError('The server sent no receipts', 502);
      return {receipts: body.receipts};
    },
    /**
     * The buyer's plan now (upgrades included), the upgrades and seats on offer, priced by the worker;
     * with `code` (an upgrade code the buyer typed), priced with it where it applies, and the code's
     * standing (its terms, or why it is refused).
     */
    async upgrades(code?: string): Promise<BuyerPlan> {
      // withQuery encodes it, and leaves out an empty one: no code asked is no `?code=`.
      const body = await call('GET', API_PATHS.upgrades, {query: {code}});
      if (!Array.isArray(body?.upgrades)) throw new ApiError('The server sent no plan', 502);
      return {plan: body.plan ?? null, upgrades: body.upgrades, seats: body.seats ?? null, code: body.code ?? null};
    },
    /**
     * Stripe Checkout for upgrading the buyer's purchase to `planId` (with the upgrade code in `code`,
     * if any): the worker decides the amount, and refuses a code that does not apply (409, with why).
     */
    async createUpgradeSession(request: CreateUpgradeSessionRequest): Promise<UrlResponse> {
      return urlFrom(await call('POST', API_PATHS.createUpgradeSession, {body: request}), 'checkout');
    },
    /** Turns release e-mails on or off for the buyer's purchase; answers the choice now stored. */
    async setReleaseEmails(subscribed: boolean): Promise<boolean> {
      const body = await call('POST', API_PATHS.releaseEmails, {body: {subscribed}});
      return body?.subscribed === true;
    },
    /** The buyer's own refund, under the guarantee or as a withdrawal, with their reason if they gave one. */
    async refundPurchase(kind: OwnRefundKind, reason?: string): Promise<RefundPurchaseResult> {
      const request: RefundPurchaseRequest = reason === undefined ? {kind} : {kind, reason};
      return (await call('POST', API_PATHS.refundPurchase, {body: request}))!;
    },
    /** A new invitation to one repository of the purchase (the kit's, or an extra one by its key), once the last one expired. */
    async resendInvitation(key = 'kit'): Promise<AccessResult> {
      const request: ResendRequest = {key};
      return (await call('POST', API_PATHS.resendInvitation, {body: request}))!;
    },
    /** The signed-in owner's team: its seats and members. */
    async team(): Promise<Team> {
      return (await call('GET', API_PATHS.team))!;
    },
    /** Gives a free seat of the owner's team to a member, by e-mail or by GitHub username. */
    async addTeamMember(request: TeamMemberRequest): Promise<TeamMemberAdded> {
      return (await call('POST', API_PATHS.addTeamMember, {body: request}))!;
    },
    /** Removes a member (their access is taken back) or withdraws an invitation; answers the team after. */
    async removeTeamMember(seat: number): Promise<Team> {
      return (await call('POST', API_PATHS.removeTeamMember, {body: {seat}}))!;
    },
    /** Sends an invited member a new link; answers the team after. */
    async resendTeamInvitation(seat: number): Promise<Team> {
      return (await call('POST', API_PATHS.resendTeamInvitation, {body: {seat}}))!;
    },
    /** The signed-in member takes the seat their e-mailed link offers. */
    async joinTeam(token: string): Promise<TeamJoined> {
      return (await call('POST', API_PATHS.joinTeam, {body: {token}}))!;
    },
    /** Tells the worker a sign-in just finished: its account's first verified sign-in is checked now. */
    async signedIn(): Promise<SignedInResponse> {
      const body = await call('POST', API_PATHS.signedIn, {body: {}});
      return {emailVerified: body?.emailVerified === true};
    },
    /**
     * Whether the signed-in account is one of the seller's admins, for the account menu's link to
     * the console. Only a plain `true` counts: any other answer is no (fail closed).
     */
    async isAdmin(): Promise<boolean> {
      const body = await call('GET', API_PATHS.isAdmin);
      return body?.admin === true;
    },
    /**
     * Records a visit through an affiliate's link and answers its id and until when it counts. A
     * plain POST, with no token and no anti-forgery header: the endpoint is public, the worker asks
     * it no token (a visitor's first page has no cookie yet, and fetching one first would cost a
     * request on every such page), and it sets no cookie.
     */
    async affiliateVisit(request: AffiliateVisitRequest): Promise<AffiliateVisit> {
      let answer: Response;
      try {
        answer = await fetch(apiUrl(options.baseUrl, API_PATHS.affiliateVisit), {
          method: 'POST',
          headers: {'Content-Type': 'application/json'},
          body: JSON.stringify(request),
        });
      } catch {
        throw new ApiError(UNREACHABLE_MESSAGE, 0);
      }
      if (!answer.ok) throw await errorFrom(answer);
      const body = (await answer.json().catch(() => null)) as EndpointAnswer<'affiliateVisit'> | null;
      if (typeof body?.referral !== 'string' || typeof body.expiresAt !== 'number')
        throw new ApiError('The server sent no referral', 502);
      return {referral: body.referral, expiresAt: body.expiresAt};
    },
    /** The signed-in user's affiliate link and figures, or null in `affiliate` until they join. */
    async affiliate(): Promise<AffiliateAnswer> {
      return affiliateFrom(await call('GET', API_PATHS.affiliate));
    },
    /** Joins the affiliate programme with the code the user named; the worker says whether it is free. */
    async joinAffiliates(request: JoinAffiliatesRequest): Promise<AffiliateAnswer> {
      return affiliateFrom(await call('POST', API_PATHS.joinAffiliates, {body: request}));
    },
    /**
     * A single-use Stripe link for the signed-in affiliate (when the programme pays through Stripe):
     * to set up or finish their payouts (`onboarding`), or to their Stripe dashboard once ready.
     * Read fail-closed: no http(s) link, nowhere to send the browser.
     */
    async affiliateConnect(): Promise<AffiliateConnectAnswer> {
      const body = await call('POST', API_PATHS.affiliateConnect);
      if (!isHttpUrl(body?.url) || (body.kind !== 'onboarding' && body.kind !== 'dashboard'))
        throw new ApiError('The server sent no Stripe link', 502);
      return {url: body.url, kind: body.kind};
    },
    /** Puts an e-mail on the waitlist: 201 when new, 200 when already known; 400 for an invalid address, 429 when too many. */
    async saveLead(email: string): Promise<LeadResult> {
      const body = await call('POST', API_PATHS.leads, {body: {email}});
      return {stored: body?.stored === true};
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
