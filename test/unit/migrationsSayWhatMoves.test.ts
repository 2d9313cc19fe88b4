/**
 * @jest-environment node
 *
 * Every D1 migration that writes or drops rows (INSERT, UPDATE, DELETE, DROP TABLE: data copied, filled
 * in, moved or dropped)
 * says so on a `-- Moves data:` line, and only those: the preflight warns before a deploy applies
 * one to a database in use, since going back past it takes the data back too
 * (scripts/support/migrations.ts).
 */
import {unstable_splitSqlQuery} from 'wrangler';
import {beforeMigrationsLine, migrationFiles, migrationText, movedData} from '../../scripts/support/migrations';

/** Whether one of the migration's statements writes rows or drops a table of them, its comments left out. */
function writesRows(sql: string): boolean {
  return unstable_splitSqlQuery(sql).some((statement) =>
    /^(INSERT|UPDATE|DELETE|REPLACE|DROP\s+TABLE)\b/i.test(
      statement
        .split('\n')
        .filter((line) => !line.trim().startsWith('--'))
        .join('\n')
        .trim(),
    ),
  );
}

it.each(migrationFiles())('%s says whether it moves data', (file) => {
  const sql = migrationText(file);
  expect({file, movesData: movedData(sql) !== null}).toEqual({file, movesData: writesRows(sql)});
});

it('reads what a migration says it moves', () => {
  expect(movedData('-- Moves data: the rows of a into b.\nINSERT INTO b SELECT * FROM a;')).toBe(
    'the rows of a into b.',
  );
  expect(movedData('-- Adds a column.\nALTER TABLE a ADD COLUMN c INTEGER;')).toBeNull();
});

it('npm run deploy names the time before the migrations to the second, as wrangler d1 time-travel restore takes it', () => {
  expect(beforeMigrationsLine('site', new Date('2026-07-01T12:00:00.123Z'))).toBe(
    '[deploy] The D1 database before the migrations is that of 2026-07-01T12:00:00Z. To go back to it: ' +
      'cd worker && npx wrangler d1 time-travel restore DB --env site --timestamp=2026-07-01T12:00:00Z, then npx wrangler rollback --env site',
  );
});
