/**
 * The worker tests' one way to read and change grant rows in the store of record directly: what a
 * test cannot reach through the API (how old a GitHub reading is, when an invitation was sent, a
 * row another path or an older worker wrote). A purchase's kit repository and its plan's extra
 * repositories are one table, `grants` (migration 0028), the kit's row keyed 'kit': when the table
 * changes, this file changes, and the tests that read through it do not.
 *
 * Apart on purpose: `sellerRevocationMigration.test.ts` and `accessAnswers.test.ts` write the
 * schema before a migration (0027's, and the one access model's), and `seedAgreement.test.ts`
 * compares the seed's rows with what the console reads.
 */
import type {Database} from '../../scripts/support/workerRuntime';

type Row = Record<string, unknown>;
const KIT = `repository_key = 'kit'`;
const EXTRA = `repository_key <> 'kit'`;
/** Column values to set, by column name. */
type Changes = Record<string, unknown>;

/** The kit repository's grant of a purchase (`columns` a comma-separated list), or undefined. */
export async function kitGrant<T = Row>(db: Database, sessionId: string, columns = '*'): Promise<T | undefined> {
  return (await db.all<T>(`SELECT ${columns} FROM grants WHERE ${KIT} AND session_id = ?`, sessionId))[0];
}

/** The kit repository's grants of every purchase of an account (by its user id). */
export function kitGrantsOfUser<T = Row>(db: Database, userId: string, columns = '*'): Promise<T[]> {
  return db.all<T>(`SELECT ${columns} FROM grants WHERE ${KIT} AND user_id = ?`, userId);
}

/** The kit repository's grants of these purchases (those that have one). */
export function kitGrantsOf<T = Row>(db: Database, sessionIds: string[], columns = '*'): Promise<T[]> {
  return db.all<T>(
    `SELECT ${columns} FROM grants WHERE ${KIT} AND session_id IN (${sessionIds.map(() => '?').join(', ')})`,
    ...sessionIds,
  );
}

/** A purchase's grants of its plan's extra repositories, one per repository key. */
export function extraGrants<T = Row>(db: Database, sessionId: string, columns = '*'): Promise<T[]> {
  return db.all<T>(`SELECT ${columns} FROM grants WHERE ${EXTRA} AND session_id = ?`, sessionId);
}

/** The keys of `changes`, which go into the SQL as they are: column names only. */
function columns(changes: Changes): string[] {
  const names = Object.keys(changes);
  if (names.some((name) => !/^[a-z_]+$/.test(name))) throw new Error(`Not column names: ${names.join(', ')}`);
  return names;
}

function assignments(changes: Changes): {sql: string; values: unknown[]} {
  return {
    sql: columns(changes)
      .map((name) => `${name} = ?`)
      .join(', '),
    values: Object.values(changes),
  };
}

/** Sets columns of a purchase's kit grant. */
export function setKitGrant(db: Database, sessionId: string, changes: Changes): Promise<void> {
  const {sql, values} = assignments(changes);
  return db.run(`UPDATE grants SET ${sql} WHERE ${KIT} AND session_id = ?`, ...values, sessionId);
}

/** Sets columns of every kit grant, of every purchase. */
export function setEveryKitGrant(db: Database, changes: Changes): Promise<void> {
  const {sql, values} = assignments(changes);
  return db.run(`UPDATE grants SET ${sql} WHERE ${KIT}`, ...values);
}

/** Sets columns of a purchase's extra repositories' grants. */
export function setExtraGrants(db: Database, sessionId: string, changes: Changes): Promise<void> {
  const {sql, values} = assignments(changes);
  return db.run(`UPDATE grants SET ${sql} WHERE ${EXTRA} AND session_id = ?`, ...values, sessionId);
}

/** The kit grant's last reading of GitHub made `ms` earlier than it was: a cache that old has expired. */
export function ageKitReading(db: Database, sessionId: string, ms: number): Promise<void> {
  return db.run(`UPDATE grants SET checked_at = checked_at - ? WHERE ${KIT} AND session_id = ?`, ms, sessionId);
}

/**
 * An accepted seat of `login` (GitHub id `githubUserId`) on a purchase made by hand, as many
 * buyers' seats as a test needs without the requests that make each: its account is `user-<login>`.
 */
export function insertActiveKitGrant(
  db: Database,
  {sessionId, login, githubUserId, at}: {sessionId: string; login: string; githubUserId: number; at: number},
): Promise<void> {
  return insertKitGrant(db, {
    session_id: sessionId,
    user_id: `user-${login}`,
    github_username: login,
    github_user_id: githubUserId,
    status: 'active',
    version: 1,
    updated_at: at,
  });
}

/** A kit grant written as another path (or a hand) would: the columns given, the rest their defaults. */
export function insertKitGrant(db: Database, row: Changes): Promise<void> {
  const kitRow = {...row, repository_key: 'kit'};
  const names = columns(kitRow);
  return db.run(
    `INSERT INTO grants (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
    ...Object.values(kitRow),
  );
}
