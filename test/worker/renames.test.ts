/**
 * A GitHub account may change its login at any time; its numeric id never changes. A seat follows
 * the numeric id: a buyer who renames keeps their access, and the dashboard and the console show
 * the login of today, not the one typed at the time. In workerd with a real D1 against the GitHub
 * stand-in, which renames accounts as GitHub does.
 */
import {appConfig} from '../../src/config';
import {ADMIN_PATHS, adminPath, type AccessStatus, type AdminPurchaseDetail} from '../../src/config/api';
import {FIXTURE_REPO} from '../../scripts/local/githubApi';
import {completedEvent, type SignedInUser, useSellerStack} from './stack';
import {ageKitReading, kitGrant} from './grantRows';

const seller = useSellerStack();
beforeEach(async () => {
  seller.stack.github.requests.length = 0;
  await seller.stack.newDay();
});

let accounts = 0;
const githubAccount = () => seller.stack.github.addUser(`renamer-${Date.now().toString(36)}-${accounts++}`).login;

async function invitedBuyer() {
  const stack = seller.stack;
  const user = await stack.signUp();
  const sessionId = await stack.paidCheckout({email: user.email, user});
  expect((await stack.deliver(completedEvent(stack, sessionId))).status).toBe(200);
  const login = githubAccount();
  expect(
    (await stack.call('/addUserToRepo', {token: user.idToken, body: {username: login, userId: user.uid}})).status,
  ).toBe(200);
  const invitation = [...stack.github.invitations.values()].find((candidate) => candidate.invitee.login === login)!;
  return {user, sessionId, login, invitation};
}

const accessStatus = async (user: SignedInUser) =>
  (await (await seller.stack.call('/accessStatus', {token: user.idToken})).json()) as AccessStatus;
const consoleDetail = async (sessionId: string) =>
  (await (
    await seller.stack.call(adminPath(ADMIN_PATHS.purchase, {sessionId}), {token: seller.admin.idToken})
  ).json()) as AdminPurchaseDetail;
const storedLogin = async (sessionId: string) =>
  (await kitGrant<{github_username: string}>(seller.stack.worker.db, sessionId, 'github_username'))?.github_username;
/** The minute (or the hour, for an accepted seat) the stored answer may be shown for has passed. */
const later = (sessionId: string, ms: number) => ageKitReading(seller.stack.worker.db, sessionId, ms);

test('renamed before accepting: the invitation is seen accepted (not expired), under the new login, on the dashboard and in D1', async () => {
  const {user, sessionId, login, invitation} = await invitedBuyer();
  seller.stack.github.rename(login, `${login}-new`);
  seller.stack.github.accept(invitation.id);
  await later(sessionId, 60_000);
  expect(await accessStatus(user)).toMatchObject({status: 'active', username: `${login}-new`, expired: false});
  expect(await storedLogin(sessionId)).toBe(`${login}-new`);
});

test('renamed while pending: the dashboard shows the new login and the invitation as still valid', async () => {
  const {user, sessionId, login} = await invitedBuyer();
  seller.stack.github.rename(login, `${login}-moved`);
  await later(sessionId, 60_000);
  expect(await accessStatus(user)).toMatchObject({status: 'pending', username: `${login}-moved`, expired: false});
});

test('renamed after the invitation expired unaccepted: the dashboard and the console show the login of today beside the expired invitation', async () => {
  const {user, sessionId, login, invitation} = await invitedBuyer();
  seller.stack.github.expire(invitation.id);
  seller.stack.github.rename(login, `${login}-late`);
  await later(sessionId, 60_000);
  expect(await accessStatus(user)).toMatchObject({status: 'pending', username: `${login}-late`, expired: true});
  expect((await consoleDetail(sessionId)).access).toMatchObject({username: `${login}-late`});
  expect(await storedLogin(sessionId)).toBe(`${login}-late`);
});

test('renamed after accepting: within the hour the stored login stands; after it, the dashboard and the console show the new one', async () => {
  const {user, sessionId, login, invitation} = await invitedBuyer();
  seller.stack.github.accept(invitation.id);
  await later(sessionId, 60_000);
  expect(await accessStatus(user)).toMatchObject({status: 'active', username: login});

  seller.stack.github.rename(login, `${login}-later`);
  // Within the hour GitHub is not asked again: a dashboard poll costs no quota.
  seller.stack.github.requests.length = 0;
  expect(await accessStatus(user)).toMatchObject({status: 'active', username: login});
  expect(seller.stack.github.requests).toEqual([]);

  await later(sessionId, 3600_000);
  expect(await accessStatus(user)).toMatchObject({status: 'active', username: `${login}-later`});
  expect((await consoleDetail(sessionId)).access).toMatchObject({status: 'active', username: `${login}-later`});
  expect(await storedLogin(sessionId)).toBe(`${login}-later`);
});

test('someone else takes the old login: the seat stays with the renamed account, never passes to the newcomer', async () => {
  const {user, sessionId, login, invitation} = await invitedBuyer();
  seller.stack.github.accept(invitation.id);
  seller.stack.github.rename(login, `${login}-mine`);
  const newcomer = seller.stack.github.addUser(login);
  await later(sessionId, 3600_000);
  expect(await accessStatus(user)).toMatchObject({status: 'active', username: `${login}-mine`});
  expect(seller.stack.github.collaborators.has(newcomer.login.toLowerCase())).toBe(false);
  expect((await consoleDetail(sessionId)).access).toMatchObject({username: `${login}-mine`});
});

test('an invitee who deleted their account is not taken for whoever takes the old login and joins: the invitation reads expired', async () => {
  const {user, sessionId, login} = await invitedBuyer();
  seller.stack.github.deleteAccount(login);
  const newcomer = seller.stack.github.addUser(login);
  seller.stack.github.collaborators.add(newcomer.login.toLowerCase());
  await later(sessionId, 60_000);
  expect(await accessStatus(user)).toMatchObject({status: 'pending', expired: true});
  const row = await kitGrant<{status: string}>(seller.stack.worker.db, sessionId, 'status');
  expect(row!.status).toBe('pending');
});

test('renamed while waiting in the queue, with the old login taken by someone else: the invitation goes to the renamed account, not to the newcomer, and does not fail', async () => {
  const stack = seller.stack;
  const cap = appConfig.repository.invitationsPerDay;
  const fill = Array.from({length: cap}, (_, i) => ({
    sql: 'INSERT INTO invitations_sent (repository, session_id, sent_at) VALUES (?, ?, ?)',
    params: [FIXTURE_REPO, `cs_test_earlier_${i}`, Date.now() - 3600_000],
  }));
  await stack.worker.db.batch(fill);
  const user = await stack.signUp();
  const sessionId = await stack.paidCheckout({email: user.email, user});
  expect((await stack.deliver(completedEvent(stack, sessionId))).status).toBe(200);
  const login = githubAccount();
  expect(
    (await stack.call('/addUserToRepo', {token: user.idToken, body: {username: login, userId: user.uid}})).status,
  ).toBe(202);

  stack.github.rename(login, `${login}-waited`);
  const newcomer = stack.github.addUser(login);
  // The window frees (the queue stays).
  await stack.worker.db.run('DELETE FROM invitations_sent');
  stack.github.invitationTimes.length = 0;
  await stack.worker.scheduled();

  const invitees = [...stack.github.invitations.values()].map((invitation) => invitation.invitee.id);
  expect(invitees).not.toContain(newcomer.id);
  const invitation = [...stack.github.invitations.values()].find(
    (candidate) => candidate.invitee.login === `${login}-waited`,
  );
  expect(invitation).toBeDefined();
  expect(await accessStatus(user)).toMatchObject({status: 'pending', username: `${login}-waited`});
});
