/**
 * Migrations 0037 (a purchase's seats) and 0038 (a team's members, the member of a grant and of a
 * download link) only add. On a D1 filled as the worker before them left it (migrated up to 0036:
 * purchases paid and refunded, grants of the kit and of the prompts, a download link not yet used),
 * every row comes through as it was, with one seat and no member; each buyer reads the same access;
 * the console lists the same purchases; and the link made before still downloads.
 */
import {createHash} from 'node:crypto';
import {ADMIN_PATHS, API_PATHS, type AdminPurchase, type Page} from '../../src/config/api';
import {EXTRA_FIXTURE_REPO} from '../../scripts/local/githubApi';
import {migrationFiles, migrationStatements} from '../../scripts/support/migrations';
import {type SignedInUser, startStack, type Stack, uniqueEmail} from './stack';

const MIGRATION = '0037_purchase_seats.sql';
const HOUR_MS = 3_600_000;
const TOKEN = 'a'.repeat(43);

let stack: Stack;
let admin: SignedInUser;
beforeAll(async () => {
  const email = uniqueEmail('seller');
  stack = await startStack(
    {GITHUB_EXTRA_REPOS: `prompts=${EXTRA_FIXTURE_REPO}`, ADMIN_EMAILS: email},
    {migrateBefore: MIGRATION},
  );
  admin = await stack.signUp({email, verified: true});
});
afterAll(() => stack.stop());

const rowsOf = (table: string) => stack.worker.db.all<Record<string, unknown>>(`SELECT * FROM ${table} ORDER BY rowid`);

/** A purchase of the plan with the prompts, as the worker of 0036 recorded it, its kit and prompts in `status`. */
async function purchase(user: SignedInUser, status: 'active' | 'revoked', githubId: number) {
  const sessionId = `cs_test_team_migration_${user.uid}`;
  const now = Date.now();
  const grant = (key: string) => ({
    sql: `INSERT INTO grants (session_id, repository_key, repository, user_id, github_username, github_user_id,
            invitation_id, status, version, updated_at)
          VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 2, ?9)`,
    params: [
      sessionId,
      key,
      key === 'kit' ? null : EXTRA_FIXTURE_REPO,
      user.uid,
      `before-${githubId}`,
      githubId,
      githubId + 1,
      status,
      now - HOUR_MS,
    ],
  });
  await stack.worker.db.batch([
    {
      sql: `INSERT INTO purchases (session_id, user_id, email, plan, payment_intent_id, status, created_at, updated_at, amount_total, currency, paid_at)
            VALUES (?1, ?2, ?3, 'advanced', ?4, ?5, ?6, ?6, 9900, 'usd', ?6)`,
      params: [
        sessionId,
        user.uid,
        user.email,
        `pi_${sessionId}`,
        status === 'active' ? 'paid' : 'revoked',
        now - 2 * HOUR_MS,
      ],
    },
    grant('kit'),
    grant('prompts'),
  ]);
  return sessionId;
}

const accessStatus = async (user: SignedInUser) => {
  const {status, hasPaid, username, extraRepositories, seats, team} = (await (
    await stack.call(API_PATHS.accessStatus, {token: user.idToken})
  ).json()) as Record<string, unknown> & {extraRepositories?: {key: string; status: string}[]};
  return {
    status,
    hasPaid,
    username,
    seats,
    team,
    extras: extraRepositories?.map((extra) => `${extra.key}: ${extra.status}`),
  };
};

test('0037 and 0038 keep every purchase, grant and download link as it was, one seat each and no member', async () => {
  const [paid, refunded] = [await stack.signUp({verified: true}), await stack.signUp({verified: true})];
  const paidSession = await purchase(paid, 'active', 7_600_001);
  await purchase(refunded, 'revoked', 7_600_011);
  const now = Date.now();
  await stack.worker.db.run(
    `INSERT INTO download_links (token_hash, session_id, user_id, ref, created_at, expires_at, repository_key)
     VALUES (?1, ?2, ?3, 'main', ?4, ?5, NULL)`,
    createHash('sha256').update(TOKEN).digest('hex'),
    paidSession,
    paid.uid,
    now,
    now + 4 * 60_000,
  );
  const before = {
    purchases: await rowsOf('purchases'),
    grants: await rowsOf('grants'),
    links: await rowsOf('download_links'),
  };

  for (const file of migrationFiles().filter((name) => name >= MIGRATION))
    for (const sql of migrationStatements(file)) await stack.worker.db.batch([{sql}]);

  expect(await rowsOf('purchases')).toEqual(before.purchases.map((row) => ({...row, seats: 1})));
  expect(await rowsOf('grants')).toEqual(before.grants.map((row) => ({...row, member_id: null})));
  expect(await rowsOf('download_links')).toEqual(before.links.map((row) => ({...row, seat: 1, member_id: null})));
  expect(await rowsOf('team_members')).toEqual([]);

  // Each buyer reads their access as recorded: no team, no seats to manage.
  expect(await accessStatus(paid)).toEqual({
    status: 'active',
    hasPaid: true,
    username: 'before-7600001',
    seats: undefined,
    team: undefined,
    extras: ['prompts: active'],
  });
  expect(await accessStatus(refunded)).toMatchObject({status: 'revoked', hasPaid: false, seats: undefined});
  // The console lists both purchases, as before.
  const listed = (await (
    await stack.call(ADMIN_PATHS.purchases, {token: admin.idToken})
  ).json()) as Page<AdminPurchase>;
  expect(listed.items.map((item) => item.sessionId).sort()).toEqual(
    [paidSession, `cs_test_team_migration_${refunded.uid}`].sort(),
  );
  // The link made before the migrations still downloads: it was the buyer's own seat.
  const download = await stack.call(`${API_PATHS.download}/${TOKEN}`);
  expect(download.status).toBe(200);
  expect(download.headers.get('content-type')).toBe('application/zip');
});
