/**
 * `npm run seed:local -- 10000`: fills the local D1 (the one `npm start` and `npm run worker:dev`
 * use, under worker/.wrangler, or LOCAL_STATE_DIR) with that many realistic purchases, to try the
 * seller's console at size. Applies the migrations first; running it again adds nothing twice.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {seedSql} from './local/seedData';
import {APPLY_LOCAL_MIGRATIONS, ensureDevVars, WORKER_DIR, wranglerSync} from './wrangler';

const count = Number(process.argv[2] ?? 1000);
if (!Number.isInteger(count) || count < 1 || count > 1_000_000) {
  console.error(
    `Usage: npm run seed:local -- <purchases>, a whole number from 1 to 1,000,000 (not "${process.argv[2]}").`,
  );
  process.exit(1);
}
const persist = process.env.LOCAL_STATE_DIR ? ['--persist-to', path.resolve(process.env.LOCAL_STATE_DIR)] : [];

ensureDevVars();
wranglerSync([...APPLY_LOCAL_MIGRATIONS, ...persist], WORKER_DIR, {CI: 'true'});
const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'slipway-seed-')), 'seed.sql');
fs.writeFileSync(file, seedSql(count));
try {
  wranglerSync(['d1', 'execute', 'DB', '--local', '--file', file, ...persist], WORKER_DIR);
} finally {
  fs.rmSync(path.dirname(file), {recursive: true, force: true});
}
console.log(`Seeded the local D1 with ${count} purchases and their access, disputes, leads and affiliates.`);
