/**
 * Long-lived children (wrangler dev, the Docusaurus dev server, the Auth emulator) run in their own
 * process group, so that stopping one stops what it started too (wrangler's workerd, Docusaurus's
 * workers). Used by `npm start` and `npm run bench:worker`.
 */
import {type ChildProcess, spawn} from 'node:child_process';

/** How long a group gets to exit after SIGTERM before it gets SIGKILL. */
export const STOP_GRACE_MS = 5000;

/** Starts `command` as the leader of a new process group, its stdout and stderr piped. */
export function spawnGroup(
  command: string,
  args: string[],
  options: {cwd: string; env: NodeJS.ProcessEnv},
): ChildProcess {
  return spawn(command, args, {...options, stdio: ['ignore', 'pipe', 'pipe'], detached: true});
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Sends `signal` to the child's whole group; nothing once the child has exited. */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (!child.pid || hasExited(child)) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * SIGTERM to the group, SIGKILL if it still runs after `graceMs`; resolves once the child has
 * exited. A child that had already exited (a wrangler that failed to start) sends no second
 * 'exit', so it resolves at once instead of waiting forever.
 */
export async function stopGroup(child: ChildProcess, graceMs = STOP_GRACE_MS): Promise<void> {
  const exited = hasExited(child)
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once('exit', () => resolve()));
  signalGroup(child, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
