/**
 * The seller's console's client: one typed call for each admin endpoint of the contract
 * (`ADMIN_PATHS` in `src/config/api.ts`), on the same request machinery as the buyer's client,
 * so the token, its refresh and the ApiError are the same. Only /admin imports it.
 */
import {
  ADMIN_PATHS,
  adminPath,
  type AdminActionResult,
  type AdminAuditEntry,
  type AdminGrantRequest,
  type AdminJob,
  type AdminLead,
  type AdminPurchase,
  type AdminPurchaseDetail,
  type AdminRefundRequest,
  type AdminRelease,
  type Page,
  type RepositoryAudit,
  type RepositoryDifferenceKind,
  type RepositoryFixAllRequest,
  type RepositoryFixAllResult,
  type RepositoryFixRequest,
  type PurchaseFilter,
  type ResendExtraInvitationRequest,
  type SalesPeriod,
  type SalesSummary,
} from '../config/api';
import {ApiError, createRequest, type ApiClientOptions} from './api';

/** What the worker answered to an action. */
export type ActionAnswer = AdminActionResult;

export interface PurchaseQuery extends PurchaseFilter {
  page?: number;
}

/** `path?name=value&…`, leaving out the empty ones. */
function withQuery(path: string, params: Record<string, string | number | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') query.set(name, String(value));
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

export function createAdminApi(options: ApiClientOptions) {
  const {json, response} = createRequest(options);
  const get = async <T>(path: string) => (await json('GET', path)) as T;
  const act = async (path: string, body: object = {}) => ((await json('POST', path, body)) ?? {}) as ActionAnswer;
  const onPurchase = (path: string, sessionId: string) => adminPath(path, {sessionId});

  return {
    sales: (period?: SalesPeriod) => get<SalesSummary>(withQuery(ADMIN_PATHS.sales, {period})),
    purchases: ({q, page, ...filter}: PurchaseQuery = {}) =>
      get<Page<AdminPurchase>>(withQuery(ADMIN_PATHS.purchases, {q: q?.trim(), ...filter, page})),
    /** Every purchase the filter matches, as CSV (a Blob, as for leads). */
    purchasesCsv: async ({q, ...filter}: PurchaseFilter = {}) =>
      (await response('GET', withQuery(ADMIN_PATHS.purchasesCsv, {q: q?.trim(), ...filter}))).blob(),
    purchase: (sessionId: string) => get<AdminPurchaseDetail>(onPurchase(ADMIN_PATHS.purchase, sessionId)),
    /** Invites `username`; with none, gives back only what the seller's revocation took (a purchase with no seat). */
    grant: (sessionId: string, username?: string) =>
      act(
        onPurchase(ADMIN_PATHS.grant, sessionId),
        (username === undefined ? {} : {username}) satisfies AdminGrantRequest,
      ),
    revoke: (sessionId: string) => act(onPurchase(ADMIN_PATHS.revoke, sessionId)),
    resend: (sessionId: string) => act(onPurchase(ADMIN_PATHS.resend, sessionId)),
    /** A fresh invitation to the plan's extra repository `key`, once its pending one expired. */
    resendExtra: (sessionId: string, key: string) =>
      act(onPurchase(ADMIN_PATHS.resendExtra, sessionId), {key} satisfies ResendExtraInvitationRequest),
    /** Clears a purchase's card-country flag (or an upgrade's, by its session): the seller accepts it as it is. */
    acceptCardCountry: (sessionId: string) => act(onPurchase(ADMIN_PATHS.acceptCardCountry, sessionId)),
    resetUsernameChanges: (sessionId: string) => act(onPurchase(ADMIN_PATHS.resetUsernameChanges, sessionId)),
    refund: (sessionId: string, refund: AdminRefundRequest) => act(onPurchase(ADMIN_PATHS.refund, sessionId), refund),
    jobs: () => get<AdminJob[]>(ADMIN_PATHS.jobs),
    retryJob: (jobId: number) => act(adminPath(ADMIN_PATHS.retryJob, {jobId})),
    releases: () => get<AdminRelease[]>(ADMIN_PATHS.releases),
    /** The release's e-mail again, to the addresses the worker recorded failed. */
    resendRelease: (releaseId: number) => act(adminPath(ADMIN_PATHS.releaseResend, {releaseId})),
    /** The kit's repository, or with `repository` (an extra repository's key) that one. */
    repositoryAudit: (repository?: string) =>
      get<RepositoryAudit>(withQuery(ADMIN_PATHS.repositoryAudit, {repository})),
    repositoryFix: (fix: RepositoryFixRequest) => act(ADMIN_PATHS.repositoryFix, fix),
    /** Every difference of the kind the worker finds now, up to its limit, on the kit's repository or the extra one `repository`. */
    repositoryFixAll: async (kind: RepositoryDifferenceKind, repository?: string) =>
      (await json('POST', ADMIN_PATHS.repositoryFixAll, {
        kind,
        ...(repository !== undefined && {repository}),
      } satisfies RepositoryFixAllRequest)) as RepositoryFixAllResult,
    leads: (page = 1) => get<Page<AdminLead>>(withQuery(ADMIN_PATHS.leads, {page})),
    /** The whole waitlist; a plain link could not carry the token, so it comes as a Blob. */
    leadsCsv: async () => (await response('GET', ADMIN_PATHS.leadsCsv)).blob(),
    auditLog: (page = 1) => get<Page<AdminAuditEntry>>(withQuery(ADMIN_PATHS.auditLog, {page})),
  };
}

export type AdminApi = ReturnType<typeof createAdminApi>;

/** The worker's 403 for a signed-in account that is not in ADMIN_EMAILS. */
export function isNotAdmin(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'ADMIN_ONLY';
}
