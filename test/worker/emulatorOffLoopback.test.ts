/**
 * Emulator mode through the one-Worker layout as `wrangler dev --env site` runs it, with the
 * committed defaults of wrangler.jsonc's "site" environment (a demo- project, a localhost
 * SITE_URL) and FIREBASE_AUTH_EMULATOR_HOST set: what a deploy that forgot FIREBASE_PROJECT_ID
 * and carried the emulator host would run. Those variables all pass the settings check, so each
 * request must show it was made on this machine. wrangler dev is bound to every interface here,
 * and called on loopback, on this machine's address on its network, and with what a proxy or
 * Cloudflare would pass on (another Host, another cf-connecting-ip): what reaches the worker is
 * what a deployed worker would see.
 */
import type {ChildProcess} from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {unstable_readConfig} from 'wrangler';
import {serviceName} from '../../src/config';
import {freePort, waitForHttp} from '../../scripts/local/ports';
import {spawnGroup, stopGroup} from '../../scripts/processGroup';
import {WORKER_DIR, WRANGLER, WRANGLER_ENV} from '../../scripts/wrangler';

jest.setTimeout(180_000);

let port: number;
let worker: ChildProcess;
let dir: string;
let output = '';

/** This machine's first IPv4 address that is not loopback, if it has one. */
const lanAddress = Object.values(os.networkInterfaces())
  .flat()
  .find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'slipway-emulator-off-loopback-'));
  const assets = path.join(dir, 'site');
  fs.mkdirSync(assets);
  fs.writeFileSync(path.join(assets, 'index.html'), '<!doctype html><title>Slipway</title>');
  fs.writeFileSync(path.join(assets, '404.html'), '<!doctype html><title>Page Not Found</title>');
  // The "site" environment's committed vars, each passed on, so that a developer's .dev.vars
  // (which wrangler dev reads too) cannot change what is tested.
  const defaults = unstable_readConfig({config: path.join(WORKER_DIR, 'wrangler.jsonc'), env: 'site'}).vars as Record<
    string,
    string
  >;
  const vars = {...defaults, FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099', STRIPE_SECRET_KEY: ''};
  port = await freePort();
  const inspector = await freePort();
  worker = spawnGroup(
    WRANGLER,
    [
      'dev',
      '--env',
      'site',
      '--assets',
      assets,
      '--ip',
      '0.0.0.0',
      '--port',
      String(port),
      '--inspector-port',
      String(inspector),
      '--persist-to',
      path.join(dir, 'state'),
      '--show-interactive-dev-session=false',
      ...Object.entries(vars).flatMap(([name, value]) => ['--var', `${name}:${value}`]),
    ],
    {cwd: WORKER_DIR, env: WRANGLER_ENV},
  );
  worker.stdout!.on('data', (chunk) => (output += chunk));
  worker.stderr!.on('data', (chunk) => (output += chunk));
  await waitForHttp(`http://127.0.0.1:${port}/api/`, {child: worker, timeoutMs: 150_000}).catch((error) => {
    throw new Error(`wrangler dev --env site did not start: ${error.message}\n${output}`);
  });
});

afterAll(async () => {
  if (worker) await stopGroup(worker);
  if (dir) fs.rmSync(dir, {recursive: true, force: true});
});

/** GET through node:http, which sends the Host header it is given (fetch does not). */
function get(
  address: string,
  pathname: string,
  headers: Record<string, string> = {},
): Promise<{status: number; body: unknown}> {
  return new Promise((resolve, reject) => {
    const request = http.get({host: address, port, path: pathname, headers}, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({status: response.statusCode ?? 0, body: JSON.parse(text)}));
    });
    request.on('error', reject);
  });
}

const REFUSAL = {
  error:
    'FIREBASE_AUTH_EMULATOR_HOST is set, so the worker answers only requests made on this machine (loopback), and this one was not. Unset FIREBASE_AUTH_EMULATOR_HOST outside development.',
  code: 'MISCONFIGURED',
};

describe('wrangler dev --env site with the committed defaults and FIREBASE_AUTH_EMULATOR_HOST', () => {
  test('on loopback it answers, as npm start needs', async () => {
    expect(await get('127.0.0.1', '/api/')).toEqual({status: 200, body: {name: `${serviceName}-worker`, ok: true}});
    expect(await get('127.0.0.1', '/api/', {host: `localhost:${port}`})).toEqual({
      status: 200,
      body: {name: `${serviceName}-worker`, ok: true},
    });
  });

  const offLoopback: [string, () => Promise<{status: number; body: unknown}>][] = [
    [
      'with another Host (the name a deployed worker is reached by)',
      () => get('127.0.0.1', '/api/', {host: 'slipway.dev'}),
    ],
    [
      'with the cf-connecting-ip of another caller',
      () => get('127.0.0.1', '/api/', {'cf-connecting-ip': '203.0.113.9'}),
    ],
  ];
  // Every machine with a network has this one; wrangler dev then sets cf-connecting-ip to it.
  if (lanAddress)
    offLoopback.unshift([`on this machine's network address (${lanAddress})`, () => get(lanAddress, '/api/')]);

  test.each(offLoopback)('a request %s is 503 MISCONFIGURED, naming the variable', async (_label, send) => {
    expect(await send()).toEqual({status: 503, body: REFUSAL});
  });
});
