/**
 * A worker stack over `npm run seed:local`'s store of record, as `npm start` sets it up in local
 * mode: the seed's purchases in the local D1, the prompts as the GitHub stand-in's second
 * repository, the stand-in started from the seed's rows (`localRepository.ts`), and a seller who
 * is the admin.
 */
import {LOCAL_GITHUB_EXTRA_REPOS, OWNER} from '../../scripts/local/githubApi';
import {
  RECORDED_EXTRA_GRANTS_SQL,
  RECORDED_GRANTS_SQL,
  type RecordedExtraGrant,
  type RecordedGrant,
  repositoryFromGrants,
} from '../../scripts/local/localRepository';
import {GRANTS_MIGRATION, seedStatements} from '../../scripts/local/seedData';
import {migrationFiles} from '../../scripts/support/migrations';
import {migrationStatements} from '../../scripts/support/migrations';
import {type SignedInUser, startStack, type Stack, uniqueEmail} from './stack';

/**
 * `purchases` seeded as of `now`; `beforeGitHub` may change the rows first, and the stand-in then
 * starts from them as changed. `migrateBefore`: the seed (and `beforeGitHub`) write the schema of
 * before that migration, which is then applied with every one after it, as a deploy would.
 */
export async function startSeededStack({
  purchases,
  now = Date.now(),
  beforeGitHub,
  migrateBefore,
}: {
  purchases: number;
  now?: number;
  beforeGitHub?: (stack: Stack) => Promise<void>;
  migrateBefore?: string;
}): Promise<{stack: Stack; admin: SignedInUser}> {
  // Unique: the worker test files share one Auth emulator.
  const adminEmail = uniqueEmail('seller');
  const stack = await startStack(
    {
      ADMIN_EMAILS: adminEmail,
      GITHUB_EXEMPT: OWNER,
      GITHUB_EXTRA_REPOS: LOCAL_GITHUB_EXTRA_REPOS,
    },
    {migrateBefore},
  );
  const admin = await stack.signUp({email: adminEmail, verified: true});
  const before = migrateBefore !== undefined && migrateBefore <= GRANTS_MIGRATION;
  await stack.worker.db.batch(seedStatements(purchases, now, before ? 'before 0028' : 'grants').map((sql) => ({sql})));
  await beforeGitHub?.(stack);
  if (migrateBefore !== undefined)
    for (const file of migrationFiles().filter((name) => name >= migrateBefore))
      await stack.worker.db.batch(migrationStatements(file).map((sql) => ({sql})));
  stack.github.restore(
    repositoryFromGrants(
      await stack.worker.db.all<RecordedGrant>(RECORDED_GRANTS_SQL),
      await stack.worker.db.all<RecordedExtraGrant>(RECORDED_EXTRA_GRANTS_SQL),
    ),
  );
  return {stack, admin};
}
