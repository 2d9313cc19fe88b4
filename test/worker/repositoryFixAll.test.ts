/**
 * The repository audit's "fix all" on the worker: it fixes every difference of one kind that its
 * own audit finds now (never a list from the browser), a bounded number per call with the rest
 * counted, writes one admin-log row per account, and goes on past an account GitHub refuses.
 */
import {
  ADMIN_PATHS,
  REPOSITORY_FIX_ALL_LIMITS,
  type RepositoryAudit,
  type RepositoryDifferenceKind,
  type RepositoryFixAllResult,
} from '../../src/config/api';
import {appConfig, PLAN_CURRENCY, planAmount} from '../../src/config';
import {FIXTURE_REPO, OWNER} from '../../scripts/local/githubApi';
import {type SignedInUser, startStack, type Stack, uniqueEmail} from './stack';
import {insertActiveKitGrant} from './grantRows';

/** Unique: the worker test files share one Auth emulator. */
const ADMIN_EMAIL = uniqueEmail('seller');
let stack: Stack;
let admin: SignedInUser;

beforeAll(async () => {
  // A worker on the Paid plan: the kinds' own limits, not the Free plan's subrequests, bound a call
  // here (subrequests.test.ts has the Free plan's).
  stack = await startStack({ADMIN_EMAILS: ADMIN_EMAIL, GITHUB_EXEMPT: OWNER, SUBREQUEST_LIMIT: '10000'});
  admin = await stack.signUp({email: ADMIN_EMAIL, verified: true});
});
afterAll(() => stack.stop());

const fixAll = (body: unknown, as = admin) => stack.call(ADMIN_PATHS.repositoryFixAll, {token: as.idToken, body});
const audit = async () =>
  (await (await stack.call(ADMIN_PATHS.repositoryAudit, {token: admin.idToken})).json()) as RepositoryAudit;
const ofKind = async (kind: RepositoryDifferenceKind) =>
  (await audit()).differences.filter((difference) => difference.kind === kind);
const logRows = (after: number) =>
  stack.worker.db.all<{action: string; outcome: string; session_id: string | null; detail: string}>(
    'SELECT action, outcome, session_id, detail FROM admin_audit WHERE id > ? ORDER BY id',
    after,
  );
const lastLogId = async () =>
  (await stack.worker.db.all<{id: number | null}>('SELECT MAX(id) AS id FROM admin_audit'))[0]!.id ?? 0;

let accounts = 0;
/** Accounts on the repository that no purchase paid for (invited by hand). */
function strangers(count: number): string[] {
  return Array.from({length: count}, () => {
    const {login} = stack.github.addUser(`stranger-${Date.now().toString(36)}-${accounts++}`);
    stack.github.collaborators.add(login.toLowerCase());
    return login;
  });
}

/**
 * Paid purchases whose GitHub account is known and off the repository (removed by hand), as the
 * local D1 holds them: written straight into it, so that a test can have more than GitHub's daily
 * limit of them without paying 50 times.
 */
async function paidMissing(count: number, {onRepository = false} = {}): Promise<{login: string; sessionId: string}[]> {
  const plan = appConfig.plans[0]!;
  const made: {login: string; sessionId: string}[] = [];
  for (let i = 0; i < count; i++) {
    const {login, id} = stack.github.addUser(`paid-${Date.now().toString(36)}-${accounts++}`);
    const sessionId = `cs_test_fixall_${login}`;
    const now = Date.now();
    await stack.worker.db.run(
      `INSERT INTO purchases (session_id, customer_id, user_id, email, price_id, plan, payment_intent_id, status, created_at, updated_at, amount_total, currency)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'paid', ?8, ?8, ?9, '${PLAN_CURRENCY}')`,
      sessionId,
      `cus_${login}`,
      `user-${login}`,
      `${login}@example.com`,
      plan.priceId.test,
      plan.id,
      `pi_${login}`,
      now,
      planAmount(plan),
    );
    await insertActiveKitGrant(stack.worker.db, {sessionId, login, githubUserId: id, at: now});
    if (onRepository) stack.github.collaborators.add(login.toLowerCase());
    made.push({login, sessionId});
  }
  return made;
}

const invitedLogins = () =>
  new Set([...stack.github.invitations.values()].map((invitation) => invitation.invitee.login));

describe('fix all of a kind', () => {
  test('removes every account on the repository without a paid purchase, one admin-log row each, and leaves the other kinds alone', async () => {
    const removed = strangers(3);
    const [missing] = await paidMissing(1);
    const before = await lastLogId();

    const response = await fixAll({kind: 'unpaid_on_repository'});
    expect(response.status).toBe(200);
    const result = (await response.json()) as RepositoryFixAllResult;
    expect(result).toMatchObject({kind: 'unpaid_on_repository', status: 'fixed', done: 3, failed: [], left: 0});
    for (const login of removed) expect(stack.github.collaborators.has(login.toLowerCase())).toBe(false);
    // The paid buyer off the repository is another kind: not invited by this call.
    expect(invitedLogins().has(missing!.login)).toBe(false);
    expect(await ofKind('unpaid_on_repository')).toEqual([]);

    const rows = await logRows(before);
    expect(rows).toHaveLength(3);
    for (const [i, login] of removed.entries()) {
      expect(rows[i]).toEqual({
        action: 'repository_fix',
        outcome: 'done',
        session_id: null,
        detail: `unpaid_on_repository: removed @${login} (collaborator) (fix all).`,
      });
    }
    // Back on the repository, out of the next tests' counts.
    stack.github.collaborators.add(missing!.login.toLowerCase());
  });

  test(`invites at most ${REPOSITORY_FIX_ALL_LIMITS.paid_missing} paid accounts a call (GitHub's daily limit) and says how many are left`, async () => {
    const limit = REPOSITORY_FIX_ALL_LIMITS.paid_missing;
    await stack.newDay(); // the day's invitations, all of them
    const missing = await paidMissing(limit + 2);
    const before = await lastLogId();

    const first = (await (await fixAll({kind: 'paid_missing'})).json()) as RepositoryFixAllResult;
    expect(first).toMatchObject({kind: 'paid_missing', status: 'partly_fixed', done: limit, failed: [], left: 2});
    expect(first.detail).toBe(`paid_missing: fixed ${limit} of ${limit + 2}, 2 left for a later call`);
    const invited = invitedLogins();
    expect(missing.filter(({login}) => invited.has(login))).toHaveLength(limit);
    const rows = await logRows(before);
    expect(rows).toHaveLength(limit);
    expect(new Set(rows.map((row) => row.session_id))).toEqual(
      new Set(missing.filter(({login}) => invited.has(login)).map(({sessionId}) => sessionId)),
    );
    expect(
      rows.every(
        (row) => row.outcome === 'done' && /^paid_missing: invited @\S+ again: invited \(fix all\)\.$/.test(row.detail),
      ),
    ).toBe(true);
    expect(await ofKind('paid_missing')).toHaveLength(2);

    // The same day, GitHub's cap is spent: the other two wait in the worker's queue, not sent.
    const second = (await (await fixAll({kind: 'paid_missing'})).json()) as RepositoryFixAllResult;
    expect(second).toMatchObject({status: 'fixed', done: 2, failed: [], left: 0});
    expect((await logRows(before)).slice(limit).map((row) => row.detail)).toEqual(
      missing
        .filter(({login}) => !invited.has(login))
        .map(({login}) => `paid_missing: invited @${login} again: queued (fix all).`),
    );
    expect(missing.filter(({login}) => invitedLogins().has(login))).toHaveLength(limit);

    // A day later, the cron sends them.
    await stack.worker.db.run('UPDATE invitations_sent SET sent_at = sent_at - ?', 24 * 3600_000);
    stack.github.invitationTimes.length = 0;
    await stack.worker.scheduled();
    expect(missing.every(({login}) => invitedLogins().has(login))).toBe(true);
    expect(await ofKind('paid_missing')).toEqual([]);
  });

  test('one account GitHub refuses does not stop the others; its reason is answered and logged', async () => {
    const [first, refused, last] = strangers(3);
    stack.github.failNext(`DELETE /repos/${FIXTURE_REPO}/collaborators/${refused}`, {
      status: 502,
      body: {message: 'Server Error'},
    });
    const before = await lastLogId();

    const response = await fixAll({kind: 'unpaid_on_repository'});
    expect(response.status).toBe(200);
    const reason = 'GitHub is not answering right now. Please try again in a few minutes.';
    expect(await response.json()).toMatchObject({
      status: 'partly_fixed',
      done: 2,
      failed: [{login: refused, githubUserId: expect.any(Number), reason}],
      left: 0,
    });
    expect(stack.github.collaborators.has(first!.toLowerCase())).toBe(false);
    expect(stack.github.collaborators.has(last!.toLowerCase())).toBe(false);
    expect(stack.github.collaborators.has(refused!.toLowerCase())).toBe(true);
    expect((await logRows(before)).map(({outcome, detail}) => [outcome, detail])).toEqual([
      ['done', `unpaid_on_repository: removed @${first} (collaborator) (fix all).`],
      ['failed', `Failed (fix all): @${refused}: ${reason} Nothing was changed on GitHub.`],
      ['done', `unpaid_on_repository: removed @${last} (collaborator) (fix all).`],
    ]);
    // Still listed, for the next try.
    expect((await ofKind('unpaid_on_repository')).map(({login}) => login)).toEqual([refused]);
    stack.github.collaborators.delete(refused!.toLowerCase());
  });
});

describe('what the browser may not decide', () => {
  test('the worker finds the accounts itself: a paid buyer on the repository stays, and a list sent along is refused', async () => {
    const [paying] = await paidMissing(1, {onRepository: true});
    const [stranger] = strangers(1);
    const before = await lastLogId();

    const listed = await fixAll({kind: 'unpaid_on_repository', githubUserIds: [1, 2, 3], logins: [paying!.login]});
    expect(listed.status).toBe(400);
    expect(await listed.json()).toMatchObject({
      error: 'The body takes only kind and repository: the worker finds the accounts itself',
    });
    expect(stack.github.collaborators.has(stranger!.toLowerCase())).toBe(true);

    expect(await (await fixAll({kind: 'unpaid_on_repository'})).json()).toMatchObject({done: 1, failed: []});
    expect(stack.github.collaborators.has(stranger!.toLowerCase())).toBe(false);
    expect(stack.github.collaborators.has(paying!.login.toLowerCase())).toBe(true);
    expect(stack.github.collaborators.has(OWNER.toLowerCase())).toBe(true);
    expect((await logRows(before)).map((row) => row.detail)).toEqual([
      `unpaid_on_repository: removed @${stranger} (collaborator) (fix all).`,
    ]);
  });

  test.each([
    [{kind: 'everything'}, 'kind must be one of unpaid_on_repository, paid_missing, revoked_present'],
    [{}, 'kind must be one of unpaid_on_repository, paid_missing, revoked_present'],
  ])('a body of %j is answered 400 with what is wrong, and nothing is done', async (body, message) => {
    const [stranger] = strangers(1);
    const before = await lastLogId();
    const response = await fixAll(body);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({error: expect.stringContaining(message)});
    expect(stack.github.collaborators.has(stranger!.toLowerCase())).toBe(true);
    expect(await logRows(before)).toEqual([]);
    stack.github.collaborators.delete(stranger!.toLowerCase());
  });

  test('a signed-in buyer is refused 403 and nothing is removed', async () => {
    const [stranger] = strangers(1);
    const buyer = await stack.signUp({verified: true});
    const response = await fixAll({kind: 'unpaid_on_repository'}, buyer);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({error: "Only the seller's admins may use the console", code: 'ADMIN_ONLY'});
    expect(stack.github.collaborators.has(stranger!.toLowerCase())).toBe(true);
    stack.github.collaborators.delete(stranger!.toLowerCase());
  });
});
