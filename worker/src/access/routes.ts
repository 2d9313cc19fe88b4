import {Hono} from 'hono';
import {API_PATHS, type AccessResult, type AccessStatus} from '../../../src/config/api';
import type {AppEnv} from '../app';
import {currentUser, requireUser} from '../auth/middleware';
import type {AuthUser} from '../auth/user';
import {HttpError} from '../errors';
import {readJson} from '../http';
import {contextOf} from '../context';
import {paymentStandingOf} from '../payments/standing';
import {ownRefundWindows} from '../payments/selfRefund';
import {accessPurchaseOf} from '../purchases';
import {enforceLimit, limits} from '../rateLimit';
import {addUserToRepoBody, resendBody} from '../../../src/config/apiSchemas';
import {GitHubFailure, repositoryFor} from './github';
import {repositoryPage} from './repositoryPage';
import {drainLine} from './grants/drainQueue';
import {renewInvitation} from './grants/renew';
import {reportGitHub} from './reportGitHub';
import {grantForUser, readGrant, resultOf} from './grants/records';
import {requestAccess} from './grants/seat';
import {extraAccessOf, observeSeat} from './grants/status';

async function paidPurchaseOrRefuse(db: D1Database, user: AuthUser) {
  const purchase = await accessPurchaseOf(db, user);
  if (!purchase) throw new HttpError(402, 'No paid purchase was found for this account', 'NOT_PAID');
  return purchase;
}

export const accessRoutes = new Hono<AppEnv>()
  /**
   * Invites a paid buyer's GitHub account to the private repository. The server checks payment
   * itself; the username is resolved to GitHub's numeric id; 200 `invited` or `active`, or 202
   * `queued` when GitHub is rate limiting or failing and the outbox will retry.
   */
  .post(API_PATHS.addUserToRepo, requireUser, async (c) => {
    const user = currentUser(c);
    await enforceLimit(c.env.DB, `access:${user.uid}`, limits.addUserToRepo);
    const body = await readJson(c, addUserToRepoBody);
    if (body.userId !== user.uid) throw new HttpError(403, 'You may only request access for your own account');
    const purchase = await paidPurchaseOrRefuse(c.env.DB, user);
    const context = contextOf(c.env);

    let github: {login: string; id: number | null};
    try {
      const found = await repositoryFor(context).lookupUser(body.username);
      if (!found)
        throw new HttpError(
          404,
          `GitHub user "${body.username}" was not found. Check the spelling.`,
          'GITHUB_USER_NOT_FOUND',
        );
      github = found;
    } catch (err) {
      if (!(err instanceof GitHubFailure) || !err.transient) throw reportGitHub(err);
      github = {login: body.username, id: null}; // resolved by the queued job
    }
    try {
      // The verified owner of the purchase's e-mail may take back a seat someone else chose.
      const byOwner = user.emailVerified && user.email !== undefined && purchase.email === user.email;
      const result = await requestAccess(context, {sessionId: purchase.session_id, userId: user.uid, github, byOwner});
      return c.json({status: result.status} satisfies AccessResult, result.status === 'queued' ? 202 : 200);
    } catch (err) {
      throw reportGitHub(err);
    }
  })

  /**
   * What the dashboard shows: none, queued, pending (with `expired`), active, revoked,
   * removal_failed or failed, and how many more times the seat may move to another account; and
   * what became of the payment (paid, partly refunded, refunded, disputed, lost) and since when.
   * 30 a minute per user (429 after), and GitHub is read at most once a minute per grant.
   */
  .get(API_PATHS.accessStatus, requireUser, async (c) => {
    const user = currentUser(c);
    await enforceLimit(c.env.DB, `status:${user.uid}`, limits.accessStatus);
    const context = contextOf(c.env);
    const purchase = await accessPurchaseOf(c.env.DB, user);
    // What became of the payments, so that a refunded buyer reads that, not that they never bought.
    const {standing, ended} = await paymentStandingOf(c.env.DB, user, purchase);
    const grant = purchase
      ? await readGrant(c.env.DB, purchase.session_id)
      : ((ended && (await readGrant(c.env.DB, ended.session_id))) ?? (await grantForUser(c.env.DB, user.uid)));
    // The repository the invitations go to: the dashboard links to this one, never to another.
    const {GITHUB_REPO: repository} = context.settings;
    const base = {
      hasPaid: Boolean(purchase),
      ...(repository && {repository, repositoryUrl: repositoryPage(context.settings, repository)}),
      ...standing,
    };
    // The buyer's own refunds, read after GitHub: an invitation seen accepted just now may end a withdrawal.
    const windows = () => ownRefundWindows(c.env.DB, user, purchase);
    // Read after the kit's grant: its invitation accepted just now may have invited these.
    const extras = async () => {
      const list = purchase ? await extraAccessOf(context, purchase) : [];
      return list.length > 0 ? {extraRepositories: list} : {};
    };
    if (purchase?.revoked_by_seller_at != null) {
      // The seller ended the purchase's right to the code: said so whether or not it ever had a seat.
      const seen = grant ? await observeSeat(context, grant) : null;
      return c.json({
        ...(seen ?? {usernameChanges: 0, usernameChangesLeft: 0}),
        status: seen?.status === 'removal_failed' ? 'removal_failed' : 'revoked',
        ...base,
        ...(await windows()),
        revokedBySeller: true,
      } satisfies AccessStatus);
    }
    if (!grant)
      return c.json({status: 'none', ...base, ...(await extras()), ...(await windows())} satisfies AccessStatus);
    let seen = await observeSeat(context, grant);
    if (seen.queue && seen.queue.expectedAt <= Date.now()) {
      // The buyer's turn is due before the cron's next run: send the queue's head now.
      if (context.settings.GITHUB_REPO) await drainLine(context, context.settings.GITHUB_REPO, 1);
      const now = await readGrant(c.env.DB, grant);
      if (now) seen = await observeSeat(context, now);
    }
    return c.json({...seen, ...base, ...(await extras()), ...(await windows())} satisfies AccessStatus);
  })

  /**
   * A new invitation to one repository of the purchase once its last one expired (GitHub honours one
   * for seven days): the kit's, or one of the plan's extra repositories by its key. Only the
   * purchase's own grant; 409 otherwise. 200 with what the grant is after it (invited, or active
   * when the buyer had accepted meanwhile), 202 while it waits in that repository's line.
   */
  .post(API_PATHS.resendInvitation, requireUser, async (c) => {
    const user = currentUser(c);
    await enforceLimit(c.env.DB, `access:${user.uid}`, limits.addUserToRepo);
    const {key} = await readJson(c, resendBody);
    const purchase = await paidPurchaseOrRefuse(c.env.DB, user);
    try {
      const renewed = await renewInvitation(contextOf(c.env), purchase.session_id, key, {
        by: 'buyer',
        userId: user.uid,
      });
      if (renewed === 'failed' || renewed === 'revoked' || renewed === 'removal_failed') {
        // The new invitation's send ended the grant (GitHub refused it, the account went to another
        // purchase, the purchase ended meanwhile): said as the dashboard will show it, never "queued".
        const detail = (await readGrant(c.env.DB, purchase.session_id, key))?.detail;
        throw new HttpError(409, detail ?? 'The new invitation could not be sent: this page says why.', 'CONFLICT');
      }
      const {status} = resultOf({status: renewed});
      return c.json({status} satisfies AccessResult, status === 'queued' ? 202 : 200);
    } catch (err) {
      throw reportGitHub(err);
    }
  });
