/**
 * Migration 0027 moves the seller's revocation from the GitHub grant (0024) to the purchase. On a
 * D1 filled as the worker before it left it (migrated up to 0026, rows written with that schema's
 * columns), the migration carries each revocation over with its time, and leaves every other
 * purchase unrevoked; then, every later migration applied, the worker of today refuses the revoked buyer's downloads and serves the
 * others'.
 */
import {afterPurchase} from '../../src/config';
import {API_PATHS} from '../../src/config/api';
import {migrationFiles} from '../../scripts/support/migrations';
import {migrationStatements} from '../../scripts/support/migrations';
import {type SignedInUser, startStack, type Stack} from './stack';

const MIGRATION = '0027_seller_revocation_on_purchase.sql';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({}, {migrateBefore: MIGRATION});
});
afterAll(() => stack.stop());

const DAY_MS = 86_400_000;

/** A paid purchase as the worker before 0027 recorded it, with its grant if given (0026's columns). */
async function purchaseBefore(user: SignedInUser, grant: {status: string; revokedBySeller: 0 | 1; at: number} | null) {
  const sessionId = `cs_test_migration_${user.uid}`;
  const created = Date.now() - 3 * DAY_MS;
  const statements: {sql: string; params: unknown[]}[] = [
    {
      sql: `INSERT INTO purchases (session_id, user_id, email, plan, payment_intent_id, status, created_at, updated_at, amount_total, currency)
            VALUES (?1, ?2, ?3, 'advanced', ?4, 'paid', ?5, ?5, 9900, 'usd')`,
      params: [sessionId, user.uid, user.email, `pi_migration_${user.uid}`, created],
    },
  ];
  if (grant) {
    statements.push({
      sql: `INSERT INTO access_grants (session_id, user_id, github_username, github_user_id, status, detail, version, updated_at, revoked_by_seller)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, 3, ?7, ?8)`,
      params: [
        sessionId,
        user.uid,
        `migrated-${user.uid.slice(0, 8)}`,
        9_000_000 + Math.floor(Math.random() * 1_000_000),
        grant.status,
        grant.status === 'revoked' ? 'revoked by an admin' : null,
        grant.at,
        grant.revokedBySeller,
      ],
    });
  }
  await stack.worker.db.batch(statements);
  return sessionId;
}

const revokedAt = async (sessionId: string) =>
  (
    await stack.worker.db.all<{revoked_by_seller_at: number | null}>(
      'SELECT revoked_by_seller_at FROM purchases WHERE session_id = ?',
      sessionId,
    )
  )[0]!.revoked_by_seller_at;
const askForLink = (user: SignedInUser) => stack.call(API_PATHS.downloadLink, {token: user.idToken, body: {}});

test('0027 carries each revocation of the seller over to its purchase, with its time, and nothing else; the worker then holds to it', async () => {
  const revokedTime = Date.now() - DAY_MS;
  const [revoked, seated, downloadsOnly] = [await stack.signUp(), await stack.signUp(), await stack.signUp()];
  const revokedSession = await purchaseBefore(revoked, {status: 'revoked', revokedBySeller: 1, at: revokedTime});
  const seatedSession = await purchaseBefore(seated, {status: 'active', revokedBySeller: 0, at: revokedTime});
  const downloadsSession = await purchaseBefore(downloadsOnly, null);

  const apply = async (file: string) => stack.worker.db.batch(migrationStatements(file).map((sql) => ({sql})));
  await apply(MIGRATION);

  expect(await revokedAt(revokedSession)).toBe(revokedTime);
  expect(await revokedAt(seatedSession)).toBeNull();
  expect(await revokedAt(downloadsSession)).toBeNull();
  // The grant's copy stays as it was, for the worker before 0027 should it be deployed again.
  expect(
    await stack.worker.db.all('SELECT revoked_by_seller FROM access_grants WHERE session_id = ?', revokedSession),
  ).toEqual([{revoked_by_seller: 1}]);
  // Then every migration after it (0028 moves the grants into one table), as a deploy applies them.
  for (const file of migrationFiles().filter((name) => name > MIGRATION)) await apply(file);

  // The worker of today reads the purchase: the revoked buyer gets no link and hears why; the others download.
  const refused = await askForLink(revoked);
  expect(refused.status).toBe(403);
  expect(await refused.json()).toEqual({error: afterPurchase.revokedBySeller, code: 'ACCESS_REVOKED'});
  expect(await (await stack.call('/accessStatus', {token: revoked.idToken})).json()).toMatchObject({
    status: 'revoked',
    revokedBySeller: true,
  });
  expect((await askForLink(seated)).status).toBe(200);
  expect((await askForLink(downloadsOnly)).status).toBe(200);
});
