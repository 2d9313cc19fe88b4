/**
 * A local D1 with every migration applied, made once and copied for each local stack the browser
 * suite starts. wrangler applies the migrations one file at a time, each in a Miniflare of its own:
 * 27 core-s for a fresh D1 against 4 for one already up to date (measured: issue 39), and a run
 * starts several stacks. Each stack's `npm start` still runs the apply, which then finds nothing to
 * do. The journey's stack starts from an empty D1, as a buyer's first `npm start` does.
 *
 * Kept in .test-build/ under the hash of what makes it (the migrations, wrangler's version and
 * worker/wrangler.jsonc, which names the database file): a rerun makes it again only after a change.
 */
import {execFile} from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {promisify} from 'node:util';
import {migrationFiles, migrationText, wranglerVersion} from '../../scripts/support/migrations';
import {ROOT} from '../../scripts/support/site';
import {APPLY_LOCAL_MIGRATIONS, WORKER_DIR, WRANGLER, WRANGLER_ENV} from '../../scripts/wrangler';
import {fromGlobalSetup} from './fromGlobalSetup';

const VARIABLE = 'TEST_MIGRATED_D1_DIR';
const KEPT = path.join(ROOT, '.test-build', 'migrated-d1');

function key(): string {
  const hash = crypto.createHash('sha256');
  hash.update(wranglerVersion());
  hash.update(fs.readFileSync(path.join(WORKER_DIR, 'wrangler.jsonc')));
  for (const file of migrationFiles()) hash.update(`${file}\n${migrationText(file)}`);
  return hash.digest('hex').slice(0, 16);
}

/** globalSetup: makes the migrated D1 (or finds it made) and tells the test files where it is. */
export async function prepareMigratedLocalD1(): Promise<void> {
  const dir = path.join(KEPT, key());
  if (!fs.existsSync(dir)) {
    // Made aside, then renamed: a run stopped half way leaves no half-migrated D1 to copy.
    fs.rmSync(KEPT, {recursive: true, force: true});
    const aside = `${dir}.${process.pid}`;
    await promisify(execFile)(WRANGLER, [...APPLY_LOCAL_MIGRATIONS, '--persist-to', aside], {
      cwd: WORKER_DIR,
      env: {...WRANGLER_ENV, CI: 'true'},
    }).catch((error: {stdout?: string; stderr?: string}) => {
      throw new Error(`The local D1 migrations failed:\n${error.stdout}\n${error.stderr}`, {cause: error});
    });
    fs.renameSync(aside, dir);
  }
  process.env[VARIABLE] = dir;
}

/** The migrated D1's folder, for `startLocalStack`'s `stateFrom` (or to copy as a `--persist-to` folder). */
export function migratedLocalD1(): string {
  return fromGlobalSetup(VARIABLE);
}
