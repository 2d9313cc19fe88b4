/**
 * Repository access against GitHub's recorded answers: invitations, refusals, rate limits and
 * outages retried by the cron, another username replacing the first, refunds taking access back,
 * and the seat rules: the worker touches only the accounts it invited, a purchase moves its seat
 * a limited number of times, and a removal that fails for good stays visible.
 */
import {appConfig} from '../../src/config';
import {FIXTURE_REPO, INVITEE, OWNER, VALIDATION_FAILED} from '../../scripts/local/githubApi';
import {completedEvent, refundEvent, type SignedInUser, startStack, stripeEvent, type Stack} from './stack';
import {ageKitReading, insertKitGrant, kitGrant, setKitGrant} from './grantRows';
import type Stripe from 'stripe';
import {HOLDER_SQL} from '../../worker/src/access/grants/liveGrants';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.stop());
beforeEach(() => {
  // Each test starts from the recording's repository: only the owner is a collaborator.
  stack.github.invitations.clear();
  stack.github.collaborators.clear();
  stack.github.collaborators.add(OWNER);
  stack.github.requests.length = 0;
});

const REPO = `/repos/${FIXTURE_REPO}`;
let accounts = 0;
/** A GitHub account no other test has used (a seat is one account across all purchases). */
const githubAccount = () => stack.github.addUser(`octo-${Date.now().toString(36)}-${accounts++}`).login;

async function paidBuyer(): Promise<{user: SignedInUser; sessionId: string}> {
  const user = await stack.signUp();
  const sessionId = await stack.paidCheckout({email: user.email, user});
  expect((await stack.deliver(completedEvent(stack, sessionId))).status).toBe(200);
  return {user, sessionId};
}

const requestAccess = (user: SignedInUser, username: string) =>
  stack.call('/addUserToRepo', {token: user.idToken, body: {username, userId: user.uid}});
const accessStatus = async (user: SignedInUser) =>
  (await stack.call('/accessStatus', {token: user.idToken})).json() as Promise<Record<string, unknown>>;
const grantOf = (sessionId: string) => kitGrant(stack.worker.db, sessionId);
const puts = () => stack.github.requests.filter((request) => request.startsWith('PUT '));
const invitationOf = (login: string) =>
  [...stack.github.invitations.values()].find((invitation) => invitation.invitee.login === login);

/** A paid buyer invited with one account (`first`), who is about to move the seat to `second`. */
async function seatedBuyerMovingOn() {
  const {user, sessionId} = await paidBuyer();
  const first = githubAccount();
  await requestAccess(user, first);
  return {user, sessionId, first, firstInvitation: invitationOf(first)!.id, second: githubAccount()};
}

/** The minute the status answer may be cached for has passed. */
const aMinuteLater = (sessionId: string) => ageKitReading(stack.worker.db, sessionId, 60_000);

const refund = (sessionId: string) => stack.deliver(refundEvent(stack, sessionId));

describe('invitations', () => {
  test('a paid buyer is invited (201): GitHub numeric id and invitation stored, status pending, then active once accepted', async () => {
    const {user, sessionId} = await paidBuyer();
    const response = await requestAccess(user, INVITEE);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({status: 'invited'});
    const [invitation] = [...stack.github.invitations.values()];
    expect(invitation?.invitee.login).toBe(INVITEE);
    expect(await grantOf(sessionId)).toMatchObject({
      github_username: INVITEE,
      github_user_id: 31899067,
      invitation_id: invitation!.id,
      status: 'pending',
    });
    // The repository the invitation is for: the dashboard links to this one.
    // Its page is on the GitHub the worker talks to: here the stand-in, which draws it (never an unrelated github.com page).
    expect(await accessStatus(user)).toMatchObject({
      status: 'pending',
      username: INVITEE,
      expired: false,
      hasPaid: true,
      repository: FIXTURE_REPO,
      repositoryUrl: `${stack.github.url}/${FIXTURE_REPO}`,
    });

    stack.github.accept(invitation!.id);
    await aMinuteLater(sessionId);
    expect(await accessStatus(user)).toMatchObject({status: 'active'});
  });

  test('an unknown GitHub user is a 404 with a clear message, and nothing is stored', async () => {
    const {user, sessionId} = await paidBuyer();
    const response = await requestAccess(user, 'no-such-user-here');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: 'GitHub user "no-such-user-here" was not found. Check the spelling.',
      code: 'GITHUB_USER_NOT_FOUND',
    });
    expect(await grantOf(sessionId)).toBeUndefined();
    expect(puts()).toEqual([]);
  });

  test("a seat that failed, asked for another account GitHub refuses too: the refusal is the buyer's answer", async () => {
    const {user, sessionId} = await paidBuyer();
    stack.github.failNext('PUT /repos/', {status: 422, body: VALIDATION_FAILED});
    expect((await requestAccess(user, githubAccount())).status).toBe(422);
    stack.github.failNext('PUT /repos/', {status: 422, body: VALIDATION_FAILED});
    const other = githubAccount();
    const response = await requestAccess(user, other);
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({error: 'GitHub refused the invitation.', code: 'GITHUB_REFUSED'});
    expect(await grantOf(sessionId)).toMatchObject({status: 'failed', github_username: other});
  });

  test("GitHub's 422 is reported in our words, recorded as failed, and not retried", async () => {
    const {user, sessionId} = await paidBuyer();
    stack.github.failNext('PUT /repos/', {status: 422, body: VALIDATION_FAILED});
    const response = await requestAccess(user, githubAccount());
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(body).toEqual({error: 'GitHub refused the invitation.', code: 'GITHUB_REFUSED'});
    expect(await grantOf(sessionId)).toMatchObject({status: 'failed', detail: 'GitHub refused the invitation.'});
    expect(JSON.stringify(await accessStatus(user))).not.toContain('Validation Failed');
    // GitHub's own text is kept for the seller, in the logs.
    expect(stack.worker.logs.some((line) => line.includes('Validation Failed'))).toBe(true);
    await stack.worker.scheduled();
    expect(puts()).toHaveLength(1);
  });

  test('a rate limit with retry-after is queued and invited by the cron once the wait is over', async () => {
    const {user, sessionId} = await paidBuyer();
    stack.github.failNext('PUT /repos/', {
      status: 403,
      headers: {'retry-after': '1', 'x-ratelimit-remaining': '0'},
      body: {message: 'API rate limit exceeded'},
    });
    const response = await requestAccess(user, githubAccount());
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({status: 'queued'});
    expect(await accessStatus(user)).toMatchObject({status: 'queued'});

    await stack.worker.scheduled(); // too early: retry-after is not over
    expect(puts()).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await stack.worker.scheduled();
    expect(puts()).toHaveLength(2);
    expect(await grantOf(sessionId)).toMatchObject({status: 'pending', invitation_id: expect.any(Number)});
  });

  test('a 5xx is retried with back-off by the scheduled handler until it succeeds', async () => {
    const {user, sessionId} = await paidBuyer();
    stack.github.failNext('PUT /repos/', {status: 502, body: {message: 'Server Error'}}, 2);
    expect((await requestAccess(user, githubAccount())).status).toBe(202);
    const inviteJob = () =>
      stack.worker.db.all<{run_after: number; attempts: number; last_error: string | null; status: string}>(
        "SELECT * FROM jobs WHERE kind = 'github-invite' AND key LIKE 'invite:' || ? || ':%'",
        sessionId,
      );
    const [job] = await inviteJob();
    expect(job!.run_after).toBeGreaterThan(Date.now() + 30_000); // back-off, not a hot loop

    // Let the clock pass the back-off: the cron tries again, fails again, then succeeds.
    const due = () =>
      stack.worker.db.run("UPDATE jobs SET run_after = 0 WHERE kind = 'github-invite' AND status = 'pending'");
    await due();
    await stack.worker.scheduled();
    expect((await inviteJob())[0]).toMatchObject({attempts: 1, last_error: expect.stringContaining('502')});
    await due();
    await stack.worker.scheduled();
    expect(await grantOf(sessionId)).toMatchObject({status: 'pending'});
    expect((await inviteJob())[0]).toMatchObject({status: 'done'});
    expect(puts()).toHaveLength(3);
  });

  test('ten requests at once for the same username send one invitation', async () => {
    const {user} = await paidBuyer();
    const login = githubAccount();
    const answers = await Promise.all(Array.from({length: 10}, () => requestAccess(user, login)));
    expect(answers.map((answer) => answer.status).filter((status) => status !== 200 && status !== 202)).toEqual([]);
    expect(puts()).toHaveLength(1);
    expect(stack.github.invitations.size).toBe(1);
  });

  test('an expired invitation can be resent; a valid one cannot', async () => {
    const {user} = await paidBuyer();
    const login = githubAccount();
    await requestAccess(user, login);
    const early = await stack.call('/resendInvitation', {token: user.idToken, body: {}});
    expect(early.status).toBe(409);

    const first = invitationOf(login)!.id;
    stack.github.expire(first);
    const resent = await stack.call('/resendInvitation', {token: user.idToken, body: {}});
    expect(await resent.json()).toEqual({status: 'invited'});
    const open = [...stack.github.invitations.values()].filter((invitation) => !invitation.expired);
    expect(open).toHaveLength(1);
    expect(open[0]!.id).not.toBe(first);
    expect(stack.github.invitations.has(first)).toBe(false);
    expect(await accessStatus(user)).toMatchObject({status: 'pending', expired: false});
  });

  test('an invitation the buyer accepted before asking for a new one: the Resend answers active, and nothing is sent or withdrawn', async () => {
    const {user} = await paidBuyer();
    const login = githubAccount();
    await requestAccess(user, login);
    stack.github.accept(invitationOf(login)!.id);
    const putsBefore = puts().length;
    const resent = await stack.call('/resendInvitation', {token: user.idToken, body: {}});
    expect(resent.status).toBe(200);
    expect(await resent.json()).toEqual({status: 'active'});
    expect(puts()).toHaveLength(putsBefore);
    expect(stack.github.requests.filter((request) => request.startsWith('DELETE '))).toEqual([]);
    expect(await accessStatus(user)).toMatchObject({status: 'active', username: login});
  });

  test("a buyer who declines and asks again gets 3 new invitations a day, then 429 with the reason and Retry-After: the repository's daily invitations are everyone's", async () => {
    const {user} = await paidBuyer();
    const login = githubAccount();
    await requestAccess(user, login);
    for (let round = 1; round <= 3; round++) {
      stack.github.decline(invitationOf(login)!.id);
      const resent = await stack.call('/resendInvitation', {token: user.idToken, body: {}});
      expect(await resent.json()).toEqual({status: 'invited'});
    }
    stack.github.decline(invitationOf(login)!.id);
    const putsBefore = puts().length;
    const refused = await stack.call('/resendInvitation', {token: user.idToken, body: {}});
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      error: `This purchase has asked for 3 new invitations today, the most in a day. Try again after midnight UTC, or write to ${appConfig.support.email}.`,
      code: 'RATE_LIMITED',
    });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    expect(puts()).toHaveLength(putsBefore);
    expect(invitationOf(login)).toBeUndefined();
  });

  test('the server checks payment itself, and only for the caller', async () => {
    const unpaid = await stack.signUp();
    const refused = await requestAccess(unpaid, githubAccount());
    expect(refused.status).toBe(402);
    expect(await refused.json()).toMatchObject({code: 'NOT_PAID'});

    const {user} = await paidBuyer();
    const forSomeoneElse = await stack.call('/addUserToRepo', {
      token: user.idToken,
      body: {username: githubAccount(), userId: unpaid.uid},
    });
    expect(forSomeoneElse.status).toBe(403);
    expect(puts()).toEqual([]);
  });

  test.each(['', '-leading', 'trailing-', 'double--hyphen', 'x'.repeat(40), 'under_score', 'spa ce'])(
    'the username %p is refused with 400 before GitHub is called',
    async (username) => {
      const {user} = await paidBuyer();
      const response = await requestAccess(user, username);
      expect(response.status).toBe(400);
      expect((await response.json()).error).toMatch(/GitHub username/);
      expect(stack.github.requests).toEqual([]);
    },
  );

  test('without a token, access calls are 401 Unauthorized', async () => {
    for (const path of ['/addUserToRepo', '/resendInvitation']) {
      const response = await stack.call(path, {body: {username: INVITEE, userId: 'x'}});
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({error: 'Unauthorized'});
    }
    expect((await stack.call('/accessStatus')).status).toBe(401);
  });
});

describe('an invitation GitHub created whose answer was lost', () => {
  const LOST = {status: 502, body: {message: 'Server Error'}, afterActing: true};
  const retryDue = () =>
    stack.worker.db.run("UPDATE jobs SET run_after = 0 WHERE kind = 'github-invite' AND status = 'pending'");
  const openFor = (login: string) =>
    [...stack.github.invitations.values()].filter((invitation) => invitation.invitee.login === login);
  const seatMails = (user: SignedInUser, login: string) =>
    stack.mailgun.sent.filter(
      (mail) =>
        mail.fields.to === user.email &&
        mail.fields.subject === `Your ${appConfig.appName} repository seat is with @${login}`,
    );

  /** A paid buyer's first invitation: GitHub created it, and its answer was lost. */
  async function lostFirstInvitation() {
    const {user, sessionId} = await paidBuyer();
    const login = githubAccount();
    stack.github.failNext('PUT /repos/', LOST);
    expect((await requestAccess(user, login)).status).toBe(202);
    // GitHub holds the invitation; the worker, which never heard of it, waits to try again.
    const [created] = openFor(login);
    expect(created).toBeDefined();
    expect(await grantOf(sessionId)).toMatchObject({status: 'queued', invitation_id: null});
    return {user, sessionId, login, created: created!};
  }

  test('is adopted by the retry: the grant is pending with the invitation GitHub holds, the only one, and the buyer is e-mailed once', async () => {
    const {user, sessionId, login, created} = await lostFirstInvitation();
    // The retry comes a little later (GitHub's clock a little behind the worker's, too).
    stack.github.ageInvitation(created!.id, 2 * 60_000);

    await retryDue();
    await stack.worker.scheduled();

    expect(await grantOf(sessionId)).toMatchObject({
      status: 'pending',
      invitation_id: created!.id,
      detail: null,
      invite_attempted_at: null,
    });
    // Sent when GitHub created it: GitHub expires it 7 days after that, and the re-send counts from it.
    expect((await grantOf(sessionId))!.invited_at).toBe(Date.parse(created!.created_at as string));
    expect(openFor(login).map((invitation) => invitation.id)).toEqual([created!.id]);
    expect(puts()).toHaveLength(1);
    expect(await accessStatus(user)).toMatchObject({status: 'pending', username: login});
    expect(seatMails(user, login)).toHaveLength(1);
    // The slot of the day's cap is taken, as the PUT's own would have been.
    const [{sent}] = await stack.worker.db.all<{sent: number}>(
      'SELECT COUNT(*) AS sent FROM invitations_sent WHERE session_id = ?',
      sessionId,
    );
    expect(sent).toBe(1);
  });

  test('a refund before the retry withdraws the invitation GitHub created: the refunded buyer has nothing open to accept', async () => {
    const {sessionId, login, created} = await lostFirstInvitation();

    expect((await refund(sessionId)).status).toBe(200);
    expect(await grantOf(sessionId)).toMatchObject({status: 'revoked', invitation_id: null});
    expect(openFor(login)).toEqual([]);
    expect(stack.github.requests).toContain(`DELETE /repos/${FIXTURE_REPO}/invitations/${created.id}`);
    // The retry that comes later sends nothing for a revoked grant.
    await retryDue();
    await stack.worker.scheduled();
    expect(openFor(login)).toEqual([]);
    expect(puts()).toHaveLength(1);
  });

  test("a seat move whose answer was lost: the old account keeps its seat, and the buyer's next request moves it with the invitation GitHub holds", async () => {
    const {user, sessionId, first, firstInvitation, second} = await seatedBuyerMovingOn();
    stack.github.failNext('PUT /repos/', LOST);
    expect((await requestAccess(user, second)).status).toBe(503);
    expect(await grantOf(sessionId)).toMatchObject({
      github_username: first,
      invitation_id: firstInvitation,
      status: 'pending',
    });
    const [created] = openFor(second);
    expect(created).toBeDefined();

    const response = await requestAccess(user, second);
    expect(await response.json()).toEqual({status: 'invited'});
    expect(await grantOf(sessionId)).toMatchObject({
      github_username: second,
      invitation_id: created!.id,
      status: 'pending',
      username_changes: 1,
      invite_attempted_at: null,
    });
    expect(openFor(second).map((invitation) => invitation.id)).toEqual([created!.id]);
    expect(stack.github.invitations.has(firstInvitation)).toBe(false);
    expect(puts()).toHaveLength(2); // the first account's, and the lost one: none more
    expect(seatMails(user, second)).toHaveLength(1);
  });

  test("an open invitation older than the worker's attempt (the seller's, by hand) is still refused on the retry, and left alone", async () => {
    const {user, sessionId} = await paidBuyer();
    const login = githubAccount();
    stack.github.failNext('PUT /repos/', {status: 502, body: {message: 'Server Error'}});
    expect((await requestAccess(user, login)).status).toBe(202);
    // The seller invited the account by hand an hour before the worker's attempt.
    const byHand = {
      id: 434343,
      invitee: {login, id: (await githubUser(login)).id},
      created_at: new Date(Date.now() - 3600_000).toISOString(),
    };
    stack.github.invitations.set(byHand.id, byHand);

    await retryDue();
    await stack.worker.scheduled();

    expect(await grantOf(sessionId)).toMatchObject({
      status: 'failed',
      invitation_id: null,
      detail: `@${login} already has a pending invitation to the repository. Choose another GitHub account.`,
    });
    expect(stack.github.invitations.has(byHand.id)).toBe(true);
    expect(puts()).toHaveLength(1);
  });

  test('an open invitation found by a send that never asked GitHub (no attempt recorded) is refused', async () => {
    const {user, sessionId} = await paidBuyer();
    const login = githubAccount();
    stack.github.failNext('PUT /repos/', {status: 502, body: {message: 'Server Error'}});
    expect((await requestAccess(user, login)).status).toBe(202);
    await setKitGrant(stack.worker.db, sessionId, {invite_attempted_at: null});
    // Created just now, but no attempt of the worker's says it is its own.
    stack.github.invitations.set(434344, {
      id: 434344,
      invitee: {login, id: (await githubUser(login)).id},
      created_at: new Date().toISOString(),
    });

    await retryDue();
    await stack.worker.scheduled();

    expect(await grantOf(sessionId)).toMatchObject({status: 'failed'});
    expect(stack.github.invitations.has(434344)).toBe(true);
  });
});

describe('only accounts this worker invited are touched', () => {
  test("an existing collaborator is refused with 409 and no PUT: GitHub would change that collaborator's permission", async () => {
    const {user, sessionId} = await paidBuyer();
    const response = await requestAccess(user, OWNER);
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({
      error: `@${OWNER} is already a collaborator on the repository, so it needs no invitation from this purchase. Choose another GitHub account.`,
      code: 'GITHUB_ACCOUNT_TAKEN',
    });
    expect(puts()).toEqual([]);
    expect(await grantOf(sessionId)).toBeUndefined();
    expect(stack.github.collaborators.has(OWNER.toLowerCase())).toBe(true);
  });

  test('an account invited by hand (an open invitation this worker did not create) is refused, and its invitation left alone', async () => {
    const {user} = await paidBuyer();
    const login = githubAccount();
    // The seller invites the account by hand (GitHub's PUT answers 201 with the invitation).
    stack.github.invitations.set(424242, {id: 424242, invitee: {login, id: (await githubUser(login)).id}});
    const response = await requestAccess(user, login);
    expect(response.status).toBe(409);
    expect((await response.json()).error).toContain('already has a pending invitation');
    expect(puts()).toEqual([]);
    expect(stack.github.invitations.has(424242)).toBe(true);
  });

  test('an account another purchase holds is refused with 409, before GitHub is asked to invite', async () => {
    const first = await paidBuyer();
    const login = githubAccount();
    expect((await requestAccess(first.user, login)).status).toBe(200);
    const second = await paidBuyer();
    const response = await requestAccess(second.user, login);
    expect(response.status).toBe(409);
    expect((await response.json()).error).toBe(
      `@${login} already has access through another purchase or team seat. Choose another GitHub account.`,
    );
    expect(puts()).toHaveLength(1);
    expect(await grantOf(second.sessionId)).toBeUndefined();
  });

  test('the database holds one live grant per GitHub numeric id, whatever the code does', async () => {
    const first = await paidBuyer();
    const second = await paidBuyer();
    const login = githubAccount();
    await requestAccess(first.user, login);
    const {github_user_id: id} = (await grantOf(first.sessionId))!;
    await expect(
      insertKitGrant(stack.worker.db, {
        session_id: second.sessionId,
        user_id: second.user.uid,
        github_username: login,
        github_user_id: id,
        status: 'queued',
        updated_at: 0,
      }),
    ).rejects.toThrow(/UNIQUE/);
  });

  test('a refused move keeps the seat the buyer has', async () => {
    const {user, sessionId} = await paidBuyer();
    const login = githubAccount();
    await requestAccess(user, login);
    const before = await grantOf(sessionId);
    expect((await requestAccess(user, OWNER)).status).toBe(409);
    expect(await grantOf(sessionId)).toEqual(before);
    expect(invitationOf(login)).toBeDefined();
  });

  test.each([
    ['refuses the new account (422)', {status: 422, body: VALIDATION_FAILED}, 422, 'GITHUB_REFUSED'],
    ['cannot take the invitation now (502)', {status: 502, body: {message: 'Server Error'}}, 503, 'GITHUB_UNAVAILABLE'],
    // GitHub's secondary limit, as its REST docs describe it: a wait, answered 429 with Retry-After, not a 5xx.
    [
      'asks to slow down (its secondary rate limit)',
      {
        status: 403,
        headers: {'retry-after': '60'},
        body: {message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.'},
      },
      429,
      'RATE_LIMITED',
    ],
  ] as const)(
    'a move GitHub %s changes nothing: the old account keeps its seat, and the answer says so',
    async (_label, failure, status, code) => {
      const {user, sessionId} = await paidBuyer();
      const login = githubAccount();
      await requestAccess(user, login);
      stack.github.accept(invitationOf(login)!.id);
      const before = await grantOf(sessionId);
      stack.github.failNext('PUT /repos/', failure);
      const refused = await requestAccess(user, githubAccount());
      expect(refused.status).toBe(status);
      expect(refused.headers.get('retry-after')).toBe(status === 429 ? '60' : null);
      expect(await refused.json()).toMatchObject({code, error: expect.stringContaining(`@${login} keeps access.`)});
      // Only the time of the attempt is kept, when GitHub did not answer: it may have created the invitation.
      expect(await grantOf(sessionId)).toEqual({
        ...before,
        invite_attempted_at: status === 422 ? null : expect.any(Number),
      });
      expect(stack.github.collaborators.has(login.toLowerCase())).toBe(true);
      expect(stack.github.requests.filter((request) => request.startsWith('DELETE '))).toEqual([]);
      await stack.worker.scheduled();
      expect(stack.github.collaborators.has(login.toLowerCase())).toBe(true);
    },
  );

  test('a refund removes the account this worker invited by its numeric id, even after a rename, and not the one now holding its old name', async () => {
    const {user, sessionId} = await paidBuyer();
    const login = githubAccount();
    await requestAccess(user, login);
    stack.github.accept(invitationOf(login)!.id);
    // The buyer renames their account; someone else, a collaborator, takes the old name.
    stack.github.rename(login, `${login}-renamed`);
    stack.github.addUser(login);
    stack.github.collaborators.add(login.toLowerCase());

    expect((await refund(sessionId)).status).toBe(200);
    expect(stack.github.collaborators.has(`${login}-renamed`.toLowerCase())).toBe(false);
    expect(stack.github.collaborators.has(login.toLowerCase())).toBe(true);
    expect(stack.github.requests).not.toContain(`DELETE ${REPO}/collaborators/${login}`);
  });

  test('a refund before the invitation went out removes nothing on GitHub', async () => {
    const {user, sessionId} = await paidBuyer();
    stack.github.failNext('PUT /repos/', {status: 502, body: {message: 'Server Error'}});
    expect((await requestAccess(user, githubAccount())).status).toBe(202);
    stack.github.requests.length = 0;
    await refund(sessionId);
    expect(stack.github.requests.filter((request) => request.startsWith('DELETE '))).toEqual([]);
    expect(await grantOf(sessionId)).toMatchObject({status: 'revoked'});
  });
});

describe('a seat is one person’s', () => {
  test('a second username replaces the first: the new account is invited first, then the old invitation withdrawn, and the move is counted', async () => {
    const {user, sessionId, firstInvitation, second} = await seatedBuyerMovingOn();
    const response = await requestAccess(user, second);
    expect(await response.json()).toEqual({status: 'invited'});
    expect([...stack.github.invitations.values()].map((invitation) => invitation.invitee.login)).toEqual([second]);
    expect(stack.github.requests.lastIndexOf(`PUT ${REPO}/collaborators/${second}`)).toBeLessThan(
      stack.github.requests.indexOf(`DELETE ${REPO}/invitations/${firstInvitation}`),
    );
    expect(await grantOf(sessionId)).toMatchObject({github_username: second, status: 'pending', username_changes: 1});
    expect(await accessStatus(user)).toMatchObject({
      usernameChanges: 1,
      usernameChangesLeft: appConfig.repository.maxUsernameChanges - 1,
    });
  });

  test('a second username after the first accepted removes the first collaborator', async () => {
    const {user} = await paidBuyer();
    const first = githubAccount();
    await requestAccess(user, first);
    stack.github.accept(invitationOf(first)!.id);
    const second = githubAccount();
    await requestAccess(user, second);
    expect(stack.github.collaborators.has(first.toLowerCase())).toBe(false);
    expect([...stack.github.invitations.values()].map((invitation) => invitation.invitee.login)).toEqual([second]);
  });

  test(`after ${appConfig.repository.maxUsernameChanges} moves, another is 429 with a message that names support, and nothing changes`, async () => {
    const {user, sessionId} = await paidBuyer();
    const max = appConfig.repository.maxUsernameChanges;
    await requestAccess(user, githubAccount());
    for (let move = 1; move <= max; move++) expect((await requestAccess(user, githubAccount())).status).toBe(200);
    expect(await accessStatus(user)).toMatchObject({usernameChanges: max, usernameChangesLeft: 0});
    const before = await grantOf(sessionId);
    const putsBefore = puts().length;

    const refused = await requestAccess(user, githubAccount());
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      error: `This purchase has already moved to another GitHub account ${max} times, the most it may. Write to ${appConfig.support.email} to change it again.`,
      code: 'SWAP_LIMIT',
    });
    expect(await grantOf(sessionId)).toEqual(before);
    expect(puts()).toHaveLength(putsBefore);
    // Asking again for the account it has is not a move.
    expect((await requestAccess(user, before!.github_username as string)).status).toBe(200);
  });

  test('fixing a username GitHub refused before inviting it is not a move', async () => {
    const {user, sessionId} = await paidBuyer();
    stack.github.failNext('PUT /repos/', {status: 422, body: VALIDATION_FAILED});
    expect((await requestAccess(user, githubAccount())).status).toBe(422);
    expect((await requestAccess(user, githubAccount())).status).toBe(200);
    expect(await grantOf(sessionId)).toMatchObject({username_changes: 0});
  });
});

describe('removals', () => {
  test('a full refund withdraws a pending invitation', async () => {
    const {user, sessionId} = await paidBuyer();
    await requestAccess(user, githubAccount());
    expect(stack.github.invitations.size).toBe(1);
    expect((await refund(sessionId)).status).toBe(200);
    expect(stack.github.invitations.size).toBe(0);
    expect(await accessStatus(user)).toMatchObject({status: 'revoked', hasPaid: false});
  });

  test('a dispute removes a collaborator, retrying through the cron when GitHub fails', async () => {
    const {user, sessionId} = await paidBuyer();
    const login = githubAccount();
    await requestAccess(user, login);
    stack.github.accept(invitationOf(login)!.id);
    await aMinuteLater(sessionId);
    expect(await accessStatus(user)).toMatchObject({status: 'active'});

    stack.github.failNext('DELETE /repos/', {status: 503, body: {message: 'Unavailable'}});
    const session = stack.stripe.sessions.get(sessionId)!;
    await stack.deliver(
      stripeEvent('charge.dispute.created', {
        id: `dp_${sessionId.slice(-10)}`,
        object: 'dispute',
        status: 'needs_response',
        payment_intent: session.payment_intent as string,
      } as Stripe.Dispute),
    );
    expect(stack.github.collaborators.has(login.toLowerCase())).toBe(true); // GitHub failed; the job waits
    expect(await accessStatus(user)).toMatchObject({status: 'revoked'});
    await stack.worker.db.run("UPDATE jobs SET run_after = 0 WHERE kind = 'github-remove' AND status = 'pending'");
    await stack.worker.scheduled();
    expect(stack.github.collaborators.has(login.toLowerCase())).toBe(false);
  });

  test('a removal the outbox gives up on leaves the grant removal_failed, not revoked, and logs an error', async () => {
    const {user, sessionId} = await paidBuyer();
    const login = githubAccount();
    await requestAccess(user, login);
    stack.github.accept(invitationOf(login)!.id);
    // GitHub keeps failing: the first try at once, then every cron run until the outbox gives up.
    stack.github.failNext('DELETE /repos/', {status: 503, body: {message: 'Unavailable'}}, 100);
    await refund(sessionId);
    for (let attempt = 0; attempt < 12; attempt++) {
      await stack.worker.db.run("UPDATE jobs SET run_after = 0 WHERE kind = 'github-remove' AND status = 'pending'");
      await stack.worker.scheduled();
    }
    const [job] = await stack.worker.db.all<{status: string; attempts: number}>(
      "SELECT status, attempts FROM jobs WHERE kind = 'github-remove' AND key LIKE 'remove:' || ? || ':%'",
      sessionId,
    );
    expect(job).toEqual({status: 'failed', attempts: 12});
    expect(stack.github.collaborators.has(login.toLowerCase())).toBe(true);
    expect(await grantOf(sessionId)).toMatchObject({status: 'removal_failed'});
    expect(await accessStatus(user)).toMatchObject({status: 'removal_failed'});
    const errors = stack.worker.logs
      .map((line) => JSON.parse(line) as {level: string; event: string})
      .filter((entry) => entry.level === 'error');
    expect(errors.map((entry) => entry.event)).toContain('access.removal_failed');
  });
});

describe('a removal never hits the wrong person', () => {
  // An earlier test may leave GitHub failures due; these tests say which calls fail.
  beforeEach(() => stack.github.clearFailures());
  const retryRemovals = async () => {
    await stack.worker.db.run("UPDATE jobs SET run_after = 0 WHERE kind = 'github-remove' AND status = 'pending'");
    await stack.worker.scheduled();
  };
  const removalJobs = (sessionId: string) =>
    stack.worker.db.all<{status: string}>(
      "SELECT status FROM jobs WHERE kind = 'github-remove' AND session_id = ?",
      sessionId,
    );
  /** The skipped removals the worker logged (session ids are masked to their last 6 characters). */
  const skipped = (sessionId: string, heldBy = sessionId) =>
    stack.worker.logs.filter(
      (line) =>
        line.includes('access.take_back_skipped') &&
        line.includes(sessionId.slice(-6)) &&
        line.includes(heldBy.slice(-6)),
    );

  test("a refund's removal, retried after its invitation is gone, leaves the account another purchase has invited since", async () => {
    const first = await paidBuyer();
    const login = githubAccount();
    await requestAccess(first.user, login);
    const declined = invitationOf(login)!.id;
    // The refund's removal fails for now (GitHub is down) and waits for the cron.
    stack.github.failNext('DELETE /repos/', {status: 503, body: {message: 'Unavailable'}});
    await refund(first.sessionId);
    expect(await removalJobs(first.sessionId)).toEqual([{status: 'pending'}]);
    // The invitee declines that invitation (GitHub deletes it); another buyer invites the same
    // account, which accepts.
    stack.github.invitations.delete(declined);
    const second = await paidBuyer();
    expect((await requestAccess(second.user, login)).status).toBe(200);
    stack.github.accept(invitationOf(login)!.id);
    expect(await grantOf(second.sessionId)).toMatchObject({
      status: 'pending',
      github_user_id: (await grantOf(first.sessionId))!.github_user_id,
    });

    stack.github.requests.length = 0;
    await retryRemovals();
    // The invitation was not there to withdraw (404), and the account is the second purchase's now.
    expect(stack.github.collaborators.has(login.toLowerCase())).toBe(true);
    expect(stack.github.requests.filter((request) => request.startsWith('DELETE '))).toEqual([
      `DELETE ${REPO}/invitations/${declined}`,
    ]);
    expect(await removalJobs(first.sessionId)).toEqual([{status: 'done'}]);
    expect(skipped(first.sessionId, second.sessionId)).toHaveLength(1);
  });

  test("a stale invitation's withdrawal leaves it open when another purchase's live grant holds that invitation", async () => {
    // Two purchases ask for one account at once: both pass the checks, GitHub answers the second
    // PUT with the invitation it opened for the first, and the purchase that lost the race (its
    // grant refused by the unique index) queues the withdrawal of that same invitation.
    const winner = await paidBuyer();
    const loser = await paidBuyer();
    const login = githubAccount();
    await requestAccess(winner.user, login);
    const {invitation_id: invitationId, github_user_id: githubUserId} = (await grantOf(winner.sessionId))!;
    const payload = {
      sessionId: loser.sessionId,
      repositoryKey: 'kit',
      repository: null,
      version: 1,
      invitationId,
      githubUserId,
    };
    await stack.worker.db.run(
      "INSERT INTO jobs (key, kind, payload, run_after, created_at, updated_at, session_id) VALUES (?, 'github-remove', ?, 0, 0, 0, ?)",
      `remove:${loser.sessionId}:kit:1:${invitationId}`,
      JSON.stringify(payload),
      loser.sessionId,
    );
    stack.github.requests.length = 0;
    await retryRemovals();
    expect(stack.github.invitations.has(invitationId as number)).toBe(true);
    expect(stack.github.requests.filter((request) => request.startsWith('DELETE '))).toEqual([]);
    expect(await removalJobs(loser.sessionId)).toEqual([{status: 'done'}]);
    expect(skipped(loser.sessionId, winner.sessionId)).toHaveLength(1);
  });

  test('a removal retried after the purchase moved away and back leaves the account it holds again', async () => {
    const {user, sessionId} = await paidBuyer();
    const login = githubAccount();
    await requestAccess(user, login);
    stack.github.accept(invitationOf(login)!.id);
    // The buyer moves to another account; removing the first fails for good (GitHub refuses).
    stack.github.failNext(`DELETE ${REPO}/collaborators/`, {
      status: 403,
      body: {message: 'Must have admin rights to Repository.'},
    });
    await requestAccess(user, githubAccount());
    expect(await removalJobs(sessionId)).toEqual([{status: 'failed'}]);
    // The account left by itself; the buyer moves back to it, and accepts again.
    stack.github.collaborators.delete(login.toLowerCase());
    expect((await requestAccess(user, login)).status).toBe(200);
    stack.github.accept(invitationOf(login)!.id);

    // The seller retries the failed removal (the console's Retry makes it due again).
    stack.github.requests.length = 0;
    await stack.worker.db.run(
      "UPDATE jobs SET status = 'pending', run_after = 0 WHERE kind = 'github-remove' AND status = 'failed' AND session_id = ?",
      sessionId,
    );
    await retryRemovals();
    expect(stack.github.collaborators.has(login.toLowerCase())).toBe(true);
    expect(
      stack.github.requests.filter((request) => request.startsWith('DELETE ') && request.includes('/collaborators/')),
    ).toEqual([]);
    expect(skipped(sessionId)).toHaveLength(1);
  });
});

describe('status reads', () => {
  test('polling the status reads GitHub at most once a minute per grant', async () => {
    const {user, sessionId} = await paidBuyer();
    await requestAccess(user, githubAccount());
    stack.github.requests.length = 0;
    for (let poll = 0; poll < 10; poll++) expect(await accessStatus(user)).toMatchObject({status: 'pending'});
    expect(stack.github.requests).toEqual([]);

    await aMinuteLater(sessionId);
    for (let poll = 0; poll < 10; poll++) await accessStatus(user);
    // An open invitation is seen in the invitation list alone (which also names its invitee today).
    expect(stack.github.requests.filter((request) => request.startsWith('GET '))).toEqual([`GET ${REPO}/invitations`]);
  });

  const statusReads = () => stack.github.requests.filter((request) => request.startsWith('GET '));
  /** `limits.accessStatus` in worker/src/rateLimit.ts: polls a minute per user. */
  const STATUS_LIMIT = 30;

  test('30 polls at once share one GitHub read: the read is claimed in D1', async () => {
    const {user, sessionId} = await paidBuyer();
    await requestAccess(user, githubAccount());
    await aMinuteLater(sessionId);
    stack.github.requests.length = 0;
    const answers = await Promise.all(
      Array.from({length: 30}, () => stack.call('/accessStatus', {token: user.idToken})),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(30).fill(200));
    for (const answer of answers) expect(await answer.json()).toMatchObject({status: 'pending'});
    // One read is this call; without the claim, each poll made it.
    expect(statusReads()).toEqual([`GET ${REPO}/invitations`]);
  });

  test('a failed GitHub read is not repeated at every poll: it is tried again after 15 s', async () => {
    const {user, sessionId} = await paidBuyer();
    await requestAccess(user, githubAccount());
    await aMinuteLater(sessionId);
    stack.github.requests.length = 0;
    stack.github.failNext('GET /repos/', {status: 502, body: {message: 'Server Error'}});
    expect(await accessStatus(user)).toMatchObject({status: 'pending'});
    for (let poll = 0; poll < 5; poll++) expect(await accessStatus(user)).toMatchObject({status: 'pending'});
    expect(statusReads()).toHaveLength(1); // the failed one

    await ageKitReading(stack.worker.db, sessionId, 15_000);
    expect(await accessStatus(user)).toMatchObject({status: 'pending'});
    expect(statusReads()).toHaveLength(2); // asked again: the invitations
  });

  test(`past ${STATUS_LIMIT} polls a minute, a buyer is answered 429 with Retry-After, and GitHub is not asked`, async () => {
    const {user, sessionId} = await paidBuyer();
    await requestAccess(user, githubAccount());
    await aMinuteLater(sessionId);
    stack.github.requests.length = 0;
    // Twice the limit and one: whichever way the minute's windows fall, one of them is over.
    const answers = await Promise.all(
      Array.from({length: 2 * STATUS_LIMIT + 1}, () => stack.call('/accessStatus', {token: user.idToken})),
    );
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(answers.filter((answer) => answer.status !== 200 && answer.status !== 429)).toEqual([]);
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused[0]!.json()).toMatchObject({code: 'RATE_LIMITED'});
    expect(statusReads().length).toBeLessThanOrEqual(2);
    // Another buyer is not affected.
    const other = await paidBuyer();
    expect((await stack.call('/accessStatus', {token: other.user.idToken})).status).toBe(200);
  });
});

async function githubUser(login: string): Promise<{id: number}> {
  const response = await fetch(`${stack.github.url}/users/${login}`);
  return (await response.json()) as {id: number};
}

test('who holds an account or an invitation is looked up by index, not by reading every live grant (D1 counts each row read)', async () => {
  const plan = await stack.worker.db.all<{detail: string}>(
    `EXPLAIN QUERY PLAN ${HOLDER_SQL}`,
    1,
    2,
    FIXTURE_REPO,
    FIXTURE_REPO,
    'cs_test_none',
    1,
    1,
  );
  const steps = plan.map((step) => step.detail);
  expect(steps).toContainEqual(expect.stringContaining('USING INDEX grants_github_user_id (github_user_id=?)'));
  expect(steps).toContainEqual(expect.stringContaining('USING INDEX grants_invitation_id (invitation_id=?)'));
  expect(steps.filter((step) => /(SCAN|SEARCH) grants USING INDEX grants_invited_at/.test(step))).toEqual([]);
});
