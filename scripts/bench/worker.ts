/**
 * `npm run bench:worker`: requests per second and p50/p99 latency of the worker's busiest routes
 * (userHasPaid, the Stripe webhook, /api/leads) under `wrangler dev`, next to a worker that only
 * answers a constant, loaded the same way in the same run on the same workerd. The ratios to that
 * empty worker are what the figures mean: absolute numbers depend on the machine, not the code.
 *
 * The worker gets its own D1 in a temporary directory (the developer's local one is never touched),
 * real RS256 ID-token verification against a JWKS this script serves, and a Stripe webhook secret
 * this script signs with. Every webhook carries a new event id and every lead a new e-mail and
 * client address, so the load exercises the D1 writes instead of duplicates and rate limits.
 *
 * A second baseline does one D1 read or write and nothing else: what a route that cannot skip that
 * round trip can reach on this runtime.
 *
 * Exits 1 when any request failed or answered non-2xx. Missing a throughput target is only printed.
 */
import autocannon from 'autocannon';
import {type ChildProcess, spawnSync} from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {exportJWK, generateKeyPair, SignJWT} from 'jose';
import Stripe from 'stripe';
import {freePort} from '../local/ports';
import {signalGroup, spawnGroup, stopGroup} from '../processGroup';
import {ensureDevVars, WORKER_DIR, WRANGLER, WRANGLER_ENV, workerCompatibilityDate} from '../wrangler';

const EMPTY_WORKER = path.join(__dirname, 'emptyWorker.js');
const D1_WORKER = path.join(__dirname, 'd1Worker.js');

const CONNECTIONS = 10;
const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
// workerd compiles lazily and the JWKS is fetched once; neither belongs in the figures.
const WARM_UP_SECONDS = 2;
const PROJECT = 'demo-slipway';
const WEBHOOK_SECRET = 'whsec_bench';
const USER_ID = 'bench-user';
/**
 * Share of the empty worker's requests per second each route should keep, and the baseline that
 * does only the D1 round trip the route cannot skip (the unpaid answer must be read fresh; the
 * event id must be stored before Stripe gets its 2xx).
 */
const TARGETS: Record<string, {share: number; ceiling: string}> = {
  userHasPaid: {share: 0.7, ceiling: 'one D1 read'},
  'stripe webhook': {share: 0.4, ceiling: 'one D1 write'},
};

interface BenchRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

interface Target {
  name: string;
  baseUrl: string;
  expectStatus: number;
  expectBody?: string;
  /** Called for every request, so routes that must not see repeats get fresh ones. */
  next(): BenchRequest;
}

interface Measurement {
  name: string;
  result: autocannon.Result;
}

/** Children run in their own process group so that wrangler's workerd goes down with it. */
const children = new Set<ChildProcess>();

async function stopChildren() {
  await Promise.all(
    [...children].map(async (child) => {
      await stopGroup(child);
      children.delete(child);
    }),
  );
}

process.on('exit', () => children.forEach((child) => signalGroup(child, 'SIGKILL')));
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => process.exit(130));
}

function wranglerSync(args: string[], cwd: string) {
  const result = spawnSync(WRANGLER, args, {cwd, env: WRANGLER_ENV, encoding: 'utf8'});
  if (result.status !== 0) {
    throw new Error(`wrangler ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  }
}

/** `wrangler dev` on a free port, resolved once GET / answers 200 JSON. */
async function startWrangler(name: string, args: string[], cwd: string): Promise<string> {
  const [port, inspectorPort] = [await freePort(), await freePort()];
  const child = spawnGroup(
    WRANGLER,
    ['dev', ...args, '--ip', '127.0.0.1', '--port', String(port), '--inspector-port', String(inspectorPort), '--show-interactive-dev-session=false'],
    {cwd, env: WRANGLER_ENV},
  );
  children.add(child);
  // Kept for the error message; wrangler's per-request log lines would otherwise fill the pipe.
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name}: wrangler dev exited (${child.exitCode}):\n${output}`);
    try {
      // A worker that accepts the connection but never answers must not hang the bench.
      const response = await fetch(`${url}/`, {signal: AbortSignal.timeout(5000)});
      if (response.status === 200) {
        await response.json();
        return url;
      }
    } catch {
      // Not listening yet, or not JSON yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${name}: wrangler dev did not answer on ${url} within 90 s:\n${output}`);
}

/** The signing keys, as Google serves them: cacheable, so the worker fetches them once. */
function serveJwks(jwks: object): Promise<{url: string; close(): void}> {
  const body = JSON.stringify(jwks);
  const server = http.createServer((req, res) => {
    if (req.url !== '/jwks') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {'content-type': 'application/json', 'cache-control': 'public, max-age=3600'}).end(body);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const {port} = server.address() as net.AddressInfo;
      resolve({url: `http://127.0.0.1:${port}/jwks`, close: () => server.close()});
    });
  });
}

/** A Firebase-shaped ID token signed with our key: the worker runs its full RS256 verification. */
async function idTokenAndKeys() {
  const kid = 'bench-key';
  const {publicKey, privateKey} = await generateKeyPair('RS256');
  const jwk = {...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig'};
  const now = Math.floor(Date.now() / 1000);
  const token = await new SignJWT({email: 'bench@example.com', email_verified: true})
    .setProtectedHeader({alg: 'RS256', kid})
    .setIssuer(`https://securetoken.google.com/${PROJECT}`)
    .setAudience(PROJECT)
    .setSubject(USER_ID)
    .setIssuedAt(now - 10)
    .setExpirationTime(now + 3600)
    .sign(privateKey);
  return {token, jwks: {keys: [jwk]}};
}

function targets(urls: {empty: string; d1: string; worker: string}, token: string): Target[] {
  const workerUrl = urls.worker;
  const stripe = new Stripe('sk_test_x');
  let eventCount = 0;
  let leadCount = 0;
  return [
    {name: 'empty worker', baseUrl: urls.empty, expectStatus: 200, next: () => ({method: 'GET', path: '/', headers: {}})},
    {name: 'one D1 read', baseUrl: urls.d1, expectStatus: 200, next: () => ({method: 'GET', path: '/', headers: {}})},
    {name: 'one D1 write', baseUrl: urls.d1, expectStatus: 200, next: () => ({method: 'POST', path: '/', headers: {}})},
    {
      name: 'userHasPaid',
      baseUrl: workerUrl,
      expectStatus: 200,
      // A user without a purchase: the usual answer, and the same D1 lookup as a paid one.
      expectBody: '{"hasPaid":false}',
      next: () => ({method: 'GET', path: `/userHasPaid?userId=${USER_ID}`, headers: {authorization: `Bearer ${token}`}}),
    },
    {
      name: 'stripe webhook',
      baseUrl: workerUrl,
      expectStatus: 200,
      next: () => {
        const created = Math.floor(Date.now() / 1000);
        // An event type the worker only records: the figure is signature check plus the D1 write.
        const payload = JSON.stringify({
          id: `evt_bench_${++eventCount}`,
          object: 'event',
          type: 'customer.created',
          created,
          data: {object: {id: 'cus_bench', object: 'customer'}},
          livemode: false,
          api_version: '2025-01-27.acacia',
          pending_webhooks: 1,
          request: {id: null, idempotency_key: null},
        });
        const signature = stripe.webhooks.generateTestHeaderString({payload, secret: WEBHOOK_SECRET, timestamp: created});
        return {
          method: 'POST',
          path: '/api/webhook/stripe',
          headers: {'content-type': 'application/json', 'stripe-signature': signature},
          body: payload,
        };
      },
    },
    {
      name: '/api/leads',
      baseUrl: workerUrl,
      expectStatus: 201,
      next: () => {
        const n = ++leadCount;
        // Leads are rate-limited per client address; one address per request keeps every answer a 201.
        const ip = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
        return {
          method: 'POST',
          path: '/api/leads',
          headers: {'content-type': 'application/json', 'cf-connecting-ip': ip},
          body: JSON.stringify({email: `bench.${n}@example.com`}),
        };
      },
    },
  ];
}

/** One request before the load, so a misconfiguration fails loudly instead of as a wall of non-2xx. */
async function check(target: Target) {
  const {method, path: urlPath, headers, body} = target.next();
  const response = await fetch(`${target.baseUrl}${urlPath}`, {method, headers, body});
  const text = await response.text();
  if (response.status !== target.expectStatus || (target.expectBody !== undefined && text !== target.expectBody)) {
    const expected = `${target.expectStatus} ${target.expectBody ?? ''}`.trim();
    throw new Error(`${target.name}: ${method} ${urlPath} answered ${response.status} ${text}, expected ${expected}`);
  }
}

function load(target: Target, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: target.baseUrl,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [{setupRequest: (request) => ({...request, ...target.next()})}],
  });
}

const ratio = (m: Measurement, empty: Measurement) => m.result.requests.average / empty.result.requests.average;
const failures = ({result}: Measurement) => result.errors + result.non2xx;

function printTable(measurements: Measurement[]) {
  const empty = measurements[0]!;
  const columns = ['req/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx', 'vs empty'];
  console.log(`\n${CONNECTIONS} connections, ${DURATION_SECONDS} s per target after a ${WARM_UP_SECONDS} s warm-up\n`);
  console.log(`${'target'.padEnd(16)}${columns.map((column) => column.padStart(10)).join('')}`);
  for (const m of measurements) {
    const {requests, latency, errors, non2xx} = m.result;
    const cells = [
      requests.average.toFixed(0),
      // autocannon records whole milliseconds.
      latency.p50.toFixed(0),
      latency.p99.toFixed(0),
      String(errors),
      String(non2xx),
      `${(ratio(m, empty) * 100).toFixed(0)}%`,
    ];
    console.log(`${m.name.padEnd(16)}${cells.map((cell) => cell.padStart(10)).join('')}`);
  }
}

function printTargets(measurements: Measurement[]) {
  const empty = measurements[0]!;
  console.log('');
  for (const m of measurements) {
    const target = TARGETS[m.name];
    if (target === undefined) continue;
    const share = ratio(m, empty);
    const verdict = share >= target.share ? 'met' : 'below target';
    const ceiling = measurements.find((other) => other.name === target.ceiling);
    const context = ceiling ? `; ${target.ceiling} alone: ${(ratio(ceiling, empty) * 100).toFixed(0)}%` : '';
    console.log(`${m.name}: ${(share * 100).toFixed(0)}% of the empty worker (target ≥ ${target.share * 100}%): ${verdict}${context}`);
  }
  for (const m of measurements.filter((m) => failures(m) > 0)) {
    console.log(`${m.name}: ${m.result.errors} errors, status codes ${JSON.stringify(m.result.statusCodeStats ?? {})}`);
  }
}

async function main() {
  if (!(DURATION_SECONDS > 0)) throw new Error(`BENCH_DURATION must be a positive number of seconds, not ${process.env.BENCH_DURATION}`);
  // wrangler refuses to start without it; the example's values are overridden by --var below.
  ensureDevVars();

  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'slipway-bench-worker-'));
  const emptyDir = path.join(stateDir, 'empty');
  fs.mkdirSync(emptyDir);
  const {token, jwks} = await idTokenAndKeys();
  const jwksServer = await serveJwks(jwks);
  try {
    console.log('Applying migrations to a fresh local D1…');
    wranglerSync(['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', stateDir], WORKER_DIR);

    console.log('Starting the worker and the two baselines under wrangler dev…');
    const vars = {
      SITE_URL: 'http://localhost:4200',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_SECRET_KEY: 'sk_test_bench',
      FIREBASE_PROJECT_ID: PROJECT,
      // Empty: no emulator shortcut, every token goes through the RS256 check.
      FIREBASE_AUTH_EMULATOR_HOST: '',
      FIREBASE_JWKS_URL: jwksServer.url,
    };
    const d1Dir = path.join(stateDir, 'd1');
    fs.mkdirSync(d1Dir);
    fs.writeFileSync(
      path.join(d1Dir, 'wrangler.json'),
      JSON.stringify({
        name: 'bench-d1',
        main: D1_WORKER,
        compatibility_date: workerCompatibilityDate(),
        d1_databases: [{binding: 'DB', database_name: 'bench', database_id: '00000000-0000-0000-0000-000000000001'}],
      }),
    );
    const [workerUrl, emptyUrl, d1Url] = await Promise.all([
      startWrangler('worker', ['--persist-to', stateDir, ...Object.entries(vars).flatMap(([name, value]) => ['--var', `${name}:${value}`])], WORKER_DIR),
      // Run from a directory without a wrangler config, so worker/wrangler.jsonc is not picked up.
      startWrangler('empty worker', [EMPTY_WORKER, '--name', 'bench-empty', '--compatibility-date', workerCompatibilityDate(), '--persist-to', emptyDir], emptyDir),
      startWrangler('D1 worker', ['--persist-to', d1Dir], d1Dir),
    ]);

    const measurements: Measurement[] = [];
    for (const target of targets({empty: emptyUrl, d1: d1Url, worker: workerUrl}, token)) {
      await check(target);
      console.log(`Loading ${target.name}…`);
      await load(target, WARM_UP_SECONDS);
      measurements.push({name: target.name, result: await load(target, DURATION_SECONDS)});
    }

    printTable(measurements);
    printTargets(measurements);
    const failed = measurements.filter((m) => failures(m) > 0);
    console.log(failed.length ? `\nFAILED: errors or non-2xx answers from ${failed.map((m) => m.name).join(', ')}` : '\nNo errors.');
    process.exitCode = failed.length ? 1 : 0;
  } finally {
    await stopChildren();
    jwksServer.close();
    fs.rmSync(stateDir, {recursive: true, force: true});
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
