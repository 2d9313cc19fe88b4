/**
 * @jest-environment node
 *
 * `npm run secrets`: the file is checked before Wrangler uploads anything (scripts/secrets.ts). The
 * CLI runs with --dry-run against this repository's worker/wrangler.jsonc, so nothing reaches Cloudflare.
 */
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {reviewSecrets} from '../../scripts/secrets';

const KNOWN = ['STRIPE_SECRET_KEY', 'GITHUB_TOKEN', 'SITE_URL', 'STRIPE_API_URL'];

test('a clean file passes; an empty value, a var of the environment and a development-only setting are refused; an unknown name warns', () => {
  expect(
    reviewSecrets(
      {STRIPE_SECRET_KEY: 'sk_live_x', GITHUB_TOKEN: 'github_pat_x'},
      {SITE_URL: 'https://shop.example.com'},
      KNOWN,
      'site',
    ),
  ).toEqual({refused: [], warnings: []});
  const {refused, warnings} = reviewSecrets(
    {
      STRIPE_SECRET_KEY: '',
      SITE_URL: 'https://shop.example.com',
      STRIPE_API_URL: 'http://127.0.0.1:12111',
      GITHB_TOKEN: 'github_pat_x',
    },
    {SITE_URL: 'https://shop.example.com'},
    KNOWN,
    'site',
  );
  expect(refused).toEqual([
    expect.stringContaining('STRIPE_SECRET_KEY is empty'),
    expect.stringContaining('SITE_URL is a var of env.site'),
    expect.stringContaining('STRIPE_API_URL serves development and tests only'),
  ]);
  expect(warnings).toEqual([expect.stringContaining('GITHB_TOKEN is not a variable the worker reads')]);
});

describe('the command (--dry-run)', () => {
  const run = (lines: string[]) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'secrets-'));
    const file = path.join(dir, 'production-secrets.env');
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    try {
      return spawnSync(process.execPath, [require.resolve('tsx/cli'), 'scripts/secrets.ts', file, '--dry-run'], {
        encoding: 'utf8',
      });
    } finally {
      fs.rmSync(dir, {recursive: true, force: true});
    }
  };

  test('refuses a file with a development-only setting, uploads nothing, exits 2', () => {
    const result = run(['STRIPE_SECRET_KEY=sk_live_x', 'FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:9099']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('refused: FIREBASE_AUTH_EMULATOR_HOST');
    expect(result.stderr).toContain('Nothing was uploaded');
  });

  test('names what it would upload for a clean file, exits 0', () => {
    const result = run(['STRIPE_SECRET_KEY=sk_live_x', 'GITHUB_TOKEN=github_pat_x']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('would upload 2 secrets to env.site: STRIPE_SECRET_KEY, GITHUB_TOKEN');
  });
});
