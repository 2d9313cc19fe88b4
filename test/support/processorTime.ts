/**
 * The processor time each test file costs, for the summary after a run (summaryReporter.cjs):
 * the jest worker's own, the children it reaped (a Chromium closed, a workerd stopped) and the
 * growth of its live descendants (a stack still running), from before the file loads to its last hook.
 * Beside the file's wall time it says whether the file is slow for its work or for its waiting
 * (test/README.md has what a run showed).
 *
 * Linux only (it reads /proc); elsewhere, and when no reporter asked (TEST_PROCESSOR_LOG unset),
 * it records nothing. A file's last hook runs before the file's own `afterAll`s, so what those
 * close is counted while it is still alive.
 */
import fs from 'node:fs';
import {descendantsOf} from '../../scripts/support/processCpu';

const LOG = process.env.TEST_PROCESSOR_LOG;
const TICKS_PER_SECOND = 100;

/** A process's fields after its name in /proc/<pid>/stat, or null once it has gone. */
function statOf(pid: number | string): string[] | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** utime, stime (and cutime, cstime: its reaped children) in clock ticks. */
const ticksOf = (fields: string[], withChildren: boolean) =>
  Number(fields[11]) + Number(fields[12]) + (withChildren ? Number(fields[13]) + Number(fields[14]) : 0);

/** This process and everything under it, in clock ticks. */
function treeTicks(): number {
  let ticks = ticksOf(statOf(process.pid)!, true);
  for (const pid of descendantsOf(process.pid)) {
    const fields = statOf(pid);
    if (fields) ticks += ticksOf(fields, true);
  }
  return ticks;
}

if (LOG && fs.existsSync('/proc/self/stat')) {
  // Now, before the test file is loaded: loading it (its imports, a bundle it reads) is its cost too.
  const startTicks = treeTicks();
  afterAll(() => {
    const seconds = (treeTicks() - startTicks) / TICKS_PER_SECOND;
    fs.appendFileSync(LOG, `${JSON.stringify({file: expect.getState().testPath, seconds})}\n`);
  });
}
