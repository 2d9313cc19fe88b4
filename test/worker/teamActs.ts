/**
 * What the team suites do on the team stack (teamStack.ts), in one place: a team bought and paid,
 * the owner's and a member's calls, the GitHub accounts and invitations they reach, and the grants
 * of a seat as D1 records them.
 */
import {TEAM_LINK_FRAGMENT} from '../../src/config';
import {API_PATHS, type AccessStatus, type Team} from '../../src/config/api';
import {EXTRA_FIXTURE_REPO} from '../../scripts/local/githubApi';
import {completedEvent, type SignedInUser, type Stack, uniqueEmail} from './stack';

export function teamActs(team: () => Stack) {
  let accounts = 0;
  /** A GitHub account no other test has used. */
  const githubAccount = () => team().github.addUser(`team-${Date.now().toString(36)}-${accounts++}`);

  /** A verified buyer who paid for a team of `seats` (of `priceId`'s plan: Advanced unless told). */
  async function teamOwner(seats = 3, priceId?: string): Promise<{owner: SignedInUser; sessionId: string}> {
    const owner = await team().signUp({verified: true});
    const sessionId = await team().paidCheckout({email: owner.email, user: owner, seats, ...(priceId && {priceId})});
    expect((await team().deliver(completedEvent(team(), sessionId))).status).toBe(200);
    return {owner, sessionId};
  }

  const call = (user: SignedInUser, path: string, body?: unknown) =>
    team().call(path, {token: user.idToken, ...(body !== undefined && {body})});
  const teamOf = async (owner: SignedInUser) => (await (await call(owner, API_PATHS.team)).json()) as Team;
  const accessStatus = async (user: SignedInUser) =>
    (await (await call(user, API_PATHS.accessStatus)).json()) as AccessStatus;
  const requestAccess = (user: SignedInUser, username: string) =>
    call(user, API_PATHS.addUserToRepo, {username, userId: user.uid});
  const invitationsFor = (accountId: number, on: Stack['github'] | ReturnType<Stack['github']['extra']>) =>
    [...on.invitations.values()].filter((invitation) => invitation.invitee.id === accountId);
  const kitInvitations = (accountId: number) => invitationsFor(accountId, team().github);
  const promptInvitations = (accountId: number) => invitationsFor(accountId, team().github.extra(EXTRA_FIXTURE_REPO));
  const seatGrants = (sessionId: string, seat: number) =>
    team().worker.db.all<{repository_key: string; status: string; detail: string | null; username_changes: number}>(
      'SELECT repository_key, status, detail, username_changes FROM grants WHERE session_id = ? AND seat = ? ORDER BY repository_key',
      sessionId,
      seat,
    );
  /** The link in the last e-mail to `email`, and its secret. */
  function linkSentTo(email: string): string {
    const mail = team()
      .mailgun.sent.filter((sent) => sent.fields.to === email)
      .at(-1);
    const match = new RegExp(`#${TEAM_LINK_FRAGMENT}=([A-Za-z0-9_-]+)`).exec(mail?.fields.text ?? '');
    if (!match) throw new Error(`No team link was e-mailed to ${email}`);
    return match[1]!;
  }

  /** A member the owner invited by e-mail, who signed up with that address (verified) and took the seat. */
  async function joinedMember(owner: SignedInUser) {
    const email = uniqueEmail('member');
    const invited = await call(owner, API_PATHS.addTeamMember, {email});
    expect(invited.status).toBe(200);
    const {seat} = (await invited.json()) as {seat: number};
    const member = await team().signUp({email, verified: true});
    const joined = await call(member, API_PATHS.joinTeam, {token: linkSentTo(email)});
    expect(joined.status).toBe(200);
    return {member, seat, email};
  }

  return {
    accessStatus,
    call,
    githubAccount,
    joinedMember,
    kitInvitations,
    linkSentTo,
    promptInvitations,
    requestAccess,
    seatGrants,
    teamOf,
    teamOwner,
  };
}
