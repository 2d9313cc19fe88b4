/**
 * The worker's types: `Env` is generated from `wrangler.jsonc` (`npm run worker:types`, bindings
 * only), and the runtime's types come from `@cloudflare/workers-types`, pinned to the release of
 * the worker's compatibility date. A change to the config without the other would leave the worker
 * typed against bindings or APIs it does not have.
 */
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import packageJson from '../../package.json';
import {WORKER_DIR, WRANGLER, WRANGLER_ENV, workerCompatibilityDate} from '../../scripts/wrangler';

test('the committed Env matches wrangler.jsonc', () => {
  const result = spawnSync(
    WRANGLER,
    ['types', '--check', '--include-runtime=false', '--env-file', '.dev.vars.example'],
    {cwd: WORKER_DIR, env: WRANGLER_ENV, encoding: 'utf8'},
  );
  expect(result.stdout + result.stderr).toContain('are up to date');
  expect(result.status).toBe(0);
});

test('the runtime types are the release of the compatibility date, and the worker compiles against them', () => {
  const date = workerCompatibilityDate().replace(/-/g, '');
  expect(packageJson.devDependencies['@cloudflare/workers-types']).toMatch(new RegExp(`^4\\.${date}\\.\\d+$`));
  const tsconfig = fs.readFileSync(path.join(WORKER_DIR, 'tsconfig.json'), 'utf8');
  // Every compatibility date since 2023-07-01 uses that entrypoint of the package.
  expect(tsconfig).toContain('"@cloudflare/workers-types/2023-07-01"');
});
