/**
 * The real Firebase Auth emulator (firebase-tools). It runs offline with a `demo-` project and
 * needs no Java and no download. Its hub and logging ports are free ones, so it never collides
 * with another emulator on this machine.
 */
import {type ChildProcess, spawn} from 'node:child_process';
import fs from 'node:fs';
import type {Socket} from 'node:net';
import path from 'node:path';
import {emulatorProject} from '../../src/config/serviceName';
import {freePort, waitForHttp} from './ports';

export const EMULATOR_PROJECT = emulatorProject;
const ROOT = path.join(__dirname, '..', '..');

export interface AuthEmulator {
  host: string;
  process: ChildProcess;
}

/** Starts the emulator on `port` (a free one when 0); `workDir` holds its generated config. */
export async function startAuthEmulator(workDir: string, port = 0): Promise<AuthEmulator> {
  const [auth, hub, logging] = [port || (await freePort()), await freePort(), await freePort()];
  fs.mkdirSync(workDir, {recursive: true});
  const config = path.join(workDir, 'firebase.json');
  fs.writeFileSync(
    config,
    JSON.stringify({
      emulators: {
        auth: {host: '127.0.0.1', port: auth},
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
    {
      cwd: workDir,
      env: {...process.env, NO_UPDATE_NOTIFIER: '1', CI: 'true'},
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const host = `127.0.0.1:${auth}`;
  try {
    // About 8 s on an idle machine; a loaded CI runner can take several times that.
    await waitForHttp(`http://${host}/`, {child, timeoutMs: 180_000});
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`The Auth emulator did not start: ${(error as Error).message}\n${output}`, {cause: error});
  }
  // Keep reading its output (a closed pipe would kill it on its next log line), but let the
  // caller exit without waiting for the pipes.
  for (const stream of [child.stdout, child.stderr] as (Socket | null)[]) {
    stream?.removeAllListeners('data');
    stream?.resume();
    stream?.unref();
  }
  child.unref();
  return {host, process: child};
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

export interface OobCode {
  email: string;
  oobCode: string;
  oobLink: string;
  requestType: string;
}

/** The out-of-band codes (sign-in links, verifications) the emulator "sent". */
export async function oobCodes(host: string, project = EMULATOR_PROJECT): Promise<OobCode[]> {
  const response = await fetch(`http://${host}/emulator/v1/projects/${project}/oobCodes`);
  if (!response.ok) throw new Error(`The Auth emulator answered ${response.status} for its codes`);
  return ((await response.json()) as {oobCodes?: OobCode[]}).oobCodes ?? [];
}

/**
 * Whether the code's link leads back to the site at `siteUrl` (its continue URL there), or names
 * no site at all: an emulator several sites share "sends" every site's links.
 */
export function leadsTo(code: OobCode, siteUrl: string): boolean {
  const continueUrl = new URL(code.oobLink).searchParams.get('continueUrl');
  if (continueUrl === null) return true;
  try {
    return new URL(continueUrl).origin === new URL(siteUrl).origin;
  } catch {
    return false;
  }
}

/**
 * The link a real sign-in e-mail leads to, once Firebase's action handler has passed the code on:
 * the continue URL with the code, so it opens the site's finish page directly.
 */
export function signInLink(code: OobCode): string {
  const link = new URL(code.oobLink);
  const target = new URL(link.searchParams.get('continueUrl') ?? '/');
  for (const name of ['apiKey', 'oobCode', 'mode', 'lang']) {
    const value = link.searchParams.get(name);
    if (value) target.searchParams.set(name, value);
  }
  return target.toString();
}

/** What a reset link's page would ask for: the emulator's action handler takes it in the URL. */
export const NEW_PASSWORD_PLACEHOLDER = 'NEW_PASSWORD_HERE';

/**
 * A password reset link, as the emulator's action handler takes it: Firebase's hosted page asks
 * for the new password, the emulator's reads it from `newPassword` (put it in place of the
 * placeholder), then continues to the continue URL, as the hosted page does.
 */
export function passwordResetLink(code: OobCode): string {
  return `${code.oobLink}&newPassword=${NEW_PASSWORD_PLACEHOLDER}`;
}
