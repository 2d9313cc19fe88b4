import path from 'node:path';
import {startAuthEmulator} from '../../scripts/local/authEmulator';
import {ensureDevVars} from '../../scripts/wrangler';
import {BUNDLE_DIR, buildWorkerBundle} from '../../scripts/support/workerRuntime';

/**
 * Builds the worker bundle exactly as `wrangler deploy` would (a dry run: so the bundle always
 * builds) and starts the Firebase Auth emulator that issues the tests' ID tokens.
 */
export default async function globalSetup() {
  ensureDevVars();
  buildWorkerBundle(BUNDLE_DIR);
  const emulator = await startAuthEmulator(path.join(BUNDLE_DIR, '..', 'firebase'));
  process.env.TEST_FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
  (globalThis as {authEmulator?: unknown}).authEmulator = emulator.process;
}
