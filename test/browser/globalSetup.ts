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

/**
 * Once per run: check Chromium and Java; build the site pointing at a port the
 * checkout tests' stand-in worker will listen on, and again with tracking
 * ids; serve both with the headers of their `_headers` (the Content-Security-Policy),
 * as Cloudflare serves them. The builds run one after the other: they share .docusaurus/.
 */
export default async function globalSetup(): Promise<void> {
  assertChromium();
  assertJava();
  const workerPort = await freePort();
  const outDir = path.join(ROOT, '.test-build', 'site');
  buildSite(outDir, {WORKER_URL: `http://127.0.0.1:${workerPort}`});
  const trackedDir = path.join(ROOT, '.test-build', 'tracked');
  buildSite(trackedDir, {WORKER_URL: `http://127.0.0.1:${workerPort}`, ...TRACKING_IDS});
  const site = await serveStatic(outDir, 0, {headersFile: true});
  const tracked = await serveStatic(trackedDir, 0, {headersFile: true});
  globalThis.__SITE_SERVERS__ = [site, tracked];
  process.env.TEST_SITE_URL = site.url;
  process.env.TEST_SITE_DIR = outDir;
  process.env.TEST_TRACKED_SITE_URL = tracked.url;
  process.env.TEST_TRACKED_SITE_DIR = trackedDir;
  process.env.TEST_WORKER_PORT = String(workerPort);
}
