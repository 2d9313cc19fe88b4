/**
 * @jest-environment node
 *
 * The worker suite applies each migration as the statements wrangler's own splitter makes of it,
 * kept by the text's hash and wrangler's version (scripts/support/migrations.ts): a split read
 * back from that keeping is the split wrangler makes, for every migration.
 */
import fs from 'node:fs';
import path from 'node:path';
import {unstable_splitSqlQuery} from 'wrangler';
import {migrationFiles, migrationStatements, migrationText} from '../../scripts/support/migrations';

const KEPT = path.join(__dirname, '..', '..', 'node_modules', '.cache', 'migration-statements');

it.each(migrationFiles())('%s is applied as wrangler splits it, made afresh and read back', (file) => {
  const wranglers = unstable_splitSqlQuery(migrationText(file));
  expect(migrationStatements(file)).toEqual(wranglers);
  // It is kept, and what is kept is read back.
  const kept = fs.readdirSync(KEPT).map((name) => fs.readFileSync(path.join(KEPT, name), 'utf8'));
  expect(kept).toContain(JSON.stringify(wranglers));
  expect(migrationStatements(file)).toEqual(wranglers);
});
