/**
 * `wrangler dev` for the benchmarks: each on free ports in its own process group, started and
 * waited for until it answers, and all of them stopped when the bench ends, however it ends.
 */
import type {ChildProcess} from 'node:child_process';
import {freePort} from '../local/ports';
import {signalGroup, spawnGroup, stopGroup} from '../processGroup';
import {WRANGLER, WRANGLER_ENV} from '../wrangler';

/** Children run in their own process group so that wrangler's workerd goes down with it. */
const children = new Set<ChildProcess>();
/** Each running wrangler's process group (its pid), by the URL it serves. */
const groups = new Map<string, number>();

export async function stopChildren() {
  await Promise.all(
    [...children].map(async (child) => {
      await stopGroup(child);
      children.delete(child);
    }),
  );
  groups.clear();
}

/** The process group of the `wrangler dev` serving `url`: wrangler and the workerd it started. */
export function processGroupOf(url: string): number {
  const group = groups.get(url);
  if (group === undefined) throw new Error(`No wrangler dev of this bench serves ${url}`);
  return group;
}

process.on('exit', () => children.forEach((child) => signalGroup(child, 'SIGKILL')));
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => process.exit(130));
}

/** `wrangler dev` on a free port, resolved once GET / answers 200 JSON. */
export async function startWrangler(name: string, args: string[], cwd: string): Promise<string> {
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
        groups.set(url, child.pid!);
        return url;
      }
    } catch {
      // Not listening yet, or not JSON yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${name}: wrangler dev did not answer on ${url} within 90 s:\n${output}`);
}
