/**
 * `worker-configuration.d.ts` is generated from `wrangler.jsonc`; a change to the config without
 * `npm run worker:types` would leave the worker typed against bindings it no longer has.
 */
import {spawnSync} from 'node:child_process';
import {WORKER_DIR, WRANGLER, WRANGLER_ENV} from '../../scripts/wrangler';

test('the committed worker types match wrangler.jsonc', () => {
  const result = spawnSync(
    WRANGLER,
    ['types', '--check', '--env-file', '.dev.vars.example'],
    {cwd: WORKER_DIR, env: WRANGLER_ENV, encoding: 'utf8'},
  );
  expect(result.stdout + result.stderr).toContain('are up to date');
  expect(result.status).toBe(0);
});
