import path from 'node:path';
import {assertChromium} from '../support/chromium';
import {serveStatic, type RunningServer} from '../support/staticServer';
import {buildSite, freePort, ROOT} from './site';

declare global {
  // eslint-disable-next-line no-var
  var __SITE_SERVER__: RunningServer | undefined;
}

/**
 * Once per run: check Chromium, build the site pointing at a port the
 * checkout tests' stand-in worker will listen on, and serve the build.
 */
export default async function globalSetup(): Promise<void> {
  assertChromium();
  const workerPort = await freePort();
  const outDir = path.join(ROOT, '.test-build', 'site');
  buildSite(outDir, {WORKER_URL: `http://127.0.0.1:${workerPort}`});
  const server = await serveStatic(outDir);
  globalThis.__SITE_SERVER__ = server;
  process.env.TEST_SITE_URL = server.url;
  process.env.TEST_SITE_DIR = outDir;
  process.env.TEST_WORKER_PORT = String(workerPort);
}
