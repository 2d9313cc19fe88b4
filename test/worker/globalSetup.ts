import {execFileSync} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {startAuthEmulator} from '../../scripts/local/authEmulator';
import {ensureDevVars, WORKER_DIR, WRANGLER, WRANGLER_ENV} from '../../scripts/wrangler';
import {BUNDLE_DIR} from '../support/workerRuntime';

/**
 * Builds the worker bundle exactly as `wrangler deploy` would (a dry run: so the bundle always
 * builds) and starts the Firebase Auth emulator that issues the tests' ID tokens.
 */
export default async function globalSetup() {
  ensureDevVars();
  fs.rmSync(BUNDLE_DIR, {recursive: true, force: true});
  execFileSync(WRANGLER, ['deploy', '--dry-run', '--outdir', BUNDLE_DIR], {
    cwd: WORKER_DIR,
    env: WRANGLER_ENV,
    stdio: 'pipe',
  });
  const emulator = await startAuthEmulator(path.join(BUNDLE_DIR, '..', 'firebase'));
  process.env.TEST_FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
  (globalThis as {authEmulator?: unknown}).authEmulator = emulator.process;
}
