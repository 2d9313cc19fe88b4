/**
 * @jest-environment node
 *
 * The preflight's question to Cloudflare about the D1 migrations, asked of a real local D1 with
 * the pinned wrangler (the real run asks the same with --remote): a new database has every file
 * of worker/migrations/ pending, and none once they are applied.
 */
import {mkdtempSync, readdirSync, rmSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {wranglerPendingMigrations} from '../../../scripts/preflight/settings';
import {WORKER_DIR, wranglerSync} from '../../../scripts/wrangler';

// Each wrangler run starts Node and reads the config: seconds on a busy machine.
jest.setTimeout(120_000);

let persist: string;
beforeAll(() => {
  persist = mkdtempSync(path.join(os.tmpdir(), 'preflight-d1-'));
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = 'false';
});
afterAll(() => rmSync(persist, {recursive: true, force: true}));

const local = () => ['--local', '--persist-to', persist];

it('names every migration of a new database, then none once they are applied', async () => {
  const files = readdirSync(path.join(WORKER_DIR, 'migrations'))
    .filter((file) => file.endsWith('.sql'))
    .sort();
  expect(files.length).toBeGreaterThan(0);
  expect(await wranglerPendingMigrations('site', local())).toEqual(files);
  wranglerSync(['d1', 'migrations', 'apply', 'DB', '--env', 'site', ...local()], WORKER_DIR);
  expect(await wranglerPendingMigrations('site', local())).toEqual([]);
});

it("throws wrangler's own error when the environment has no such database", async () => {
  await expect(wranglerPendingMigrations('no-such-env', local())).rejects.toThrow(
    /^wrangler d1 migrations list failed: .+/,
  );
});
