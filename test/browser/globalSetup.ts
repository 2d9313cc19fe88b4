import {existsSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {assertChromium} from '../../scripts/support/chromium';
import type {RunningServer} from '../../scripts/support/listen';
import {serveStatic} from '../../scripts/support/staticServer';
import {freePort} from '../../scripts/local/ports';
import {buildSite, ROOT} from '../../scripts/support/site';
import {assertJava} from '../support/nuHtmlChecker';

declare global {
  // eslint-disable-next-line no-var
  var __SITE_SERVERS__: RunningServer[] | undefined;
}

/** The ids the tracking test builds with: well-formed, belonging to nobody. */
export const TRACKING_IDS = {
  META_PIXEL_ID: '1234567890123456',
  GA_MEASUREMENT_ID: 'G-TEST000001',
  CRISP_WEBSITE_ID: '00000000-0000-4000-8000-000000000001',
};

const outDir = path.join(ROOT, '.test-build', 'site');
const trackedDir = path.join(ROOT, '.test-build', 'tracked');
/** What the last builds were made with: the port their checkout calls go to. */
const BUILT_WITH = path.join(ROOT, '.test-build', 'built-with.json');

/** The worker port of the last builds, when TEST_REUSE_BUILD asks for them and they are all there. */
function reusableBuild(): number | undefined {
  if (!process.env.TEST_REUSE_BUILD || ![outDir, trackedDir, BUILT_WITH].every((file) => existsSync(file))) return undefined;
  return (JSON.parse(readFileSync(BUILT_WITH, 'utf8')) as {workerPort: number}).workerPort;
}

/**
 * Once per run: check Chromium and Java; build the site pointing at a port the
 * checkout tests' stand-in worker will listen on, and again with tracking
 * ids; serve both with the headers of their `_headers` (the Content-Security-Policy),
 * as Cloudflare serves them. The builds run one after the other: they share .docusaurus/.
 * `TEST_REUSE_BUILD=1` serves the last run's builds instead, as they are, for a test that
 * needs no build of today's code (the dev server's): minutes saved, but stale for the others.
 */
export default async function globalSetup(): Promise<void> {
  assertChromium();
  assertJava();
  let workerPort = reusableBuild();
  if (workerPort === undefined) {
    workerPort = await freePort();
    buildSite(outDir, {WORKER_URL: `http://127.0.0.1:${workerPort}`});
    buildSite(trackedDir, {WORKER_URL: `http://127.0.0.1:${workerPort}`, ...TRACKING_IDS});
    writeFileSync(BUILT_WITH, JSON.stringify({workerPort}));
  }
  const site = await serveStatic(outDir, 0, {headersFile: true});
  const tracked = await serveStatic(trackedDir, 0, {headersFile: true});
  globalThis.__SITE_SERVERS__ = [site, tracked];
  process.env.TEST_SITE_URL = site.url;
  process.env.TEST_SITE_DIR = outDir;
  process.env.TEST_TRACKED_SITE_URL = tracked.url;
  process.env.TEST_TRACKED_SITE_DIR = trackedDir;
  process.env.TEST_WORKER_PORT = String(workerPort);
}
