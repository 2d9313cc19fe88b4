/**
 * `npm run bench:fuzz`: the full count of the worker's fuzz test (test/worker/fuzz.test.ts),
 * 10,000 generated requests at each public route (FUZZ_RUNS to change it, FUZZ_SEED for another
 * sequence), run in workerd with a real local D1, the Auth emulator and the stand-ins, as the test
 * runs in `npm test` with a smaller count. It prints, per route, the requests, the answers by
 * status and the requests a second, and exits 1 when the test found a 5xx or a refused request
 * that changed state (its counterexample is above the table, replayable with the seed).
 */
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {ROOT} from '../support/site';

interface Report {
  seed: number;
  runs: number;
  routes: Record<string, {requests: number; byStatus: Record<string, number>; ms: number}>;
}

const runs = process.env.FUZZ_RUNS ?? '10000';
const seed = process.env.FUZZ_SEED ?? String(Date.now() % 1_000_000);
const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'slipway-fuzz-')), 'report.json');

console.log(`Fuzzing every public route with ${runs} requests each (seed ${seed}); this takes a while…`);
const started = Date.now();
const jest = spawnSync(
  process.execPath,
  [
    path.join(ROOT, 'node_modules/jest/bin/jest.js'),
    '--selectProjects',
    'worker',
    '--testPathPatterns',
    'test/worker/fuzz.test.ts',
  ],
  {
    cwd: ROOT,
    env: {...process.env, FUZZ_RUNS: runs, FUZZ_SEED: seed, FUZZ_REPORT: report},
    stdio: ['ignore', 'inherit', 'inherit'],
  },
);

if (!fs.existsSync(report)) {
  console.error(`The fuzz test wrote no figures (jest exited ${jest.status}).`);
  process.exit(1);
}
const {routes} = JSON.parse(fs.readFileSync(report, 'utf8')) as Report;
const rows = Object.entries(routes).map(([route, {requests, byStatus, ms}]) => ({
  route,
  requests,
  'req/s': ms > 0 ? Math.round((requests / ms) * 1000) : 0,
  statuses: Object.entries(byStatus)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([status, count]) => `${status}×${count}`)
    .join(' '),
}));
console.table(rows);
const total = rows.reduce((sum, row) => sum + row.requests, 0);
const fiveHundreds = Object.values(routes).reduce(
  (sum, route) =>
    sum +
    Object.entries(route.byStatus)
      .filter(([status]) => Number(status) >= 500)
      .reduce((n, [, count]) => n + count, 0),
  0,
);
console.log(
  `${total} requests in ${Math.round((Date.now() - started) / 1000)} s, seed ${seed}: ${fiveHundreds} answered 5xx; ${jest.status === 0 ? 'no property failed' : 'a property FAILED (see above)'}.`,
);
process.exitCode = jest.status === 0 ? 0 : 1;
