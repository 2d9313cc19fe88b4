import {type Context, Hono} from 'hono';
import {
  type AdminAction,
  type AdminActionResult,
  type AdminPurchaseDetail,
  ADMIN_PATHS,
  API_PATHS,
  type AdminJob,
  type AdminRelease,
  type AdminAuditEntry,
  type AdminLead,
  type AdminLaunchCode,
  type AdminSelfRefund,
  type AdminPurchase,
  type Page,
  type RepositoryAudit,
  type RepositoryFixAllResult,
  type SalesSummary,
  type AdminFunnel,
  type AdminAffiliates,
} from '../../../src/config/api';
import {CREDITED_LATER_REFUSAL, launchCodeTerms, storedPlanName} from '../../../src/config';
import {creditedToLater} from '../upgrades/revocations';
import {formatMoney} from '../../../src/config/money';
import {OWNER_SEAT, readGrant, resultOf, type Seat} from '../access/grants/records';
import {grantBySeller, revokeBySeller} from '../access/grants/seat';
import {shownGrantsOf} from '../access/grants/status';
import {githubUserOrRefuse, reportGitHub} from '../access/reportGitHub';
import type {AppEnv} from '../app';
import {currentUser} from '../auth/middleware';
import {HttpError} from '../errors';
import {parse, readJson} from '../http';
import {contextOf} from '../context';
import {runJob} from '../outbox';
import {
  resendBody,
  checkoutSessionId,
  fixAllBody,
  fixBody,
  grantBody,
  jobIdParam,
  pageQuery,
  periodQuery,
  purchaseFilter,
  refundBody,
  releaseIdParam,
  repositoryKey,
  takeBackMemberBody,
  launchCodeBody,
  launchCodeParams,
  affiliateParams,
  affiliatePayoutBody,
} from '../../../src/config/apiSchemas';
import {AFFILIATE_WORDS} from '../../../src/config';
import {affiliatesCsv, listAffiliates, payAffiliate} from './affiliates';
import {settingsOf} from '../settings';
import {createLaunchCode, endLaunchCode, listLaunchCodes} from './launchCodes';
import {recordAction, requireAdmin} from './auth';
import {failingJobs, makeDue} from './failures';
import {auditLogPage, leadsCsv, leadsPage, selfRefundsPage} from './lists';
import {listPurchases, purchaseDetail, purchasesCsv} from './purchases';
import {renewInvitation} from '../access/grants/renew';
import {acceptCardCountry} from './cardCountryReview';
import {refundPayment, refundUpgradesOf} from '../payments/refunds';
import {resendFailed} from '../releases/resend';
import {unsubscribeBase} from '../releases/unsubscribeLink';
import {releaseList} from './releases';
import {auditRepository, auditTarget, fixAllOfKind, fixDifference} from './repositoryAudit';
import {salesSummary} from './sales';
import {funnelSummary} from './funnel';
import {refundSeats} from '../team/seatRefund';
import {heldMember} from '../team/members';
import {moveMemberSeat, takeBackMemberSeat} from '../team/sellerMember';

/**
 * The seller's console (`/admin` on the site): read-only views and the access actions, each
 * written to `admin_audit`. Every route needs an admin (requireAdmin).
 */

export const adminRoutes = new Hono<AppEnv>()
  .use(`${API_PATHS.admin}/*`, requireAdmin)

  .get(ADMIN_PATHS.sales, async (c) =>
    c.json((await salesSummary(c.env.DB, parse(periodQuery, c.req.query('period')))) satisfies SalesSummary),
  )
  .get(ADMIN_PATHS.funnel, async (c) =>
    c.json(
      (await funnelSummary(
        c.env.DB,
        settingsOf(c.env),
        parse(periodQuery, c.req.query('period')),
      )) satisfies AdminFunnel,
    ),
  )

  .get(ADMIN_PATHS.purchases, async (c) => {
    const filter = purchaseFilterOf(c);
    const page = pageOf(c);
    return c.json((await listPurchases(c.env.DB, linksOf(c), filter, page)) satisfies Page<AdminPurchase>);
  })

  .get(ADMIN_PATHS.purchasesCsv, async (c) =>
    c.body(await purchasesCsv(c.env.DB, linksOf(c), purchaseFilterOf(c)), 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': 'attachment; filename="purchases.csv"',
    }),
  )

  .get(ADMIN_PATHS.purchase, async (c) => {
    const detail = await purchaseDetail(c.env.DB, linksOf(c), sessionParam(c.req.param('sessionId')));
    if (!detail) throw notFound();
    // Each grant as GitHub says it is now, as the dashboard reads it: a pending invitation accepted
    // or expired (the seller is offered Resend only for one GitHub no longer honours), and the
    // account's login of today (a grant follows its numeric id).
    const grants = await shownGrantsOf(contextOf(c.env), detail.sessionId);
    const seat = grants.find((grant) => grant.key === 'kit');
    return c.json({
      ...detail,
      access: detail.access && seat ? {...detail.access, status: seat.status, username: seat.username!} : detail.access,
      grants,
    } satisfies AdminPurchaseDetail);
  })

  .post(ADMIN_PATHS.grant, async (c) => {
    const sessionId = sessionParam(c.req.param('sessionId'));
    const {username, member} = await readJson(c, grantBody);
    return audited(c, 'grant', {sessionId, seat: await seatOfMember(c.env.DB, sessionId, member)}, async () => {
      const purchase = await paidPurchase(c.env.DB, sessionId);
      const context = contextOf(c.env);
      // A team member's seat, moved to another account: the member is named by their record.
      if (member !== undefined) return moveMemberSeat(context, {session_id: sessionId, ...purchase}, member, username!);
      const grant = await readGrant(c.env.DB, sessionId);
      if (username === undefined) {
        // Only the right comes back: a seat is given back by inviting an account, named here.
        if (grant)
          throw new HttpError(400, `Name the GitHub account to invite: this purchase's was @${grant.github_username}.`);
        if (purchase.revoked_by_seller_at === null) {
          throw new HttpError(
            409,
            'This purchase has nothing to give back: its access is not revoked. Name a GitHub account to invite.',
            'CONFLICT',
          );
        }
        await grantBySeller(context, {sessionId, userId: purchase.user_id ?? '', github: null});
        return {
          status: 'granted',
          detail: 'access given back: the buyer may download the code and ask for an invitation again',
        };
      }
      const found = await githubUserOrRefuse(context, username);
      const {access} = await grantBySeller(context, {
        sessionId,
        userId: grant?.user_id ?? purchase.user_id ?? '',
        github: found,
      });
      return {status: access!.status, detail: `@${found.login}: ${access!.status}`};
    });
  })

  .post(ADMIN_PATHS.revoke, async (c) => {
    const sessionId = sessionParam(c.req.param('sessionId'));
    return audited(c, 'revoke', sessionId, async () => {
      const purchase = await paidPurchase(c.env.DB, sessionId);
      if (purchase.revoked_by_seller_at !== null) {
        throw new HttpError(409, "This purchase's access is already revoked. Grant access gives it back.", 'CONFLICT');
      }
      // The purchase's right to the code, however it gets it: its seat, if it has one, and its downloads.
      const revoked = await revokeBySeller(contextOf(c.env), sessionId);
      if (!revoked) throw new HttpError(409, 'This purchase changed meanwhile: read it again.', 'CONFLICT');
      const grant = await readGrant(c.env.DB, sessionId);
      const seat = grant
        ? `@${grant.github_username}: access revoked`
        : 'access revoked (no GitHub account was invited)';
      return {status: 'revoked', detail: `${seat}; no download of the code until access is granted again`};
    });
  })

  .post(ADMIN_PATHS.resend, async (c) => {
    const sessionId = sessionParam(c.req.param('sessionId'));
    const {key, seat} = await readJson(c, resendBody);
    return audited(c, 'resend', {sessionId, seat}, async () => {
      await paidPurchase(c.env.DB, sessionId);
      // A team member's seat is renewed as the buyer's own is: its member must still hold it.
      const at = {session_id: sessionId, seat};
      const {status} = resultOf({status: await renewInvitation(contextOf(c.env), at, key, {by: 'seller'})});
      // By the login the account has today (the renewal looked it up by numeric id).
      const login = (await readGrant(c.env.DB, at, key))?.github_username;
      return {
        status,
        detail: `@${login}: ${status}${key === 'kit' ? '' : ` (${key})`}${seat === OWNER_SEAT ? '' : ` (seat ${seat})`}`,
      };
    });
  })

  .post(ADMIN_PATHS.acceptCardCountry, async (c) => {
    const sessionId = sessionParam(c.req.param('sessionId'));
    return audited(c, 'accept_card_country', sessionId, async () => {
      const accepted = await acceptCardCountry(c.env.DB, sessionId);
      if (!accepted) throw notFound();
      const card =
        accepted.card_country === null
          ? 'card never read from Stripe'
          : accepted.card_country
            ? `card from ${accepted.card_country}`
            : 'payment with no card country';
      const detail = `${card} accepted for the ${accepted.fair_price_country} fair price`;
      // An upgrade's payment: logged on its purchase, whose page lists its upgrades.
      if (accepted.upgrade_of)
        return {
          status: 'accepted',
          detail: `${detail}, on the upgrade's payment (${sessionId})`,
          sessionId: accepted.upgrade_of,
        };
      return {status: 'accepted', detail};
    });
  })

  .post(ADMIN_PATHS.takeBackMember, async (c) => {
    const sessionId = sessionParam(c.req.param('sessionId'));
    const {member} = await readJson(c, takeBackMemberBody);
    return audited(
      c,
      'take_back_member',
      {sessionId, seat: await seatOfMember(c.env.DB, sessionId, member)},
      async () => {
        const {email} = await paidPurchase(c.env.DB, sessionId);
        return takeBackMemberSeat(contextOf(c.env), {session_id: sessionId, email}, member);
      },
    );
  })

  .post(ADMIN_PATHS.resetUsernameChanges, async (c) => {
    const sessionId = sessionParam(c.req.param('sessionId'));
    return audited(c, 'reset_username_changes', sessionId, async () => {
      const reset = await c.env.DB.prepare(
        `UPDATE grants SET username_changes = 0, updated_at = ?2
         WHERE repository_key = 'kit' AND session_id = ?1 AND seat = ?3 RETURNING username_changes`,
      )
        .bind(sessionId, Date.now(), OWNER_SEAT)
        .first();
      if (!reset) throw new HttpError(409, 'This purchase has no GitHub account yet.', 'CONFLICT');
      return {status: 'reset', detail: 'the purchase may change its GitHub account again'};
    });
  })

  .post(ADMIN_PATHS.refund, async (c) => {
    const sessionId = sessionParam(c.req.param('sessionId'));
    const request = await readJson(c, refundBody);
    return audited(c, 'refund', sessionId, async () => {
      // Some of a team's seats: priced by the worker, the team's count drops at once.
      if (request.seats !== undefined)
        return refundSeats(c.env, sessionId, {...request, seats: request.seats}, admin(c));
      // A purchase's session, or an upgrade's (its own payment, listed on its purchase's page): a
      // refund of an upgrade takes back only the upgrade, as its webhook then decides.
      const purchase = await c.env.DB.prepare(
        `SELECT payment_intent_id, NULL AS from_plan, 0 AS seats_added, 0 AS stood_on FROM purchases WHERE session_id = ?1
         UNION ALL SELECT payment_intent_id, from_plan, seats_added, ${creditedToLater('u')} AS stood_on
           FROM upgrades u WHERE session_id = ?1 LIMIT 1`,
      )
        .bind(sessionId)
        .first<{payment_intent_id: string | null; from_plan: string | null; seats_added: number; stood_on: number}>();
      if (!purchase) throw notFound();
      if (!purchase.payment_intent_id)
        throw new HttpError(409, 'This purchase was never paid, so there is nothing to refund.', 'CONFLICT');
      // An upgrade a later one was priced on (credited its payment): ended first, it would leave the
      // later one paid for with money given back (a team tier, seats that make no tier).
      if (purchase.stood_on) throw new HttpError(409, CREDITED_LATER_REFUSAL, 'CONFLICT');
      const refund = await refundPayment(
        c.env,
        {paymentIntentId: purchase.payment_intent_id, sessionId, by: admin(c)},
        request,
        {refundedBefore: request.refundedBefore},
      );
      const amount = formatMoney(refund.refunded, refund.currency);
      const reason = request.reason.replaceAll('_', ' ');
      // A purchase refunded in full takes back everything, its upgrades' payments too, as part of the same action.
      const upgrades =
        refund.left === 0 && purchase.from_plan === null
          ? await refundUpgradesOf(c.env, sessionId, admin(c), request.reason, refund.action)
          : '';
      return refund.left === 0
        ? {
            status: 'refunded',
            detail: `${amount} refunded in full (${reason}; Stripe ${refund.refundId})${upgrades}; ${
              purchase.from_plan === null
                ? 'access ends'
                : purchase.seats_added > 0
                  ? `the team loses the ${purchase.seats_added === 1 ? 'seat' : `${purchase.seats_added} seats`} it added`
                  : `the purchase returns to ${storedPlanName(purchase.from_plan)}`
            } when Stripe confirms`,
          }
        : {
            status: 'partly_refunded',
            detail: `${amount} refunded (${reason}; Stripe ${refund.refundId}); ${formatMoney(refund.left, refund.currency)} left, and the buyer keeps access`,
          };
    });
  })

  .get(ADMIN_PATHS.jobs, async (c) => c.json((await failingJobs(c.env.DB)) satisfies AdminJob[]))
  .get(ADMIN_PATHS.releases, async (c) => c.json((await releaseList(c.env.DB)) satisfies AdminRelease[]))

  // The addresses are the worker's own record of this release's failures, never a list from the browser.
  .post(ADMIN_PATHS.releaseResend, async (c) => {
    const id = parse(releaseIdParam, c.req.param('releaseId'));
    return audited(c, 'resend_release', null, async () => {
      const unsubscribeUrl = unsubscribeBase(c.req.url);
      const {addresses, batches} = await resendFailed(contextOf(c.env), id, unsubscribeUrl);
      return {
        status: 'sending_again',
        detail: `release ${id}: sent again to the ${addresses} ${addresses === 1 ? 'address' : 'addresses'} whose e-mail failed, in ${batches} ${batches === 1 ? 'batch' : 'batches'} (anyone unsubscribed or refunded since is skipped)`,
      };
    });
  })

  .post(ADMIN_PATHS.retryJob, async (c) => {
    const id = parse(jobIdParam, c.req.param('jobId'));
    const job = await c.env.DB.prepare('SELECT session_id FROM jobs WHERE id = ?1')
      .bind(id)
      .first<{session_id: string | null}>();
    return audited(c, 'retry_job', job?.session_id ?? null, async () => {
      const due = await makeDue(c.env.DB, id);
      if (!due) throw new HttpError(404, 'There is no failed or waiting job with that id.', 'NOT_FOUND');
      await runJob(contextOf(c.env), id);
      const after = await c.env.DB.prepare('SELECT status, last_error FROM jobs WHERE id = ?1')
        .bind(id)
        .first<{status: string; last_error: string | null}>();
      const status = after!.status === 'done' ? 'done' : after!.status === 'failed' ? 'failed' : 'retrying';
      return {status, detail: `job ${id} (${due.kind}): ${status}`};
    });
  })

  .get(ADMIN_PATHS.repositoryAudit, async (c) => {
    const context = contextOf(c.env);
    const key = c.req.query('repository');
    const target = auditTarget(context.settings, key === undefined ? undefined : parse(repositoryKey, key));
    return c.json((await github(() => auditRepository(context, target))) satisfies RepositoryAudit);
  })

  .post(ADMIN_PATHS.repositoryFix, async (c) => {
    const request = await readJson(c, fixBody);
    const done: string[] = [];
    return audited(
      c,
      'repository_fix',
      null,
      async () => {
        const {detail, sessionId} = await fixDifference(contextOf(c.env), request, done);
        return {status: 'fixed', detail: `${request.kind}: ${detail}`, sessionId};
      },
      () => (done.length > 0 ? `Done before it stopped: ${done.join('; ')}.` : 'Nothing was changed on GitHub.'),
    );
  })

  // The accounts are the worker's own audit, read now: a list from the browser is never trusted.
  // Each account is written to the admin log as it is done, like a fix of one.
  .post(ADMIN_PATHS.repositoryFixAll, async (c) => {
    const {kind, repository} = await readJson(c, fixAllBody);
    const context = contextOf(c.env);
    const target = auditTarget(context.settings, repository);
    const result = await github(() =>
      fixAllOfKind(
        context,
        kind,
        ({difference, outcome, detail}) =>
          recordAction(c.env.DB, {
            admin: admin(c),
            action: 'repository_fix',
            outcome,
            sessionId: difference.sessionId,
            detail:
              outcome === 'done'
                ? `${kind}: ${detail} (fix all).`
                : `Failed (fix all): @${difference.login}: ${detail}`,
          }),
        target,
      ),
    );
    return c.json(result satisfies RepositoryFixAllResult);
  })

  .get(ADMIN_PATHS.leads, async (c) => c.json((await leadsPage(c.env.DB, pageOf(c))) satisfies Page<AdminLead>))

  .get(ADMIN_PATHS.leadsCsv, async (c) =>
    c.body(await leadsCsv(c.env.DB), 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': 'attachment; filename="leads.csv"',
    }),
  )

  .get(ADMIN_PATHS.selfRefunds, async (c) =>
    c.json((await selfRefundsPage(c.env.DB, pageOf(c))) satisfies Page<AdminSelfRefund>),
  )
  .get(ADMIN_PATHS.auditLog, async (c) =>
    c.json((await auditLogPage(c.env.DB, pageOf(c))) satisfies Page<AdminAuditEntry>),
  )

  .get(ADMIN_PATHS.launchCodes, async (c) => c.json({items: await listLaunchCodes(c.env.DB)}))

  .post(ADMIN_PATHS.createLaunchCode, async (c) => {
    const request = await readJson(c, launchCodeBody);
    const entry = {admin: admin(c), action: 'create_code' as const};
    try {
      const code = await createLaunchCode(c.env.DB, settingsOf(c.env), request, admin(c));
      await recordAction(c.env.DB, {...entry, outcome: 'done', detail: `${code.code}: ${launchCodeTerms(code)}.`});
      return c.json(code satisfies AdminLaunchCode, 201);
    } catch (error) {
      const reason = error instanceof HttpError ? error.message : 'Something went wrong on our side.';
      await recordAction(c.env.DB, {...entry, outcome: 'failed', detail: `Failed: ${request.code}: ${reason}`});
      throw error;
    }
  })

  .post(ADMIN_PATHS.endLaunchCode, async (c) => {
    const {codeId} = parse(launchCodeParams, c.req.param());
    return audited(c, 'end_code', null, async () => {
      const code = await endLaunchCode(c.env.DB, settingsOf(c.env), codeId);
      const noMore = code.forUpgrades ? 'no upgrade is priced with it' : 'Stripe no longer takes it';
      return {status: 'ended', detail: `${code.code} ended: ${noMore}`};
    });
  })

  .get(ADMIN_PATHS.affiliates, async (c) => c.json((await listAffiliates(c.env.DB)) satisfies AdminAffiliates))

  .get(ADMIN_PATHS.affiliatesCsv, async (c) =>
    c.body(await affiliatesCsv(c.env.DB), 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': 'attachment; filename="commissions.csv"',
    }),
  )

  /**
   * The seller paid the affiliate by their own means, or has the worker send it through Stripe:
   * marks what was payable paid, written to the audit. 202 while Stripe has not answered.
   */
  .post(ADMIN_PATHS.affiliatePayout, async (c) => {
    const {affiliateId} = parse(affiliateParams, c.req.param());
    const request = await readJson(c, affiliatePayoutBody);
    const entry = {admin: admin(c), action: 'affiliate_payout' as const};
    try {
      const payout = await payAffiliate(contextOf(c.env), affiliateId, request, admin(c));
      const detail =
        payout.method === 'marked'
          ? AFFILIATE_WORDS.payoutMade(payout.amount, payout.currency, payout.reference)
          : payout.state === 'made'
            ? AFFILIATE_WORDS.transferMade(payout.amount, payout.currency, payout.reference)
            : AFFILIATE_WORDS.transferSending(payout.amount, payout.currency);
      await recordAction(c.env.DB, {...entry, outcome: 'done', detail: `${payout.code}: ${detail}`});
      const sending = payout.state === 'sending';
      return c.json({status: sending ? 'sending' : 'paid', detail} satisfies AdminActionResult, sending ? 202 : 200);
    } catch (error) {
      const reason = error instanceof HttpError ? error.message : 'Something went wrong on our side.';
      await recordAction(c.env.DB, {
        ...entry,
        outcome: 'failed',
        detail: `Failed: payout to ${affiliateId}: ${reason}`,
      });
      throw error;
    }
  });

/** The admin acting (requireAdmin has checked the e-mail). */
function admin(c: Context<AppEnv>): string {
  return currentUser(c).email!;
}

function linksOf(c: Context<AppEnv>) {
  return {stripeKey: settingsOf(c.env).STRIPE_SECRET_KEY};
}

function purchaseFilterOf(c: Context<AppEnv>) {
  return parse(purchaseFilter, {
    q: c.req.query('q'),
    state: c.req.query('state'),
    plan: c.req.query('plan'),
    sort: c.req.query('sort'),
    flagged: c.req.query('flagged'),
  });
}

function pageOf(c: Context<AppEnv>): number {
  return parse(pageQuery, c.req.query('page'));
}

function sessionParam(value: string | undefined): string {
  return parse(checkoutSessionId, value);
}

const notFound = () => new HttpError(404, 'There is no purchase with that session id.', 'NOT_FOUND');

/** The seat a member named by the console holds now (the buyer's own when none is named), or null when they hold none. */
async function seatOfMember(db: D1Database, sessionId: string, member: number | undefined): Promise<number | null> {
  if (member === undefined) return OWNER_SEAT;
  return (await heldMember(db, sessionId, member))?.seat ?? null;
}

async function paidPurchase(db: D1Database, sessionId: string) {
  const purchase = await db
    .prepare('SELECT status, user_id, email, revoked_by_seller_at FROM purchases WHERE session_id = ?1')
    .bind(sessionId)
    .first<{status: string; user_id: string | null; email: string | null; revoked_by_seller_at: number | null}>();
  if (!purchase) throw notFound();
  if (purchase.status !== 'paid')
    throw new HttpError(409, 'This purchase is not paid (refunded, disputed or unfinished).', 'CONFLICT');
  return purchase;
}

/**
 * Runs an admin action and writes its row in `admin_audit` whatever the outcome: what was asked,
 * how it ended (GitHub's refusals in our words, as for buyers), and what changed: the purchase's
 * access before and after, or what the action had done before it stopped (`progress`). Nothing
 * done in the seller's name goes unrecorded.
 */
async function audited(
  c: Context<AppEnv>,
  action: AdminAction,
  on: string | null | {sessionId: string; seat: number | null},
  work: () => Promise<{status: AdminActionResult['status']; detail: string; sessionId?: string | null}>,
  progress?: () => string,
) {
  const db = c.env.DB;
  // The purchase acted on, and the seat whose access the row compares: the buyer's own unless the
  // action is on a team member's (null when that member holds no seat: nothing to compare).
  const {sessionId, seat} = typeof on === 'string' || on === null ? {sessionId: on, seat: OWNER_SEAT} : on;
  const at = sessionId !== null && seat !== null ? {session_id: sessionId, seat} : null;
  const before = at ? await readGrant(db, at) : null;
  // What changed on that seat's access (known when the action names its purchase up front).
  const accessChange = async () =>
    at ? ` ${seat === OWNER_SEAT ? '' : `Seat ${seat}: `}${changeOf(before, await readGrant(db, at))}` : '';
  try {
    const result = await work();
    const detail = `${result.detail}.${await accessChange()}`;
    await recordAction(db, {
      admin: admin(c),
      action,
      outcome: 'done',
      sessionId: result.sessionId ?? sessionId,
      detail,
    });
    return c.json({status: result.status, detail: result.detail} satisfies AdminActionResult);
  } catch (err) {
    const reported = reportGitHub(err);
    const reason = reported instanceof HttpError ? reported.message : 'Something went wrong on our side.';
    const detail = `Failed: ${reason}${progress ? ` ${progress()}` : ''}${await accessChange()}`;
    await recordAction(db, {admin: admin(c), action, outcome: 'failed', sessionId, detail});
    throw reported;
  }
}

/** The purchase's access as an admin reads it: the account, its state and its invitation. */
function accessOf(grant: Seat | null): string {
  if (!grant) return 'none';
  return `@${grant.github_username} (${grant.status}${grant.invitation_id ? `, invitation ${grant.invitation_id}` : ''})`;
}

function changeOf(before: Seat | null, after: Seat | null): string {
  const [was, is] = [accessOf(before), accessOf(after)];
  return was === is ? `Access unchanged: ${was}.` : `Access: ${was} → ${is}.`;
}

/** GitHub's failures in our words, as for buyers; our own refusals (409, 404) pass through. */
async function github<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw reportGitHub(err);
  }
}
