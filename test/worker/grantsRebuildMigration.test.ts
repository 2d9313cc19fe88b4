/**
 * Migration 0036 builds `grants` again without the old key (one row per repository of a purchase),
 * so that a purchase may hold more than one seat (issue 41). On a D1 filled as the worker before it
 * left it (migrated up to 0035: grants in every state, of the kit and of an extra repository), every
 * row comes through as it was, id and all; the indexes and the delivery triggers are there again;
 * the buyer reads the same access; and a second seat of a purchase may now hold every repository,
 * while one GitHub account still holds one live seat. What every buyer and the console read through
 * it is access-answers' too (accessAnswers.test.ts applies every migration after 0028).
 */
import {EXTRA_FIXTURE_REPO} from '../../scripts/local/githubApi';
import {migrationFiles, migrationStatements} from '../../scripts/support/migrations';
import {type SignedInUser, startStack, type Stack} from './stack';

const MIGRATION = '0036_grants_keyed_by_seat.sql';
const HOUR_MS = 3_600_000;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({GITHUB_EXTRA_REPOS: `prompts=${EXTRA_FIXTURE_REPO}`}, {migrateBefore: MIGRATION});
});
afterAll(() => stack.stop());

const everyGrant = () => stack.worker.db.all<Record<string, unknown>>('SELECT * FROM grants ORDER BY id');
const schemaOfGrants = () =>
  stack.worker.db.all<{type: string; name: string}>(
    `SELECT type, name FROM sqlite_master WHERE tbl_name = 'grants' AND name NOT LIKE 'sqlite_autoindex%' ORDER BY type, name`,
  );

let accounts = 0;
/** A paid purchase of the plan with the prompts, its grants as the worker of 0035 wrote them. */
async function purchase(user: SignedInUser, kit: string, prompts?: string) {
  const sessionId = `cs_test_rebuild_${user.uid}`;
  const now = Date.now();
  const githubId = 7_400_000 + accounts++;
  const grant = (key: string, status: string) => ({
    sql: `INSERT INTO grants (session_id, repository_key, repository, user_id, github_username, github_user_id,
            invitation_id, status, detail, version, username_changes, chosen_by_owner, queued_at, invited_at,
            checked_at, expiry_resends, waiting_at, updated_at)
          VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 2, 1, 1, ?10, ?11, ?11, 1, ?12, ?13)`,
    params: [
      sessionId,
      key,
      key === 'kit' ? null : EXTRA_FIXTURE_REPO,
      key === 'kit' ? user.uid : null,
      `rebuilt-${githubId}`,
      githubId,
      status === 'queued' ? null : 9_000_000 + githubId,
      status,
      status === 'failed' || status === 'revoked' ? `why it is ${status}` : null,
      now - 3 * HOUR_MS,
      status === 'queued' ? null : now - 2 * HOUR_MS,
      status === 'queued' ? now - HOUR_MS : null,
      now - HOUR_MS,
    ],
  });
  await stack.worker.db.batch([
    {
      sql: `INSERT INTO purchases (session_id, user_id, email, plan, payment_intent_id, status, created_at, updated_at, amount_total, currency)
            VALUES (?1, ?2, ?3, 'advanced', ?4, ?5, ?6, ?6, 9900, 'usd')`,
      params: [
        sessionId,
        user.uid,
        user.email,
        `pi_rebuild_${user.uid}`,
        kit === 'revoked' || kit === 'removal_failed' ? 'revoked' : 'paid',
        now - 4 * HOUR_MS,
      ],
    },
    grant('kit', kit),
    ...(prompts ? [grant('prompts', prompts)] : []),
  ]);
  return {sessionId, githubId};
}

const accessStatus = async (user: SignedInUser) => {
  const {status, username, extraRepositories} = (await (
    await stack.call('/accessStatus', {token: user.idToken})
  ).json()) as {status: string; username?: string; extraRepositories?: {key: string; status: string}[]};
  return {status, username, extras: extraRepositories?.map((extra) => `${extra.key}: ${extra.status}`)};
};

/** What each buyer of the test reads, as their grants were recorded before 0036. */
const ANSWERS = [
  {status: 'active', extras: ['prompts: active']},
  {status: 'pending', extras: ['prompts: pending']},
  {status: 'active', extras: ['prompts: queued']},
  {status: 'failed', extras: ['prompts: none']},
  {status: 'revoked'},
].map((answer) => ({username: expect.stringMatching(/^rebuilt-/), extras: undefined, ...answer}));

test('0036 keeps every grant as it was, id and all, with its indexes and triggers, and lets a second seat hold the repositories', async () => {
  const users = await Promise.all(Array.from({length: 5}, () => stack.signUp()));
  const [active, pending, queued, failed, revoked] = users as [
    SignedInUser,
    SignedInUser,
    SignedInUser,
    SignedInUser,
    SignedInUser,
  ];
  const owner = await purchase(active, 'active', 'active');
  await purchase(pending, 'pending', 'pending');
  await purchase(queued, 'active', 'queued');
  await purchase(failed, 'failed');
  await purchase(revoked, 'revoked', 'removal_failed');
  const read = await everyGrant();
  const schema = await schemaOfGrants();

  for (const sql of migrationStatements(MIGRATION)) await stack.worker.db.batch([{sql}]);

  expect(read).toHaveLength(9);
  expect(await everyGrant()).toEqual(read);
  // The same indexes and triggers by name; 0035's own index is the table's key now.
  expect(await schemaOfGrants()).toEqual(schema.filter(({name}) => name !== 'grants_seat_key'));
  // The worker of today reads the later migrations' columns too (a purchase's seats, a team's
  // members, when a seat's account first took its access), which leave every grant as it is: then
  // each buyer reads their grants as recorded.
  for (const file of migrationFiles().filter((name) => name > MIGRATION))
    for (const sql of migrationStatements(file)) await stack.worker.db.batch([{sql}]);
  expect(await everyGrant()).toEqual(read.map((row) => ({...row, member_id: null, activated_at: null})));
  expect(await Promise.all(users.map(accessStatus))).toEqual(ANSWERS);

  // A second seat of a purchase holds its own grant of every repository, for another account.
  const now = Date.now();
  const seat = (number: number, key: string, githubId: number) =>
    stack.worker.db.run(
      `INSERT INTO grants (session_id, seat, repository_key, repository, github_user_id, github_username, status, updated_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'queued', ?7)`,
      owner.sessionId,
      number,
      key,
      key === 'kit' ? null : EXTRA_FIXTURE_REPO,
      githubId,
      `member-${githubId}`,
      now,
    );
  await seat(2, 'kit', 7_499_999);
  await seat(2, 'prompts', 7_499_999);
  // One live seat per GitHub account still: the owner's account cannot hold a third seat too.
  await expect(seat(3, 'kit', owner.githubId)).rejects.toThrow(/UNIQUE constraint failed: grants\.github_user_id/);
  // Nor a seat two grants of one repository.
  await expect(seat(2, 'kit', 7_499_998)).rejects.toThrow(/UNIQUE constraint failed/);

  // Delivery is recorded for good as before (migration 0033's triggers, made again).
  await stack.worker.db.run(
    `UPDATE purchases SET delivered_at = NULL WHERE session_id = ?1`,
    `cs_test_rebuild_${pending.uid}`,
  );
  await stack.worker.db.run(
    `UPDATE grants SET status = 'active', updated_at = ?2 WHERE session_id = ?1 AND repository_key = 'kit'`,
    `cs_test_rebuild_${pending.uid}`,
    now,
  );
  expect(
    await stack.worker.db.all(
      `SELECT delivered_at FROM purchases WHERE session_id = ?1`,
      `cs_test_rebuild_${pending.uid}`,
    ),
  ).toEqual([{delivered_at: now}]);
});
