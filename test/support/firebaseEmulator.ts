/**
 * The real Firebase Auth emulator (firebase-tools), started on free ports so it never collides
 * with a running `npm start`. It runs offline with a `demo-` project and needs no Java.
 */
import {type ChildProcess, spawn} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {freePort, ROOT} from './site';

export const EMULATOR_PROJECT = 'demo-slipway';

export async function startAuthEmulator(workDir: string): Promise<{host: string; process: ChildProcess}> {
  const [port, hub, logging] = [await freePort(), await freePort(), await freePort()];
  fs.mkdirSync(workDir, {recursive: true});
  const config = path.join(workDir, 'firebase.json');
  fs.writeFileSync(
    config,
    JSON.stringify({
      emulators: {
        auth: {host: '127.0.0.1', port},
        hub: {host: '127.0.0.1', port: hub},
        logging: {host: '127.0.0.1', port: logging},
        ui: {enabled: false},
        singleProjectMode: true,
      },
    }),
  );
  const child = spawn(
    path.join(ROOT, 'node_modules', '.bin', 'firebase'),
    ['emulators:start', '--only', 'auth', '--project', EMULATOR_PROJECT, '--config', config],
    {cwd: workDir, env: {...process.env, NO_UPDATE_NOTIFIER: '1', CI: 'true'}, stdio: ['ignore', 'pipe', 'pipe'], detached: true},
  );
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const host = `127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The Auth emulator exited:\n${output}`);
    try {
      const response = await fetch(`http://${host}/`);
      if (response.ok) {
        // Let the test runner exit without waiting for the emulator's pipes.
        child.stdout?.destroy();
        child.stderr?.destroy();
        child.unref();
        return {host, process: child};
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill('SIGKILL');
  throw new Error(`The Auth emulator did not start within 60 s:\n${output}`);
}

export function stopAuthEmulator(child: ChildProcess) {
  if (child.pid && child.exitCode === null) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      child.kill('SIGTERM');
    }
  }
}
