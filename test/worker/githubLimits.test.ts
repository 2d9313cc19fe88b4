/**
 * The GitHub stand-in is faithful to GitHub's limits beyond the invitations' cap (tested in
 * invitationQueue.test.ts): the secondary limits on content-creating requests (80 a minute, 500 an
 * hour) answered as GitHub documents them, and invitations that expire after 7 days on the
 * stand-in's clock. First GitHub's side alone, then the worker in workerd with a real D1 against it.
 */
import {API_PATHS, type AccessStatus} from '../../src/config/api';
import {
  FIXTURE_REPO,
  type GitHubStandIn,
  INVITATION_LIFETIME_MS,
  INVITEE,
  SECONDARY_LIMITS,
  SECONDARY_LIMIT_REFUSAL,
  startGitHubStandIn,
} from '../../scripts/local/githubApi';
import {completedEvent, type SignedInUser, startStack, type Stack} from './stack';
import {ageKitReading, kitGrant} from './grantRows';

const [PER_MINUTE, PER_HOUR] = SECONDARY_LIMITS;

describe("GitHub's side", () => {
  let github: GitHubStandIn;
  let clock = Date.now();
  beforeEach(async () => {
    clock = Date.now();
    github = await startGitHubStandIn({now: () => clock});
  });
  afterEach(() => github.close());

  // A content-creating request that changes nothing here: withdrawing an invitation that is not there.
  const withdraw = () => fetch(`${github.url}/repos/${FIXTURE_REPO}/invitations/1`, {method: 'DELETE'});
  const invite = (login: string) =>
    fetch(`${github.url}/repos/${FIXTURE_REPO}/collaborators/${login}`, {method: 'PUT', body: '{}'});
  const listInvitations = async () =>
    (await (await fetch(`${github.url}/repos/${FIXTURE_REPO}/invitations`)).json()) as {id: number; expired: boolean}[];

  test(`past ${PER_MINUTE.max} content-creating requests in a minute: 403, retry-after, GitHub's message; reads still answer; a minute later it takes them again`, async () => {
    for (let i = 0; i < PER_MINUTE.max; i++) expect((await withdraw()).status).toBe(404);
    const refused = await withdraw();
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual(SECONDARY_LIMIT_REFUSAL);
    expect(SECONDARY_LIMIT_REFUSAL.message).toMatch(/secondary rate limit/);
    expect(Number(refused.headers.get('retry-after'))).toBe(60);
    // Only a secondary limit: the primary quota is not spent.
    expect(refused.headers.get('x-ratelimit-remaining')).not.toBe('0');
    expect(github.refused.secondaryLimit).toEqual([`DELETE /repos/${FIXTURE_REPO}/invitations/1`]);
    expect((await fetch(`${github.url}/users/${INVITEE}`)).status).toBe(200);

    clock += 30_000;
    const still = await withdraw();
    expect(still.status).toBe(403);
    expect(Number(still.headers.get('retry-after'))).toBe(30);
    clock += 30_000;
    expect((await withdraw()).status).toBe(404);
  });

  test(`past ${PER_HOUR.max} content-creating requests in an hour, within the minute's limit: 403 until the oldest is an hour old`, async () => {
    const start = clock;
    for (let i = 0; i < PER_HOUR.max; i++) {
      clock = start + Math.floor(i / 50) * 60_000; // 50 a minute, for 10 minutes
      expect((await withdraw()).status).toBe(404);
    }
    clock = start + 20 * 60_000;
    const refused = await withdraw();
    expect(refused.status).toBe(403);
    expect(Number(refused.headers.get('retry-after'))).toBe(40 * 60);
    clock = start + PER_HOUR.windowMs;
    expect((await withdraw()).status).toBe(404);
  });

  test('an invitation expires 7 days after it was sent: listed with expired: true, it cannot be accepted, and inviting again sends a new one', async () => {
    const created = await invite(INVITEE);
    expect(created.status).toBe(201);
    const {id} = (await created.json()) as {id: number};
    clock += INVITATION_LIFETIME_MS - 1;
    expect(await listInvitations()).toMatchObject([{id, expired: false}]);
    clock += 1;
    expect(await listInvitations()).toMatchObject([{id, expired: true}]);
    expect(() => github.accept(id)).toThrow(/expired/);
    expect(github.collaborators.has(INVITEE)).toBe(false);

    const again = await invite(INVITEE);
    expect(again.status).toBe(201);
    expect(((await again.json()) as {id: number}).id).not.toBe(id);
  });
});

describe('the worker against them', () => {
  let stack: Stack;
  let githubClock = 0; // ms GitHub's clock is ahead of the real one
  beforeAll(async () => {
    stack = await startStack({}, {githubNow: () => Date.now() + githubClock});
  });
  afterAll(() => stack.stop());

  let accounts = 0;
  async function paidBuyer(): Promise<{user: SignedInUser; sessionId: string; login: string}> {
    const user = await stack.signUp();
    const sessionId = await stack.paidCheckout({email: user.email, user});
    expect((await stack.deliver(completedEvent(stack, sessionId))).status).toBe(200);
    return {user, sessionId, login: stack.github.addUser(`limits-${Date.now().toString(36)}-${accounts++}`).login};
  }
  const requestAccess = (buyer: {user: SignedInUser; login: string}) =>
    stack.call(API_PATHS.addUserToRepo, {
      token: buyer.user.idToken,
      body: {username: buyer.login, userId: buyer.user.uid},
    });
  const accessStatus = async (user: SignedInUser) =>
    (await (await stack.call(API_PATHS.accessStatus, {token: user.idToken})).json()) as AccessStatus;
  const grantStatus = async (sessionId: string) =>
    (await kitGrant<{status: string}>(stack.worker.db, sessionId, 'status'))?.status;

  test("an invitation refused for GitHub's secondary limit waits (202 queued) and goes out when the limit allows, never failed", async () => {
    const buyer = await paidBuyer();
    stack.github.contentRequestTimes.push(...Array.from({length: PER_MINUTE.max}, () => Date.now() + githubClock));
    const response = await requestAccess(buyer);
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({status: 'queued'});
    expect(stack.github.refused.secondaryLimit).toEqual([`PUT /repos/${FIXTURE_REPO}/collaborators/${buyer.login}`]);
    expect(await grantStatus(buyer.sessionId)).toBe('queued');

    // The retry is due after GitHub's retry-after, and by then the minute has passed on GitHub's side.
    stack.github.contentRequestTimes.length = 0;
    await stack.worker.db.run(`UPDATE jobs SET run_after = 0 WHERE kind = 'github-invite' AND status = 'pending'`);
    await stack.worker.scheduled();
    expect(await accessStatus(buyer.user)).toMatchObject({status: 'pending', username: buyer.login});
    expect([...stack.github.invitations.values()].map((invitation) => invitation.invitee.login)).toContain(buyer.login);
  });

  test('seven days after the invitation went out, the dashboard says it expired, and the buyer can have it sent again', async () => {
    const buyer = await paidBuyer();
    expect((await requestAccess(buyer)).status).toBe(200);
    const first = [...stack.github.invitations.values()].find(
      (invitation) => invitation.invitee.login === buyer.login,
    )!;
    githubClock += INVITATION_LIFETIME_MS;
    // The dashboard's stored answer is good for a minute: let it pass.
    await ageKitReading(stack.worker.db, buyer.sessionId, 60_000);
    expect(await accessStatus(buyer.user)).toMatchObject({status: 'pending', expired: true});

    const resent = await stack.call(API_PATHS.resendInvitation, {token: buyer.user.idToken, body: {}});
    expect(await resent.json()).toEqual({status: 'invited'});
    const open = [...stack.github.invitations.values()].filter(
      (invitation) => invitation.invitee.login === buyer.login && !stack.github.isExpired(invitation),
    );
    expect(open).toHaveLength(1);
    expect(open[0]!.id).not.toBe(first.id);
  });
});
