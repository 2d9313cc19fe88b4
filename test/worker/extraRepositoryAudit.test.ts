/**
 * The repository audit of a plan's extra repository (the prompts): its collaborators and
 * invitations against its own rows of grants, not the kit's seats, with the same three kinds
 * of difference and their fixes. In workerd with a real D1 against the GitHub stand-in, which has
 * the prompts repository beside the kit's, each with its own people and invitations.
 */
import {appConfig} from '../../src/config';
import {
  ADMIN_PATHS,
  API_PATHS,
  type AdminAuditEntry,
  type AdminPurchase,
  type Page,
  type RepositoryAudit,
  type RepositoryFixAllResult,
} from '../../src/config/api';
import {EXTRA_FIXTURE_REPO, FIXTURE_REPO} from '../../scripts/local/githubApi';
import {completedEvent, refundAtStripe, useSellerStack} from './stack';
import {extraGrants} from './grantRows';

const seller = useSellerStack({GITHUB_EXTRA_REPOS: `prompts=${EXTRA_FIXTURE_REPO}`});
const stack = () => seller.stack;
const advanced = appConfig.plans.find((plan) => plan.id === 'advanced')!;
const prompts = () => stack().github.extra(EXTRA_FIXTURE_REPO);

let accounts = 0;
/** An Advanced buyer, paid, whose GitHub account got the kit's and the prompts' invitations. */
async function advancedBuyer() {
  const user = await stack().signUp();
  const sessionId = await stack().paidCheckout({email: user.email, user, priceId: advanced.priceId.test});
  expect((await stack().deliver(completedEvent(stack(), sessionId))).status).toBe(200);
  const account = stack().github.addUser(`audited-${Date.now().toString(36)}-${accounts++}`);
  expect(
    (
      await stack().call(API_PATHS.addUserToRepo, {
        token: user.idToken,
        body: {username: account.login, userId: user.uid},
      })
    ).status,
  ).toBe(200);
  const invitation = [...prompts().invitations.values()].find((entry) => entry.invitee.id === account.id);
  expect(invitation).toBeDefined();
  return {user, sessionId, account, invitationId: invitation!.id};
}

const admin = (path: string, body?: object) =>
  stack().call(path, {token: seller.admin.idToken, ...(body && {method: 'POST', body})});
async function auditOf(repository?: string): Promise<RepositoryAudit> {
  const response = await admin(
    repository === undefined ? ADMIN_PATHS.repositoryAudit : `${ADMIN_PATHS.repositoryAudit}?repository=${repository}`,
  );
  expect(response.status).toBe(200);
  return (await response.json()) as RepositoryAudit;
}
const differenceOf = (audit: RepositoryAudit, login: string) =>
  audit.differences.find((entry) => entry.login === login);

test("the prompts' audit compares the prompts repository with its own grants, and the kit's names it without mixing them", async () => {
  const buyer = await advancedBuyer();
  const stranger = stack().github.addUser(`by-hand-${accounts++}`);
  prompts().collaborators.add(stranger.login.toLowerCase());

  const audit = await auditOf('prompts');
  expect(audit).toMatchObject({
    repository: EXTRA_FIXTURE_REPO,
    key: 'prompts',
    extraRepositories: [{key: 'prompts', repository: EXTRA_FIXTURE_REPO}],
  });
  expect(differenceOf(audit, buyer.account.login)).toBeUndefined();
  expect(differenceOf(audit, stranger.login)).toMatchObject({
    kind: 'unpaid_on_repository',
    on: 'collaborator',
    sessionId: null,
  });
  expect(audit.invitations.usedLast24h).toBeGreaterThanOrEqual(1);

  // The kit's audit: its own repository, where the stranger is not, and the prompts listed for their own audit.
  const kit = await auditOf();
  expect(kit).toMatchObject({
    repository: FIXTURE_REPO,
    key: null,
    extraRepositories: [{key: 'prompts', repository: EXTRA_FIXTURE_REPO}],
  });
  expect(differenceOf(kit, stranger.login)).toBeUndefined();

  const unknown = await admin(`${ADMIN_PATHS.repositoryAudit}?repository=everything`);
  expect(unknown.status).toBe(404);
  expect(await unknown.json()).toMatchObject({
    code: 'NOT_FOUND',
    error: expect.stringContaining('GITHUB_EXTRA_REPOS names prompts'),
  });
  // Names every object has are not repositories either (a 404, not a 500 from Object's own).
  for (const name of ['__proto__', 'constructor', 'toString']) {
    expect((await admin(`${ADMIN_PATHS.repositoryAudit}?repository=${name}`)).status).toBe(404);
    expect((await admin(ADMIN_PATHS.repositoryFixAll, {kind: 'revoked_present', repository: name})).status).toBe(404);
  }

  // The fix removes the stranger from the prompts, and the admin log says so.
  const fixed = await admin(ADMIN_PATHS.repositoryFix, {
    kind: 'unpaid_on_repository',
    githubUserId: stranger.id,
    repository: 'prompts',
  });
  expect(fixed.status).toBe(200);
  expect(prompts().collaborators.has(stranger.login.toLowerCase())).toBe(false);
  expect(differenceOf(await auditOf('prompts'), stranger.login)).toBeUndefined();
  const log = (await (await admin(ADMIN_PATHS.auditLog)).json()) as Page<AdminAuditEntry>;
  expect(log.items[0]).toMatchObject({
    action: 'repository_fix',
    outcome: 'done',
    detail: expect.stringContaining(`removed @${stranger.login} from ${EXTRA_FIXTURE_REPO}`),
  });
});

test('a paid grant whose prompts invitation was withdrawn by hand is listed missing, and the fix invites the same account again', async () => {
  const buyer = await advancedBuyer();
  prompts().invitations.delete(buyer.invitationId);

  const missing = differenceOf(await auditOf('prompts'), buyer.account.login);
  expect(missing).toMatchObject({
    kind: 'paid_missing',
    on: 'nowhere',
    sessionId: buyer.sessionId,
    email: buyer.user.email,
  });
  // Not on the kit's: its invitation is there.
  expect(differenceOf(await auditOf(), buyer.account.login)).toBeUndefined();

  const fixed = await admin(ADMIN_PATHS.repositoryFix, {
    kind: 'paid_missing',
    githubUserId: buyer.account.id,
    repository: 'prompts',
  });
  expect(fixed.status).toBe(200);
  const again = [...prompts().invitations.values()].filter((entry) => entry.invitee.id === buyer.account.id);
  expect(again).toHaveLength(1);
  expect(again[0]!.id).not.toBe(buyer.invitationId);
  const [grant] = await extraGrants<{status: string; invitation_id: number}>(
    stack().worker.db,
    buyer.sessionId,
    'status, invitation_id',
  );
  expect(grant).toEqual({status: 'pending', invitation_id: again[0]!.id});
  expect(differenceOf(await auditOf('prompts'), buyer.account.login)).toBeUndefined();
});

test('a refunded buyer put back on the prompts by hand is listed revoked, and the fix-all of the prompts removes them', async () => {
  const buyer = await advancedBuyer();
  stack().github.accept(
    [...stack().github.invitations.values()].find((entry) => entry.invitee.id === buyer.account.id)!.id,
  );
  await refundAtStripe(stack(), buyer.sessionId);
  expect(prompts().invitations.has(buyer.invitationId)).toBe(false);
  prompts().collaborators.add(buyer.account.login.toLowerCase());

  expect(differenceOf(await auditOf('prompts'), buyer.account.login)).toMatchObject({
    kind: 'revoked_present',
    sessionId: buyer.sessionId,
  });
  const response = await admin(ADMIN_PATHS.repositoryFixAll, {kind: 'revoked_present', repository: 'prompts'});
  expect(response.status).toBe(200);
  expect((await response.json()) as RepositoryFixAllResult).toMatchObject({
    kind: 'revoked_present',
    failed: [],
    left: 0,
  });
  expect(prompts().collaborators.has(buyer.account.login.toLowerCase())).toBe(false);
  expect(differenceOf(await auditOf('prompts'), buyer.account.login)).toBeUndefined();
  // A body naming a repository the worker does not have is refused before anything is done.
  expect((await admin(ADMIN_PATHS.repositoryFixAll, {kind: 'revoked_present', repository: 'everything'})).status).toBe(
    404,
  );
});

test("a refunded buyer whose prompts removal failed for good reads removal_failed; the prompts' fix removes them, and closes that grant and its failed removal", async () => {
  const buyer = await advancedBuyer();
  const promptsInvitation = `DELETE /repos/${EXTRA_FIXTURE_REPO}/invitations/${buyer.invitationId}`;
  // GitHub refuses the prompts' withdrawal for good (a 4xx ends the tries); the kit's goes.
  stack().github.failNext(promptsInvitation, {status: 403, body: {message: 'Must have admin rights to Repository.'}});
  await refundAtStripe(stack(), buyer.sessionId);
  expect(prompts().invitations.has(buyer.invitationId)).toBe(true);
  const grant = async () => (await extraGrants<{status: string}>(stack().worker.db, buyer.sessionId, 'status'))[0];
  expect(await grant()).toEqual({status: 'removal_failed'});
  // The console's list flags the purchase, though the kit's own grant was taken back cleanly.
  const listed = async () => {
    const response = await admin(`${ADMIN_PATHS.purchases}?q=${buyer.sessionId}`);
    return ((await response.json()) as Page<AdminPurchase>).items[0];
  };
  expect(await listed()).toMatchObject({access: {status: 'revoked'}, removalFailed: true});
  const failedRemovals = () =>
    stack().worker.db.all<{key: string}>(
      "SELECT key FROM jobs WHERE kind = 'github-remove' AND status = 'failed' AND session_id = ?",
      buyer.sessionId,
    );
  expect(await failedRemovals()).toEqual([{key: expect.stringMatching(/:prompts:/)}]);

  expect(differenceOf(await auditOf('prompts'), buyer.account.login)).toMatchObject({kind: 'revoked_present'});
  const fixed = await admin(ADMIN_PATHS.repositoryFix, {
    kind: 'revoked_present',
    githubUserId: buyer.account.id,
    repository: 'prompts',
  });
  expect(fixed.status).toBe(200);
  expect(prompts().invitations.has(buyer.invitationId)).toBe(false);
  expect(await grant()).toEqual({status: 'revoked'});
  expect(await failedRemovals()).toEqual([]);
  expect(await listed()).toMatchObject({removalFailed: false});
});
