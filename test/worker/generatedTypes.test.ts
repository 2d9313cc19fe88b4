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
  // Generated beside the committed file and compared (wrangler's own --check also reads the
  // developer's .dev.vars, so it fails on a local file older than the example).
  const fresh = path.join(WORKER_DIR, '.worker-configuration.check.d.ts');
  try {
    const result = spawnSync(
      WRANGLER,
      ['types', path.basename(fresh), '--include-runtime=false', '--env-file', '.dev.vars.example'],
      {cwd: WORKER_DIR, env: WRANGLER_ENV, encoding: 'utf8'},
    );
    expect(result.status).toBe(0);
    // The second line names the command and a hash of it; the declarations are what must match.
    const declarations = (file: string) =>
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter((_, index) => index !== 1);
    expect(declarations(fresh)).toEqual(declarations(path.join(WORKER_DIR, 'worker-configuration.d.ts')));
  } finally {
    fs.rmSync(fresh, {force: true});
  }
});

test("the runtime types are the release of the compatibility date, and the worker's tsconfig uses them", () => {
  const date = workerCompatibilityDate().replace(/-/g, '');
  expect(packageJson.devDependencies['@cloudflare/workers-types']).toMatch(new RegExp(`^4\\.${date}\\.\\d+$`));
  const tsconfig = fs.readFileSync(path.join(WORKER_DIR, 'tsconfig.json'), 'utf8');
  // Every compatibility date since 2023-07-01 uses that entrypoint of the package.
  expect(tsconfig).toContain('"@cloudflare/workers-types/2023-07-01"');
});
