/**
 * `wrangler dev` for the benchmarks: each on free ports in its own process group, started and
 * waited for until it answers, and all of them stopped when the bench ends, however it ends.
 */
import type {ChildProcess} from 'node:child_process';
import fs from 'node:fs';
import readline from 'node:readline';
import {freePort} from '../local/ports';
import {signalGroup, spawnGroup, stopGroup} from '../processGroup';
import {WRANGLER, WRANGLER_ENV} from '../wrangler';

/** Children run in their own process group so that wrangler's workerd goes down with it. */
const children = new Set<ChildProcess>();
/**
 * Each running wrangler's process group (its pid), inspector port and how many times it has
 * reloaded the worker, by the URL it serves.
 */
const running = new Map<
  string,
  {child: ChildProcess; group: number; inspectorPort: number; reloads: {count: number}}
>();

/** What wrangler 4.86 prints when it rebuilds and restarts the worker, for a change to a file the bundle was built from. */
const RELOADING = 'Reloading local server';

export async function stopChildren() {
  await Promise.all(
    [...children].map(async (child) => {
      await stopGroup(child);
      children.delete(child);
    }),
  );
  running.clear();
}

/** Stops the `wrangler dev` serving `url` (and its workerd), leaving the others running. */
export async function stopWrangler(url: string): Promise<void> {
  const {child} = runningAt(url);
  await stopGroup(child);
  children.delete(child);
  running.delete(url);
}

function runningAt(url: string) {
  const found = running.get(url);
  if (!found) throw new Error(`No wrangler dev of this bench serves ${url}`);
  return found;
}

/** The process group of the `wrangler dev` serving `url`: wrangler and the workerd it started. */
export const processGroupOf = (url: string): number => runningAt(url).group;

/** The port of that wrangler's inspector (the worker's isolate, through wrangler's proxy). */
export const inspectorPortOf = (url: string): number => runningAt(url).inspectorPort;

/** How many times that wrangler has restarted the worker since it was ready. */
export const reloadsOf = (url: string): number => runningAt(url).reloads.count;

process.on('exit', () => children.forEach((child) => signalGroup(child, 'SIGKILL')));
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => process.exit(130));
}

/**
 * `wrangler dev` on a free port, resolved once GET / answers 200 JSON. With `logFile`, all of its
 * output (the worker's own log lines too) is also written there, to read after a run.
 */
export async function startWrangler(name: string, args: string[], cwd: string, logFile?: string): Promise<string> {
  const [port, inspectorPort] = [await freePort(), await freePort()];
  const child = spawnGroup(
    WRANGLER,
    [
      'dev',
      ...args,
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--inspector-port',
      String(inspectorPort),
      '--show-interactive-dev-session=false',
    ],
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
  const reloads = {count: 0};
  for (const stream of [child.stdout!, child.stderr!]) {
    readline.createInterface({input: stream}).on('line', (line) => {
      if (line.includes(RELOADING)) reloads.count += 1;
    });
  }
  if (logFile) {
    const log = fs.createWriteStream(logFile);
    child.stdout!.pipe(log);
    child.stderr!.pipe(log);
  }

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name}: wrangler dev exited (${child.exitCode}):\n${output}`);
    try {
      // A worker that accepts the connection but never answers must not hang the bench.
      const response = await fetch(`${url}/`, {signal: AbortSignal.timeout(5000)});
      if (response.status === 200) {
        await response.json();
        running.set(url, {child, group: child.pid!, inspectorPort, reloads});
        return url;
      }
    } catch {
      // Not listening yet, or not JSON yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${name}: wrangler dev did not answer on ${url} within 90 s:\n${output}`);
}
