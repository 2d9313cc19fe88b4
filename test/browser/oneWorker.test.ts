/**
 * The one-Worker deployment (`npm run deploy`: `wrangler deploy --env site`), run locally with the
 * same configuration: `wrangler dev --env site` serving this run's built site as static assets,
 * and the API under /api on the same origin.
 */
import type {ChildProcess} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type {Browser} from 'playwright-core';
import {headersForPath, parseHeadersFile} from '../../src/buildTime/headersFile';
import {appConfig, ROUTES, serviceName} from '../../src/config';
import {XSRF_HEADER} from '../../src/config/api';
import {offlineServiceAccount} from '../../scripts/support/offlineServiceAccount';
import {launchChromium} from '../../scripts/support/chromium';
import {freePort, waitForHttp} from '../../scripts/local/ports';
import {spawnGroup, stopGroup} from '../../scripts/processGroup';
import {WORKER_DIR, WRANGLER, WRANGLER_ENV} from '../../scripts/wrangler';
import {watchPage} from './helpers';
import {migratedLocalD1} from './migratedLocalD1';

jest.setTimeout(180_000);

let origin: string;
let siteDir: string;
let worker: ChildProcess;
let stateDir: string;
let output = '';

beforeAll(async () => {
  if (!process.env.TEST_SITE_DIR)
    throw new Error('TEST_SITE_DIR is not set: the browser project builds the site first.');
  siteDir = process.env.TEST_SITE_DIR;
  stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'slipway-one-worker-'));
  // The run's migrated D1: `--env site` names the same database as npm start's (worker/wrangler.jsonc).
  fs.cpSync(migratedLocalD1(), stateDir, {recursive: true});
  const [port, inspector] = [await freePort(), await freePort()];
  origin = `http://127.0.0.1:${port}`;
  worker = spawnGroup(
    WRANGLER,
    [
      'dev',
      '--env',
      'site',
      '--assets',
      siteDir,
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--inspector-port',
      String(inspector),
      '--persist-to',
      stateDir,
      '--show-interactive-dev-session=false',
      // The developer's .dev.vars may say otherwise; this is the deployed configuration.
      // Outside emulator mode the worker refuses to run without a service account (issue 22).
      '--var',
      `SITE_URL:${origin}`,
      '--var',
      'SAME_ORIGIN:true',
      '--var',
      'FIREBASE_AUTH_EMULATOR_HOST:',
      '--var',
      `FIREBASE_SERVICE_ACCOUNT:${await offlineServiceAccount()}`,
    ],
    {cwd: WORKER_DIR, env: WRANGLER_ENV},
  );
  worker.stdout!.on('data', (chunk) => (output += chunk));
  worker.stderr!.on('data', (chunk) => (output += chunk));
  await waitForHttp(`${origin}/api/`, {child: worker, timeoutMs: 150_000}).catch((error) => {
    throw new Error(`wrangler dev --env site did not start: ${error.message}\n${output}`);
  });
});

afterAll(async () => {
  if (worker) await stopGroup(worker);
  if (stateDir) fs.rmSync(stateDir, {recursive: true, force: true});
});

const titleOf = async (response: Response) => /<title[^>]*>([^<]*)<\/title>/.exec(await response.text())?.[1];

describe('one Worker serving the site and the API (wrangler dev --env site)', () => {
  it('serves the built pages at their clean URLs, and the site’s own 404 page for the rest', async () => {
    expect(await titleOf(await fetch(`${origin}/`))).toMatch(new RegExp(`\\| ${appConfig.appName}$`));
    const docs = await fetch(`${origin}/docs/features/payments`);
    expect(docs.status).toBe(200);
    expect(await titleOf(docs)).toBe(`Payments and the Stripe webhook | ${appConfig.appName}`);
    expect((await fetch(`${origin}/dashboard`)).status).toBe(200);
    // Outside /api the worker is never asked: an unknown path, or an API path without the prefix.
    for (const missing of ['/no-such-page', '/userHasPaid']) {
      const response = await fetch(`${origin}${missing}`, {headers: {'sec-fetch-mode': 'navigate'}});
      expect(response.status).toBe(404);
      expect(await titleOf(response)).toBe(`Page Not Found | ${appConfig.appName}`);
    }
  });

  it('answers the API under /api, and asks changes for the token its first answer set', async () => {
    const health = await fetch(`${origin}/api/`);
    expect(await health.json()).toEqual({name: `${serviceName}-worker`, ok: true});
    const token = /XSRF-TOKEN=([^;]+)/.exec(health.headers.get('set-cookie') ?? '')?.[1];
    expect(token).toBeDefined();

    const lead = (headers: Record<string, string>) =>
      fetch(`${origin}/api/leads`, {
        method: 'POST',
        headers: {'content-type': 'application/json', ...headers},
        body: JSON.stringify({email: `one.worker.${Date.now()}@example.com`}),
      });
    const refused = await lead({});
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({code: 'XSRF_FAILED'});
    expect((await lead({cookie: `XSRF-TOKEN=${token}`, [XSRF_HEADER]: token!})).status).toBe(201);
  });

  it('sends the pages the policy of the build’s _headers, and the API’s answers their own headers', async () => {
    const rules = parseHeadersFile(fs.readFileSync(path.join(siteDir, '_headers'), 'utf8'));
    for (const page of [ROUTES.home, ROUTES.signIn, ROUTES.dashboard, '/docs/features/payments', '/no-such-page']) {
      const response = await fetch(`${origin}${page}`, {headers: {'sec-fetch-mode': 'navigate'}});
      expect([page, response.headers.get('content-security-policy')]).toEqual([
        page,
        headersForPath(rules, page)['Content-Security-Policy'],
      ]);
    }
    // A page that holds a token gets two policies, `/*`'s and its own: the browser enforces both.
    expect(headersForPath(rules, ROUTES.signIn)['Content-Security-Policy']).toContain(", script-src 'self'");
    for (const answer of [await fetch(`${origin}/api/`), await fetch(`${origin}/api/no-such-route`)]) {
      expect(answer.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    }
    expect((await fetch(`${origin}/_headers`)).status).toBe(404);
  });

  it('renders the landing page in Chromium with every asset it needs, and no console error', async () => {
    const browser: Browser = await launchChromium({offline: true});
    try {
      const page = await browser.newPage();
      const {errors} = watchPage(page);
      const failed: string[] = [];
      page.on('response', (response) => {
        if (response.url().startsWith(origin) && response.status() >= 400)
          failed.push(`${response.status()} ${response.url()}`);
      });
      await page.goto(`${origin}/`);
      await page.waitForFunction(() => document.documentElement.dataset.hasHydrated === 'true');
      await page.getByRole('heading', {level: 1}).waitFor();
      expect(failed).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
