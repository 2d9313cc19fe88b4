/**
 * Migration 0033 on a D1 filled at the schema before it (issue 42): each purchase gets the day it
 * was paid (its checkout's, for purchases paid before) and the moment its code was first
 * delivered (its first download served, or a grant active), and nothing else it holds changes;
 * after it, the triggers keep delivery for good whichever code writes the grant or the link.
 * What buyers and the console read through it is access-answers' (accessAnswers.test.ts applies
 * every migration after 0028 to the seeded store and reads the same answers).
 */
import {DAY_MS} from '../../src/config/dates';
import {migrationStatements} from '../../scripts/support/migrations';
import {startStack, type Stack} from './stack';

const MIGRATION = '0033_withdrawal.sql';
const NOW = Date.now();

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({}, {migrateBefore: MIGRATION});
});
afterAll(() => stack.stop());

/** A purchase as the worker before 0033 wrote it. */
const purchase = (sessionId: string, status: string, createdAt: number) => ({
  sql: `INSERT INTO purchases (session_id, user_id, email, plan, payment_intent_id, status, created_at, updated_at)
        VALUES (?1, 'uid-0033', 'buyer-0033@example.com', 'advanced', ?2, ?3, ?4, ?4)`,
  params: [sessionId, status === 'open' ? null : `pi_${sessionId}`, status, createdAt],
});
const grant = (sessionId: string, status: string, updatedAt: number) => ({
  sql: `INSERT INTO grants (session_id, repository_key, github_username, status, updated_at) VALUES (?1, 'kit', 'octocat', ?2, ?3)`,
  params: [sessionId, status, updatedAt],
});
const download = (sessionId: string, usedAt: number | null, outcome: string | null) => ({
  sql: `INSERT INTO download_links (token_hash, session_id, user_id, ref, created_at, expires_at, used_at, outcome)
        VALUES (?1, ?2, 'uid-0033', 'main', ?3, ?3, ?4, ?5)`,
  params: [`hash-${sessionId}-${usedAt}-${outcome}`, sessionId, usedAt ?? NOW, usedAt, outcome],
});

test('0033 fills when each purchase was paid and first delivered, changes nothing else, and its triggers keep delivery from then on', async () => {
  const day = (n: number) => NOW - n * DAY_MS;
  await stack.worker.db.batch([
    // Paid, invited and accepted; downloaded earlier still.
    purchase('cs_0033_both', 'paid', day(5)),
    grant('cs_0033_both', 'active', day(3)),
    download('cs_0033_both', day(4), 'served'),
    // Paid and invited, a download refused: nothing delivered.
    purchase('cs_0033_pending', 'paid', day(2)),
    grant('cs_0033_pending', 'pending', day(2)),
    download('cs_0033_pending', day(1), 'refused'),
    // Refunded since: it was paid all the same.
    purchase('cs_0033_refunded', 'revoked', day(9)),
    // Never paid.
    purchase('cs_0033_open', 'open', day(1)),
  ]);
  const read = () =>
    stack.worker.db.all(
      `SELECT session_id, status, created_at, updated_at, payment_intent_id, paid_at, delivered_at,
         delivery_consent_version FROM purchases WHERE session_id LIKE 'cs_0033_%' ORDER BY session_id`,
    );
  const before = await stack.worker.db.all(
    `SELECT session_id, status, created_at, updated_at, payment_intent_id FROM purchases
     WHERE session_id LIKE 'cs_0033_%' ORDER BY session_id`,
  );

  for (const sql of migrationStatements(MIGRATION)) await stack.worker.db.batch([{sql}]);

  const after = await read();
  // What was there before stays as it was.
  expect(
    after.map(({session_id, status, created_at, updated_at, payment_intent_id}) => ({
      session_id,
      status,
      created_at,
      updated_at,
      payment_intent_id,
    })),
  ).toEqual(before);
  expect(
    after.map(({session_id, paid_at, delivered_at, delivery_consent_version}) => ({
      session_id,
      paid_at,
      delivered_at,
      delivery_consent_version,
    })),
  ).toEqual([
    {session_id: 'cs_0033_both', paid_at: day(5), delivered_at: day(4), delivery_consent_version: null},
    {session_id: 'cs_0033_open', paid_at: null, delivered_at: null, delivery_consent_version: null},
    {session_id: 'cs_0033_pending', paid_at: day(2), delivered_at: null, delivery_consent_version: null},
    {session_id: 'cs_0033_refunded', paid_at: day(9), delivered_at: null, delivery_consent_version: null},
  ]);

  // From now on: an invitation accepted delivers, once; the seat moved back to pending keeps it.
  await stack.worker.db.run(
    `UPDATE grants SET status = 'active', updated_at = ?1 WHERE session_id = 'cs_0033_pending'`,
    NOW,
  );
  await stack.worker.db.run(
    `UPDATE grants SET status = 'pending', updated_at = ?1 WHERE session_id = 'cs_0033_pending'`,
    NOW + 1,
  );
  expect(await stack.worker.db.all(`SELECT delivered_at FROM purchases WHERE session_id = 'cs_0033_pending'`)).toEqual([
    {delivered_at: NOW},
  ]);
});
