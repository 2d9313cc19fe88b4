/** Ports for the local stack: is one free, and wait until a server answers on it. */
import type {ChildProcess} from 'node:child_process';
import fs from 'node:fs';
import {createServer} from 'node:net';

/**
 * Linux hands out ports for `listen(0)` and for outgoing connections from this range. A port taken
 * from it and released can be handed to another process (a stand-in, wrangler's inspector, the
 * emulator's hub) before our server binds it: CI once lost the site's port that way. So free ports
 * are picked below it, where only an explicit bind lands.
 */
export function ephemeralRange(): {low: number; high: number} {
  try {
    const [low, high] = fs
      .readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (low && high && low > 2048) return {low, high};
  } catch {
    // not Linux: fall through to the IANA dynamic range, which macOS and Windows use
  }
  return {low: 49152, high: 65535};
}

/** A port nothing listens on, outside the range the OS assigns by itself (see `ephemeralRange`). */
export async function freePort(): Promise<number> {
  const {low} = ephemeralRange();
  const floor = Math.max(1024, low - 12_000);
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = floor + Math.floor(Math.random() * (low - floor));
    if (!(await portInUse(port))) return port;
  }
  throw new Error(`no free port between ${floor} and ${low - 1}`);
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
export async function waitForHttp(
  url: string,
  {child, timeoutMs = 60_000}: {child?: ChildProcess; timeoutMs?: number} = {},
) {
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
