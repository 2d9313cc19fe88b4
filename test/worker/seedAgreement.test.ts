/**
 * `npm run seed:local` and the local GitHub stand-in tell one story. The seed's rows go into the
 * worker's D1, the stand-in starts from them as `npm start` starts it (`localRepository.ts`), and
 * the seller's console then agrees with itself: the repository audit shows only the differences
 * the seed made on purpose, and Purchases shows each of them the same way.
 */
import {ADMIN_PATHS, type AdminPurchase, type Page, type RepositoryAudit} from '../../src/config/api';
import {LOCAL_EXTRA_REPOS} from '../../scripts/local/githubApi';
import {SEED_HAND_INVITED} from '../../scripts/local/seedData';
import {startSeededStack} from './seededStack';
import type {SignedInUser, Stack} from './stack';

const PURCHASES = 400;
let stack: Stack;
let admin: SignedInUser;

interface SeededGrant {
  session_id: string;
  github_username: string;
  status: string;
  purchase: string;
}

let seeded: SeededGrant[];
let seededPrompts: (SeededGrant & {plan: string})[];

beforeAll(async () => {
  // As `npm start` sets the worker up in local mode: the prompts are the stand-in's second repository.
  ({stack, admin} = await startSeededStack({purchases: PURCHASES}));
  seeded = await stack.worker.db.all<SeededGrant>(
    `SELECT g.session_id, g.github_username, g.status, p.status AS purchase
     FROM grants g JOIN purchases p ON p.session_id = g.session_id WHERE g.repository_key = 'kit'`,
  );
  seededPrompts = await stack.worker.db.all<SeededGrant & {plan: string}>(
    `SELECT e.session_id, e.github_username, e.status, p.status AS purchase, p.plan
     FROM grants e JOIN purchases p ON p.session_id = e.session_id WHERE e.repository_key = 'prompts'`,
  );
});
afterAll(() => stack.stop());

const get = async <T>(path: string) => (await (await stack.call(path, {token: admin.idToken})).json()) as T;
const onRepository = () => ({
  collaborators: stack.github.collaborators,
  invited: new Set([...stack.github.invitations.values()].map((invitation) => invitation.invitee.login.toLowerCase())),
});

test('every seeded paid buyer with access is on the stand-in’s repository, and no revoked one is', () => {
  const {collaborators, invited} = onRepository();
  const paid = seeded.filter((grant) => grant.purchase === 'paid' && ['active', 'pending'].includes(grant.status));
  const revoked = seeded.filter((grant) => grant.status === 'revoked');
  expect(paid.length).toBeGreaterThan(PURCHASES / 2);
  expect(revoked.length).toBeGreaterThan(0);
  for (const grant of paid) {
    const login = grant.github_username.toLowerCase();
    expect({
      login,
      status: grant.status,
      on: grant.status === 'active' ? collaborators.has(login) : invited.has(login),
    }).toEqual({login, status: grant.status, on: true});
  }
  for (const grant of revoked) {
    const login = grant.github_username.toLowerCase();
    expect({login, on: collaborators.has(login) || invited.has(login)}).toEqual({login, on: false});
  }
});

test('the audit shows only the differences seeded on purpose, one kind each, and Purchases says the same of them', async () => {
  const audit = await get<RepositoryAudit>(ADMIN_PATHS.repositoryAudit);
  const failedInvitations = seeded.filter((grant) => grant.status === 'failed');
  const failedRemovals = seeded.filter((grant) => grant.status === 'removal_failed');
  expect(failedInvitations.length).toBeGreaterThan(0);
  expect(failedRemovals.length).toBeGreaterThan(0);
  const byLogin = (a: {login: string}, b: {login: string}) => a.login.localeCompare(b.login);
  expect(audit.differences.map(({kind, login, sessionId}) => ({kind, login, sessionId})).sort(byLogin)).toEqual(
    [
      ...failedInvitations.map((grant) => ({
        kind: 'paid_missing',
        login: grant.github_username,
        sessionId: grant.session_id,
      })),
      ...failedRemovals.map((grant) => ({
        kind: 'revoked_present',
        login: grant.github_username,
        sessionId: grant.session_id,
      })),
      ...SEED_HAND_INVITED.map(({login}) => ({kind: 'unpaid_on_repository', login, sessionId: null})),
    ].sort(byLogin),
  );
  expect(audit.counts.paid).toBe(
    seeded.filter((grant) => grant.purchase === 'paid' && grant.status !== 'revoked').length,
  );

  // Purchases tells the same story of the first of each.
  const purchase = async (sessionId: string) =>
    (await get<Page<AdminPurchase>>(`${ADMIN_PATHS.purchases}?q=${sessionId}`)).items.find(
      (item) => item.sessionId === sessionId,
    )!;
  expect(await purchase(failedInvitations[0]!.session_id)).toMatchObject({state: 'paid', access: {status: 'failed'}});
  expect(await purchase(failedRemovals[0]!.session_id)).toMatchObject({
    state: expect.stringMatching(/^(refunded|disputed)$/),
    access: {status: 'removal_failed'},
  });
});

test("the prompts follow each seeded Advanced seat: on the stand-in's prompts repository as the grant says, and their audit shows no difference", async () => {
  const prompts = stack.github.extra(LOCAL_EXTRA_REPOS.prompts!);
  const invited = new Set(
    [...prompts.invitations.values()].map((invitation) => invitation.invitee.login.toLowerCase()),
  );
  // Every paid Advanced buyer whose kit seat is invited or accepted, and no one else.
  const seated = seeded
    .filter((grant) => grant.purchase === 'paid' && ['active', 'pending'].includes(grant.status))
    .map((grant) => grant.session_id);
  const advancedSeated = seated.filter((sessionId) => seededPrompts.some((grant) => grant.session_id === sessionId));
  expect(advancedSeated.length).toBeGreaterThan(PURCHASES / 4);
  expect(seededPrompts.every((grant) => grant.plan === 'advanced')).toBe(true);
  expect(new Set(['active', 'pending', 'revoked'])).toEqual(new Set(seededPrompts.map((grant) => grant.status)));
  for (const grant of seededPrompts) {
    const login = grant.github_username.toLowerCase();
    const on =
      grant.status === 'active'
        ? prompts.collaborators.has(login)
        : grant.status === 'pending'
          ? invited.has(login)
          : !prompts.collaborators.has(login) && !invited.has(login);
    expect({login, status: grant.status, purchase: grant.purchase, on}).toEqual({
      login,
      status: grant.status,
      purchase: grant.status === 'revoked' ? 'revoked' : 'paid',
      on: true,
    });
  }

  const audit = await get<RepositoryAudit>(`${ADMIN_PATHS.repositoryAudit}?repository=prompts`);
  expect(audit.differences).toEqual([]);
  expect(audit.counts.paid).toBe(seededPrompts.filter((grant) => grant.status !== 'revoked').length);
});
