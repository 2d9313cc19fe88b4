import {Hono} from 'hono';
import {appConfig, storedPlanName, TEAM_WORDS, teamLinkUrl} from '../../../src/config';
import {API_PATHS, type Team, type TeamJoined, type TeamMemberAdded} from '../../../src/config/api';
import {joinTeamBody, teamMemberBody, teamSeatBody} from '../../../src/config/apiSchemas';
import type {AppEnv} from '../app';
import {currentUser, requireUser} from '../auth/middleware';
import type {AuthUser} from '../auth/user';
import {contextOf, type Context} from '../context';
import {HttpError} from '../errors';
import {readJson} from '../http';
import {log} from '../log';
import {mailOnce} from '../mail';
import {accessPurchaseOf, type Purchase} from '../purchases';
import {enforceLimit, limits} from '../rateLimit';
import {accountNamed, reportGitHub} from '../access/reportGitHub';
import {readGrant} from '../access/grants/records';
import {requestAccess} from '../access/grants/seat';
import {isRevokedBySeller, revokedBySeller} from '../access/grants/sellerRevocation';
import {
  freeSeatsOf,
  giveSeat,
  isSameAddressTwice,
  joinedSeatOf,
  memberAt,
  memberOfLink,
  membersOf,
  newLink,
  renewLink,
  shownMember,
  takeLink,
  teamPurchaseOf,
  ungiveSeat,
  type MemberRow,
} from './members';
import {removeMember} from './removeMember';
import {teamInvitationMail} from './teamMail';

/** The caller's team purchase, or 404: only its owner manages a team. */
async function ownTeamOrRefuse(db: D1Database, user: AuthUser): Promise<Purchase> {
  const purchase = await teamPurchaseOf(db, user);
  if (!purchase) throw new HttpError(404, TEAM_WORDS.noTeam, 'NOT_FOUND');
  return purchase;
}

/** The team as its owner sees it: seats, free seats, and each member with their access as recorded. */
async function teamOf(db: D1Database, purchase: Purchase): Promise<Team> {
  const members = await membersOf(db, purchase.session_id);
  const shown = await Promise.all(
    members.map(async (member) =>
      shownMember(member, await readGrant(db, {session_id: purchase.session_id, seat: member.seat})),
    ),
  );
  return {
    sessionId: purchase.session_id,
    seats: purchase.seats ?? 1,
    free: await freeSeatsOf(db, purchase),
    members: shown,
  };
}

/** The member's link e-mailed, once per link (its hash is the key). */
function sendLink(context: Context, purchase: Purchase, member: MemberRow, token: string) {
  return mailOnce(
    context,
    `team-link:${member.link_hash}`,
    teamInvitationMail({
      to: member.email!,
      owner: purchase.email ?? 'The team’s owner',
      plan: storedPlanName(purchase.plan) ?? appConfig.appName,
      link: teamLinkUrl(context.settings.siteOrigin, token),
    }),
    purchase.session_id,
  );
}

export const teamRoutes = new Hono<AppEnv>()
  /** The owner's team: its seats and members. */
  .get(API_PATHS.team, requireUser, async (c) => {
    const user = currentUser(c);
    await enforceLimit(c.env.DB, `status:${user.uid}`, limits.accessStatus);
    return c.json((await teamOf(c.env.DB, await ownTeamOrRefuse(c.env.DB, user))) satisfies Team);
  })

  /**
   * Gives a free seat to a member: by e-mail, a link that works once for that address; by GitHub
   * username, an invitation as Request Access sends one (the same queue, cap and refusals), the
   * seat's account chosen by the owner.
   */
  .post(API_PATHS.addTeamMember, requireUser, async (c) => {
    const user = currentUser(c);
    await enforceLimit(c.env.DB, `access:${user.uid}`, limits.addUserToRepo);
    const body = await readJson(c, teamMemberBody);
    const purchase = await ownTeamOrRefuse(c.env.DB, user);
    const context = contextOf(c.env);
    const full = () => new HttpError(409, TEAM_WORDS.full(purchase.seats ?? 1), 'TEAM_FULL');

    if (body.email !== undefined) {
      if (body.email === purchase.email || body.email === user.email?.toLowerCase())
        throw new HttpError(409, TEAM_WORDS.ownAddress, 'CONFLICT');
      // A seat given on a purchase the seller revoked would give nothing: refused as a named one is.
      if (await isRevokedBySeller(c.env.DB, purchase.session_id)) throw revokedBySeller();
      const link = await newLink();
      let member: MemberRow | null;
      try {
        member = await giveSeat(c.env.DB, purchase, {state: 'invited', email: body.email, linkHash: link.hash});
      } catch (err) {
        // An address that holds a seat already, or two invitations of it at once: the index lets one through.
        if (isSameAddressTwice(err)) throw new HttpError(409, TEAM_WORDS.alreadyInvited(body.email), 'CONFLICT');
        throw err;
      }
      if (!member) throw full();
      await sendLink(context, purchase, member, link.token);
      log.info('team.invited', {sessionId: purchase.session_id, seat: member.seat});
      return c.json({seat: member.seat, state: 'invited', access: 'none'} satisfies TeamMemberAdded);
    }

    const github = await accountNamed(context, body.username!);
    const member = await giveSeat(c.env.DB, purchase, {state: 'joined'});
    if (!member) throw full();
    try {
      const result = await requestAccess(context, {
        sessionId: purchase.session_id,
        seat: member.seat,
        memberId: member.id,
        userId: user.uid,
        github,
        byOwner: true,
      });
      log.info('team.named', {sessionId: purchase.session_id, seat: member.seat, status: result.status});
      const access = result.status === 'invited' ? 'pending' : result.status;
      return c.json(
        {seat: member.seat, state: 'joined', access} satisfies TeamMemberAdded,
        result.status === 'queued' ? 202 : 200,
      );
    } catch (err) {
      // Refused before anything was sent (an account another seat holds, GitHub's refusal): the
      // seat goes back, as if never given.
      const grant = await readGrant(c.env.DB, {session_id: purchase.session_id, seat: member.seat});
      if (grant?.member_id !== member.id) await ungiveSeat(c.env.DB, member);
      throw reportGitHub(err);
    }
  })

  /**
   * Removes a member, or withdraws an invitation: the seat's grants are taken back (the same
   * take-back as a refund's, for that seat alone), the member's link stops, and a member who joined
   * by e-mail is told why.
   */
  .post(API_PATHS.removeTeamMember, requireUser, async (c) => {
    const user = currentUser(c);
    await enforceLimit(c.env.DB, `access:${user.uid}`, limits.addUserToRepo);
    const {seat} = await readJson(c, teamSeatBody);
    const purchase = await ownTeamOrRefuse(c.env.DB, user);
    const ended = await removeMember(contextOf(c.env), purchase, seat, 'removed');
    if (!ended) throw new HttpError(404, TEAM_WORDS.noMember(seat), 'NOT_FOUND');
    return c.json((await teamOf(c.env.DB, purchase)) satisfies Team);
  })

  /** A new link for an invited member, the old one ending. */
  .post(API_PATHS.resendTeamInvitation, requireUser, async (c) => {
    const user = currentUser(c);
    await enforceLimit(c.env.DB, `access:${user.uid}`, limits.addUserToRepo);
    const {seat} = await readJson(c, teamSeatBody);
    const purchase = await ownTeamOrRefuse(c.env.DB, user);
    const renewed = await renewLink(c.env.DB, purchase.session_id, seat);
    if (!renewed) {
      const member = await memberAt(c.env.DB, purchase.session_id, seat);
      throw member
        ? new HttpError(409, TEAM_WORDS.notInvited(seat), 'CONFLICT')
        : new HttpError(404, TEAM_WORDS.noMember(seat), 'NOT_FOUND');
    }
    await sendLink(contextOf(c.env), purchase, renewed.member, renewed.token);
    return c.json((await teamOf(c.env.DB, purchase)) satisfies Team);
  })

  /**
   * A member takes the seat their link offers: signed in with the verified address it was sent to,
   * once, before it ends. A buyer with their own purchase, or a member of a team, is refused: a
   * seat they took would hold nothing for anyone.
   */
  .post(API_PATHS.joinTeam, requireUser, async (c) => {
    const user = currentUser(c);
    await enforceLimit(c.env.DB, `access:${user.uid}`, limits.addUserToRepo);
    const {token} = await readJson(c, joinTeamBody);
    const member = await memberOfLink(c.env.DB, token);
    if (!member) throw new HttpError(404, TEAM_WORDS.linkUnknown, 'NOT_FOUND');
    const purchase = await c.env.DB.prepare('SELECT email, status FROM purchases WHERE session_id = ?1')
      .bind(member.session_id)
      .first<{email: string | null; status: string}>();
    const joined = {seat: member.seat, owner: purchase?.email ?? ''} satisfies TeamJoined;
    if (member.state === 'joined') {
      if (member.user_id === user.uid) return c.json(joined);
      throw new HttpError(410, TEAM_WORDS.linkUsed, 'LINK_USED');
    }
    if (member.state !== 'invited') throw new HttpError(409, TEAM_WORDS.linkWithdrawn, 'CONFLICT');
    // A team refunded or disputed since the link went gives no seat.
    if (purchase?.status !== 'paid') throw new HttpError(409, TEAM_WORDS.teamEnded, 'CONFLICT');
    if (member.link_expires_at !== null && member.link_expires_at <= Date.now())
      throw new HttpError(410, TEAM_WORDS.linkExpired, 'LINK_EXPIRED');
    // The link is for an address: only its verified owner takes the seat (a forwarded link, an
    // unverified account that typed the address, are refused).
    if (!user.emailVerified || user.email?.toLowerCase() !== member.email)
      throw new HttpError(403, TEAM_WORDS.otherAddress, 'OTHER_ADDRESS');
    if (await accessPurchaseOf(c.env.DB, user)) throw new HttpError(409, TEAM_WORDS.ownPurchase, 'CONFLICT');
    if (await joinedSeatOf(c.env.DB, user.uid)) throw new HttpError(409, TEAM_WORDS.otherTeam, 'CONFLICT');
    const taken = await takeLink(c.env.DB, member, user.uid);
    if (!taken) throw new HttpError(409, TEAM_WORDS.linkWithdrawn, 'CONFLICT');
    log.info('team.joined', {sessionId: member.session_id, seat: member.seat});
    return c.json(joined);
  });
