/**
 * `npm run bench:worker`: requests per second and p50/p99 latency of the worker's busiest routes
 * (userHasPaid, the Stripe webhook, /api/leads) under `wrangler dev`, each next to the floor it
 * cannot go below: a worker that does one D1 read (userHasPaid must read the purchase fresh) or
 * one D1 write (the webhook must store the event id, a lead its e-mail, before answering) and
 * nothing else (`d1Worker.js`). An empty worker (`emptyWorker.js`) shows what workerd and
 * wrangler's dev proxy cost alone. Absolute numbers depend on the machine; the ratio of a route to
 * its floor, measured in the same run, is what the figures mean. The goal is ≥ 90% for each route.
 *
 * The machine is shared and its load drifts, so every target is loaded in each of a few rounds,
 * each route right next to its floor (each round in the reverse order of the one before), a
 * route's ratio is taken against its floor of the same round, and the medians are printed. Beside each target it prints the
 * CPU time its `wrangler dev` (wrangler and its workerd) spent per request, read from /proc: that
 * barely moves with the machine's load, so it shows what a noisy ratio only suggests.
 *
 * The worker gets its own D1 in a temporary directory (the developer's local one is never touched),
 * real RS256 ID-token verification against a JWKS this script serves, and a Stripe webhook secret
 * this script signs with.
 *
 * Exits 1 when any request failed or answered non-2xx. A missed goal is printed as
 * MISSED, not turned into an exit code: on a shared machine that would fail at random.
 */
import fs from 'node:fs';
import path from 'node:path';
import {workerCompatibilityDate} from '../wrangler';
import {load, type LoadResult, type Target} from './load';
import {groupCpuSeconds} from './procStats';
import {runWorkerBench} from './workerBench';
import {newLeads, recordedEvents, userHasPaid} from './workerRequests';
import {processGroupOf, startWrangler} from './wranglerDev';

const EMPTY_WORKER = path.join(__dirname, 'emptyWorker.js');
const D1_WORKER = path.join(__dirname, 'd1Worker.js');

const CONNECTIONS = 10;
const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
// workerd compiles lazily and the JWKS is fetched once; neither belongs in the figures.
const WARM_UP_SECONDS = 2;
const WEBHOOK_SECRET = 'whsec_bench';
const USER_ID = 'bench-user';

/** The share of its floor each route should keep. */
const GOAL = 0.9;
/** The order of a round: each route beside its floor, the write floor between its two routes. */
const LOAD_ORDER = ['empty worker', 'userHasPaid', 'one D1 read', 'stripe webhook', 'one D1 write', '/api/leads'];
/** Each route's floor: the one round trip it cannot skip. */
const FLOORS: Record<string, string> = {
  userHasPaid: 'one D1 read',
  'stripe webhook': 'one D1 write',
  '/api/leads': 'one D1 write',
};

function targets(urls: {empty: string; d1: string; worker: string}, token: string): Target[] {
  const constant = () => ({method: 'GET' as const, path: '/', headers: {}});
  return [
    {name: 'empty worker', baseUrl: urls.empty, expectStatus: 200, next: constant},
    {name: 'one D1 read', baseUrl: urls.d1, expectStatus: 200, next: constant},
    {name: 'one D1 write', baseUrl: urls.d1, expectStatus: 200, next: () => ({method: 'POST', path: '/', headers: {}})},
    // A user without a purchase: the usual answer, and the same D1 lookup as a paid one.
    {
      name: 'userHasPaid',
      baseUrl: urls.worker,
      expectStatus: 200,
      expectBody: '{"hasPaid":false}',
      next: userHasPaid(USER_ID, token),
    },
    {name: 'stripe webhook', baseUrl: urls.worker, expectStatus: 200, next: recordedEvents(WEBHOOK_SECRET)},
    {name: '/api/leads', baseUrl: urls.worker, expectStatus: 201, next: newLeads()},
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

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** One target's load in one round, and the CPU time its wrangler dev spent per request meanwhile. */
interface Measurement extends LoadResult {
  cpuMsPerRequest: number;
}

/** Every round's measurement of each target, by name. */
type Rounds = Map<string, Measurement[]>;

async function measure(target: Target): Promise<Measurement> {
  const group = processGroupOf(target.baseUrl);
  const cpuBefore = groupCpuSeconds(group);
  const result = await load(target, {seconds: DURATION_SECONDS, connections: CONNECTIONS});
  const cpuMs = (groupCpuSeconds(group) - cpuBefore) * 1000;
  return {...result, cpuMsPerRequest: cpuMs / Math.max(1, result.requests.total)};
}

/** The median over the rounds of a target's req/s divided by another's in the same round. */
function ratio(rounds: Rounds, name: string, baseline: string): number {
  const of = rounds.get(name)!;
  const base = rounds.get(baseline)!;
  return median(of.map((result, round) => result.requests.average / base[round]!.requests.average));
}

const percent = (share: number) => `${(share * 100).toFixed(0)}%`;

function printTable(rounds: Rounds) {
  const columns = ['req/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx', 'vs empty', 'vs floor', 'CPU ms/req', 'CPU/floor'];
  console.log(
    `\n${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION_SECONDS} s per target; medians over the rounds\n`,
  );
  console.log(`${'target'.padEnd(16)}${columns.map((column) => column.padStart(11)).join('')}`);
  for (const [name, results] of rounds) {
    const floor = FLOORS[name];
    const cells = [
      median(results.map((r) => r.requests.average)).toFixed(0),
      // autocannon records whole milliseconds.
      median(results.map((r) => r.latency.p50)).toFixed(0),
      median(results.map((r) => r.latency.p99)).toFixed(0),
      String(results.reduce((sum, r) => sum + r.errors, 0)),
      String(results.reduce((sum, r) => sum + r.non2xx, 0)),
      percent(ratio(rounds, name, 'empty worker')),
      floor ? percent(ratio(rounds, name, floor)) : '',
      median(results.map((r) => r.cpuMsPerRequest)).toFixed(2),
      floor
        ? percent(median(results.map((r, round) => r.cpuMsPerRequest / rounds.get(floor)![round]!.cpuMsPerRequest)))
        : '',
    ];
    console.log(`${name.padEnd(16)}${cells.map((cell) => cell.padStart(11)).join('')}`);
  }
}

/** One line per route: its share of its floor against the goal. */
function printVerdicts(rounds: Rounds): void {
  console.log('');
  for (const [name, floor] of Object.entries(FLOORS)) {
    const share = ratio(rounds, name, floor);
    const perRound = rounds
      .get(name)!
      .map((r, round) => percent(r.requests.average / rounds.get(floor)!.at(round)!.requests.average));
    const verdict = share >= GOAL ? 'met' : 'MISSED';
    console.log(
      `${name}: ${percent(share)} of ${floor} (goal ≥ ${percent(GOAL)}; rounds ${perRound.join(', ')}): ${verdict}`,
    );
  }
}

for (const [variable, value] of [
  ['BENCH_DURATION', DURATION_SECONDS],
  ['BENCH_ROUNDS', ROUNDS],
] as const) {
  if (!(value > 0)) throw new Error(`${variable} must be a positive number, not ${process.env[variable]}`);
}

runWorkerBench(
  {name: 'worker', user: {uid: USER_ID, email: 'bench@example.com'}},
  async ({stateDir, token, startWorker}) => {
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
      startWrangler(
        'empty worker',
        [
          EMPTY_WORKER,
          '--name',
          'bench-empty',
          '--compatibility-date',
          workerCompatibilityDate(),
          '--persist-to',
          emptyDir,
        ],
        emptyDir,
      ),
      startWrangler('D1 worker', ['--persist-to', d1Dir], d1Dir),
    ]);

    const all = targets({empty: emptyUrl, d1: d1Url, worker: workerUrl}, token);
    for (const target of all) {
      await check(target);
      await load(target, {seconds: WARM_UP_SECONDS, connections: CONNECTIONS});
    }
    const rounds: Rounds = new Map(all.map((target) => [target.name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      const inOrder = LOAD_ORDER.map((name) => all.find((target) => target.name === name)!);
      const order = round % 2 ? inOrder.reverse() : inOrder;
      console.log(`Round ${round + 1} of ${ROUNDS}: ${order.map((target) => target.name).join(', ')}`);
      for (const target of order) rounds.get(target.name)!.push(await measure(target));
    }

    printTable(rounds);
    printVerdicts(rounds);
    const failed = [...rounds].filter(([, results]) => results.some((r) => r.errors + r.non2xx > 0));
    for (const [name, results] of failed) {
      console.log(`${name}: status codes ${results.map((r) => JSON.stringify(r.statusCodeStats ?? {})).join(' ')}`);
    }
    console.log(
      failed.length
        ? `\nFAILED: errors or non-2xx answers from ${failed.map(([name]) => name).join(', ')}`
        : '\nNo errors.',
    );
    return failed.length === 0;
  },
);
