/** Ports for the local stack: is one free, and wait until a server answers on it. */
import type {ChildProcess} from 'node:child_process';
import {createServer} from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const {port} = server.address() as {port: number};
      server.close(() => resolve(port));
    });
  });
}

/** Whether something already listens on `port` (on any of the loopback addresses). */
export async function portInUse(port: number): Promise<boolean> {
  for (const host of ['127.0.0.1', '::1']) {
    const busy = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'EADDRINUSE'));
      server.listen(port, host, () => server.close(() => resolve(false)));
    });
    if (busy) return true;
  }
  return false;
}

/** Resolves once `url` answers any HTTP status; rejects when `child` exits first or time runs out. */
export async function waitForHttp(url: string, {child, timeoutMs = 60_000}: {child?: ChildProcess; timeoutMs?: number} = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`the process exited with code ${child.exitCode}`);
    try {
      await fetch(url, {signal: AbortSignal.timeout(2000)});
      return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`nothing answered on ${url} within ${Math.round(timeoutMs / 1000)} s`);
}
