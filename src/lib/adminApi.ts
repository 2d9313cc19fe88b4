/**
 * The seller's console's client: one call for each admin endpoint of the contract
 * (`src/config/contract.ts`, `ADMIN_PATHS`), typed from it by the same `endpoint` as the buyer's
 * client, on the same request machinery, so the token, its refresh and the ApiError are the same.
 * Only /admin imports it.
 */
import {
  ADMIN_PATHS,
  type AdminActionResult,
  type AffiliatePayoutRequest,
  type AdminRefundRequest,
  type LaunchCodeBody,
  type RepositoryDifferenceKind,
  type RepositoryFixRequest,
  type PurchaseFilter,
  type SalesPeriod,
} from '../config/api';
import {ApiError, createRequest, type ApiClientOptions, withQuery} from './api';

/** What the worker answered to an action. */
export type ActionAnswer = AdminActionResult;

export interface PurchaseQuery extends PurchaseFilter {
  page?: number;
}

export function createAdminApi(options: ApiClientOptions) {
  const {endpoint: call, response} = createRequest(options);
  // An action's answer, or none at all from a worker that sent none.
  const done = (answer: ActionAnswer | null): ActionAnswer => answer ?? ({} as ActionAnswer);

  return {
    sales: async (period?: SalesPeriod) => (await call('GET', ADMIN_PATHS.sales, {query: {period}}))!,
    funnel: async (period?: SalesPeriod) => (await call('GET', ADMIN_PATHS.funnel, {query: {period}}))!,
    purchases: async ({q, page, ...filter}: PurchaseQuery = {}) =>
      (await call('GET', ADMIN_PATHS.purchases, {query: {q: q?.trim(), ...filter, page}}))!,
    /** Every purchase the filter matches, as CSV (a Blob, as for leads). */
    purchasesCsv: async ({q, ...filter}: PurchaseFilter = {}) =>
      (await response('GET', withQuery(ADMIN_PATHS.purchasesCsv, {q: q?.trim(), ...filter}))).blob(),
    purchase: async (sessionId: string) => (await call('GET', ADMIN_PATHS.purchase, {params: {sessionId}}))!,
    /**
     * Invites `username` for the purchase's seat, or for the seat of the team member `member` (a move);
     * with neither, gives back only what the seller's revocation took (a purchase with no seat).
     */
    grant: async (sessionId: string, username?: string, member?: number) =>
      done(
        await call('POST', ADMIN_PATHS.grant, {
          params: {sessionId},
          body: username === undefined ? {} : member === undefined ? {username} : {username, member},
        }),
      ),
    /** Takes back the seat of the team member `member` (AdminMember.id), or withdraws their invitation. */
    takeBackMember: async (sessionId: string, member: number) =>
      done(await call('POST', ADMIN_PATHS.takeBackMember, {params: {sessionId}, body: {member}})),
    revoke: async (sessionId: string) => done(await call('POST', ADMIN_PATHS.revoke, {params: {sessionId}, body: {}})),
    /** A fresh invitation to one repository of the purchase: the kit's unless `key` names another. */
    resend: async (sessionId: string, key = 'kit', seat = 1) =>
      done(await call('POST', ADMIN_PATHS.resend, {params: {sessionId}, body: seat === 1 ? {key} : {key, seat}})),
    /** Clears a purchase's card-country flag (or an upgrade's, by its session): the seller accepts it as it is. */
    acceptCardCountry: async (sessionId: string) =>
      done(await call('POST', ADMIN_PATHS.acceptCardCountry, {params: {sessionId}, body: {}})),
    resetUsernameChanges: async (sessionId: string) =>
      done(await call('POST', ADMIN_PATHS.resetUsernameChanges, {params: {sessionId}, body: {}})),
    refund: async (sessionId: string, refund: AdminRefundRequest) =>
      done(await call('POST', ADMIN_PATHS.refund, {params: {sessionId}, body: refund})),
    jobs: async () => (await call('GET', ADMIN_PATHS.jobs))!,
    retryJob: async (jobId: number) => done(await call('POST', ADMIN_PATHS.retryJob, {params: {jobId}, body: {}})),
    releases: async () => (await call('GET', ADMIN_PATHS.releases))!,
    /** The release's e-mail again, to the addresses the worker recorded failed. */
    resendRelease: async (releaseId: number) =>
      done(await call('POST', ADMIN_PATHS.releaseResend, {params: {releaseId}, body: {}})),
    /** The kit's repository, or with `repository` (an extra repository's key) that one. */
    repositoryAudit: async (repository?: string) =>
      (await call('GET', ADMIN_PATHS.repositoryAudit, {query: {repository}}))!,
    repositoryFix: async (fix: RepositoryFixRequest) =>
      done(await call('POST', ADMIN_PATHS.repositoryFix, {body: fix})),
    /** Every difference of the kind the worker finds now, up to its limit, on the kit's repository or the extra one `repository`. */
    repositoryFixAll: async (kind: RepositoryDifferenceKind, repository?: string) =>
      (await call('POST', ADMIN_PATHS.repositoryFixAll, {
        body: {kind, ...(repository !== undefined && {repository})},
      }))!,
    leads: async (page = 1) => (await call('GET', ADMIN_PATHS.leads, {query: {page}}))!,
    /** The whole waitlist; a plain link could not carry the token, so it comes as a Blob. */
    leadsCsv: async () => (await response('GET', ADMIN_PATHS.leadsCsv)).blob(),
    selfRefunds: async (page = 1) => (await call('GET', ADMIN_PATHS.selfRefunds, {query: {page}}))!,
    auditLog: async (page = 1) => (await call('GET', ADMIN_PATHS.auditLog, {query: {page}}))!,
    launchCodes: async () => (await call('GET', ADMIN_PATHS.launchCodes))!,
    /** A new launch code at Stripe; the worker answers it as the list shows it. */
    createLaunchCode: async (code: LaunchCodeBody) => (await call('POST', ADMIN_PATHS.createLaunchCode, {body: code}))!,
    endLaunchCode: async (codeId: string) =>
      done(await call('POST', ADMIN_PATHS.endLaunchCode, {params: {codeId}, body: {}})),
    affiliates: async () => (await call('GET', ADMIN_PATHS.affiliates))!,
    /** Every commission, as CSV (a Blob, as for leads). */
    affiliatesCsv: async () => (await response('GET', ADMIN_PATHS.affiliatesCsv)).blob(),
    /** Marks what the affiliate has payable paid: `amount` is what the seller saw and paid, and the worker holds it to that. */
    affiliatePayout: async (affiliateId: string, payout: AffiliatePayoutRequest) =>
      done(await call('POST', ADMIN_PATHS.affiliatePayout, {params: {affiliateId}, body: payout})),
  };
}

export type AdminApi = ReturnType<typeof createAdminApi>;

/** The worker's 403 for a signed-in account that is not in ADMIN_EMAILS. */
export function isNotAdmin(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'ADMIN_ONLY';
}
