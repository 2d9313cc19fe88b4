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
import fs from 'node:fs';
import path from 'node:path';
import Stripe from 'stripe';
import {workerCompatibilityDate} from '../wrangler';
import {runWorkerBench} from './workerBench';
import {startWrangler} from './wranglerDev';

const EMPTY_WORKER = path.join(__dirname, 'emptyWorker.js');
const D1_WORKER = path.join(__dirname, 'd1Worker.js');

const CONNECTIONS = 10;
const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
// workerd compiles lazily and the JWKS is fetched once; neither belongs in the figures.
const WARM_UP_SECONDS = 2;
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

if (!(DURATION_SECONDS > 0)) throw new Error(`BENCH_DURATION must be a positive number of seconds, not ${process.env.BENCH_DURATION}`);

runWorkerBench({name: 'worker', user: {uid: USER_ID, email: 'bench@example.com'}}, async ({stateDir, token, startWorker}) => {
  const emptyDir = path.join(stateDir, 'empty');
  fs.mkdirSync(emptyDir);
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

  console.log('Starting the worker and the two baselines under wrangler dev…');
  const [workerUrl, emptyUrl, d1Url] = await Promise.all([
    startWorker({STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_SECRET_KEY: 'sk_test_bench'}),
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
  return failed.length === 0;
});
