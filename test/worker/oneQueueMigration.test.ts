/**
 * Migration 0029 moves the line for GitHub's daily cap onto the grants: the kit's entries of
 * `invitation_queue`, and the extra repositories' grants that waited for the cap (said only in
 * their detail), become each grant's place, `waiting_at`. On a D1 filled as the worker before it
 * left it (migrated up to 0028, rows in that schema), every grant that waited keeps its place in
 * its repository's line, none that held no place gains one, and the worker of today answers so.
 */
import {EXTRA_FIXTURE_REPO, FIXTURE_REPO} from '../../scripts/local/githubApi';
import {migrationFiles, migrationStatements} from '../../scripts/support/migrations';
import {type SignedInUser, startStack, type Stack} from './stack';

const MIGRATION = '0029_one_queue.sql';
/** The migration that drops the copies 0028 and 0029 kept of the old tables. */
const DROP_COPIES = '0034_drop_copies_before_0028.sql';
/** What the worker before 0029 wrote in the detail of an extra repository's grant that waited for the cap. */
const WAITS_FOR_CAP = "Waiting for GitHub's daily limit of invitations to this repository.";
const HOUR_MS = 3_600_000;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({GITHUB_EXTRA_REPOS: `prompts=${EXTRA_FIXTURE_REPO}`}, {migrateBefore: MIGRATION});
});
afterAll(() => stack.stop());

let accounts = 0;
interface Before {
  kit: {status: string; version: number; queued?: {version: number; at: number}};
  prompts?: {status: string; detail: string | null; at: number};
}

/** A paid purchase of the plan with the prompts, its grants as the worker before 0029 wrote them. */
async function purchaseBefore(user: SignedInUser, {kit, prompts}: Before) {
  const sessionId = `cs_test_queue_${user.uid}`;
  const now = Date.now();
  const githubId = 7_100_000 + accounts++;
  const statements: {sql: string; params: unknown[]}[] = [
    {
      sql: `INSERT INTO purchases (session_id, user_id, email, plan, payment_intent_id, status, created_at, updated_at, amount_total, currency)
            VALUES (?1, ?2, ?3, 'advanced', ?4, 'paid', ?5, ?5, 9900, 'usd')`,
      params: [sessionId, user.uid, user.email, `pi_queue_${user.uid}`, now - 2 * HOUR_MS],
    },
    {
      sql: `INSERT INTO grants (session_id, repository_key, user_id, github_username, github_user_id, status, version, updated_at)
            VALUES (?1, 'kit', ?2, ?3, ?4, ?5, ?6, ?7)`,
      params: [sessionId, user.uid, `waiting-${githubId}`, githubId, kit.status, kit.version, now - HOUR_MS],
    },
  ];
  if (kit.queued)
    statements.push({
      sql: 'INSERT INTO invitation_queue (session_id, version, repository, queued_at) VALUES (?1, ?2, ?3, ?4)',
      params: [sessionId, kit.queued.version, FIXTURE_REPO, kit.queued.at],
    });
  if (prompts)
    statements.push({
      sql: `INSERT INTO grants (session_id, repository_key, repository, github_user_id, github_username, status, detail, queued_at, updated_at)
            VALUES (?1, 'prompts', ?2, ?3, ?4, ?5, ?6, ?7, ?7)`,
      params: [
        sessionId,
        EXTRA_FIXTURE_REPO,
        githubId,
        `waiting-${githubId}`,
        prompts.status,
        prompts.detail,
        prompts.at,
      ],
    });
  await stack.worker.db.batch(statements);
}

const accessStatus = async (user: SignedInUser) =>
  (await (await stack.call('/accessStatus', {token: user.idToken})).json()) as {
    status: string;
    queue?: {position: number};
    extraRepositories?: {key: string; status: string; queue?: {position: number}}[];
  };

test('0029 keeps every waiting grant its place in its repository’s line, and gives none to a grant that held none', async () => {
  const now = Date.now();
  const [first, second, askedAgain, failed, inFlight] = await Promise.all(
    Array.from({length: 5}, () => stack.signUp()),
  );
  // Placed in this order on purpose, against the order of their rows: the line follows the queue's time.
  await purchaseBefore(second, {
    kit: {status: 'queued', version: 1, queued: {version: 1, at: now - 40 * 60_000}},
    prompts: {status: 'queued', detail: WAITS_FOR_CAP, at: now - 20 * 60_000},
  });
  await purchaseBefore(first, {
    kit: {status: 'queued', version: 2, queued: {version: 2, at: now - 50 * 60_000}},
    prompts: {status: 'queued', detail: WAITS_FOR_CAP, at: now - 30 * 60_000},
  });
  // Asked again (another username) while waiting: the entry still named the earlier version, and
  // the worker before 0029 kept that entry's place for the new one.
  await purchaseBefore(askedAgain, {kit: {status: 'queued', version: 3, queued: {version: 2, at: now - 30 * 60_000}}});
  // Failed since it was queued: the entry was stale, a place nobody held.
  await purchaseBefore(failed, {kit: {status: 'failed', version: 1, queued: {version: 1, at: now - 60 * 60_000}}});
  // Queued and being sent, not waiting for the cap: no place in either line.
  await purchaseBefore(inFlight, {
    kit: {status: 'queued', version: 1},
    prompts: {status: 'queued', detail: null, at: now - 60 * 60_000},
  });
  // GitHub's 50 a day are spent on both repositories, so that nothing is sent while the test reads.
  await stack.worker.db.batch(
    [FIXTURE_REPO, EXTRA_FIXTURE_REPO].flatMap((repository) =>
      Array.from({length: 50}, (_, i) => ({
        sql: 'INSERT INTO invitations_sent (repository, session_id, sent_at) VALUES (?, ?, ?)',
        params: [repository, `cs_test_elsewhere${i}`, now - (70 + i) * 60_000],
      })),
    ),
  );

  // 0029, and those after it but 0034 (which drops the copy, below): the worker of today reads them.
  for (const file of migrationFiles().filter((name) => name >= MIGRATION && name !== DROP_COPIES))
    for (const sql of migrationStatements(file)) await stack.worker.db.batch([{sql}]);

  const [a, b, c, d, e] = await Promise.all([first, second, askedAgain, failed, inFlight].map(accessStatus));
  expect(a).toMatchObject({status: 'queued', queue: {position: 1}});
  expect(b).toMatchObject({status: 'queued', queue: {position: 2}});
  expect(c).toMatchObject({status: 'queued', queue: {position: 3}});
  expect(d.status).toBe('failed');
  expect(d.queue).toBeUndefined();
  expect(e.status).toBe('queued');
  expect(e.queue).toBeUndefined();
  // Each buyer reads their prompts invitation's place in the prompts' own line, as they read the kit's.
  expect(a.extraRepositories).toEqual([
    expect.objectContaining({key: 'prompts', status: 'queued', queue: expect.objectContaining({position: 1})}),
  ]);
  expect(b.extraRepositories).toEqual([
    expect.objectContaining({key: 'prompts', status: 'queued', queue: expect.objectContaining({position: 2})}),
  ]);
  expect(e.extraRepositories![0]).not.toHaveProperty('queue');
  // The prompts' line keeps their order too: the first buyer's grant waited longer.
  const line = await stack.worker.db.all<{session_id: string}>(
    `SELECT session_id FROM grants WHERE repository_key = 'prompts' AND status = 'queued' AND waiting_at IS NOT NULL ORDER BY waiting_at, id`,
  );
  expect(line.map((row) => row.session_id)).toEqual([`cs_test_queue_${first.uid}`, `cs_test_queue_${second.uid}`]);
  // The old table is kept, renamed, until 0034: the worker before 0029 fails closed on its old name.
  expect(await stack.worker.db.all('SELECT COUNT(*) AS entries FROM invitation_queue_before_0029')).toEqual([
    {entries: 4},
  ]);

  // 0034 drops the copy: every buyer reads the same places in line, and the line is the same.
  const answers = [a, b, c, d, e];
  for (const sql of migrationStatements(DROP_COPIES)) await stack.worker.db.batch([{sql}]);
  expect(await Promise.all([first, second, askedAgain, failed, inFlight].map(accessStatus))).toEqual(answers);
  expect(
    await stack.worker.db.all(
      `SELECT session_id FROM grants WHERE repository_key = 'prompts' AND status = 'queued' AND waiting_at IS NOT NULL ORDER BY waiting_at, id`,
    ),
  ).toEqual(line);
  expect(
    await stack.worker.db.all(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '%_before_00%'`),
  ).toEqual([]);
});
