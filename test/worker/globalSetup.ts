import {ensureDevVars} from '../../scripts/wrangler';
import {BUNDLE_DIR, buildWorkerBundle} from '../../scripts/support/workerRuntime';
import {runAuthEmulator} from '../support/runAuthEmulator';

/**
 * Builds the worker bundle exactly as `wrangler deploy` would (a dry run: so the bundle always
 * builds) and starts the Firebase Auth emulator that issues the tests' ID tokens (the run's one,
 * unless the browser suite's set-up started it).
 */
export default async function globalSetup() {
  ensureDevVars();
  buildWorkerBundle(BUNDLE_DIR);
  await runAuthEmulator();
}
