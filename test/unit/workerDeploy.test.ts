/**
 * @jest-environment node
 *
 * `npm run worker:deploy` ships the worker alone (two origins): the top level of
 * worker/wrangler.jsonc, named as such (`--env=''`), so that Wrangler neither guesses nor warns
 * that several environments are defined. Checked with Wrangler's own dry run, offline.
 */
import {spawnSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {WORKER_DIR, WRANGLER_ENV} from '../../scripts/wrangler';

const script: string = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')).scripts[
  'worker:deploy'
];
const wranglerCommands = script
  .split('&&')
  .map((part) => part.trim())
  .filter((part) => part.startsWith('wrangler '));

it('names the environment in every wrangler command it runs', () => {
  expect(wranglerCommands.length).toBeGreaterThanOrEqual(2);
  for (const command of wranglerCommands) expect(command).toMatch(/ --env=''$/);
});

it("deploys the top level without Wrangler's warning about environments", () => {
  const deploy = wranglerCommands.find((command) => command.startsWith('wrangler deploy'))!;
  const outdir = mkdtempSync(path.join(os.tmpdir(), 'worker-deploy-'));
  try {
    // The script's own command, through the shell as npm runs it, made a dry run.
    const result = spawnSync('sh', ['-c', `npx ${deploy} --dry-run --outdir ${outdir}`], {
      cwd: WORKER_DIR,
      env: WRANGLER_ENV,
      encoding: 'utf8',
    });
    const output = `${result.stdout}\n${result.stderr}`;
    expect(result.status).toBe(0);
    expect(output).not.toMatch(/Multiple environments are defined/);
    // The top level's vars: the one-Worker `site` environment's SAME_ORIGIN is not among them.
    expect(output).toMatch(/env\.SITE_URL/);
    expect(output).not.toMatch(/env\.SAME_ORIGIN/);
  } finally {
    rmSync(outdir, {recursive: true, force: true});
  }
}, 120_000);
