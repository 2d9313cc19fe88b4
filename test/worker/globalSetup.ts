import {execFileSync} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {startAuthEmulator} from '../support/firebaseEmulator';
import {ROOT} from '../support/site';
import {BUNDLE_DIR, WORKER_DIR} from '../support/workerRuntime';

/** Offline wrangler: no metrics, no Cloudflare lookups. */
export const WRANGLER_ENV = {...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false'};

/**
 * Builds the worker bundle exactly as `wrangler deploy` would (a dry run: so the bundle always
 * builds) and starts the Firebase Auth emulator that issues the tests' ID tokens.
 */
export default async function globalSetup() {
  // wrangler reads worker/.dev.vars when present; the example is the documented default.
  const devVars = path.join(WORKER_DIR, '.dev.vars');
  if (!fs.existsSync(devVars)) fs.copyFileSync(path.join(WORKER_DIR, '.dev.vars.example'), devVars);
  fs.rmSync(BUNDLE_DIR, {recursive: true, force: true});
  execFileSync(path.join(ROOT, 'node_modules', '.bin', 'wrangler'), ['deploy', '--dry-run', '--outdir', BUNDLE_DIR], {
    cwd: WORKER_DIR,
    env: WRANGLER_ENV,
    stdio: 'pipe',
  });
  const emulator = await startAuthEmulator(path.join(ROOT, '.test-build', 'firebase'));
  process.env.TEST_FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
  (globalThis as {authEmulator?: unknown}).authEmulator = emulator.process;
}
