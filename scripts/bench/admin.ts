/**
 * `npm run bench:admin`: how fast the seller's console answers with 10,000 purchases. The worker
 * runs under `wrangler dev` with its own D1 in a temporary directory, seeded as
 * `npm run seed:local -- 10000` seeds, and an admin's ID token this script signs (full RS256
 * verification). Each page is asked for in turn, one request at a time, as a seller's browser
 * would, after a warm-up; the figures are latencies in milliseconds.
 *
 * The goal: the first page of purchases answers within 100 ms (median). Exits 1 when it does not,
 * or when any answer is not 200.
 */
import fs from 'node:fs';
import path from 'node:path';
import {ADMIN_PATHS, adminPath} from '../../src/config/api';
import {seedSql} from '../local/seedData';
import {WORKER_DIR, wranglerSync} from '../wrangler';
import {runWorkerBench} from './workerBench';

const PURCHASES = Number(process.env.BENCH_PURCHASES ?? 10_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 50);
const WARM_UP = 5;
const BUDGET_MS = 100;
const ADMIN_EMAIL = 'bench-admin@slipway.dev';

const pages: {name: string; path: string}[] = [
  {name: 'purchases, page 1', path: ADMIN_PATHS.purchases},
  {name: 'purchases, page 200', path: `${ADMIN_PATHS.purchases}?page=200`},
  {name: 'search by e-mail', path: `${ADMIN_PATHS.purchases}?q=buyer0042`},
  {name: 'search by GitHub', path: `${ADMIN_PATHS.purchases}?q=buyer-0042`},
  {name: 'a purchase', path: adminPath(ADMIN_PATHS.purchase, {sessionId: 'cs_test_seed004242'})},
  {name: 'sales, 30 days', path: ADMIN_PATHS.sales},
  {name: 'leads, page 1', path: ADMIN_PATHS.leads},
];

async function timings(url: string, token: string, count: number): Promise<number[]> {
  const results: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    const response = await fetch(url, {headers: {authorization: `Bearer ${token}`}});
    await response.arrayBuffer();
    results.push(performance.now() - start);
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  }
  return results;
}

const percentile = (sorted: number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!;

runWorkerBench(
  {name: 'admin', user: {uid: 'bench-admin', email: ADMIN_EMAIL}},
  async ({stateDir, token, startWorker}) => {
    console.log(`Seeding the fresh local D1 with ${PURCHASES} purchases…`);
    const seed = path.join(stateDir, 'seed.sql');
    fs.writeFileSync(seed, seedSql(PURCHASES));
    wranglerSync(['d1', 'execute', 'DB', '--local', '--file', seed, '--persist-to', stateDir], WORKER_DIR);

    console.log('Starting the worker under wrangler dev…');
    const workerUrl = await startWorker({ADMIN_EMAILS: ADMIN_EMAIL});

    console.log(
      `\n${PURCHASES} purchases; ${REQUESTS} requests per page, one at a time, after ${WARM_UP} to warm up\n`,
    );
    console.log(`${'page'.padEnd(22)}${['p50 ms', 'p95 ms', 'max ms'].map((column) => column.padStart(10)).join('')}`);
    let firstPageMedian = Infinity;
    for (const page of pages) {
      await timings(`${workerUrl}${page.path}`, token, WARM_UP);
      const sorted = (await timings(`${workerUrl}${page.path}`, token, REQUESTS)).sort((a, b) => a - b);
      const cells = [percentile(sorted, 0.5), percentile(sorted, 0.95), sorted.at(-1)!].map((ms) =>
        ms.toFixed(1).padStart(10),
      );
      console.log(`${page.name.padEnd(22)}${cells.join('')}`);
      if (page.path === ADMIN_PATHS.purchases) firstPageMedian = percentile(sorted, 0.5);
    }
    const met = firstPageMedian <= BUDGET_MS;
    console.log(
      `\nThe first page of purchases: ${firstPageMedian.toFixed(1)} ms (goal ≤ ${BUDGET_MS} ms): ${met ? 'met' : 'MISSED'}`,
    );
    return met;
  },
);
