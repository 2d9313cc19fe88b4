/**
 * A team's members (issue 41), in workerd against the GitHub stand-in: the owner gives a seat by
 * GitHub username or by e-mail, a member joins through their link, gets their own access (every
 * repository of the plan, through the one queue and cap), and the owner removes them: that seat's
 * grants are taken back, the others' stay, and the seat is free again. Each seat holds every rule
 * one seat holds: an account is one seat's, of any purchase.
 */
import {TEAM_REMOVED_REASON, TEAM_WORDS} from '../../src/config';
import {ADMIN_PATHS, API_PATHS, type RepositoryAudit} from '../../src/config/api';
import {completedEvent, disputeEvent, refundEvent, uniqueEmail} from './stack';
import {FIXTURE_REPO} from '../../scripts/local/githubApi';
import {appConfig} from '../../src/config';
import {teamActs} from './teamActs';
import {TEAM_ADMIN, useTeamStack} from './teamStack';

const team = useTeamStack();

const {
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
} = teamActs(team);

describe('the owner gives seats', () => {
  test('a team of 3 shows 2 free seats; a buyer of one seat has no team to manage (404, in words)', async () => {
    const {owner, sessionId} = await teamOwner(3);
    expect(await teamOf(owner)).toEqual({sessionId, seats: 3, free: 2, members: []});
    // The owner's dashboard knows it has a team to show.
    expect(await accessStatus(owner)).toMatchObject({hasPaid: true, seats: 3});
    const solo = await team().signUp({verified: true});
    const soloSession = await team().paidCheckout({email: solo.email, user: solo});
    await team().deliver(completedEvent(team(), soloSession));
    const refused = await call(solo, API_PATHS.team);
    expect(refused.status).toBe(404);
    expect(await refused.json()).toEqual({code: 'NOT_FOUND', error: TEAM_WORDS.noTeam});
    expect((await accessStatus(solo)).seats).toBeUndefined();
  });

  test('named by GitHub username, a member is invited to every repository of the plan on seat 2, and the owner’s own seat is untouched', async () => {
    const {owner, sessionId} = await teamOwner(3);
    const mine = githubAccount();
    expect((await requestAccess(owner, mine.login)).status).toBe(200);
    const theirs = githubAccount();
    const added = await call(owner, API_PATHS.addTeamMember, {username: theirs.login});
    expect(added.status).toBe(200);
    expect(await added.json()).toEqual({seat: 2, state: 'joined', access: 'pending'});
    expect(kitInvitations(theirs.id)).toHaveLength(1);
    expect(promptInvitations(theirs.id)).toHaveLength(1);
    expect((await seatGrants(sessionId, 2)).map((row) => [row.repository_key, row.status])).toEqual([
      ['kit', 'pending'],
      ['prompts', 'pending'],
    ]);
    expect(await teamOf(owner)).toMatchObject({
      free: 1,
      members: [{seat: 2, state: 'joined', username: theirs.login, access: 'pending', expired: false}],
    });
    // The owner's dashboard reads the owner's seat, not the member's.
    expect(await accessStatus(owner)).toMatchObject({status: 'pending', username: mine.login, hasPaid: true});
    expect(kitInvitations(mine.id)).toHaveLength(1);
  });

  test('an account another seat holds is refused (409) and the seat goes back: one account, one seat, of any purchase', async () => {
    const {owner} = await teamOwner(3);
    const mine = githubAccount();
    await requestAccess(owner, mine.login);
    const refused = await call(owner, API_PATHS.addTeamMember, {username: mine.login});
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({code: 'GITHUB_ACCOUNT_TAKEN'});
    expect(await teamOf(owner)).toMatchObject({free: 2, members: []});

    // Another purchase's seat, too.
    const other = await teamOwner(2);
    const stranger = githubAccount();
    expect((await call(other.owner, API_PATHS.addTeamMember, {username: stranger.login})).status).toBe(200);
    expect((await call(owner, API_PATHS.addTeamMember, {username: stranger.login})).status).toBe(409);
    expect(kitInvitations(stranger.id)).toHaveLength(1);
  });

  test('past the seats bought, a seat is refused (409 TEAM_FULL, in words); a bad body is a 400 that says why', async () => {
    const {owner} = await teamOwner(2);
    expect((await call(owner, API_PATHS.addTeamMember, {username: githubAccount().login})).status).toBe(200);
    const full = await call(owner, API_PATHS.addTeamMember, {username: githubAccount().login});
    expect(full.status).toBe(409);
    expect(await full.json()).toEqual({code: 'TEAM_FULL', error: TEAM_WORDS.full(2)});
    for (const body of [{}, {email: 'a@example.com', username: 'octocat'}, {email: 'not an address'}]) {
      const bad = await call(owner, API_PATHS.addTeamMember, body);
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as {error: string}).error.length).toBeGreaterThan(10);
    }
    const ownAddress = await call(owner, API_PATHS.addTeamMember, {email: owner.email});
    expect(ownAddress.status).toBe(409);
    expect(await ownAddress.json()).toEqual({code: 'CONFLICT', error: TEAM_WORDS.ownAddress});
  });
});

describe('a member removed', () => {
  test('loses every repository of their seat, the others keep theirs, and the seat is free for the next member, whose account is no move', async () => {
    const {owner, sessionId} = await teamOwner(3);
    const mine = githubAccount();
    await requestAccess(owner, mine.login);
    const leaving = githubAccount();
    const staying = githubAccount();
    await call(owner, API_PATHS.addTeamMember, {username: leaving.login});
    await call(owner, API_PATHS.addTeamMember, {username: staying.login});

    const removed = await call(owner, API_PATHS.removeTeamMember, {seat: 2});
    expect(removed.status).toBe(200);
    expect(await removed.json()).toMatchObject({free: 1, members: [{seat: 3, username: staying.login}]});
    expect(kitInvitations(leaving.id)).toEqual([]);
    expect(promptInvitations(leaving.id)).toEqual([]);
    expect(await seatGrants(sessionId, 2)).toMatchObject([
      {repository_key: 'kit', status: 'revoked', detail: TEAM_REMOVED_REASON},
      {repository_key: 'prompts', status: 'revoked'},
    ]);
    expect(kitInvitations(staying.id)).toHaveLength(1);
    expect(kitInvitations(mine.id)).toHaveLength(1);

    // The next member takes seat 2 again, as a new seat: no move counted against it.
    const next = githubAccount();
    expect(await (await call(owner, API_PATHS.addTeamMember, {username: next.login})).json()).toEqual({
      seat: 2,
      state: 'joined',
      access: 'pending',
    });
    expect((await seatGrants(sessionId, 2))[0]).toMatchObject({status: 'pending', username_changes: 0});
    expect(kitInvitations(next.id)).toHaveLength(1);
    // A seat with no member: 404, in words.
    await call(owner, API_PATHS.removeTeamMember, {seat: 2});
    const again = await call(owner, API_PATHS.removeTeamMember, {seat: 2});
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({code: 'NOT_FOUND', error: TEAM_WORDS.noMember(2)});
  });

  test('a dispute won gives back the seats members hold, never a removed member’s', async () => {
    const {owner, sessionId} = await teamOwner(3);
    const leaving = githubAccount();
    const staying = githubAccount();
    await call(owner, API_PATHS.addTeamMember, {username: leaving.login});
    await call(owner, API_PATHS.addTeamMember, {username: staying.login});
    await call(owner, API_PATHS.removeTeamMember, {seat: 2});

    const dispute = (type: 'charge.dispute.created' | 'charge.dispute.closed', status: 'needs_response' | 'won') =>
      team().deliver(disputeEvent(team(), sessionId, type, status));
    expect((await dispute('charge.dispute.created', 'needs_response')).status).toBe(200);
    expect(kitInvitations(staying.id)).toEqual([]);
    expect((await dispute('charge.dispute.closed', 'won')).status).toBe(200);
    expect(kitInvitations(staying.id)).toHaveLength(1);
    expect(promptInvitations(staying.id)).toHaveLength(1);
    expect(kitInvitations(leaving.id)).toEqual([]);
    expect((await seatGrants(sessionId, 2))[0]).toMatchObject({status: 'revoked'});
    // Nor does the cron's reconcile.
    await team().worker.scheduled();
    expect(kitInvitations(leaving.id)).toEqual([]);
  });
});

test('the repository audit knows a member’s seat: their account is no stranger, and one who left is invited again to their own seat', async () => {
  const {owner, sessionId} = await teamOwner(2);
  const mine = githubAccount();
  const theirs = githubAccount();
  await requestAccess(owner, mine.login);
  await call(owner, API_PATHS.addTeamMember, {username: theirs.login});
  for (const account of [mine, theirs]) team().github.accept(kitInvitations(account.id)[0]!.id);
  const admin = await team().signUp({email: TEAM_ADMIN, verified: true});
  const audit = async () => (await (await call(admin, ADMIN_PATHS.repositoryAudit)).json()) as RepositoryAudit;
  expect((await audit()).differences).toEqual([]);

  // The member leaves the repository on GitHub.
  team().github.collaborators.delete(theirs.login.toLowerCase());
  expect((await audit()).differences).toEqual([
    expect.objectContaining({kind: 'paid_missing', githubUserId: theirs.id, sessionId, seat: 2}),
  ]);
  const ownerSeat = await team().worker.db.all(
    "SELECT version, github_user_id FROM grants WHERE session_id = ? AND seat = 1 AND repository_key = 'kit'",
    sessionId,
  );
  const fixed = await call(admin, ADMIN_PATHS.repositoryFix, {kind: 'paid_missing', githubUserId: theirs.id});
  expect(fixed.status).toBe(200);
  expect(kitInvitations(theirs.id)).toHaveLength(1);
  expect(
    await team().worker.db.all(
      "SELECT version, github_user_id FROM grants WHERE session_id = ? AND seat = 1 AND repository_key = 'kit'",
      sessionId,
    ),
  ).toEqual(ownerSeat);
});

describe('a seat given again', () => {
  test('is the new member’s alone: the removed member’s account is never invited again, whatever runs after', async () => {
    const {owner, sessionId} = await teamOwner(2);
    const first = await joinedMember(owner);
    const gone = githubAccount();
    expect((await requestAccess(first.member, gone.login)).status).toBe(200);
    expect((await call(owner, API_PATHS.removeTeamMember, {seat: 2})).status).toBe(200);
    expect(kitInvitations(gone.id)).toEqual([]);

    const next = await joinedMember(owner);
    expect(next.seat).toBe(2);
    // Every reconcile there is: the owner's own request, the cron.
    await requestAccess(owner, githubAccount().login);
    await team().worker.scheduled();
    expect(kitInvitations(gone.id)).toEqual([]);
    expect(promptInvitations(gone.id)).toEqual([]);
    expect(await teamOf(owner)).toMatchObject({members: [{seat: 2, state: 'joined', access: 'none'}]});
    expect((await teamOf(owner)).members[0]!.username).toBeUndefined();

    const theirs = githubAccount();
    expect((await requestAccess(next.member, theirs.login)).status).toBe(200);
    expect((await seatGrants(sessionId, 2))[0]).toMatchObject({status: 'pending', username_changes: 0});
    await team().worker.scheduled();
    expect(kitInvitations(gone.id)).toEqual([]);
    expect(kitInvitations(theirs.id)).toHaveLength(1);
  });

  test('an invitation waiting in line for a member removed meanwhile never goes: the cron takes it back', async () => {
    const {owner, sessionId} = await teamOwner(2);
    await team().newDay();
    // GitHub's daily cap is spent: the member's invitation waits in line.
    const at = Date.now() - 3600_000;
    for (let i = 0; i < appConfig.repository.invitationsPerDay; i++) {
      await team().worker.db.run(
        'INSERT INTO invitations_sent (repository, session_id, sent_at) VALUES (?, ?, ?)',
        FIXTURE_REPO,
        `cs_test_earlier_${i}`,
        at + i,
      );
      team().github.invitationTimes.push(at + i);
    }
    const waiting = githubAccount();
    expect((await call(owner, API_PATHS.addTeamMember, {username: waiting.login})).status).toBe(202);
    // The owner's removal recorded, its take-back cut short (the invocation ended).
    await team().worker.db.run("UPDATE team_members SET state = 'removed' WHERE session_id = ?", sessionId);

    // A day on: the cap frees, and the line (which keeps its place) is drained.
    await team().worker.db.run('DELETE FROM invitations_sent');
    team().github.invitationTimes.length = 0;
    await team().worker.scheduled();
    expect(kitInvitations(waiting.id)).toEqual([]);
    expect((await seatGrants(sessionId, 2))[0]).toMatchObject({status: 'revoked', detail: TEAM_REMOVED_REASON});
  });
});

describe('a member invited by e-mail', () => {
  test('cannot join a team whose purchase was refunded', async () => {
    const {owner, sessionId} = await teamOwner(2);
    const email = uniqueEmail('late');
    await call(owner, API_PATHS.addTeamMember, {email});
    expect((await team().deliver(refundEvent(team(), sessionId))).status).toBe(200);
    const late = await team().signUp({email, verified: true});
    const refused = await call(late, API_PATHS.joinTeam, {token: linkSentTo(email)});
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({code: 'CONFLICT', error: TEAM_WORDS.teamEnded});
  });

  test('takes the seat with their link, signed in with that address; sees their own access, the team’s owner, and no payment', async () => {
    const {owner, sessionId} = await teamOwner(3);
    const {member, seat} = await joinedMember(owner);
    expect(seat).toBe(2);
    expect(await teamOf(owner)).toMatchObject({free: 1, members: [{seat: 2, state: 'joined', access: 'none'}]});

    const before = await accessStatus(member);
    expect(before).toMatchObject({
      status: 'none',
      hasPaid: true,
      team: {owner: owner.email, seat: 2, plan: {id: 'advanced'}},
    });
    expect(before.payment).toBeUndefined();
    expect(before.refundableUntil).toBeUndefined();
    expect(before.seats).toBeUndefined();
    // The site sells a member nothing: they have paid, through the team.
    expect(
      await (await team().call(`${API_PATHS.userHasPaid}?userId=${member.uid}`, {token: member.idToken})).json(),
    ).toMatchObject({hasPaid: true});

    const account = githubAccount();
    expect((await requestAccess(member, account.login)).status).toBe(200);
    expect(kitInvitations(account.id)).toHaveLength(1);
    expect(promptInvitations(account.id)).toHaveLength(1);
    expect(await accessStatus(member)).toMatchObject({status: 'pending', username: account.login});
    const [grant] = await team().worker.db.all<{seat: number; user_id: string}>(
      "SELECT seat, user_id FROM grants WHERE session_id = ? AND repository_key = 'kit' AND github_user_id = ?",
      sessionId,
      account.id,
    );
    expect(grant).toEqual({seat: 2, user_id: member.uid});
    // The seat's e-mail goes to the member, not to the owner.
    expect(
      team().mailgun.sent.filter(
        (mail) => mail.fields.to === member.email && mail.fields.subject?.includes(`@${account.login}`),
      ),
    ).toHaveLength(1);
    expect(await accessStatus(owner)).toMatchObject({status: 'none'});

    // A member reaches neither the team nor the owner's refunds.
    expect((await call(member, API_PATHS.team)).status).toBe(404);
    expect((await call(member, API_PATHS.refundPurchase, {kind: 'guarantee'})).status).toBeGreaterThanOrEqual(400);
    expect(team().stripe.refundsCreated).toEqual([]);
  });

  test('the link works once, for its verified address, until it expires, is replaced or withdrawn', async () => {
    const {owner, sessionId} = await teamOwner(4);
    const email = uniqueEmail('linked');
    await call(owner, API_PATHS.addTeamMember, {email});
    const token = linkSentTo(email);

    const stranger = await team().signUp({verified: true});
    expect(await (await call(stranger, API_PATHS.joinTeam, {token})).json()).toEqual({
      code: 'OTHER_ADDRESS',
      error: TEAM_WORDS.otherAddress,
    });
    const unverified = await team().signUp({email});
    expect((await call(unverified, API_PATHS.joinTeam, {token})).status).toBe(403);

    // A new link replaces the old one.
    expect((await call(owner, API_PATHS.resendTeamInvitation, {seat: 2})).status).toBe(200);
    const renewed = linkSentTo(email);
    expect(renewed).not.toBe(token);
    const member = await team().verify(unverified);
    expect(await (await call(member, API_PATHS.joinTeam, {token})).json()).toEqual({
      code: 'NOT_FOUND',
      error: TEAM_WORDS.linkUnknown,
    });
    // Expired.
    await team().worker.db.run('UPDATE team_members SET link_expires_at = 1 WHERE session_id = ?', sessionId);
    const expired = await call(member, API_PATHS.joinTeam, {token: renewed});
    expect(expired.status).toBe(410);
    expect(await expired.json()).toEqual({code: 'LINK_EXPIRED', error: TEAM_WORDS.linkExpired});
    await team().worker.db.run(
      'UPDATE team_members SET link_expires_at = ? WHERE session_id = ?',
      Date.now() + 60_000,
      sessionId,
    );
    expect(await (await call(member, API_PATHS.joinTeam, {token: renewed})).json()).toEqual({
      seat: 2,
      owner: owner.email,
    });
    // Used: the same member again is told they are in; anyone else that it was used.
    expect((await call(member, API_PATHS.joinTeam, {token: renewed})).status).toBe(200);
    const sameAddress = await team().signUp({verified: true});
    expect((await call(sameAddress, API_PATHS.joinTeam, {token: renewed})).status).toBe(410);
    expect((await call(owner, API_PATHS.resendTeamInvitation, {seat: 2})).status).toBe(409);

    // Withdrawn before it was used.
    const later = uniqueEmail('withdrawn');
    await call(owner, API_PATHS.addTeamMember, {email: later});
    const withdrawnToken = linkSentTo(later);
    expect((await call(owner, API_PATHS.removeTeamMember, {seat: 3})).status).toBe(200);
    const latecomer = await team().signUp({email: later, verified: true});
    expect(await (await call(latecomer, API_PATHS.joinTeam, {token: withdrawnToken})).json()).toEqual({
      code: 'CONFLICT',
      error: TEAM_WORDS.linkWithdrawn,
    });
    expect(await teamOf(owner)).toMatchObject({free: 2});
  });

  test('removed, the member’s access, download link and dashboard all say so, and they are e-mailed why', async () => {
    const {owner, sessionId} = await teamOwner(2);
    const mine = githubAccount();
    await requestAccess(owner, mine.login);
    const {member, email} = await joinedMember(owner);
    const account = githubAccount();
    await requestAccess(member, account.login);
    const link = await call(member, API_PATHS.downloadLink, {});
    expect(link.status).toBe(200);
    const {path} = (await link.json()) as {path: string};

    expect((await call(owner, API_PATHS.removeTeamMember, {seat: 2})).status).toBe(200);
    expect(kitInvitations(account.id)).toEqual([]);
    const download = await team().call(path, {method: 'GET'});
    expect(download.status).toBe(403);
    expect(((await download.json()) as {error: string}).error).toBe(TEAM_WORDS.seatEnded);
    expect(await accessStatus(member)).toMatchObject({
      status: 'revoked',
      hasPaid: false,
      detail: TEAM_REMOVED_REASON,
      teamEnded: {owner: owner.email},
    });
    expect((await call(member, API_PATHS.downloadLink, {})).status).toBe(402);
    expect((await requestAccess(member, account.login)).status).toBe(402);
    const told = team().mailgun.sent.filter(
      (mail) => mail.fields.to === email && mail.fields.subject?.includes('has ended'),
    );
    expect(told).toHaveLength(1);
    expect(told[0]!.fields.text).toContain(owner.email);
    // The owner's own seat keeps its access.
    expect((await seatGrants(sessionId, 1))[0]).toMatchObject({repository_key: 'kit', status: 'pending'});
    expect(kitInvitations(mine.id)).toHaveLength(1);
  });
});

test("a member reads What's new of the team's plan and who gets its e-mails, never the owner's switch; removed, they read none", async () => {
  const {owner} = await teamOwner(3);
  const {member} = await joinedMember(owner);
  const news = await call(member, API_PATHS.releases);
  expect(news.status).toBe(200);
  expect(await news.json()).toMatchObject({includesUpdates: true, teamOwner: owner.email});
  // The owner's own answer names no team owner: the switch is theirs.
  expect(await (await call(owner, API_PATHS.releases)).json()).not.toHaveProperty('teamOwner');
  // Release e-mails are the owner's purchase's: a member cannot turn them off for the owner.
  expect((await call(member, API_PATHS.releaseEmails, {subscribed: false})).status).toBe(402);
  expect(await (await call(owner, API_PATHS.releases)).json()).toMatchObject({subscribed: true});

  await call(owner, API_PATHS.removeTeamMember, {seat: 2});
  expect((await call(member, API_PATHS.releases)).status).toBe(402);
});
