/**
 * Migration 0031 makes the take-back one outbox job for every repository: the kit's `github-remove`
 * jobs gain their grant's repository key, and the extra repositories' `extra-withdraw` jobs (a
 * stale invitation) become `github-remove` jobs. On a D1 filled as the worker before it left it
 * (migrated up to 0030, the jobs in that worker's shapes), a removal under way is still under way
 * after it (the dashboard says so), runs when it is due and takes off what it was for, and one
 * that failed for good is still listed so in the console, and the seller's Retry carries it out.
 */
import {appConfig} from '../../src/config';
import {ADMIN_PATHS, adminPath, type AdminJob, API_PATHS, type AccessStatus} from '../../src/config/api';
import {EXTRA_FIXTURE_REPO, FIXTURE_REPO, OWNER} from '../../scripts/local/githubApi';
import {migrationFiles, migrationStatements} from '../../scripts/support/migrations';
import {completedEvent, type SignedInUser, startStack, type Stack, uniqueEmail} from './stack';

const MIGRATION = '0031_one_removal_job.sql';
const HOUR_MS = 3_600_000;

const sellerEmail = uniqueEmail('seller');
let stack: Stack;
let admin: SignedInUser;
beforeAll(async () => {
  stack = await startStack(
    {GITHUB_EXTRA_REPOS: `prompts=${EXTRA_FIXTURE_REPO}`, ADMIN_EMAILS: sellerEmail, GITHUB_EXEMPT: OWNER},
    {migrateBefore: MIGRATION},
  );
  // The migrations after 0031 touch nothing it moves (jobs): applied first, they let today's worker
  // record the purchases (0033's columns) whose removals the tests then write the old way.
  for (const file of migrationFiles().filter((name) => name > MIGRATION))
    for (const sql of migrationStatements(file)) await stack.worker.db.batch([{sql}]);
  admin = await stack.signUp({email: sellerEmail, verified: true});
});
afterAll(() => stack.stop());

const advanced = appConfig.plans.find((plan) => plan.id === 'advanced')!;
let accounts = 0;

/** A paid buyer of the plan whose GitHub account is invited (the kit, and the plan's extras). */
async function invitedBuyer(priceId: string) {
  const user = await stack.signUp();
  const sessionId = await stack.paidCheckout({email: user.email, user, priceId});
  expect((await stack.deliver(completedEvent(stack, sessionId))).status).toBe(200);
  const account = stack.github.addUser(`removal-${Date.now().toString(36)}-${accounts++}`);
  const asked = await stack.call(API_PATHS.addUserToRepo, {
    token: user.idToken,
    body: {username: account.login, userId: user.uid},
  });
  expect(asked.status).toBe(200);
  const grant = async (key: string) =>
    (
      await stack.worker.db.all<{version: number; invitation_id: number; github_user_id: number}>(
        'SELECT version, invitation_id, github_user_id FROM grants WHERE session_id = ? AND repository_key = ?',
        sessionId,
        key,
      )
    )[0];
  return {user, sessionId, account, kit: (await grant('kit'))!, prompts: await grant('prompts')};
}

/** A job row as the worker before 0031 wrote it. */
const jobBefore = (
  sessionId: string,
  job: {key: string; kind: string; payload: object; status: 'pending' | 'failed'; attempts: number},
) => ({
  sql: `INSERT INTO jobs (key, kind, payload, status, attempts, run_after, last_error, created_at, updated_at, session_id)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'GitHub 503', ?7, ?7, ?8)`,
  params: [
    job.key,
    job.kind,
    JSON.stringify(job.payload),
    job.status,
    job.attempts,
    Date.now() + HOUR_MS,
    Date.now() - HOUR_MS,
    sessionId,
  ],
});

/**
 * A refunded buyer's removals as the worker before 0031 queued them, waiting for their next try: the
 * kit's (its grant revoked, a version on) and the prompts' stale invitation.
 */
function removalsUnderWay({sessionId, kit, prompts}: Awaited<ReturnType<typeof invitedBuyer>>) {
  return [
    jobBefore(sessionId, {
      key: `remove:${sessionId}:${kit.version + 1}:${kit.invitation_id}`,
      kind: 'github-remove',
      payload: {sessionId, version: kit.version + 1, invitationId: kit.invitation_id, githubUserId: kit.github_user_id},
      status: 'pending',
      attempts: 1,
    }),
    jobBefore(sessionId, {
      key: `extra-withdraw:${EXTRA_FIXTURE_REPO}:${prompts!.invitation_id}`,
      kind: 'extra-withdraw',
      payload: {
        sessionId,
        key: 'prompts',
        repository: EXTRA_FIXTURE_REPO,
        invitationId: prompts!.invitation_id,
        githubUserId: prompts!.github_user_id,
      },
      status: 'pending',
      attempts: 1,
    }),
  ];
}

const accessStatus = async (user: SignedInUser) =>
  (await (await stack.call(API_PATHS.accessStatus, {token: user.idToken})).json()) as AccessStatus;
const jobsOf = (sessionId: string) =>
  stack.worker.db.all<{kind: string; status: string}>(
    "SELECT kind, status FROM jobs WHERE session_id = ? AND kind IN ('github-remove', 'extra-withdraw') ORDER BY id",
    sessionId,
  );

test('0031 keeps every removal the worker before it left: one under way still runs, for its own repository; one failed for good is still listed, and its Retry carries it out', async () => {
  // Refunded while GitHub did not answer: the kit's removal and the prompts' stale invitation wait
  // for their next try.
  const refunded = await invitedBuyer(advanced.priceId.test);
  // Refunded, and the kit's removal failed for good: the grant says removal_failed.
  const failed = await invitedBuyer(appConfig.plans[0]!.priceId.test);
  const {kit, prompts} = refunded;
  expect(prompts).toBeDefined();
  await stack.worker.db.batch([
    {
      sql: `UPDATE purchases SET status = 'revoked' WHERE session_id IN (?1, ?2)`,
      params: [refunded.sessionId, failed.sessionId],
    },
    {
      sql: `UPDATE grants SET status = 'revoked', detail = 'refunded', version = version + 1 WHERE session_id = ?1`,
      params: [refunded.sessionId],
    },
    {
      sql: `UPDATE grants SET status = 'removal_failed', detail = 'The GitHub account could not be removed', version = version + 1
            WHERE session_id = ?1`,
      params: [failed.sessionId],
    },
    ...removalsUnderWay(refunded),
    jobBefore(failed.sessionId, {
      key: `remove:${failed.sessionId}:${failed.kit.version + 1}:${failed.kit.invitation_id}`,
      kind: 'github-remove',
      payload: {
        sessionId: failed.sessionId,
        version: failed.kit.version + 1,
        invitationId: failed.kit.invitation_id,
        githubUserId: failed.kit.github_user_id,
      },
      status: 'failed',
      attempts: 10,
    }),
  ]);

  for (const sql of migrationStatements(MIGRATION)) await stack.worker.db.batch([{sql}]);

  // The dashboard of the refunded buyer still says the removal is under way.
  expect(await accessStatus(refunded.user)).toMatchObject({status: 'revoked', removing: true});
  expect(await jobsOf(refunded.sessionId)).toEqual([
    {kind: 'github-remove', status: 'pending'},
    {kind: 'github-remove', status: 'pending'},
  ]);
  // The console lists the failed one as a removal that failed for good.
  const listed = (await (await stack.call(ADMIN_PATHS.jobs, {token: admin.idToken})).json()) as AdminJob[];
  const failedJob = listed.find((job) => job.sessionId === failed.sessionId);
  expect(failedJob).toMatchObject({kind: 'github-remove', state: 'failed', removalFailed: true});

  // Due: each takes off its own repository what it was for.
  await stack.worker.db.run("UPDATE jobs SET run_after = 0 WHERE status = 'pending'");
  await stack.worker.scheduled();
  expect(stack.github.invitations.has(kit.invitation_id)).toBe(false);
  expect(stack.github.extra(EXTRA_FIXTURE_REPO).invitations.has(prompts!.invitation_id)).toBe(false);
  expect(await jobsOf(refunded.sessionId)).toEqual([
    {kind: 'github-remove', status: 'done'},
    {kind: 'github-remove', status: 'done'},
  ]);
  expect(await accessStatus(refunded.user)).not.toHaveProperty('removing');

  // The seller's Retry of the failed one withdraws the invitation, and the grant reads revoked.
  expect(stack.github.invitations.has(failed.kit.invitation_id)).toBe(true);
  const retried = await stack.call(adminPath(ADMIN_PATHS.retryJob, {jobId: failedJob!.id}), {
    method: 'POST',
    token: admin.idToken,
    body: {},
  });
  expect(retried.status).toBe(200);
  expect(stack.github.invitations.has(failed.kit.invitation_id)).toBe(false);
  expect(
    await stack.worker.db.all(
      "SELECT status FROM grants WHERE session_id = ? AND repository_key = 'kit'",
      failed.sessionId,
    ),
  ).toEqual([{status: 'revoked'}]);
  expect(await stack.worker.db.all("SELECT id FROM jobs WHERE kind = 'extra-withdraw'")).toEqual([]);
});

test("a removal the worker before 0031 queues after the migration ran (a deploy's minute between the two) is carried out as today's, and one it gives up on marks its grant", async () => {
  const refunded = await invitedBuyer(advanced.priceId.test);
  const {kit, prompts} = refunded;
  await stack.worker.db.batch([
    {sql: `UPDATE purchases SET status = 'revoked' WHERE session_id = ?1`, params: [refunded.sessionId]},
    {
      sql: `UPDATE grants SET status = 'revoked', detail = 'refunded', version = version + 1 WHERE session_id = ?1`,
      params: [refunded.sessionId],
    },
    ...removalsUnderWay(refunded),
  ]);
  // GitHub refuses the kit's withdrawal for good: the outbox gives up at once (a 4xx).
  stack.github.failNext(`DELETE /repos/${FIXTURE_REPO}/invitations/${kit.invitation_id}`, {
    status: 403,
    body: {message: 'Must have admin rights to Repository.'},
  });
  await stack.worker.db.run(
    "UPDATE jobs SET run_after = 0 WHERE status = 'pending' AND session_id = ?",
    refunded.sessionId,
  );
  await stack.worker.scheduled();

  expect(stack.github.extra(EXTRA_FIXTURE_REPO).invitations.has(prompts!.invitation_id)).toBe(false);
  expect(await jobsOf(refunded.sessionId)).toEqual([
    {kind: 'github-remove', status: 'failed'},
    {kind: 'extra-withdraw', status: 'done'},
  ]);
  expect(
    await stack.worker.db.all(
      "SELECT status FROM grants WHERE session_id = ? AND repository_key = 'kit'",
      refunded.sessionId,
    ),
  ).toEqual([{status: 'removal_failed'}]);
});
