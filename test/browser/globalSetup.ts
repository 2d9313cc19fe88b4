import {existsSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {assertChromium} from '../../scripts/support/chromium';
import type {RunningServer} from '../../scripts/support/listen';
import {serveStatic} from '../../scripts/support/staticServer';
import {freePort} from '../../scripts/local/ports';
import {buildSite, ROOT} from '../../scripts/support/site';
import {assertJava} from '../support/nuHtmlChecker';
import {runAuthEmulator, stopRunAuthEmulator} from '../support/runAuthEmulator';
import {prepareMigratedLocalD1} from './migratedLocalD1';
import {prepareSharedStack} from './sharedStack';

declare global {
  var __SITE_SERVERS__: RunningServer[] | undefined;
}

/** The ids the tracking test builds with: well-formed, belonging to nobody. */
export const TRACKING_IDS = {
  META_PIXEL_ID: '1234567890123456',
  GA_MEASUREMENT_ID: 'G-TEST000001',
  CRISP_WEBSITE_ID: '00000000-0000-4000-8000-000000000001',
};

const BUILDS = path.join(ROOT, '.test-build');
/** The worker port the last builds were pointed at, kept beside them for a reuse. */
const PORT_FILE = path.join(BUILDS, 'worker-port');
/** What the plain build printed, for test/browser/buildOutput.test.ts. */
const BUILD_OUTPUT = path.join(BUILDS, 'site-build-output.txt');

/**
 * With `TEST_REUSE_BUILD=1`, the builds already in .test-build/ and the worker port they were
 * built for: a developer rerunning a test file after changing only tests keeps the last builds
 * (two builds take minutes on a busy machine). Null when there is none to reuse; the default is
 * always a fresh build, so a run never tests stale pages by accident.
 */
function reusableBuild(dirs: string[]): number | null {
  if (process.env.TEST_REUSE_BUILD !== '1' || !existsSync(PORT_FILE) || !existsSync(BUILD_OUTPUT)) return null;
  if (!dirs.every((dir) => existsSync(path.join(dir, 'index.html')))) return null;
  return Number(readFileSync(PORT_FILE, 'utf8'));
}

/** The two builds, or the ones kept (`TEST_REUSE_BUILD`): the worker port they point at. */
async function builds(outDir: string, trackedDir: string): Promise<number> {
  const kept = reusableBuild([outDir, trackedDir]);
  if (kept !== null) return kept;
  const workerPort = await freePort();
  // One after the other: they share .docusaurus/, and the second reads the first's bundler cache.
  writeFileSync(BUILD_OUTPUT, await buildSite(outDir, {WORKER_URL: `http://127.0.0.1:${workerPort}`}));
  await buildSite(trackedDir, {WORKER_URL: `http://127.0.0.1:${workerPort}`, ...TRACKING_IDS});
  writeFileSync(PORT_FILE, String(workerPort));
  return workerPort;
}

/**
 * Once per run: check Chromium and Java; build the site pointing at a port the
 * checkout tests' stand-in worker will listen on, and again with tracking
 * ids; serve both with the headers of their `_headers` (the Content-Security-Policy),
 * as Cloudflare serves them. The run's Auth emulator starts while the site builds, and so does the
 * migrated local D1 the stacks start from (migratedLocalD1.ts).
 */
export default async function globalSetup(): Promise<void> {
  assertChromium();
  assertJava();
  const outDir = path.join(BUILDS, 'site');
  const trackedDir = path.join(BUILDS, 'tracked');
  const [built, emulator, migrated] = await Promise.allSettled([
    builds(outDir, trackedDir),
    runAuthEmulator(),
    prepareMigratedLocalD1(),
  ]);
  if (built.status === 'rejected' || emulator.status === 'rejected' || migrated.status === 'rejected') {
    // No emulator left running behind a set-up that failed.
    stopRunAuthEmulator();
    throw [built, emulator, migrated].flatMap((step) => (step.status === 'rejected' ? [step.reason] : []))[0];
  }
  const workerPort = built.value;
  prepareSharedStack();
  const site = await serveStatic(outDir, 0, {headersFile: true});
  const tracked = await serveStatic(trackedDir, 0, {headersFile: true});
  globalThis.__SITE_SERVERS__ = [site, tracked];
  process.env.TEST_SITE_URL = site.url;
  process.env.TEST_SITE_DIR = outDir;
  process.env.TEST_TRACKED_SITE_URL = tracked.url;
  process.env.TEST_TRACKED_SITE_DIR = trackedDir;
  process.env.TEST_WORKER_PORT = String(workerPort);
  process.env.TEST_SITE_BUILD_OUTPUT = BUILD_OUTPUT;
}
