/**
 * CPU time spent by the workerd processes this Node process started (Miniflare's), from Linux's
 * per-thread scheduler statistics: `/proc/<pid>/task/<tid>/schedstat` counts each thread's time on a
 * CPU in nanoseconds (its first field), where `/proc/<pid>/stat` counts only in ticks of 10 ms,
 * too coarse for a cron run. Read before and after a piece of work, the difference is the CPU it
 * took in workerd: the worker's JavaScript, and D1's SQLite, which Miniflare runs in the same
 * process but Cloudflare runs elsewhere (so it is an upper bound on what Cloudflare counts).
 * Null where /proc is not there to read.
 */
import fs from 'node:fs';

/** Every process below `root`, children of children included (read from /proc in one pass). */
export function descendantsOf(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid …": the command may hold spaces and parentheses, so read after the last ")".
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process ended while the list was read.
    }
  }
  const found: number[] = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    found.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return found;
}

/** Every workerd process below this one, children of children included. */
function workerdProcesses(): number[] {
  return descendantsOf(process.pid).filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'workerd';
    } catch {
      // Gone already.
      return false;
    }
  });
}

/** A reader of workerd's CPU time so far, in nanoseconds; null when it cannot be read here. */
export function workerdCpu(): (() => number) | null {
  if (!fs.existsSync('/proc/self/task')) return null;
  const pids = workerdProcesses();
  if (pids.length === 0) return null;
  return () => {
    let total = 0;
    for (const pid of pids) {
      for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
        try {
          total += Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
        } catch {
          // The thread ended while the list was read.
        }
      }
    }
    return total;
  };
}
