/**
 * Repository access against GitHub's recorded answers: invitations, existing collaborators,
 * unknown users, refusals, rate limits and outages retried by the cron, a second username
 * replacing the first, and refunds taking access back.
 */
import {INVITEE, OWNER, VALIDATION_FAILED} from '../stubs/githubApi';
import {completedEvent, type SignedInUser, startStack, stripeEvent, type Stack, uniqueEmail} from './stack';
import type Stripe from 'stripe';

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
const grantOf = async (sessionId: string) =>
  (await stack.worker.db.all<Record<string, unknown>>('SELECT * FROM access_grants WHERE session_id = ?', sessionId))[0];
const puts = () => stack.github.requests.filter((request) => request.startsWith('PUT '));

function refund(sessionId: string) {
  const session = stack.stripe.sessions.get(sessionId)!;
  return stack.deliver(
    stripeEvent('charge.refunded', {
      id: `ch_${sessionId.slice(-8)}`,
      object: 'charge',
      refunded: true,
      amount: 9900,
      amount_refunded: 9900,
      payment_intent: session.payment_intent as string,
    } as Stripe.Charge),
  );
}

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
  expect(await accessStatus(user)).toMatchObject({status: 'pending', username: INVITEE, expired: false, hasPaid: true});

  stack.github.accept(invitation!.id);
  expect(await accessStatus(user)).toMatchObject({status: 'active'});
});

test('a username that already has access answers active (204) without an invitation', async () => {
  const {user, sessionId} = await paidBuyer();
  const response = await requestAccess(user, OWNER);
  expect(await response.json()).toEqual({status: 'active'});
  expect(stack.github.invitations.size).toBe(0);
  expect(await grantOf(sessionId)).toMatchObject({status: 'active', github_user_id: 31898046});
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

test("GitHub's 422 is reported, recorded as failed, and not retried", async () => {
  const {user, sessionId} = await paidBuyer();
  stack.github.failNext('PUT /repos/', {status: 422, body: VALIDATION_FAILED});
  const response = await requestAccess(user, INVITEE);
  expect(response.status).toBe(422);
  expect(await response.json()).toMatchObject({error: expect.stringContaining('Validation Failed'), code: 'GITHUB_REFUSED'});
  expect(await grantOf(sessionId)).toMatchObject({status: 'failed'});
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
  const response = await requestAccess(user, INVITEE);
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
  expect((await requestAccess(user, INVITEE)).status).toBe(202);
  const inviteJob = () =>
    stack.worker.db.all<{run_after: number; attempts: number; last_error: string | null; status: string}>(
      "SELECT * FROM jobs WHERE kind = 'github-invite' AND key LIKE 'invite:' || ? || ':%'",
      sessionId,
    );
  const [job] = await inviteJob();
  expect(job!.run_after).toBeGreaterThan(Date.now() + 30_000); // back-off, not a hot loop

  // Let the clock pass the back-off: the cron tries again, fails again, then succeeds.
  const due = () => stack.worker.db.run("UPDATE jobs SET run_after = 0 WHERE kind = 'github-invite' AND status = 'pending'");
  await due();
  await stack.worker.scheduled();
  expect((await inviteJob())[0]).toMatchObject({
    attempts: 1,
    last_error: expect.stringContaining('502'),
  });
  await due();
  await stack.worker.scheduled();
  expect(await grantOf(sessionId)).toMatchObject({status: 'pending'});
  expect((await inviteJob())[0]).toMatchObject({status: 'done'});
  expect(puts()).toHaveLength(3);
});

test('a second username replaces the first: the old invitation is withdrawn first', async () => {
  const {user, sessionId} = await paidBuyer();
  await requestAccess(user, INVITEE);
  const [first] = [...stack.github.invitations.keys()];
  stack.github.addUser('octo-second');
  const response = await requestAccess(user, 'octo-second');
  expect(await response.json()).toEqual({status: 'invited'});
  const invitees = [...stack.github.invitations.values()].map((invitation) => invitation.invitee.login);
  expect(invitees).toEqual(['octo-second']);
  expect(stack.github.requests.indexOf(`DELETE /repos/octokit-fixture-org/add-and-remove-repository-collaborator/invitations/${first}`)).toBeLessThan(
    stack.github.requests.lastIndexOf('PUT /repos/octokit-fixture-org/add-and-remove-repository-collaborator/collaborators/octo-second'),
  );
  expect(await grantOf(sessionId)).toMatchObject({github_username: 'octo-second', status: 'pending'});
});

test('a second username after the first accepted removes the first collaborator', async () => {
  const {user} = await paidBuyer();
  await requestAccess(user, INVITEE);
  stack.github.accept([...stack.github.invitations.keys()][0]!);
  stack.github.addUser('octo-third');
  await requestAccess(user, 'octo-third');
  expect(stack.github.collaborators.has(INVITEE)).toBe(false);
  expect([...stack.github.invitations.values()].map((invitation) => invitation.invitee.login)).toEqual(['octo-third']);
});

test('ten requests at once for the same username send one invitation', async () => {
  const {user} = await paidBuyer();
  const answers = await Promise.all(Array.from({length: 10}, () => requestAccess(user, INVITEE)));
  expect(answers.every((answer) => answer.status === 200 || answer.status === 202)).toBe(true);
  expect(puts()).toHaveLength(1);
  expect(stack.github.invitations.size).toBe(1);
});

test('a full refund withdraws a pending invitation', async () => {
  const {user, sessionId} = await paidBuyer();
  await requestAccess(user, INVITEE);
  expect(stack.github.invitations.size).toBe(1);
  expect((await refund(sessionId)).status).toBe(200);
  expect(stack.github.invitations.size).toBe(0);
  expect(await accessStatus(user)).toMatchObject({status: 'revoked', hasPaid: false});
});

test('a dispute removes a collaborator, retrying through the cron when GitHub fails', async () => {
  const {user, sessionId} = await paidBuyer();
  await requestAccess(user, INVITEE);
  stack.github.accept([...stack.github.invitations.keys()][0]!);
  expect(await accessStatus(user)).toMatchObject({status: 'active'});

  stack.github.failNext('DELETE /repos/', {status: 503, body: {message: 'Unavailable'}});
  const session = stack.stripe.sessions.get(sessionId)!;
  await stack.deliver(
    stripeEvent('charge.dispute.created', {
      id: 'dp_1',
      object: 'dispute',
      status: 'needs_response',
      payment_intent: session.payment_intent as string,
    } as Stripe.Dispute),
  );
  expect(stack.github.collaborators.has(INVITEE)).toBe(true); // GitHub failed; the job waits
  expect(await accessStatus(user)).toMatchObject({status: 'revoked'});
  await stack.worker.db.run("UPDATE jobs SET run_after = 0 WHERE kind = 'github-remove' AND status = 'pending'");
  await stack.worker.scheduled();
  expect(stack.github.collaborators.has(INVITEE)).toBe(false);
});

test('an expired invitation can be resent; a valid one cannot', async () => {
  const {user} = await paidBuyer();
  await requestAccess(user, INVITEE);
  const early = await stack.call('/resendInvitation', {token: user.idToken, body: {}});
  expect(early.status).toBe(409);

  const [first] = [...stack.github.invitations.keys()];
  stack.github.expire(first!);
  expect(await accessStatus(user)).toMatchObject({status: 'pending', expired: true});
  const resent = await stack.call('/resendInvitation', {token: user.idToken, body: {}});
  expect(await resent.json()).toEqual({status: 'invited'});
  const open = [...stack.github.invitations.values()].filter((invitation) => !invitation.expired);
  expect(open).toHaveLength(1);
  expect(open[0]!.id).not.toBe(first);
  expect(stack.github.invitations.has(first!)).toBe(false);
  expect(await accessStatus(user)).toMatchObject({status: 'pending', expired: false});
});

test('the server checks payment itself, and only for the caller', async () => {
  const unpaid = await stack.signUp();
  const refused = await requestAccess(unpaid, INVITEE);
  expect(refused.status).toBe(402);
  expect(await refused.json()).toMatchObject({code: 'NOT_PAID'});

  const {user} = await paidBuyer();
  const forSomeoneElse = await stack.call('/addUserToRepo', {token: user.idToken, body: {username: INVITEE, userId: unpaid.uid}});
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
