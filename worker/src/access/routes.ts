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
import {findStoredPlan, storedPlanName} from '../../../src/config';
import {enforceLimit, limits} from '../rateLimit';
import {addUserToRepoBody, resendBody} from '../../../src/config/apiSchemas';
import {repositoryPage} from './repositoryPage';
import {drainLine} from './grants/drainQueue';
import {renewInvitation} from './grants/renew';
import {accountNamed, reportGitHub} from './reportGitHub';
import {grantForUser, readGrant, resultOf} from './grants/records';
import {requestAccess} from './grants/seat';
import {extraAccessOf, observeSeat} from './grants/status';
import {type AccessSeat, accessSeatOf, refOf} from './accessSeat';
import {endedTeamOf, teamPurchaseOf} from '../team/members';

/** The user's seat (their own purchase's, or a team's they joined), or 402. */
async function accessSeatOrRefuse(db: D1Database, user: AuthUser): Promise<AccessSeat> {
  const at = await accessSeatOf(db, user);
  if (!at) throw new HttpError(402, 'No paid purchase was found for this account', 'NOT_PAID');
  return at;
}

/** What a member's dashboard says of their team: its owner, their seat and the plan the team holds. */
function memberTeam(at: AccessSeat | null) {
  if (!at?.member) return {};
  const plan = findStoredPlan(at.purchase.plan);
  const name = storedPlanName(at.purchase.plan) ?? '';
  return {team: {owner: at.member.owner, seat: at.seat, plan: {id: plan?.id ?? null, name}}};
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
    const at = await accessSeatOrRefuse(c.env.DB, user);
    const {purchase} = at;
    const context = contextOf(c.env);

    const github = await accountNamed(context, body.username);
    try {
      // The verified owner of the purchase's e-mail may take back a seat someone else chose (their
      // own seat: a member's is chosen by the member).
      const byOwner = !at.member && user.emailVerified && user.email !== undefined && purchase.email === user.email;
      const result = await requestAccess(context, {
        sessionId: purchase.session_id,
        seat: at.seat,
        memberId: at.member?.id ?? null,
        userId: user.uid,
        github,
        byOwner,
      });
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
    const at = await accessSeatOf(c.env.DB, user);
    // A member's payment is the owner's: what the member reads is their seat, never the payment.
    const purchase = at && !at.member ? at.purchase : null;
    // What became of the payments, so that a refunded buyer reads that, not that they never bought.
    const {standing, ended} = await paymentStandingOf(c.env.DB, user, purchase);
    const grant = at
      ? await readGrant(c.env.DB, refOf(at))
      : ((ended && (await readGrant(c.env.DB, ended.session_id))) ?? (await grantForUser(c.env.DB, user.uid)));
    // The repository the invitations go to: the dashboard links to this one, never to another.
    const {GITHUB_REPO: repository} = context.settings;
    const owned = at && !at.member ? await teamPurchaseOf(c.env.DB, user) : null;
    const teamEnded = at ? null : await endedTeamOf(c.env.DB, user.uid);
    const base = {
      hasPaid: Boolean(at),
      ...memberTeam(at),
      ...(owned && {seats: owned.seats}),
      ...(teamEnded && {teamEnded}),
      ...(repository && {repository, repositoryUrl: repositoryPage(context.settings, repository)}),
      ...standing,
    };
    // The buyer's own refunds, read after GitHub: an invitation seen accepted just now may end a withdrawal.
    const windows = () => ownRefundWindows(c.env.DB, user, purchase);
    // Read after the kit's grant: its invitation accepted just now may have invited these.
    const extras = async () => {
      const list = at ? await extraAccessOf(context, at.purchase, at.seat) : [];
      return list.length > 0 ? {extraRepositories: list} : {};
    };
    if (at?.purchase.revoked_by_seller_at != null) {
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
    const at = await accessSeatOrRefuse(c.env.DB, user);
    try {
      const renewed = await renewInvitation(contextOf(c.env), refOf(at), key, {
        by: 'buyer',
        userId: user.uid,
      });
      if (renewed === 'failed' || renewed === 'revoked' || renewed === 'removal_failed') {
        // The new invitation's send ended the grant (GitHub refused it, the account went to another
        // purchase, the purchase ended meanwhile): said as the dashboard will show it, never "queued".
        const detail = (await readGrant(c.env.DB, refOf(at), key))?.detail;
        throw new HttpError(409, detail ?? 'The new invitation could not be sent: this page says why.', 'CONFLICT');
      }
      const {status} = resultOf({status: renewed});
      return c.json({status} satisfies AccessResult, status === 'queued' ? 202 : 200);
    } catch (err) {
      throw reportGitHub(err);
    }
  });
