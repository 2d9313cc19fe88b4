/**
 * What a plan grants besides the kit: the extra private repositories of src/config's plans
 * (Advanced: the prompts), mapped to GitHub by GITHUB_EXTRA_REPOS. In workerd with a real D1
 * against the GitHub stand-in (two repositories, each with its own invitations and cap) and the
 * Stripe stand-in: the kit's account is invited to each repository the plan grants now, once,
 * within that repository's cap, and loses it when the plan, the payment or the seat says so.
 */
import {appConfig, extraRepositoryKeys, upgradesFrom} from '../../src/config';
import {unzipSync, strFromU8} from 'fflate';
import {
  ADMIN_PATHS,
  adminPath,
  type AdminPurchaseDetail,
  API_PATHS,
  type AccessStatus,
  type DownloadLink,
} from '../../src/config/api';
import {EXTRA_FIXTURE_REPO, FIXTURE_REPO, OWNER} from '../../scripts/local/githubApi';
import {archiveFiles} from '../../scripts/local/githubArchive';
import {
  completedEvent,
  disputeEvent,
  refundAtStripe,
  refundEvent,
  type SignedInUser,
  SITE_ORIGIN,
  type Stack,
  startStack,
  useSellerStack,
} from './stack';
import {extraGrants, kitGrant, setExtraGrants, setKitGrant} from './grantRows';
import {CRON_BATCHES} from '../../worker/src/cronBatches';

const seller = useSellerStack({GITHUB_EXTRA_REPOS: `prompts=${EXTRA_FIXTURE_REPO}`});
const stack = () => seller.stack;

const starter = appConfig.plans.find((plan) => plan.id === 'starter')!;
const advanced = appConfig.plans.find((plan) => plan.id === 'advanced')!;

let accounts = 0;
/** A GitHub account no other test has used (a seat is one account across all purchases). */
const githubAccount = (on: Stack = stack()) => on.github.addUser(`prompt-${Date.now().toString(36)}-${accounts++}`);

/** A signed-in buyer of `plan`, paid, who asked for access with a GitHub account of their own. */
async function seatedBuyer(priceId: string, on: Stack = stack()) {
  const user = await on.signUp();
  const sessionId = await on.paidCheckout({email: user.email, user, priceId});
  expect((await on.deliver(completedEvent(on, sessionId))).status).toBe(200);
  const account = githubAccount(on);
  const asked = await requestAccess(on, user, account.login);
  expect(asked.status).toBe(200);
  return {user, sessionId, account};
}

const requestAccess = (on: Stack, user: SignedInUser, username: string) =>
  on.call(API_PATHS.addUserToRepo, {token: user.idToken, body: {username, userId: user.uid}});
const accessStatus = async (user: SignedInUser, on: Stack = stack()) =>
  (await (await on.call(API_PATHS.accessStatus, {token: user.idToken})).json()) as AccessStatus;

const prompts = (on: Stack = stack()) => on.github.extra(EXTRA_FIXTURE_REPO);
/** The prompts repository as the dashboard names it: its page is the stand-in's, the GitHub the worker talks to. */
const promptsNamed = () => ({
  key: 'prompts',
  repository: EXTRA_FIXTURE_REPO,
  repositoryUrl: `${stack().github.url}/${EXTRA_FIXTURE_REPO}`,
});
/** The open invitations of a repository for one account id. */
const invitationsFor = (invitations: Map<number, {id: number; invitee: {id: number}}>, accountId: number) =>
  [...invitations.values()]
    .filter((invitation) => invitation.invitee.id === accountId)
    .map((invitation) => invitation.id);
const promptInvitationsFor = (accountId: number) => invitationsFor(prompts().invitations, accountId);
const kitInvitationsFor = (accountId: number) => invitationsFor(stack().github.invitations, accountId);
const extraRows = (sessionId: string, on: Stack = stack()) =>
  extraGrants<{
    repository_key: string;
    repository: string | null;
    github_user_id: number;
    invitation_id: number | null;
    status: string;
    detail: string | null;
  }>(on.worker.db, sessionId, 'repository_key, repository, github_user_id, invitation_id, status, detail');
/** The minute a pending grant's GitHub read is cached for has passed. */
const aMinuteLater = (sessionId: string) => setExtraGrants(stack().worker.db, sessionId, {checked_at: null});

/** The upgrade to Advanced, asked for and paid, with Stripe's completion delivered `times` times. */
async function upgradeToAdvanced(user: SignedInUser, times = 1): Promise<string> {
  const response = await stack().call(API_PATHS.createUpgradeSession, {
    method: 'POST',
    token: user.idToken,
    body: {planId: advanced.id, successUrl: `${SITE_ORIGIN}/dashboard`, cancelUrl: `${SITE_ORIGIN}/dashboard`},
  });
  expect(response.status).toBe(200);
  const upgradeId = /cs_test_\w+/.exec(((await response.json()) as {url: string}).url)![0];
  stack().stripe.complete(upgradeId, {email: user.email, paid: true});
  for (let i = 0; i < times; i++)
    expect((await stack().deliver(completedEvent(stack(), upgradeId, `evt_upgrade_${upgradeId}`))).status).toBe(200);
  return upgradeId;
}

/** A full refund of a session's payment at the stand-in, then Stripe's `charge.refunded`. */
const refundPayment = (sessionId: string) => refundAtStripe(stack(), sessionId);

test('the config: Advanced grants the prompts repository besides the kit, Starter only the kit, and an upgrade adds it', () => {
  expect(advanced.extraRepositories).toEqual(['prompts']);
  expect(extraRepositoryKeys(starter)).toEqual([]);
  expect(upgradesFrom(starter)).toContain(advanced);
});

test('an Advanced buyer is invited to the kit and to the prompts, the same GitHub account; the dashboard shows both, and the prompts as active once accepted', async () => {
  const {user, sessionId, account} = await seatedBuyer(advanced.priceId.test);
  expect(kitInvitationsFor(account.id)).toHaveLength(1);
  const [invitation] = promptInvitationsFor(account.id);
  expect(invitation).toBeDefined();
  expect(await extraRows(sessionId)).toEqual([
    {
      repository_key: 'prompts',
      repository: EXTRA_FIXTURE_REPO,
      github_user_id: account.id,
      invitation_id: invitation,
      status: 'pending',
      detail: null,
    },
  ]);
  expect((await accessStatus(user)).extraRepositories).toEqual([
    {...promptsNamed(), status: 'pending', username: account.login, expired: false},
  ]);

  stack().github.accept(invitation!);
  await aMinuteLater(sessionId);
  expect((await accessStatus(user)).extraRepositories).toEqual([
    {...promptsNamed(), status: 'active', username: account.login, expired: false},
  ]);
});

test("the prompts entry reads as GitHub says today, as the kit's does: the login of today while pending and, past the hour, once accepted; in the console too", async () => {
  const {user, sessionId, account} = await seatedBuyer(advanced.priceId.test);
  const [invitation] = promptInvitationsFor(account.id);
  const moved = `${account.login}-moved`;
  stack().github.rename(account.login, moved);
  await aMinuteLater(sessionId);
  expect((await accessStatus(user)).extraRepositories).toEqual([
    {...promptsNamed(), status: 'pending', username: moved, expired: false},
  ]);

  stack().github.accept(invitation!);
  await aMinuteLater(sessionId);
  expect((await accessStatus(user)).extraRepositories).toEqual([
    {...promptsNamed(), status: 'active', username: moved, expired: false},
  ]);
  const later = `${moved}-later`;
  stack().github.rename(moved, later);
  // Within the hour an accepted grant's login is not asked again; after it, it is.
  expect((await accessStatus(user)).extraRepositories).toMatchObject([{status: 'active', username: moved}]);
  await aMinuteLater(sessionId);
  expect((await accessStatus(user)).extraRepositories).toMatchObject([{status: 'active', username: later}]);
  const detail = (await (
    await stack().call(adminPath(ADMIN_PATHS.purchase, {sessionId}), {token: seller.admin.idToken})
  ).json()) as AdminPurchaseDetail;
  expect(detail.grants).toMatchObject([
    {key: 'kit'},
    {key: 'prompts', status: 'active', username: later, expired: false},
  ]);
  await stack().newDay(); // the tests after this one count the window from empty
});

test('a prompts invitation the buyer declined reads expired at once, not after its 7 days, and the buyer may ask for a new one', async () => {
  const {user, sessionId, account} = await seatedBuyer(advanced.priceId.test);
  const [declined] = promptInvitationsFor(account.id);
  stack().github.decline(declined!);
  await aMinuteLater(sessionId);
  expect((await accessStatus(user)).extraRepositories).toEqual([
    {...promptsNamed(), status: 'pending', username: account.login, expired: true},
  ]);
  const renewed = await stack().call(API_PATHS.resendInvitation, {
    token: user.idToken,
    body: {key: 'prompts'},
  });
  expect(renewed.status).toBe(200);
  const [fresh] = promptInvitationsFor(account.id);
  expect(fresh).toBeDefined();
  expect(fresh).not.toBe(declined);
  expect((await accessStatus(user)).extraRepositories).toEqual([
    {...promptsNamed(), status: 'pending', username: account.login, expired: false},
  ]);
  await stack().newDay();
});

test('a Starter buyer is invited to the kit only: nothing is asked of the prompts repository', async () => {
  const before = stack().github.requests.filter((request) => request.includes(EXTRA_FIXTURE_REPO)).length;
  const {user, sessionId, account} = await seatedBuyer(starter.priceId.test);
  expect(kitInvitationsFor(account.id)).toHaveLength(1);
  expect(promptInvitationsFor(account.id)).toEqual([]);
  expect(await extraRows(sessionId)).toEqual([]);
  expect((await accessStatus(user)).extraRepositories).toBeUndefined();
  expect(stack().github.requests.filter((request) => request.includes(EXTRA_FIXTURE_REPO)).length).toBe(before);
});

test('a Starter buyer who upgrades is invited to the prompts once, though Stripe delivers the completion twice', async () => {
  const {user, sessionId, account} = await seatedBuyer(starter.priceId.test);
  await upgradeToAdvanced(user, 2);
  expect(promptInvitationsFor(account.id)).toHaveLength(1);
  const puts = stack().github.requests.filter(
    (request) => request === `PUT /repos/${EXTRA_FIXTURE_REPO}/collaborators/${account.login}`,
  );
  expect(puts).toHaveLength(1);
  expect(await extraRows(sessionId)).toMatchObject([
    {repository_key: 'prompts', status: 'pending', github_user_id: account.id},
  ]);
  expect((await accessStatus(user)).extraRepositories).toMatchObject([{key: 'prompts', status: 'pending'}]);
});

test('a refund of the upgrade takes back the prompts (the accepted account is removed), and the kit stays', async () => {
  const {user, sessionId, account} = await seatedBuyer(starter.priceId.test);
  const upgradeId = await upgradeToAdvanced(user);
  const [invitation] = promptInvitationsFor(account.id);
  stack().github.accept(invitation!);
  expect(prompts().collaborators.has(account.login.toLowerCase())).toBe(true);

  await refundPayment(upgradeId);
  expect(prompts().collaborators.has(account.login.toLowerCase())).toBe(false);
  expect(await extraRows(sessionId)).toMatchObject([
    {repository_key: 'prompts', status: 'revoked', detail: 'no longer in the plan'},
  ]);
  // The kit's invitation is untouched, and the dashboard offers nothing it no longer grants.
  expect(kitInvitationsFor(account.id)).toHaveLength(1);
  const status = await accessStatus(user);
  expect(status).toMatchObject({status: 'pending', username: account.login});
  expect(status.extraRepositories).toBeUndefined();
});

/**
 * A paid Advanced buyer asks for access; `meanwhile` runs while GitHub answers the prompts
 * invitation that follows the kit's, as a request landing alongside would.
 */
async function askWhilePromptsInvited(meanwhile: (sessionId: string) => Promise<void>) {
  const user = await stack().signUp();
  const sessionId = await stack().paidCheckout({email: user.email, user, priceId: advanced.priceId.test});
  expect((await stack().deliver(completedEvent(stack(), sessionId))).status).toBe(200);
  const account = githubAccount();
  stack().github.beforeNext(`PUT /repos/${EXTRA_FIXTURE_REPO}/collaborators/${account.login}`, () =>
    meanwhile(sessionId),
  );
  await requestAccess(stack(), user, account.login);
  return {sessionId, account};
}

test('an invitation GitHub creates for a prompts grant while the seller revokes the purchase is withdrawn, and the grant taken back', async () => {
  // The reconcile read the purchase as entitled and queued the prompts; the seller's revoke is
  // recorded while GitHub answers that invitation (its take-back found no live prompts grant yet).
  const {sessionId, account} = await askWhilePromptsInvited(async (sessionId) => {
    await stack().worker.db.run(
      'UPDATE purchases SET revoked_by_seller_at = ? WHERE session_id = ?',
      Date.now(),
      sessionId,
    );
  });
  expect(promptInvitationsFor(account.id)).toEqual([]);
  expect(await extraRows(sessionId)).toMatchObject([{status: 'revoked', detail: 'the seller revoked the purchase'}]);
  // The kit's invitation was recorded before the revocation landed: the seller's Revoke access takes
  // every grant back (removal.ts takeBackEvery); this revocation, written alone, leaves it.
  expect(kitInvitationsFor(account.id)).toHaveLength(1);
});

test('an invitation GitHub creates while the purchase is refunded is withdrawn, and a GitHub that fails that withdrawal is asked again by the cron, never left open', async () => {
  // The refund lands while GitHub answers the prompts invitation; the withdrawal that follows fails once.
  const {sessionId, account} = await askWhilePromptsInvited(async (sessionId) => {
    await stack().worker.db.run("UPDATE purchases SET status = 'revoked' WHERE session_id = ?", sessionId);
    stack().github.failNext(`DELETE /repos/${EXTRA_FIXTURE_REPO}/invitations/`, {
      status: 502,
      body: {message: 'Server Error'},
    });
  });
  const [stale] = promptInvitationsFor(account.id);
  expect(stale).toBeDefined(); // GitHub's withdrawal failed: still open, and the job waits
  // The grant the refund found queued is taken back at once, as the kit's is: it waits in no line.
  expect(await extraRows(sessionId)).toMatchObject([{status: 'revoked', detail: 'the purchase is not paid'}]);
  const jobs = () =>
    stack().worker.db.all<{status: string}>(
      "SELECT status FROM jobs WHERE kind = 'github-remove' AND session_id = ?",
      sessionId,
    );
  expect(await jobs()).toEqual([{status: 'pending'}]);

  await stack().worker.db.run(
    "UPDATE jobs SET run_after = 0 WHERE kind = 'github-remove' AND session_id = ?",
    sessionId,
  );
  await stack().worker.scheduled();
  expect(promptInvitationsFor(account.id)).toEqual([]);
  expect(stack().github.requests).toContain(`DELETE /repos/${EXTRA_FIXTURE_REPO}/invitations/${stale}`);
  // The stale invitation's removal is done, and nothing else was left to take back.
  expect(await jobs()).toEqual([{status: 'done'}]);
  expect(await extraRows(sessionId)).toMatchObject([{status: 'revoked'}]);
});

test('an upgrade refunded while its prompts removal waits for GitHub, then bought again: the retried removal leaves the account the new grant holds', async () => {
  const {user, sessionId, account} = await seatedBuyer(starter.priceId.test);
  stack().github.accept(kitInvitationsFor(account.id)[0]!);
  const upgradeId = await upgradeToAdvanced(user);
  stack().github.accept(promptInvitationsFor(account.id)[0]!);
  // GitHub does not answer the removal of the collaborator: the grant is revoked, its removal waits.
  stack().github.failNext(`DELETE /repos/${EXTRA_FIXTURE_REPO}/collaborators/`, {
    status: 502,
    body: {message: 'Server Error'},
  });
  await refundPayment(upgradeId);
  expect(prompts().collaborators.has(account.login.toLowerCase())).toBe(true);
  // Bought again: the account is there already, and the new grant holds it.
  await upgradeToAdvanced(user);
  expect(await extraRows(sessionId)).toMatchObject([{status: 'active'}]);

  await stack().worker.db.run(
    "UPDATE jobs SET run_after = 0 WHERE kind = 'github-remove' AND status = 'pending' AND session_id = ?",
    sessionId,
  );
  await stack().worker.scheduled();
  expect(prompts().collaborators.has(account.login.toLowerCase())).toBe(true);
  expect((await accessStatus(user)).extraRepositories).toEqual([
    expect.objectContaining({key: 'prompts', status: 'active'}),
  ]);
});

test("the seller's Revoke access while the prompts' removal waits for GitHub, then Grant access: the kit's invitation goes at once (only the kit's own removal holds it back)", async () => {
  const {sessionId, account} = await seatedBuyer(advanced.priceId.test);
  const sellerPost = (path: string, body: Record<string, unknown> = {}) =>
    stack().call(adminPath(path, {sessionId}), {method: 'POST', token: seller.admin.idToken, body});
  stack().github.failNext(`DELETE /repos/${EXTRA_FIXTURE_REPO}/invitations/`, {
    status: 502,
    body: {message: 'Server Error'},
  });
  expect((await sellerPost(ADMIN_PATHS.revoke)).status).toBe(200);
  expect(kitInvitationsFor(account.id)).toEqual([]);
  expect(promptInvitationsFor(account.id)).toHaveLength(1);

  expect((await sellerPost(ADMIN_PATHS.grant, {username: account.login})).status).toBe(200);
  expect(kitInvitationsFor(account.id)).toHaveLength(1);
  expect(await kitGrant(stack().worker.db, sessionId)).toMatchObject({status: 'pending'});
});

test('a refund of the purchase takes back both: the kit and the prompts invitations are withdrawn', async () => {
  const {sessionId, account} = await seatedBuyer(advanced.priceId.test);
  expect(promptInvitationsFor(account.id)).toHaveLength(1);
  expect((await stack().deliver(refundEvent(stack(), sessionId))).status).toBe(200);
  expect(kitInvitationsFor(account.id)).toEqual([]);
  expect(promptInvitationsFor(account.id)).toEqual([]);
  expect(await extraRows(sessionId)).toMatchObject([{status: 'revoked'}]);
});

describe("a dispute won gives every repository back, through the purchase's reconcile", () => {
  const dispute = (
    sessionId: string,
    type: 'charge.dispute.created' | 'charge.dispute.closed',
    status: 'needs_response' | 'won',
  ) => stack().deliver(disputeEvent(stack(), sessionId, type, status));

  test('the seat and the prompts taken back by the dispute are invited again, to the same account', async () => {
    const {user, sessionId, account} = await seatedBuyer(advanced.priceId.test);
    expect((await dispute(sessionId, 'charge.dispute.created', 'needs_response')).status).toBe(200);
    expect(kitInvitationsFor(account.id)).toEqual([]);
    expect(promptInvitationsFor(account.id)).toEqual([]);

    expect((await dispute(sessionId, 'charge.dispute.closed', 'won')).status).toBe(200);
    expect(kitInvitationsFor(account.id)).toHaveLength(1);
    expect(promptInvitationsFor(account.id)).toHaveLength(1);
    expect(await kitGrant(stack().worker.db, sessionId, 'status, detail')).toEqual({status: 'pending', detail: null});
    expect(await extraRows(sessionId)).toMatchObject([{status: 'pending', github_user_id: account.id}]);
    expect(await accessStatus(user)).toMatchObject({
      status: 'pending',
      username: account.login,
      extraRepositories: [{key: 'prompts', status: 'pending', username: account.login}],
    });
  });

  test('a seat whose removal failed for good was never taken off: it is pending again, and reads as GitHub says', async () => {
    const {user, sessionId, account} = await seatedBuyer(advanced.priceId.test);
    stack().github.accept(kitInvitationsFor(account.id)[0]!);
    stack().github.accept(promptInvitationsFor(account.id)[0]!);
    // GitHub refuses every removal until the outbox gives up: the account stays on both repositories.
    stack().github.failNext('DELETE /repos/', {status: 503, body: {message: 'Unavailable'}}, 100);
    expect((await dispute(sessionId, 'charge.dispute.created', 'needs_response')).status).toBe(200);
    for (let attempt = 0; attempt < 12; attempt++) {
      await stack().worker.db.run(
        "UPDATE jobs SET run_after = 0 WHERE kind = 'github-remove' AND status = 'pending' AND session_id = ?",
        sessionId,
      );
      await stack().worker.scheduled();
    }
    expect(await kitGrant(stack().worker.db, sessionId, 'status')).toEqual({status: 'removal_failed'});
    stack().github.clearFailures();

    expect((await dispute(sessionId, 'charge.dispute.closed', 'won')).status).toBe(200);
    // Nothing new is sent: the account never left.
    expect(kitInvitationsFor(account.id)).toEqual([]);
    expect(promptInvitationsFor(account.id)).toEqual([]);
    expect(await kitGrant(stack().worker.db, sessionId, 'status')).toEqual({status: 'pending'});
    await stack().worker.db.run('UPDATE grants SET checked_at = NULL WHERE session_id = ?', sessionId);
    expect(await accessStatus(user)).toMatchObject({
      status: 'active',
      extraRepositories: [{key: 'prompts', status: 'active', username: account.login}],
    });
  });
});

test("a refund's take-back of the prompts, retried after its invitation is gone, leaves the account another purchase has invited since", async () => {
  const first = await seatedBuyer(advanced.priceId.test);
  const [declined] = promptInvitationsFor(first.account.id);
  // GitHub fails the prompts' withdrawal for now: the grant is revoked, its removal waits for the cron.
  stack().github.failNext(`DELETE /repos/${EXTRA_FIXTURE_REPO}/invitations/`, {
    status: 503,
    body: {message: 'Unavailable'},
  });
  expect((await stack().deliver(refundEvent(stack(), first.sessionId))).status).toBe(200);
  expect(await extraRows(first.sessionId)).toMatchObject([{status: 'revoked', invitation_id: declined}]);
  // The invitee declines it; another buyer's seat names the same account, which accepts.
  stack().github.decline(declined!);
  const user = await stack().signUp();
  const secondSession = await stack().paidCheckout({email: user.email, user, priceId: advanced.priceId.test});
  expect((await stack().deliver(completedEvent(stack(), secondSession))).status).toBe(200);
  expect((await requestAccess(stack(), user, first.account.login)).status).toBe(200);
  const [invited] = promptInvitationsFor(first.account.id);
  stack().github.accept(invited!);

  stack().github.requests.length = 0;
  await stack().worker.db.run(
    "UPDATE jobs SET run_after = 0 WHERE kind = 'github-remove' AND session_id = ? AND status = 'pending'",
    first.sessionId,
  );
  await stack().worker.scheduled();
  // The declined invitation was not there to withdraw (404); the account is the second purchase's now.
  expect(stack().github.requests.filter((request) => request.startsWith('DELETE '))).toEqual([
    `DELETE /repos/${EXTRA_FIXTURE_REPO}/invitations/${declined}`,
  ]);
  expect(prompts().collaborators.has(first.account.login.toLowerCase())).toBe(true);
  expect(await extraRows(first.sessionId)).toMatchObject([{status: 'revoked'}]);
  expect(await extraRows(secondSession)).toMatchObject([{status: 'pending', github_user_id: first.account.id}]);
});

test("a seat moved to another account: the old account's prompts invitation is withdrawn, and the new account is invited", async () => {
  const {user, sessionId, account} = await seatedBuyer(advanced.priceId.test);
  const next = githubAccount();
  expect((await requestAccess(stack(), user, next.login)).status).toBe(200);
  expect(promptInvitationsFor(account.id)).toEqual([]);
  const [invitation] = promptInvitationsFor(next.id);
  expect(invitation).toBeDefined();
  expect(await extraRows(sessionId)).toMatchObject([
    {status: 'pending', github_user_id: next.id, invitation_id: invitation},
  ]);
});

test('a dashboard read under way while the seat moves writes nothing of the old account onto the grant the move made', async () => {
  const {user, sessionId, account} = await seatedBuyer(advanced.priceId.test);
  stack().github.rename(account.login, `${account.login}-renamed`);
  const next = githubAccount();
  await aMinuteLater(sessionId);
  // The read lists the prompts invitations only once the buyer has moved the seat to `next`.
  stack().github.beforeNext(`GET /repos/${EXTRA_FIXTURE_REPO}/invitations`, async () =>
    expect((await requestAccess(stack(), user, next.login)).status).toBe(200),
  );
  await accessStatus(user);
  const [invitation] = promptInvitationsFor(next.id);
  expect(invitation).toBeDefined();
  expect(
    await extraGrants<{
      github_user_id: number;
      github_username: string;
      invitation_id: number;
      invitation_expired: number;
    }>(stack().worker.db, sessionId, 'github_user_id, github_username, invitation_id, invitation_expired'),
  ).toEqual([{github_user_id: next.id, github_username: next.login, invitation_id: invitation, invitation_expired: 0}]);
  expect((await accessStatus(user)).extraRepositories).toEqual([
    {...promptsNamed(), status: 'pending', username: next.login, expired: false},
  ]);
});

test("a purchase the seller revoked holds no prompts, though its seat's row was left live (a restore that raced the revocation): the next reconcile takes them back", async () => {
  const {user, sessionId, account} = await seatedBuyer(advanced.priceId.test);
  const [prompt] = promptInvitationsFor(account.id);
  expect(prompt).toBeDefined();
  await stack().worker.db.run(
    'UPDATE purchases SET revoked_by_seller_at = ? WHERE session_id = ?',
    Date.now(),
    sessionId,
  );
  // The seat's invitation accepted: the dashboard's read finds it, and reconciles the extras.
  stack().github.accept(kitInvitationsFor(account.id)[0]!);
  await setKitGrant(stack().worker.db, sessionId, {checked_at: null});
  await accessStatus(user);
  expect(promptInvitationsFor(account.id)).toEqual([]);
  expect(await extraRows(sessionId)).toMatchObject([{status: 'revoked', invitation_id: prompt}]);
});

test("the seller's Revoke access takes back the prompts with the seat; Grant access to the same account gives both back", async () => {
  const {user, sessionId, account} = await seatedBuyer(advanced.priceId.test);
  const [first] = promptInvitationsFor(account.id);
  expect(first).toBeDefined();
  const sellerPost = (path: string, body: Record<string, unknown> = {}) =>
    stack().call(adminPath(path, {sessionId}), {method: 'POST', token: seller.admin.idToken, body});

  expect((await sellerPost(ADMIN_PATHS.revoke)).status).toBe(200);
  expect(promptInvitationsFor(account.id)).toEqual([]);
  expect(await extraRows(sessionId)).toMatchObject([{status: 'revoked', invitation_id: first}]);

  // Grant access invites the account while the revocation still stands, then lifts it: the
  // prompts come back with the seat, without another event.
  expect((await sellerPost(ADMIN_PATHS.grant, {username: account.login})).status).toBe(200);
  expect(kitInvitationsFor(account.id)).toHaveLength(1);
  const [again] = promptInvitationsFor(account.id);
  expect(again).toBeDefined();
  expect(again).not.toBe(first);
  expect((await accessStatus(user)).extraRepositories).toEqual([
    expect.objectContaining({...promptsNamed(), status: 'pending'}),
  ]);
});

test("a take-back records every repository's grant revoked before it asks GitHub for any: a request cut short leaves none live", async () => {
  const {sessionId, account} = await seatedBuyer(advanced.priceId.test);
  // While the worker waits on GitHub to withdraw the kit's invitation (the first removal), D1 is
  // read: a failure there would end the request, and the seller's second Revoke answers 409.
  let whileKitRemoved: unknown[] = [];
  stack().github.beforeNext(`DELETE /repos/${FIXTURE_REPO}/invitations/`, async () => {
    whileKitRemoved = await extraRows(sessionId);
  });
  const revoke = await stack().call(adminPath(ADMIN_PATHS.revoke, {sessionId}), {
    method: 'POST',
    token: seller.admin.idToken,
  });
  expect(revoke.status).toBe(200);
  expect(whileKitRemoved).toMatchObject([{status: 'revoked'}]);
  expect(promptInvitationsFor(account.id)).toEqual([]);
  expect(kitInvitationsFor(account.id)).toEqual([]);
});

test("the prompts repository's daily cap reached: its invitation stays queued (the kit's goes), and the cron sends it when the window frees", async () => {
  const cap = appConfig.repository.invitationsPerDay;
  const sentAt = Date.now() - 3600_000;
  for (let i = 0; i < cap; i++) {
    await stack().worker.db.run(
      'INSERT INTO invitations_sent (repository, session_id, sent_at) VALUES (?, ?, ?)',
      EXTRA_FIXTURE_REPO,
      `cs_test_earlier_${i}`,
      sentAt + i,
    );
  }
  try {
    const {user, sessionId, account} = await seatedBuyer(advanced.priceId.test);
    expect(kitInvitationsFor(account.id)).toHaveLength(1);
    expect(promptInvitationsFor(account.id)).toEqual([]);
    expect(await extraRows(sessionId)).toMatchObject([{status: 'queued', invitation_id: null}]);
    const {extraRepositories} = await accessStatus(user);
    expect(extraRepositories).toEqual([
      {
        ...promptsNamed(),
        status: 'queued',
        username: account.login,
        detail: expect.any(String),
        expired: false,
        // First in the prompts' line, expected once a slot of the day's invitations leaves the window.
        queue: {position: 1, expectedAt: expect.any(Number)},
      },
    ]);
    // No sooner than a day after the first of the window's invitations went.
    expect(extraRepositories![0]!.queue!.expectedAt).toBeGreaterThanOrEqual(sentAt + 24 * 3600_000);

    await stack().worker.scheduled(); // still full: nothing goes, and nothing fails
    expect(promptInvitationsFor(account.id)).toEqual([]);
    expect(await extraRows(sessionId)).toMatchObject([{status: 'queued'}]);

    await stack().worker.db.run(
      'UPDATE invitations_sent SET sent_at = sent_at - 86400000 WHERE repository = ?',
      EXTRA_FIXTURE_REPO,
    );
    await stack().worker.scheduled();
    expect(promptInvitationsFor(account.id)).toHaveLength(1);
    expect((await accessStatus(user)).extraRepositories).toMatchObject([{key: 'prompts', status: 'pending'}]);
  } finally {
    await stack().newDay();
  }
});

test('a prompts grant left queued with no place in the line (its run ran out of subrequests) is sent by the next cron run', async () => {
  await stack().newDay();
  const {user, sessionId, account} = await seatedBuyer(advanced.priceId.test);
  const [first] = promptInvitationsFor(account.id);
  // As a run that recorded the grant and stopped before it could send or place it leaves it.
  stack().github.decline(first!);
  await setExtraGrants(stack().worker.db, sessionId, {
    status: 'queued',
    invitation_id: null,
    invited_at: null,
    waiting_at: null,
  });

  await stack().worker.scheduled();
  const [invitation] = promptInvitationsFor(account.id);
  expect(invitation).toBeDefined();
  expect(await extraRows(sessionId)).toMatchObject([
    {status: 'pending', github_user_id: account.id, invitation_id: invitation},
  ]);
  expect((await accessStatus(user)).extraRepositories).toMatchObject([{key: 'prompts', status: 'pending'}]);
  await stack().newDay(); // the tests after this one count the window from empty
});

test('a prompts grant waiting in the line of a repository the seller no longer sets for the key is queued for the one set now, and sent by the next cron run', async () => {
  await stack().newDay();
  const {sessionId, account} = await seatedBuyer(advanced.priceId.test);
  const [first] = promptInvitationsFor(account.id);
  // As a grant left waiting in the line of the repository GITHUB_EXTRA_REPOS named before the seller changed it.
  stack().github.decline(first!);
  await setExtraGrants(stack().worker.db, sessionId, {
    status: 'queued',
    repository: `${OWNER}/prompts-before`,
    invitation_id: null,
    invited_at: null,
    waiting_at: Date.now() - 60_000,
  });

  await stack().worker.scheduled();
  const [invitation] = promptInvitationsFor(account.id);
  expect(invitation).toBeDefined();
  expect(await extraRows(sessionId)).toMatchObject([
    {status: 'pending', repository: EXTRA_FIXTURE_REPO, invitation_id: invitation},
  ]);
  expect(stack().github.requests.filter((request) => request.includes('prompts-before'))).toEqual([]);
  await stack().newDay();
});

test("refunded purchases' prompts refusals (no repository was set then) never fill the cron's batch: a grant behind them left with no place is sent", async () => {
  await stack().newDay();
  const refunded: string[] = [];
  for (let i = 0; i <= CRON_BATCHES.extraGrants; i++) {
    const {sessionId} = await seatedBuyer(advanced.priceId.test);
    expect((await stack().deliver(refundEvent(stack(), sessionId))).status).toBe(200);
    // As the refusal a purchase got while no repository was set for the key.
    await setExtraGrants(stack().worker.db, sessionId, {status: 'failed', repository: null, queued_at: 1});
    refunded.push(sessionId);
  }
  const {sessionId, account} = await seatedBuyer(advanced.priceId.test);
  stack().github.decline(promptInvitationsFor(account.id)[0]!);
  await setExtraGrants(stack().worker.db, sessionId, {status: 'queued', invitation_id: null, waiting_at: null});

  await stack().worker.scheduled();
  expect(await extraRows(sessionId)).toMatchObject([{status: 'pending', github_user_id: account.id}]);
  for (const session of refunded) expect(await extraRows(session)).toMatchObject([{status: 'failed'}]);
  await stack().newDay();
});

test('first in, first out: a buyer who asks while an older prompts grant waits, queued, waits behind it even when a slot has just freed', async () => {
  const cap = appConfig.repository.invitationsPerDay;
  const sentAt = Date.now() - 3600_000;
  for (let i = 0; i < cap; i++) {
    await stack().worker.db.run(
      'INSERT INTO invitations_sent (repository, session_id, sent_at) VALUES (?, ?, ?)',
      EXTRA_FIXTURE_REPO,
      `cs_test_fifo_${i}`,
      sentAt + i,
    );
  }
  let second: Awaited<ReturnType<typeof seatedBuyer>>;
  try {
    const first = await seatedBuyer(advanced.priceId.test);
    expect(await extraRows(first.sessionId)).toMatchObject([{status: 'queued'}]);
    // One slot frees (the oldest of the day leaves the window) before the cron's next run.
    await stack().worker.db.run('DELETE FROM invitations_sent WHERE session_id = ?', 'cs_test_fifo_0');
    second = await seatedBuyer(advanced.priceId.test);
    expect(await extraRows(second.sessionId)).toMatchObject([{status: 'queued'}]);
    expect(promptInvitationsFor(second.account.id)).toEqual([]);

    await stack().worker.scheduled(); // the one slot goes to the first in line
    expect(promptInvitationsFor(first.account.id)).toHaveLength(1);
    expect(promptInvitationsFor(second.account.id)).toEqual([]);
    expect(await extraRows(second.sessionId)).toMatchObject([{status: 'queued'}]);
  } finally {
    await stack().newDay();
  }
  await stack().worker.scheduled(); // a new day: the second goes too
  expect(promptInvitationsFor(second!.account.id)).toHaveLength(1);
});

test('grants that took their place in the same millisecond go in the order of the line: the cron sends the first, not three that wait behind it', async () => {
  const cap = appConfig.repository.invitationsPerDay;
  const sentAt = Date.now() - 3600_000;
  await stack().worker.db.batch(
    Array.from({length: cap}, (_, i) => ({
      sql: 'INSERT INTO invitations_sent (repository, session_id, sent_at) VALUES (?, ?, ?)',
      params: [EXTRA_FIXTURE_REPO, `cs_test_tie_${i}`, sentAt + i],
    })),
  );
  try {
    const buyers: Awaited<ReturnType<typeof seatedBuyer>>[] = [];
    for (let i = 0; i < 4; i++) buyers.push(await seatedBuyer(advanced.priceId.test));
    // A launch: all four queued in one millisecond. The line then goes by row, and the first in it
    // is the purchase whose session id sorts last (the cron takes three purchases a run).
    buyers.sort((a, b) => (a.sessionId < b.sessionId ? 1 : -1));
    const at = Date.now() - 60_000;
    await stack().worker.db.batch([
      {
        sql: `UPDATE grants SET queued_at = ?1, waiting_at = ?1 WHERE repository_key = 'prompts' AND session_id IN (?2, ?3, ?4, ?5)`,
        params: [at, ...buyers.map((buyer) => buyer.sessionId)],
      },
      {
        sql: `UPDATE grants SET id = (SELECT MIN(id) - 1 FROM grants) WHERE repository_key = 'prompts' AND session_id = ?1`,
        params: [buyers[0]!.sessionId],
      },
      {sql: 'DELETE FROM invitations_sent WHERE repository = ?', params: [EXTRA_FIXTURE_REPO]},
    ]);

    await stack().worker.scheduled();
    expect(promptInvitationsFor(buyers[0]!.account.id)).toHaveLength(1);
    expect(await extraRows(buyers[0]!.sessionId)).toMatchObject([{status: 'pending'}]);
    await stack().worker.scheduled(); // and the rest of the line in turn
    for (const buyer of buyers) expect(await extraRows(buyer.sessionId)).toMatchObject([{status: 'pending'}]);
  } finally {
    await stack().newDay();
  }
});

test('an account already on the prompts repository is not invited, and a refund leaves it there: the worker removes only what it created', async () => {
  const user = await stack().signUp();
  const sessionId = await stack().paidCheckout({email: user.email, user, priceId: advanced.priceId.test});
  await stack().deliver(completedEvent(stack(), sessionId));
  const account = githubAccount();
  prompts().collaborators.add(account.login.toLowerCase()); // added by the seller by hand
  expect((await requestAccess(stack(), user, account.login)).status).toBe(200);
  expect(stack().github.requests).not.toContain(`PUT /repos/${EXTRA_FIXTURE_REPO}/collaborators/${account.login}`);
  expect(await extraRows(sessionId)).toMatchObject([
    {status: 'active', invitation_id: null, detail: expect.stringContaining('already a collaborator')},
  ]);

  await stack().deliver(refundEvent(stack(), sessionId));
  expect(prompts().collaborators.has(account.login.toLowerCase())).toBe(true);
  expect(stack().github.requests).not.toContain(`DELETE /repos/${EXTRA_FIXTURE_REPO}/collaborators/${account.login}`);
  expect(await extraRows(sessionId)).toMatchObject([{status: 'revoked'}]);
});

describe('a prompts invitation GitHub created whose answer was lost', () => {
  const promptsPut = `PUT /repos/${EXTRA_FIXTURE_REPO}/collaborators/`;
  beforeEach(async () => {
    stack().github.clearFailures();
    await stack().newDay();
    stack().github.contentRequestTimes.length = 0;
  });

  test('a refund before the cron withdraws the invitation GitHub created: nothing is left open for the refunded account', async () => {
    stack().github.failNext(promptsPut, {status: 502, body: {message: 'Server Error'}, afterActing: true});
    const {sessionId, account} = await seatedBuyer(advanced.priceId.test);
    const [created] = promptInvitationsFor(account.id);
    expect(created).toBeDefined();
    expect(await extraRows(sessionId)).toMatchObject([{status: 'queued', invitation_id: null}]);

    await refundPayment(sessionId);

    expect(await extraRows(sessionId)).toMatchObject([{status: 'revoked', invitation_id: null}]);
    expect(promptInvitationsFor(account.id)).toEqual([]);
    expect(stack().github.requests).toContain(`DELETE /repos/${EXTRA_FIXTURE_REPO}/invitations/${created}`);
    await stack().worker.scheduled();
    expect(promptInvitationsFor(account.id)).toEqual([]);
  });

  test('is adopted by the cron: the grant is pending with the invitation GitHub holds, the only one, and the dashboard says pending', async () => {
    stack().github.failNext(promptsPut, {status: 502, body: {message: 'Server Error'}, afterActing: true});
    const {user, sessionId, account} = await seatedBuyer(advanced.priceId.test);
    const [created] = promptInvitationsFor(account.id);
    expect(created).toBeDefined();
    expect(await extraRows(sessionId)).toMatchObject([{status: 'queued', invitation_id: null}]);
    stack().github.ageInvitation(created!, 2 * 60_000); // the cron comes a little later

    await stack().worker.scheduled();

    const [{invited_at: invitedAt}] = await extraGrants<{invited_at: number}>(
      stack().worker.db,
      sessionId,
      'invited_at',
    );
    expect(invitedAt).toBe(Date.parse(prompts().invitations.get(created!)!.created_at as string));
    expect(await extraRows(sessionId)).toEqual([
      {
        repository_key: 'prompts',
        repository: EXTRA_FIXTURE_REPO,
        github_user_id: account.id,
        invitation_id: created,
        status: 'pending',
        detail: null,
      },
    ]);
    expect(promptInvitationsFor(account.id)).toEqual([created]);
    expect(stack().github.requests.filter((request) => request === `${promptsPut}${account.login}`)).toHaveLength(1);
    expect((await accessStatus(user)).extraRepositories).toEqual([
      {...promptsNamed(), status: 'pending', username: account.login, expired: false},
    ]);
  });

  test("an open invitation older than the worker's attempt (the seller's, by hand) is refused, and left alone", async () => {
    stack().github.failNext(promptsPut, {status: 502, body: {message: 'Server Error'}});
    const {user, sessionId, account} = await seatedBuyer(advanced.priceId.test);
    expect(await extraRows(sessionId)).toMatchObject([{status: 'queued'}]);
    // The seller invited the account by hand an hour before the worker's attempt.
    prompts().invitations.set(454545, {
      id: 454545,
      invitee: account,
      created_at: new Date(Date.now() - 3600_000).toISOString(),
    });

    await stack().worker.scheduled();

    expect(await extraRows(sessionId)).toMatchObject([
      {
        status: 'failed',
        invitation_id: null,
        detail: `@${account.login} already has an invitation this worker did not send; accept it on GitHub, or ask the seller.`,
      },
    ]);
    expect(promptInvitationsFor(account.id)).toEqual([454545]);
    expect((await accessStatus(user)).extraRepositories).toMatchObject([{key: 'prompts', status: 'failed'}]);
  });
});

describe('a plan that names a key the worker has no repository for', () => {
  let bare: Stack;
  beforeAll(async () => {
    bare = await startStack({GITHUB_EXEMPT: OWNER});
  });
  afterAll(() => bare.stop());

  test('grants nothing for it, asks nothing of GitHub about it, and the record and the dashboard say why', async () => {
    const {user, sessionId, account} = await seatedBuyer(advanced.priceId.test, bare);
    expect(invitationsFor(bare.github.invitations, account.id)).toHaveLength(1);
    expect(invitationsFor(prompts(bare).invitations, account.id)).toEqual([]);
    expect(
      bare.github.requests.filter((request) => !request.includes(FIXTURE_REPO) && request.includes('/repos/')),
    ).toEqual([]);
    expect(await extraRows(sessionId, bare)).toEqual([
      {
        repository_key: 'prompts',
        repository: null,
        github_user_id: account.id,
        invitation_id: null,
        status: 'failed',
        detail: expect.stringContaining('GITHUB_EXTRA_REPOS'),
      },
    ]);
    expect((await accessStatus(user, bare)).extraRepositories).toEqual([
      {key: 'prompts', status: 'not_configured', detail: expect.stringContaining('No repository is set for "prompts"')},
    ]);
  });

  test('refuses a download of it with a 503 that says the seller has not set it up: no guess at a repository', async () => {
    const user = await bare.signUp();
    const sessionId = await bare.paidCheckout({email: user.email, user, priceId: advanced.priceId.test});
    expect((await bare.deliver(completedEvent(bare, sessionId))).status).toBe(200);
    const response = await bare.call(API_PATHS.downloadLink, {token: user.idToken, body: {repository: 'prompts'}});
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      code: 'NOT_CONFIGURED',
      error: expect.stringContaining('the seller has not set it up'),
    });
  });
});

describe("downloads of an extra repository's code", () => {
  const askForLink = (user: SignedInUser, body: object) =>
    stack().call(API_PATHS.downloadLink, {token: user.idToken, body});
  async function linkFor(user: SignedInUser, body: object): Promise<DownloadLink> {
    const response = await askForLink(user, body);
    expect(response.status).toBe(200);
    return (await response.json()) as DownloadLink;
  }
  /** What a .zip holds: its README, which names the repository and the ref. */
  async function readmeOf(response: Response): Promise<string> {
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    const [readme] = Object.entries(files).filter(([name]) => name.endsWith('/README.md'));
    return strFromU8(readme![1]);
  }
  // The newest link: the one the test just made.
  const linkOutcome = async () =>
    (
      await stack().worker.db.all<{outcome: string | null; detail: string | null; repository_key: string | null}>(
        'SELECT outcome, detail, repository_key FROM download_links ORDER BY created_at DESC LIMIT 1',
      )
    )[0];
  beforeEach(() => {
    prompts().archives.releases.length = 0;
    prompts().archives.served.length = 0;
    stack().github.archives.served.length = 0;
  });

  test("an Advanced buyer downloads the prompts at once, from the prompts repository (its own latest release), not the kit's", async () => {
    const {user} = await seatedBuyer(advanced.priceId.test);
    const branch = await linkFor(user, {repository: 'prompts'});
    expect(branch).toMatchObject({release: false});
    const response = await stack().call(branch.path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="${EXTRA_FIXTURE_REPO.replace('/', '-')}-${branch.ref}.zip"`,
    );
    expect(await readmeOf(response)).toBe(archiveFiles(EXTRA_FIXTURE_REPO, branch.ref)['README.md']);
    expect(prompts().archives.served).toEqual([branch.ref]);
    expect(stack().github.archives.served).toEqual([]);

    prompts().archives.releases.push({tag: 'prompts-v2'});
    const release = await linkFor(user, {repository: 'prompts'});
    expect(release).toMatchObject({ref: 'prompts-v2', release: true});
    expect(await readmeOf(await stack().call(release.path))).toBe(
      archiveFiles(EXTRA_FIXTURE_REPO, 'prompts-v2')['README.md'],
    );
    // The kit's download is as it was: its own repository.
    const kit = await linkFor(user, {});
    expect(await readmeOf(await stack().call(kit.path))).toBe(archiveFiles(FIXTURE_REPO, kit.ref)['README.md']);
  });

  test('a Starter buyer may not download the prompts (403), nor anyone a key no plan has; a key that is no string is a 400', async () => {
    const {user} = await seatedBuyer(starter.priceId.test);
    for (const repository of ['prompts', 'everything']) {
      const refused = await askForLink(user, {repository});
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({
        code: 'NOT_IN_PLAN',
        error: 'Your plan does not include this repository.',
      });
    }
    const bad = await askForLink(user, {repository: 5});
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({error: expect.stringContaining('repository')});
    expect(prompts().archives.served).toEqual([]);
  });

  test('a link made after an upgrade is refused when followed once the upgrade was refunded; the kit still downloads', async () => {
    const {user} = await seatedBuyer(starter.priceId.test);
    const upgradeId = await upgradeToAdvanced(user);
    const link = await linkFor(user, {repository: 'prompts'});
    await refundPayment(upgradeId);

    const refused = await stack().call(link.path);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({code: 'NOT_IN_PLAN'});
    expect(await linkOutcome()).toEqual({
      outcome: 'refused',
      detail: 'the plan does not grant prompts now',
      repository_key: 'prompts',
    });
    expect(prompts().archives.served).toEqual([]);
    expect((await askForLink(user, {repository: 'prompts'})).status).toBe(403);
    const kit = await linkFor(user, {});
    expect((await stack().call(kit.path)).status).toBe(200);
  });
});

test.each([
  ['prompts=slipway-prompts', 'GITHUB_EXTRA_REPOS must be key=owner/name pairs'],
  ['prompts=a/b, kit=a/c', 'GITHUB_EXTRA_REPOS may not use the key kit'],
  [`prompts=${FIXTURE_REPO.toUpperCase()}`, 'each repository may be granted once'],
  ['prompts=a/b, more=A/B', 'GITHUB_EXTRA_REPOS names a/b twice'],
])(
  'a GITHUB_EXTRA_REPOS of %s stops the worker with a 503 that names it, rather than guess a repository',
  async (value, error) => {
    const wrong = await startStack({GITHUB_EXTRA_REPOS: value});
    try {
      const response = await wrong.call('/');
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({code: 'MISCONFIGURED', error: expect.stringContaining(error)});
    } finally {
      await wrong.stop();
    }
  },
);

test("the kit's line goes on past a head whose kit invitation went though GitHub could not take its prompts one: that repository waits, not the line", async () => {
  const {db} = stack().worker;
  const cap = appConfig.repository.invitationsPerDay;
  await db.batch(
    Array.from({length: cap}, (_, i) => ({
      sql: 'INSERT INTO invitations_sent (repository, session_id, sent_at) VALUES (?, ?, ?)',
      params: [FIXTURE_REPO, `cs_test_pastprompts_${i}`, Date.now() - 3600_000 + i],
    })),
  );
  const buyers = [];
  for (let i = 0; i < 2; i++) {
    const user = await stack().signUp();
    const sessionId = await stack().paidCheckout({email: user.email, user, priceId: advanced.priceId.test});
    expect((await stack().deliver(completedEvent(stack(), sessionId))).status).toBe(200);
    const account = githubAccount();
    expect((await requestAccess(stack(), user, account.login)).status).toBe(202);
    buyers.push({sessionId, account});
  }
  // The kit's window frees; GitHub cannot take any invitation to the prompts repository.
  await db.run("DELETE FROM invitations_sent WHERE session_id LIKE 'cs_test_pastprompts_%'");
  stack().github.failNext(
    `PUT /repos/${EXTRA_FIXTURE_REPO}/collaborators/`,
    {status: 502, body: {message: 'Bad Gateway'}},
    100,
  );
  await stack().worker.scheduled();
  // Both seats went, the second though the first's reconcile met GitHub's failure on the prompts.
  for (const {sessionId, account} of buyers) {
    expect(await kitGrant<{status: string}>(db, sessionId, 'status')).toEqual({status: 'pending'});
    expect(kitInvitationsFor(account.id)).toHaveLength(1);
    expect(promptInvitationsFor(account.id)).toEqual([]);
  }
  // GitHub answers again: the prompts invitations go on a later run.
  stack().github.clearFailures();
  await stack().worker.scheduled();
  await stack().worker.scheduled();
  for (const {sessionId, account} of buyers) {
    expect(promptInvitationsFor(account.id)).toHaveLength(1);
    expect(await extraRows(sessionId)).toMatchObject([{status: 'pending', github_user_id: account.id}]);
  }
});

test('a reconcile queued before the job took its name (kind `extra-grants`) still runs after an upgrade of the worker', async () => {
  const {db} = stack().worker;
  const {sessionId, account} = await seatedBuyer(advanced.priceId.test);
  // The prompts grant is missing, as if the reconcile that invites it had not run yet.
  const [row] = await extraRows(sessionId);
  prompts().invitations.delete(row!.invitation_id!);
  await db.run("DELETE FROM grants WHERE session_id = ? AND repository_key = 'prompts'", sessionId);
  await db.run(
    "INSERT INTO jobs (key, kind, payload, run_after, created_at, updated_at, session_id) VALUES (?, 'extra-grants', ?, 0, 0, 0, ?)",
    `extra:${sessionId}:before-the-rename`,
    JSON.stringify({sessionId}),
    sessionId,
  );
  await stack().worker.scheduled();
  expect(await db.all('SELECT status FROM jobs WHERE key = ?', `extra:${sessionId}:before-the-rename`)).toEqual([
    {status: 'done'},
  ]);
  expect(await extraRows(sessionId)).toMatchObject([{status: 'pending', github_user_id: account.id}]);
  expect(promptInvitationsFor(account.id)).toHaveLength(1);
});

describe("an extra repository's invitation that expires is sent again", () => {
  const DAY_MS = 24 * 3600_000;
  const {invitationsPerDay: CAP, resendsAfterExpiry: MAX} = appConfig.repository;
  const promptsName = appConfig.extraRepositories.prompts!.name;
  beforeEach(async () => {
    stack().github.clearFailures();
    await stack().newDay();
    // And GitHub's secondary limit (content requests a minute): these tests make many in a row.
    stack().github.contentRequestTimes.length = 0;
  });

  /** The purchase's prompts invitation was sent `ageMs` ago, as D1 and GitHub both say. */
  async function promptsAged(sessionId: string, ageMs: number) {
    const [row] = await extraRows(sessionId);
    await setExtraGrants(stack().worker.db, sessionId, {invited_at: Date.now() - ageMs, checked_at: null});
    stack().github.ageInvitation(row!.invitation_id!, ageMs);
  }
  const resendsOf = async (sessionId: string) =>
    (await extraGrants<{expiry_resends: number}>(stack().worker.db, sessionId, 'expiry_resends'))[0]!.expiry_resends;
  const resentMails = (user: SignedInUser) =>
    stack().mailgun.sent.filter(
      (mail) =>
        mail.fields.to === user.email &&
        (mail.fields.subject ?? '').includes(`invitation to ${promptsName} was sent again`),
    );
  const promptsRequests = (method: string) =>
    stack().github.requests.filter((request) => request.startsWith(`${method} /repos/${EXTRA_FIXTURE_REPO}/`));

  test("a seat whose kit invitation waits in the kit's line again (the buyer's Resend, the kit's day spent) keeps its prompts: the expiring prompts invitation is sent again, never taken back", async () => {
    const {user, sessionId, account} = await seatedBuyer(advanced.priceId.test);
    const [before] = await extraRows(sessionId);
    // The kit's invitation expired after its last re-send, and the buyer asks for a new one while
    // the kit's window is full: the seat, the same account, waits in the kit's line.
    const [kitInvitation] = kitInvitationsFor(account.id);
    await setKitGrant(stack().worker.db, sessionId, {
      expiry_resends: appConfig.repository.resendsAfterExpiry,
      checked_at: null,
    });
    stack().github.ageInvitation(kitInvitation!, 7.5 * DAY_MS);
    const sentAt = Date.now() - 3600_000;
    await stack().worker.db.batch(
      Array.from({length: appConfig.repository.invitationsPerDay}, (_, i) => ({
        sql: 'INSERT INTO invitations_sent (repository, session_id, sent_at) VALUES (?, ?, ?)',
        params: [FIXTURE_REPO, `cs_test_kitday_${i}`, sentAt + i],
      })),
    );
    const resent = await stack().call(API_PATHS.resendInvitation, {token: user.idToken, body: {}});
    expect(resent.status).toBe(202);
    expect(await kitGrant<{status: string}>(stack().worker.db, sessionId, 'status')).toMatchObject({status: 'queued'});

    await promptsAged(sessionId, 6.9 * DAY_MS);
    await stack().worker.scheduled();
    await stack().worker.scheduled(); // and the jobs the first run queued

    const [after] = await extraRows(sessionId);
    expect(after).toMatchObject({status: 'pending', github_user_id: account.id});
    expect(after!.invitation_id).not.toBe(before!.invitation_id);
    expect(promptInvitationsFor(account.id)).toEqual([after!.invitation_id]);
    expect(await kitGrant<{status: string}>(stack().worker.db, sessionId, 'status')).toMatchObject({status: 'queued'});
    expect((await accessStatus(user)).extraRepositories).toMatchObject([{key: 'prompts', status: 'pending'}]);

    // The kit's window frees: the seat's invitation goes in its turn, and the prompts one stays the one sent.
    await stack().worker.db.run("DELETE FROM invitations_sent WHERE session_id LIKE 'cs_test_kitday_%'");
    await stack().worker.scheduled();
    expect(await kitGrant<{status: string}>(stack().worker.db, sessionId, 'status')).toMatchObject({status: 'pending'});
    expect(promptInvitationsFor(account.id)).toEqual([after!.invitation_id]);
  });

  test("a seat that waits in the kit's line and is moved to another account takes the prompts from the old one at once, not when the new one is invited", async () => {
    const db = stack().worker.db;
    const {sessionId, user, account} = await seatedBuyer(advanced.priceId.test);
    const [before] = await extraRows(sessionId);
    // The kit's invitation expired after its last re-send, and the buyer's Resend waits in the kit's
    // line (its window is full): the seat is queued again, for the same account, which keeps the prompts.
    await setKitGrant(db, sessionId, {expiry_resends: MAX, checked_at: null});
    stack().github.ageInvitation(kitInvitationsFor(account.id)[0]!, 7.5 * DAY_MS);
    const sentAt = Date.now() - 3600_000;
    await db.batch(
      Array.from({length: CAP}, (_, i) => ({
        sql: 'INSERT INTO invitations_sent (repository, session_id, sent_at) VALUES (?, ?, ?)',
        params: [FIXTURE_REPO, `cs_test_moveday_${i}`, sentAt + i],
      })),
    );
    expect((await stack().call(API_PATHS.resendInvitation, {token: user.idToken, body: {}})).status).toBe(202);
    expect(await extraRows(sessionId)).toMatchObject([{status: 'pending', github_user_id: account.id}]);

    // The buyer names another account while the seat waits: the old one holds nothing of the plan now.
    const other = githubAccount();
    expect((await requestAccess(stack(), user, other.login)).status).toBe(202);
    expect(await kitGrant(db, sessionId, 'status, github_user_id')).toEqual({
      status: 'queued',
      github_user_id: other.id,
    });
    expect(stack().github.requests).toContain(
      `DELETE /repos/${EXTRA_FIXTURE_REPO}/invitations/${before!.invitation_id}`,
    );
    expect(promptInvitationsFor(account.id)).toEqual([]);
    expect(await extraRows(sessionId)).toMatchObject([
      {status: 'revoked', github_user_id: account.id, detail: 'the seat moved to another GitHub account'},
    ]);
    // The window frees: the new account is invited in its turn (and leaves the kit's line to the tests after this).
    await db.run("DELETE FROM invitations_sent WHERE session_id LIKE 'cs_test_moveday_%'");
    await stack().worker.scheduled();
    expect(await kitGrant(db, sessionId, 'status, github_user_id')).toEqual({
      status: 'pending',
      github_user_id: other.id,
    });
  });

  test("the buyer's Resend of the kit's expired invitation keeps the prompts with the seat while GitHub answers: a reconcile that runs meanwhile takes nothing back", async () => {
    const db = stack().worker.db;
    const {user, sessionId, account} = await seatedBuyer(advanced.priceId.test);
    const [promptsRow] = await extraRows(sessionId);
    // The buyer is in the prompts repository; the kit's invitation expired after its last re-send.
    stack().github.accept(promptsRow!.invitation_id!);
    await aMinuteLater(sessionId);
    expect((await accessStatus(user)).extraRepositories).toMatchObject([{key: 'prompts', status: 'active'}]);
    const [kitInvitation] = kitInvitationsFor(account.id);
    await setKitGrant(db, sessionId, {expiry_resends: MAX, checked_at: null});
    stack().github.ageInvitation(kitInvitation!, 7.5 * DAY_MS);

    // While GitHub answers the re-send's check of the account (the second: the first is the
    // route's, whether the invitation was accepted), a reconcile of the purchase queued earlier
    // comes due and the cron runs it.
    const check = `GET /repos/${FIXTURE_REPO}/collaborators/${account.login}`;
    let seatMeanwhile: unknown;
    stack().github.beforeNext(check, async () =>
      stack().github.beforeNext(check, async () => {
        seatMeanwhile = await kitGrant<{status: string}>(db, sessionId, 'status');
        await db.run(
          "INSERT INTO jobs (key, kind, payload, run_after, created_at, updated_at, session_id) VALUES (?, 'reconcile', ?, 0, 0, 0, ?)",
          `reconcile:${sessionId}:earlier`,
          JSON.stringify({sessionId}),
          sessionId,
        );
        await stack().worker.scheduled();
      }),
    );
    stack().github.requests.length = 0;
    const resent = await stack().call(API_PATHS.resendInvitation, {token: user.idToken, body: {}});
    expect(resent.status).toBe(200);

    expect(await db.all('SELECT status FROM jobs WHERE key = ?', `reconcile:${sessionId}:earlier`)).toEqual([
      {status: 'done'},
    ]);
    expect(promptsRequests('DELETE')).toEqual([]);
    expect(prompts().collaborators.has(account.login)).toBe(true);
    expect(await extraRows(sessionId)).toMatchObject([{status: 'active', invitation_id: promptsRow!.invitation_id}]);
    // The seat never read as empty.
    expect(seatMeanwhile).toEqual({status: 'pending'});
    const [renewed] = kitInvitationsFor(account.id);
    expect(renewed).not.toBe(kitInvitation);
    expect(await kitGrant(db, sessionId, 'status, invitation_id')).toEqual({status: 'pending', invitation_id: renewed});
  });

  test('a prompts invitation 6.9 days old is sent again by the cron: the old one withdrawn, a new one to the same account, the buyer e-mailed, the kit left as it is', async () => {
    const {user, sessionId, account} = await seatedBuyer(advanced.priceId.test);
    const fresh = await seatedBuyer(advanced.priceId.test);
    const [before] = await extraRows(sessionId);
    const kitBefore = kitInvitationsFor(account.id);
    await promptsAged(sessionId, 6.9 * DAY_MS);
    await promptsAged(fresh.sessionId, 5 * DAY_MS); // two days left: not yet

    await stack().worker.scheduled();

    const [after] = await extraRows(sessionId);
    expect(after).toMatchObject({status: 'pending', github_user_id: account.id, repository: EXTRA_FIXTURE_REPO});
    expect(after!.invitation_id).not.toBe(before!.invitation_id);
    expect(promptInvitationsFor(account.id)).toEqual([after!.invitation_id]);
    expect(stack().github.requests).toContain(
      `DELETE /repos/${EXTRA_FIXTURE_REPO}/invitations/${before!.invitation_id}`,
    );
    expect(await resendsOf(sessionId)).toBe(1);
    expect(kitInvitationsFor(account.id)).toEqual(kitBefore);

    const mails = resentMails(user);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.fields.subject).toContain(appConfig.appName);
    expect(mails[0]!.fields.text).toContain(`@${account.login}`);
    expect(mails[0]!.fields.text).toContain(`https://github.com/${EXTRA_FIXTURE_REPO}/invitations`);
    expect(mails[0]!.fields.text).toContain(`1 of ${MAX}`);

    expect(await resendsOf(fresh.sessionId)).toBe(0);
    expect(resentMails(fresh.user)).toEqual([]);
    // Sent again, it is fresh: the next run leaves it.
    await stack().worker.scheduled();
    expect(await resendsOf(sessionId)).toBe(1);
  });

  test(`one batch for every repository: a run sends again the oldest due invitations, the kit's or the prompts', ${CRON_BATCHES.expiryResends} at most, and the next run the rest`, async () => {
    const db = stack().worker.db;
    const first = await seatedBuyer(advanced.priceId.test);
    const second = await seatedBuyer(advanced.priceId.test);
    const kitAged = async (sessionId: string, ageMs: number) => {
      const grant = await kitGrant<{invitation_id: number}>(db, sessionId, 'invitation_id');
      await setKitGrant(db, sessionId, {invited_at: Date.now() - ageMs, checked_at: null});
      stack().github.ageInvitation(grant!.invitation_id, ageMs);
    };
    const kitResends = async (sessionId: string) =>
      (await kitGrant<{expiry_resends: number}>(db, sessionId, 'expiry_resends'))!.expiry_resends;
    // Older than any other test's, so the head of the line, oldest first.
    await kitAged(first.sessionId, 7.9 * DAY_MS);
    await promptsAged(first.sessionId, 7.8 * DAY_MS);
    await promptsAged(second.sessionId, 7.7 * DAY_MS);
    await kitAged(second.sessionId, 7.6 * DAY_MS);
    const counts = async () => [
      await kitResends(first.sessionId),
      await resendsOf(first.sessionId),
      await resendsOf(second.sessionId),
      await kitResends(second.sessionId),
    ];

    await stack().worker.scheduled();
    expect(await counts()).toEqual([0, 1, 2, 3].map((place) => (place < CRON_BATCHES.expiryResends ? 1 : 0)));
    await stack().worker.scheduled();
    expect(await counts()).toEqual([1, 1, 1, 1]);
  });

  test(`at most ${MAX} times a grant, then it is left to expire; a seat moved to another account starts the count again`, async () => {
    const {user, sessionId, account} = await seatedBuyer(advanced.priceId.test);
    for (let round = 1; round <= MAX + 1; round++) {
      await promptsAged(sessionId, 7.5 * DAY_MS); // expired, not accepted
      await stack().worker.scheduled();
      expect(await resendsOf(sessionId)).toBe(Math.min(round, MAX));
    }
    expect(resentMails(user)).toHaveLength(MAX);
    expect(resentMails(user).at(-1)!.fields.text).toContain(`${MAX} of ${MAX}`);
    expect(resentMails(user).at(-1)!.fields.text).toContain('after it expires, ask again from your dashboard');
    expect(promptInvitationsFor(account.id)).toHaveLength(1);

    const next = githubAccount();
    expect((await requestAccess(stack(), user, next.login)).status).toBe(200);
    expect(await extraRows(sessionId)).toMatchObject([{status: 'pending', github_user_id: next.id}]);
    expect(await resendsOf(sessionId)).toBe(0);
  });

  test('a prompts invitation accepted meanwhile is not sent again: the grant becomes active', async () => {
    const {user, sessionId, account} = await seatedBuyer(advanced.priceId.test);
    const [before] = await extraRows(sessionId);
    await promptsAged(sessionId, 6.9 * DAY_MS);
    stack().github.accept(before!.invitation_id!);
    stack().github.requests.length = 0;

    await stack().worker.scheduled();
    expect(await extraRows(sessionId)).toMatchObject([{status: 'active', invitation_id: before!.invitation_id}]);
    expect(await resendsOf(sessionId)).toBe(0);
    expect(promptsRequests('PUT')).toEqual([]);
    expect(resentMails(user)).toEqual([]);
    expect(prompts().collaborators.has(account.login.toLowerCase())).toBe(true);
  });

  test('an invitation declined, or withdrawn by hand, is not sent again: the cron does not undo that choice', async () => {
    const {user, sessionId} = await seatedBuyer(advanced.priceId.test);
    const [before] = await extraRows(sessionId);
    await promptsAged(sessionId, 6.9 * DAY_MS);
    prompts().invitations.delete(before!.invitation_id!); // gone from GitHub's list, the account not a collaborator
    stack().github.requests.length = 0;

    await stack().worker.scheduled();
    expect(promptsRequests('PUT')).toEqual([]);
    expect(resentMails(user)).toEqual([]);
    expect(await resendsOf(sessionId)).toBe(MAX); // not asked about again
    expect(await extraRows(sessionId)).toMatchObject([{status: 'pending', invitation_id: before!.invitation_id}]);
  });

  test("sent again only to the grant's own numeric account: after a rename, never to whoever took the old login", async () => {
    const {user, sessionId, account} = await seatedBuyer(advanced.priceId.test);
    await promptsAged(sessionId, 6.9 * DAY_MS);
    const {login: oldLogin, id} = account; // the stand-in renames the account object itself
    const renamed = `${oldLogin}-renamed`;
    stack().github.rename(oldLogin, renamed);
    const squatter = stack().github.addUser(oldLogin); // takes the free login

    await stack().worker.scheduled();
    const [after] = await extraRows(sessionId);
    expect(after).toMatchObject({status: 'pending', github_user_id: id});
    expect(await resendsOf(sessionId)).toBe(1);
    expect(prompts().invitations.get(after!.invitation_id!)!.invitee.id).toBe(id);
    expect(promptInvitationsFor(squatter.id)).toEqual([]);
    expect(resentMails(user)[0]!.fields.text).toContain(`@${renamed}`);
  });

  test('an account the seller added by hand while the invitation waited: the invitation is withdrawn, not sent again, and a refund leaves the account', async () => {
    const {user, sessionId, account} = await seatedBuyer(advanced.priceId.test);
    const [before] = await extraRows(sessionId);
    await promptsAged(sessionId, 6.9 * DAY_MS);
    prompts().collaborators.add(account.login.toLowerCase());
    stack().github.requests.length = 0;

    await stack().worker.scheduled();
    expect(promptsRequests('PUT')).toEqual([]);
    expect(promptInvitationsFor(account.id)).toEqual([]);
    expect(stack().github.requests).toContain(
      `DELETE /repos/${EXTRA_FIXTURE_REPO}/invitations/${before!.invitation_id}`,
    );
    expect(await extraRows(sessionId)).toMatchObject([
      {status: 'active', invitation_id: null, detail: expect.stringContaining('already a collaborator')},
    ]);
    expect(resentMails(user)).toEqual([]);

    await stack().deliver(refundEvent(stack(), sessionId));
    expect(prompts().collaborators.has(account.login.toLowerCase())).toBe(true);
    expect(await extraRows(sessionId)).toMatchObject([{status: 'revoked'}]);
  });

  test("the prompts repository's window full: the expiring invitation is left as it is (not withdrawn), and goes once a slot frees", async () => {
    const {user, sessionId} = await seatedBuyer(advanced.priceId.test);
    const [before] = await extraRows(sessionId);
    await promptsAged(sessionId, 6.9 * DAY_MS);
    const at = Date.now() - 3600_000;
    for (let i = 0; i < CAP; i++) {
      await stack().worker.db.run(
        'INSERT INTO invitations_sent (repository, session_id, sent_at) VALUES (?, ?, ?)',
        EXTRA_FIXTURE_REPO,
        `cs_test_other_${i}`,
        at,
      );
    }
    stack().github.requests.length = 0;

    await stack().worker.scheduled();
    expect(promptsRequests('PUT')).toEqual([]);
    expect(promptsRequests('DELETE')).toEqual([]);
    expect(await extraRows(sessionId)).toMatchObject([{status: 'pending', invitation_id: before!.invitation_id}]);
    expect(await resendsOf(sessionId)).toBe(0);
    expect(resentMails(user)).toEqual([]);

    await stack().newDay();
    await stack().worker.scheduled();
    expect(await resendsOf(sessionId)).toBe(1);
    expect(promptsRequests('PUT')).toHaveLength(1);
  });

  test('a re-send never jumps the queue: while a grant of the repository waits, queued, the expiring invitation is left as it is', async () => {
    const expiring = await seatedBuyer(advanced.priceId.test);
    const [before] = await extraRows(expiring.sessionId);
    await promptsAged(expiring.sessionId, 6.9 * DAY_MS);
    const at = Date.now() - 3600_000;
    for (let i = 0; i < CAP; i++) {
      await stack().worker.db.run(
        'INSERT INTO invitations_sent (repository, session_id, sent_at) VALUES (?, ?, ?)',
        EXTRA_FIXTURE_REPO,
        `cs_test_earlier_${i}`,
        at,
      );
    }
    const waiting = await seatedBuyer(advanced.priceId.test);
    expect(await extraRows(waiting.sessionId)).toMatchObject([{status: 'queued'}]);
    // The window frees, but GitHub does not answer the queued grant's invitation this run: it still waits.
    await stack().worker.db.run(
      'UPDATE invitations_sent SET sent_at = sent_at - 86400000 WHERE repository = ?',
      EXTRA_FIXTURE_REPO,
    );
    stack().github.failNext(`PUT /repos/${EXTRA_FIXTURE_REPO}/collaborators/${waiting.account.login}`, {
      status: 502,
      body: {message: 'Server Error'},
    });
    stack().github.requests.length = 0;

    await stack().worker.scheduled();
    expect(await extraRows(waiting.sessionId)).toMatchObject([{status: 'queued'}]);
    expect(stack().github.requests).not.toContain(
      `DELETE /repos/${EXTRA_FIXTURE_REPO}/invitations/${before!.invitation_id}`,
    );
    expect(await extraRows(expiring.sessionId)).toMatchObject([
      {status: 'pending', invitation_id: before!.invitation_id},
    ]);
    expect(await resendsOf(expiring.sessionId)).toBe(0);

    await stack().worker.scheduled(); // the queued grant goes first, then the re-send
    expect(await extraRows(waiting.sessionId)).toMatchObject([{status: 'pending'}]);
    expect(await resendsOf(expiring.sessionId)).toBe(1);
    expect(resentMails(expiring.user)).toHaveLength(1);
  });

  test("a refunded purchase's prompts invitation is not sent again while its take-back waits for GitHub (the grant revoked at once, its removal retried); a paid one of the same age is", async () => {
    const refunded = await seatedBuyer(advanced.priceId.test);
    const paid = await seatedBuyer(advanced.priceId.test);
    const [before] = await extraRows(refunded.sessionId);
    // GitHub does not answer the take-back's withdrawal: the grant is revoked, its removal waits to retry.
    stack().github.failNext(`DELETE /repos/${EXTRA_FIXTURE_REPO}/invitations/`, {
      status: 502,
      body: {message: 'Server Error'},
    });
    expect((await stack().deliver(refundEvent(stack(), refunded.sessionId))).status).toBe(200);
    expect(await extraRows(refunded.sessionId)).toMatchObject([
      {status: 'revoked', invitation_id: before!.invitation_id},
    ]);
    await promptsAged(refunded.sessionId, 6.95 * DAY_MS); // the oldest: first in line
    await promptsAged(paid.sessionId, 6.9 * DAY_MS);
    stack().github.requests.length = 0;

    await stack().worker.scheduled();
    expect(await resendsOf(refunded.sessionId)).toBe(0);
    expect(promptInvitationsFor(refunded.account.id)).toEqual([before!.invitation_id]);
    expect(stack().github.requests).not.toContain(
      `PUT /repos/${EXTRA_FIXTURE_REPO}/collaborators/${refunded.account.login}`,
    );
    expect(resentMails(refunded.user)).toEqual([]);
    expect(await resendsOf(paid.sessionId)).toBe(1);
    expect(resentMails(paid.user)).toHaveLength(1);
    // The removal's retry withdraws it.
    await stack().worker.db.run(
      "UPDATE jobs SET run_after = 0 WHERE kind = 'github-remove' AND status = 'pending' AND session_id = ?",
      refunded.sessionId,
    );
    await stack().worker.scheduled();
    expect(promptInvitationsFor(refunded.account.id)).toEqual([]);
  });

  test('a re-send that meets a take-back (the upgrade refunded while GitHub makes the new invitation) leaves nothing open on GitHub: the new invitation is withdrawn as stale', async () => {
    const {user, sessionId, account} = await seatedBuyer(starter.priceId.test);
    const upgradeId = await upgradeToAdvanced(user);
    const [first] = promptInvitationsFor(account.id);
    await promptsAged(sessionId, 6.9 * DAY_MS);
    // The cron's re-send has withdrawn the old invitation and asks GitHub for the new one when the
    // refund of the upgrade takes the grant back.
    stack().github.beforeNext(`PUT /repos/${EXTRA_FIXTURE_REPO}/collaborators/${account.login}`, () =>
      refundPayment(upgradeId),
    );
    stack().github.requests.length = 0;
    await stack().worker.scheduled();
    expect(promptsRequests('PUT')).toHaveLength(1);
    expect(promptInvitationsFor(account.id)).toEqual([]);
    expect(await extraRows(sessionId)).toMatchObject([
      {repository_key: 'prompts', status: 'revoked', invitation_id: first, detail: 'no longer in the plan'},
    ]);
    expect(await resendsOf(sessionId)).toBe(0);
    expect(resentMails(user)).toEqual([]);
  });

  test('grants left for their reconcile (an upgrade refunded whose reconcile has not run yet) never hold back the re-sends behind them, and are handed to it', async () => {
    const unwanted = [];
    for (let i = 0; i < 3; i++) {
      const buyer = await seatedBuyer(starter.priceId.test);
      await upgradeToAdvanced(buyer.user);
      // The refund recorded, its reconcile not run yet (the outbox would retry it): the grant is still pending.
      await stack().worker.db.run(
        "UPDATE upgrades SET status = 'revoked' WHERE purchase_session_id = ?",
        buyer.sessionId,
      );
      expect(await extraRows(buyer.sessionId)).toMatchObject([{status: 'pending'}]);
      await promptsAged(buyer.sessionId, (6.99 - i * 0.01) * DAY_MS); // older than the paid one: first in line
      unwanted.push(buyer);
    }
    const paid = await seatedBuyer(advanced.priceId.test);
    await promptsAged(paid.sessionId, 6.9 * DAY_MS);
    stack().github.requests.length = 0;

    for (let run = 0; run < 3 && (await resendsOf(paid.sessionId)) === 0; run++) await stack().worker.scheduled();
    expect(await resendsOf(paid.sessionId)).toBe(1);
    // The ones no longer wanted are neither sent again nor left: their reconcile takes them back.
    await stack().worker.scheduled();
    for (const buyer of unwanted) {
      expect(await resendsOf(buyer.sessionId)).toBe(0);
      expect(promptInvitationsFor(buyer.account.id)).toEqual([]);
      expect(await extraRows(buyer.sessionId)).toMatchObject([{status: 'revoked'}]);
    }
  });

  test('a deleted GitHub account stops the re-sends: nothing is sent, and the grant is not asked about again', async () => {
    const {user, sessionId, account} = await seatedBuyer(advanced.priceId.test);
    await promptsAged(sessionId, 6.9 * DAY_MS);
    stack().github.deleteAccount(account.login);
    stack().github.requests.length = 0;

    await stack().worker.scheduled();
    expect(await resendsOf(sessionId)).toBe(MAX);
    expect(promptsRequests('PUT')).toEqual([]);
    expect(resentMails(user)).toEqual([]);
  });

  describe('after the last re-send', () => {
    const renew = (user: SignedInUser, key: unknown = 'prompts') =>
      stack().call(API_PATHS.resendInvitation, {token: user.idToken, body: {key}});
    const promptsEntry = async (user: SignedInUser) =>
      (await accessStatus(user)).extraRepositories?.find((entry) => entry.key === 'prompts');
    /** A buyer whose prompts invitation the cron sent again its last time, and which then expired too. */
    async function expiredForGood() {
      const buyer = await seatedBuyer(advanced.priceId.test);
      await setExtraGrants(stack().worker.db, buyer.sessionId, {expiry_resends: MAX});
      await promptsAged(buyer.sessionId, 7.5 * DAY_MS);
      await stack().worker.scheduled(); // the cron leaves it: its re-sends are spent
      expect(await resendsOf(buyer.sessionId)).toBe(MAX);
      return buyer;
    }

    test('the dashboard says the prompts invitation expired, and the buyer gets a new one: the old withdrawn, the same account invited, the count started again', async () => {
      const {user, sessionId, account} = await expiredForGood();
      const [before] = await extraRows(sessionId);
      expect(await promptsEntry(user)).toMatchObject({status: 'pending', expired: true, username: account.login});

      const response = await renew(user);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({status: 'invited'});
      const [after] = await extraRows(sessionId);
      expect(after).toMatchObject({status: 'pending', github_user_id: account.id, repository: EXTRA_FIXTURE_REPO});
      expect(after!.invitation_id).not.toBe(before!.invitation_id);
      expect(stack().github.requests).toContain(
        `DELETE /repos/${EXTRA_FIXTURE_REPO}/invitations/${before!.invitation_id}`,
      );
      expect(promptInvitationsFor(account.id)).toEqual([after!.invitation_id]);
      expect(await resendsOf(sessionId)).toBe(0);
      const entry = await promptsEntry(user);
      expect(entry).toMatchObject({status: 'pending'});
      expect(entry!.expired).toBe(false);
    });

    test('a new invitation GitHub refuses is answered 409 with the reason the dashboard shows, never queued', async () => {
      const {user, sessionId} = await expiredForGood();
      stack().github.failNext(`PUT /repos/${EXTRA_FIXTURE_REPO}/collaborators/`, {
        status: 422,
        body: {message: 'Validation Failed'},
      });
      const response = await renew(user);
      expect(response.status).toBe(409);
      const [after] = await extraRows(sessionId);
      expect(after).toMatchObject({status: 'failed'});
      expect(await response.json()).toEqual({error: after!.detail, code: 'CONFLICT'});
      expect(await promptsEntry(user)).toMatchObject({status: 'failed', detail: after!.detail});
    });

    test('an account GitHub no longer knows is refused, 404 as for the kit, and the grant and its invitation stay as they were', async () => {
      const {user, sessionId, account} = await expiredForGood();
      const [before] = await extraRows(sessionId);
      stack().github.deleteAccount(account.login);
      stack().github.requests.length = 0;
      const response = await renew(user);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({
        error: `The GitHub account @${account.login} no longer exists: nobody was invited.`,
        code: 'GITHUB_USER_NOT_FOUND',
      });
      expect(promptsRequests('PUT')).toEqual([]);
      expect(promptsRequests('DELETE')).toEqual([]);
      expect(await extraRows(sessionId)).toMatchObject([{status: 'pending', invitation_id: before!.invitation_id}]);
    });

    test('refused with a clear 4xx, and nothing sent: an invitation still valid, a key the plan does not grant, no key, no purchase', async () => {
      const {user, sessionId} = await seatedBuyer(advanced.priceId.test);
      const [before] = await extraRows(sessionId);
      stack().github.requests.length = 0;
      const valid = await renew(user);
      expect(valid.status).toBe(409);
      expect(((await valid.json()) as {error: string}).error).toMatch(/still valid/);
      const other = await renew(user, 'not-a-key');
      expect(other.status).toBe(409);
      expect((await renew(user, '')).status).toBe(400);
      expect((await renew(user, 42)).status).toBe(400);
      expect(promptsRequests('PUT')).toEqual([]);
      expect(promptsRequests('DELETE')).toEqual([]);
      expect(await extraRows(sessionId)).toMatchObject([{status: 'pending', invitation_id: before!.invitation_id}]);

      const visitor = await stack().signUp();
      expect((await renew(visitor)).status).toBe(402);
      expect((await stack().call(API_PATHS.resendInvitation, {body: {key: 'prompts'}})).status).toBe(401);
    });

    test("a buyer who declines and asks again gets 3 new invitations to it a day, then 429 with the reason: its daily invitations are everyone's", async () => {
      const {user, account} = await seatedBuyer(advanced.priceId.test);
      for (let round = 1; round <= 3; round++) {
        stack().github.decline(promptInvitationsFor(account.id)[0]!);
        const renewed = await renew(user);
        expect(await renewed.json()).toEqual({status: 'invited'});
      }
      stack().github.decline(promptInvitationsFor(account.id)[0]!);
      stack().github.requests.length = 0;
      const refused = await renew(user);
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as {error: string}).error).toMatch(
        /^This purchase has asked for 3 new invitations today/,
      );
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(promptsRequests('PUT')).toEqual([]);
      expect(promptInvitationsFor(account.id)).toEqual([]);
    });

    test("another buyer cannot renew someone's invitation: each acts on their own purchase only", async () => {
      const owner = await expiredForGood();
      const [before] = await extraRows(owner.sessionId);
      const starterBuyer = await seatedBuyer(starter.priceId.test);
      expect((await renew(starterBuyer.user)).status).toBe(409);
      expect(await extraRows(owner.sessionId)).toMatchObject([
        {status: 'pending', invitation_id: before!.invitation_id},
      ]);
    });

    test("with the prompts repository's window full, the new invitation waits at the back of its queue (202 queued), and goes when a slot frees", async () => {
      const {user, sessionId, account} = await expiredForGood();
      const at = Date.now() - 3600_000;
      for (let i = 0; i < CAP; i++) {
        await stack().worker.db.run(
          'INSERT INTO invitations_sent (repository, session_id, sent_at) VALUES (?, ?, ?)',
          EXTRA_FIXTURE_REPO,
          `cs_test_renew_${i}`,
          at,
        );
      }
      stack().github.requests.length = 0;
      const response = await renew(user);
      expect(response.status).toBe(202);
      expect(await response.json()).toEqual({status: 'queued'});
      expect(promptsRequests('PUT')).toEqual([]);
      expect(await promptsEntry(user)).toMatchObject({status: 'queued', queue: {position: 1}});

      await stack().newDay();
      await stack().worker.scheduled();
      expect(await extraRows(sessionId)).toMatchObject([{status: 'pending', github_user_id: account.id}]);
      expect(promptInvitationsFor(account.id)).toHaveLength(1);
    });

    test("the seller's daily digest lists it, by its repository, in the run after it expired for good", async () => {
      const {user, account} = await expiredForGood();
      await stack().worker.db.run(
        `INSERT INTO scheduled_runs (name, next_run_at) VALUES ('repository-audit', 0) ON CONFLICT (name) DO UPDATE SET next_run_at = 0, continuing = 0`,
      );
      const digestsBefore = stack().mailgun.sent.length;
      await stack().worker.scheduled();
      const digest = stack()
        .mailgun.sent.slice(digestsBefore)
        .find(
          (mail) =>
            mail.fields.to === appConfig.mail.forwardRepliesTo && /repository audit/.test(mail.fields.subject ?? ''),
        );
      expect(digest?.fields.text).toMatch(
        new RegExp(
          `Invitations that expired, not accepted after ${MAX} re-sends[^\\n]*:\\n(  .*\\n)*  @${account.login} \\(${user.email.replace(/[.+]/g, '\\$&')}\\), to ${EXTRA_FIXTURE_REPO}`,
        ),
      );
    });

    test('the seller renews it from the console (audited)', async () => {
      const {sessionId, account} = await expiredForGood();
      const [before] = await extraRows(sessionId);
      const detail = async () =>
        (await (
          await stack().call(adminPath(ADMIN_PATHS.purchase, {sessionId}), {token: seller.admin.idToken})
        ).json()) as AdminPurchaseDetail;
      expect((await detail()).grants).toMatchObject([{key: 'kit'}, {key: 'prompts', status: 'pending', expired: true}]);

      const response = await stack().call(adminPath(ADMIN_PATHS.resend, {sessionId}), {
        method: 'POST',
        token: seller.admin.idToken,
        body: {key: 'prompts'},
      });
      expect(response.status).toBe(200);
      expect((await detail()).grants).toMatchObject([
        {key: 'kit'},
        {key: 'prompts', status: 'pending', expired: false},
      ]);
      expect(promptInvitationsFor(account.id)).not.toContain(before!.invitation_id);
      expect(
        await stack().worker.db.all(
          'SELECT action, outcome FROM admin_audit WHERE session_id = ? ORDER BY id DESC LIMIT 1',
          sessionId,
        ),
      ).toEqual([{action: 'resend', outcome: 'done'}]);
    });
  });

  test("GitHub's answer to the re-sent invitation lost after the old one was withdrawn: the next run adopts the new invitation, pending, not failed, and the buyer is e-mailed once", async () => {
    const {user, sessionId, account} = await seatedBuyer(advanced.priceId.test);
    const [before] = await extraRows(sessionId);
    await promptsAged(sessionId, 6.9 * DAY_MS);
    stack().github.failNext(`PUT /repos/${EXTRA_FIXTURE_REPO}/collaborators/`, {
      status: 502,
      body: {message: 'Server Error'},
      afterActing: true,
    });

    await stack().worker.scheduled();
    const [created] = promptInvitationsFor(account.id);
    expect(created).not.toBe(before!.invitation_id);
    expect(await extraRows(sessionId)).toMatchObject([{status: 'queued', invitation_id: null}]);

    await stack().worker.scheduled();
    expect(await extraRows(sessionId)).toMatchObject([{status: 'pending', invitation_id: created, detail: null}]);
    expect(promptInvitationsFor(account.id)).toEqual([created]);
    // The first invitation's PUT and the re-send's: the adoption asks GitHub for nothing more.
    expect(
      stack().github.requests.filter(
        (request) => request === `PUT /repos/${EXTRA_FIXTURE_REPO}/collaborators/${account.login}`,
      ),
    ).toHaveLength(2);
    expect(await resendsOf(sessionId)).toBe(1);
    expect(resentMails(user)).toHaveLength(1);
  });

  test('GitHub not answering pauses the re-sends, and the next run sends it', async () => {
    const {user, sessionId} = await seatedBuyer(advanced.priceId.test);
    const [before] = await extraRows(sessionId);
    await promptsAged(sessionId, 6.9 * DAY_MS);
    stack().github.failNext(`GET /repos/${EXTRA_FIXTURE_REPO}/invitations`, {
      status: 502,
      body: {message: 'Server Error'},
    });

    await stack().worker.scheduled();
    expect(await extraRows(sessionId)).toMatchObject([{status: 'pending', invitation_id: before!.invitation_id}]);
    expect(await resendsOf(sessionId)).toBe(0);
    expect(stack().worker.logs.some((line) => line.includes('cron.step_failed'))).toBe(false);

    await stack().worker.scheduled();
    expect(await resendsOf(sessionId)).toBe(1);
    expect(resentMails(user)).toHaveLength(1);
  });

  test('a re-send whose new invitation GitHub did not take (the old one withdrawn) waits, queued, and the buyer is e-mailed when the queue sends it', async () => {
    const {user, sessionId, account} = await seatedBuyer(advanced.priceId.test);
    const [before] = await extraRows(sessionId);
    await promptsAged(sessionId, 6.9 * DAY_MS);
    stack().github.failNext(`PUT /repos/${EXTRA_FIXTURE_REPO}/collaborators/`, {
      status: 502,
      body: {message: 'Server Error'},
    });

    await stack().worker.scheduled();
    expect(stack().github.requests).toContain(
      `DELETE /repos/${EXTRA_FIXTURE_REPO}/invitations/${before!.invitation_id}`,
    );
    expect(await extraRows(sessionId)).toMatchObject([{status: 'queued', invitation_id: null}]);
    expect(resentMails(user)).toEqual([]);

    await stack().worker.scheduled();
    const [after] = await extraRows(sessionId);
    expect(after).toMatchObject({status: 'pending', github_user_id: account.id});
    expect(promptInvitationsFor(account.id)).toEqual([after!.invitation_id]);
    const mails = resentMails(user);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.fields.text).toContain(`@${account.login}`);
    expect(mails[0]!.fields.text).toContain(`1 of ${MAX}`);
    // Once: the next run neither sends it again nor e-mails again.
    await stack().worker.scheduled();
    expect(resentMails(user)).toHaveLength(1);
  });
});
