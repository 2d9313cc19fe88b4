/**
 * `npm run bench:release-cpu`: the CPU time one batch of a release's e-mail costs the worker, by
 * the number of recipients, and whether the Free plan's batch fits. A cron run on Cloudflare's Free
 * plan may use 10 ms of CPU (developers.cloudflare.com/workers/platform/limits), and a release
 * batch is the cron's one piece of work that grows with the buyers: a signed unsubscribe link
 * each, their recipient variables as JSON, and the multipart body sent to Mailgun. The rest of a
 * run waits on D1 and on fetches, which Cloudflare does not count.
 *
 * It runs the worker's own code (`worker/src/releases/releaseForm.ts`, through
 * `releaseCpuWorker.ts`, bundled by wrangler) in workerd, with no D1, and reads workerd's CPU time
 * per request from /proc (processCpu.ts: CPU time, so the figure holds on a loaded machine). Node
 * would not do: its WebCrypto and FormData cost several times workerd's. Batch sizes take turns,
 * round after round; each figure is a median, and a batch's own cost is its median less that of
 * a one-recipient batch in the same run (the request's way through Miniflare, which Cloudflare
 * does not have). It exits 1 when the Free plan's batch (FREE_PLAN_RELEASE_BATCH, worker/src/freePlan.ts)
 * costs more than the share of a run it is given there (FREE_PLAN_BATCH_CPU_MS).
 *
 *   npm run bench:release-cpu [-- --rounds 40]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {parseArgs} from 'node:util';
import {Miniflare} from 'miniflare';
import {FREE_PLAN_BATCH_CPU_MS, FREE_PLAN_RELEASE_BATCH} from '../../worker/src/freePlan';
import {MAX_RECIPIENTS} from '../local/mailgunApi';
import {workerdCpu} from '../support/processCpu';
import {workerCompatibilityDate, wranglerSync} from '../wrangler';

const {values} = parseArgs({options: {rounds: {type: 'string', default: '40'}}});
const rounds = Number(values.rounds);
const sizes = [...new Set([1, 50, 100, FREE_PLAN_RELEASE_BATCH, 500, MAX_RECIPIENTS])].sort((a, b) => a - b);

/** Bundles releaseCpuWorker.ts as `wrangler deploy` would (a dry run), into a new directory. */
function bundle(): string {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-cpu-'));
  const entry = path.join(__dirname, 'releaseCpuWorker.ts');
  wranglerSync(
    [
      'deploy',
      entry,
      '--dry-run',
      '--outdir',
      outDir,
      '--name',
      'release-cpu',
      '--compatibility-date',
      workerCompatibilityDate(),
    ],
    os.tmpdir(),
  );
  return outDir;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const outDir = bundle();
  const mf = new Miniflare({
    modules: true,
    scriptPath: path.join(outDir, 'releaseCpuWorker.js'),
    modulesRoot: outDir,
    compatibilityDate: workerCompatibilityDate(),
  });
  try {
    const url = await mf.ready;
    const readCpu = workerdCpu();
    if (!readCpu) throw new Error("workerd's CPU time cannot be read here (no /proc)");
    /** workerd's CPU milliseconds for one batch of `size`, built and encoded. */
    const batchCpuMs = async (size: number) => {
      const before = readCpu();
      const answer = await mf.dispatchFetch(`${url}?recipients=${size}`);
      if (!answer.ok) throw new Error(`The bench worker answered ${answer.status}: ${await answer.text()}`);
      await answer.text();
      return (readCpu() - before) / 1e6;
    };
    // Warm up, as a worker that has already run a batch is: the JIT and the HMAC key's import.
    for (let round = 0; round < 3; round++) for (const size of sizes) await batchCpuMs(size);
    const samples = new Map(sizes.map((size) => [size, [] as number[]]));
    for (let round = 0; round < rounds; round++) {
      // Each round in another order, so that no size always follows the same one.
      const order = round % 2 === 0 ? sizes : [...sizes].reverse();
      for (const size of order) samples.get(size)!.push(await batchCpuMs(size));
    }
    report(new Map(sizes.map((size) => [size, median(samples.get(size)!)])));
  } finally {
    await mf.dispose();
    fs.rmSync(outDir, {recursive: true, force: true});
  }
}

function report(medians: Map<number, number>) {
  const baseline = medians.get(1)!;
  const own = (size: number) => medians.get(size)! - baseline;
  console.log(`workerd's CPU time for one release batch, median of ${rounds} rounds:`);
  console.table(
    sizes.map((size) => ({
      recipients: size,
      'median ms': medians.get(size)!.toFixed(2),
      "the batch's own ms": own(size).toFixed(2),
      ...(size === FREE_PLAN_RELEASE_BATCH ? {'': 'the Free plan batch'} : {}),
    })),
  );
  console.log(
    `About ${((own(MAX_RECIPIENTS) / (MAX_RECIPIENTS - 1)) * 1000).toFixed(1)} µs a recipient; a one-recipient batch, the baseline, ${baseline.toFixed(2)} ms.`,
  );
  const freePlan = own(FREE_PLAN_RELEASE_BATCH);
  const fits = freePlan <= FREE_PLAN_BATCH_CPU_MS;
  console.log(
    `${fits ? 'met   ' : 'MISSED'}  a Free plan batch of ${FREE_PLAN_RELEASE_BATCH} costs ${freePlan.toFixed(2)} ms of its own, within the ${FREE_PLAN_BATCH_CPU_MS} ms of a run's 10 ms given to it`,
  );
  process.exitCode = fits ? 0 : 1;
}
main().catch((error) => {
  console.error(error);
  process.exit(1);
});
