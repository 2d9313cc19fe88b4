/**
 * Migration 0035 puts the seat in a grant's key (issue 40's model, the ground for issue 41's team
 * seats). On a D1 filled as the worker before it left it (migrated up to 0034, rows in that
 * schema), every grant becomes the buyer's own seat, 1, and nothing else it holds changes; the
 * buyer reads the same access; and the worker before it still runs on the migrated D1 (its upsert
 * names the old key), so going back needs no restore. What every buyer and the console read
 * through it is access-answers' too (accessAnswers.test.ts applies every migration after 0028).
 */
import {EXTRA_FIXTURE_REPO} from '../../scripts/local/githubApi';
import {migrationFiles, migrationStatements} from '../../scripts/support/migrations';
import {startStack, type Stack} from './stack';

const MIGRATION = '0035_grants_seat.sql';
/** The migration that drops the old key, which this test shows the worker before 0035 still writes on. */
const REBUILD = '0036_grants_keyed_by_seat.sql';
const HOUR_MS = 3_600_000;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({GITHUB_EXTRA_REPOS: `prompts=${EXTRA_FIXTURE_REPO}`}, {migrateBefore: MIGRATION});
});
afterAll(() => stack.stop());

const everyGrant = () => stack.worker.db.all<Record<string, unknown>>('SELECT * FROM grants ORDER BY id');

test('0035 gives every grant the buyer’s own seat, changes nothing else, and leaves the worker before it running', async () => {
  const user = await stack.signUp();
  const sessionId = `cs_test_seat_${user.uid}`;
  const now = Date.now();
  await stack.worker.db.batch([
    {
      sql: `INSERT INTO purchases (session_id, user_id, email, plan, payment_intent_id, status, created_at, updated_at, amount_total, currency)
            VALUES (?1, ?2, ?3, 'advanced', ?4, 'paid', ?5, ?5, 9900, 'usd')`,
      params: [sessionId, user.uid, user.email, `pi_seat_${user.uid}`, now - 2 * HOUR_MS],
    },
    // The kit accepted on the buyer's account; the prompts waiting for GitHub's daily cap.
    {
      sql: `INSERT INTO grants (session_id, repository_key, user_id, github_username, github_user_id, invitation_id, status,
              version, username_changes, chosen_by_owner, invited_at, updated_at)
            VALUES (?1, 'kit', ?2, 'seat-owner', 7300001, 91, 'active', 3, 1, 1, ?3, ?3)`,
      params: [sessionId, user.uid, now - HOUR_MS],
    },
    {
      sql: `INSERT INTO grants (session_id, repository_key, repository, github_user_id, github_username, status, detail,
              queued_at, waiting_at, updated_at)
            VALUES (?1, 'prompts', ?2, 7300001, 'seat-owner', 'queued', NULL, ?3, ?3, ?3)`,
      params: [sessionId, EXTRA_FIXTURE_REPO, now - HOUR_MS / 2],
    },
  ]);
  const before = await everyGrant();

  for (const sql of migrationStatements(MIGRATION)) await stack.worker.db.batch([{sql}]);

  expect(await everyGrant()).toEqual(before.map((row) => ({...row, seat: 1})));
  // What the worker of today reads besides grants (the seats of a purchase, a team's members): the
  // migrations after 0036, which leave grants as they are.
  for (const file of migrationFiles().filter((name) => name > REBUILD))
    for (const sql of migrationStatements(file)) await stack.worker.db.batch([{sql}]);
  // The worker of today reads them on the buyer's seat: the kit is theirs, the prompts in line.
  const status = (await (await stack.call('/accessStatus', {token: user.idToken})).json()) as {
    status: string;
    username?: string;
    extraRepositories?: {key: string; status: string}[];
  };
  expect(status).toMatchObject({status: 'active', username: 'seat-owner'});
  expect(status.extraRepositories).toEqual([expect.objectContaining({key: 'prompts', status: 'queued'})]);

  // The worker before 0035 upserts on the old key, and still can: going back needs no restore.
  const read = await everyGrant();
  await stack.worker.db.run(
    `INSERT INTO grants (session_id, repository_key, status, updated_at) VALUES (?1, 'kit', 'queued', ?2)
     ON CONFLICT (session_id, repository_key) DO NOTHING`,
    sessionId,
    now,
  );
  expect(await everyGrant()).toEqual(read);

  // The new key holds: one row per repository of a seat, and seats count from 1.
  const grant = (seat: number, key: string) =>
    stack.worker.db.run(
      'INSERT INTO grants (session_id, seat, repository_key, status, updated_at) VALUES (?1, ?2, ?3, ?4, ?5)',
      sessionId,
      seat,
      key,
      'queued',
      now,
    );
  await expect(grant(0, 'docs')).rejects.toThrow(/CHECK constraint failed/);
  await expect(grant(1, 'kit')).rejects.toThrow(/UNIQUE constraint failed/);
});
