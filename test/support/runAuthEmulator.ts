/**
 * The run's one Firebase Auth emulator, for the worker suite's ID tokens and the browser suite's
 * local stacks alike: jest runs every project's globalSetup one after the other in one process,
 * so the first that asks starts it and the others find it here. Each emulator start costs about
 * 8 s and 10 core-seconds (issue 39). Every file signs up accounts of its own, and a stack prints
 * only the sign-in links that lead to its own site, so the files never read each other's.
 */
import type {ChildProcess} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {startAuthEmulator, stopAuthEmulator} from '../../scripts/local/authEmulator';

/** Its host:port, for the test files (jest hands globalSetup's environment to its workers). */
const RUN_EMULATOR_VARIABLE = 'TEST_AUTH_EMULATOR_HOST';

declare global {
  var __RUN_AUTH_EMULATOR__: {process: ChildProcess; dir: string} | undefined;
}

/** globalSetup: the run's emulator, started now unless another project's set-up did. */
export async function runAuthEmulator(): Promise<string> {
  const running = process.env[RUN_EMULATOR_VARIABLE];
  if (running) return running;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'slipway-auth-emulator-'));
  const emulator = await startAuthEmulator(dir);
  globalThis.__RUN_AUTH_EMULATOR__ = {process: emulator.process, dir};
  process.env[RUN_EMULATOR_VARIABLE] = emulator.host;
  return emulator.host;
}

/** globalTeardown: the emulator stopped and its folder gone, by whichever teardown comes first. */
export function stopRunAuthEmulator(): void {
  const started = globalThis.__RUN_AUTH_EMULATOR__;
  if (!started) return;
  globalThis.__RUN_AUTH_EMULATOR__ = undefined;
  delete process.env[RUN_EMULATOR_VARIABLE];
  stopAuthEmulator(started.process);
  fs.rmSync(started.dir, {recursive: true, force: true});
}

/** The run's emulator in a test file, or a plain error where the run did not go through a globalSetup. */
export function runEmulatorHost(): string {
  const host = process.env[RUN_EMULATOR_VARIABLE];
  if (!host) throw new Error(`${RUN_EMULATOR_VARIABLE} is not set: the run's globalSetup starts the Auth emulator.`);
  return host;
}
