/**
 * One `npm start -- --local` for the browser files that only add to the local stack (accounts and
 * purchases of their own, the terminal read from where each step began): the first file that asks
 * starts it in the background, the others attach to it, and the suite's teardown stops it with
 * Ctrl-C. Two fewer starts of the whole stack (about 45 s each) per run. A file that stops the
 * stack, floods its rate limits or needs other flags or data starts its own (`useLocalSession`).
 *
 * Every stack but the journey's (which shows `npm start` stopping the emulator it started) uses
 * the run's one Auth emulator (test/support/runAuthEmulator.ts), the worker suite's too: the
 * emulator was a third of each stack's start (10 of 31 core-s, measured: issue 39). Each stack
 * prints only its own site's sign-in links, and the files sign up accounts of their own, so stacks
 * side by side never read each other's.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  attachLocalStack,
  hasBackgroundStack,
  startLocalStack,
  untilReady,
  type LocalStack,
} from '../../scripts/support/localStack';
import {runEmulatorHost} from '../support/runAuthEmulator';
import {fromGlobalSetup} from './fromGlobalSetup';
import {migratedLocalD1} from './migratedLocalD1';

const VARIABLE = 'TEST_SHARED_STACK_DIR';

/** globalSetup: the run's folder for the shared stack, which nobody has started yet. */
export function prepareSharedStack(): void {
  process.env[VARIABLE] = fs.mkdtempSync(path.join(os.tmpdir(), 'slipway-shared-stack-'));
}

/** globalTeardown: Ctrl-C to the shared stack if a file started it, then the folder goes. */
export async function stopSharedStack(): Promise<void> {
  const dir = process.env[VARIABLE];
  if (!dir) return;
  if (hasBackgroundStack(dir)) await attachLocalStack(dir).interrupt();
  fs.rmSync(dir, {recursive: true, force: true});
}

/** The shared stack, once it is ready: started here if no file has started it yet. */
export async function sharedLocalStack(readyTimeoutMs = 240_000): Promise<LocalStack> {
  const dir = fromGlobalSetup(VARIABLE);
  if (claim(dir))
    return startLocalStack({
      background: dir,
      readyTimeoutMs,
      emulatorHost: runEmulatorHost(),
      stateFrom: migratedLocalD1(),
    });
  // Another file claimed it: its record appears once the stack's process is spawned (a moment).
  const deadline = Date.now() + 30_000;
  while (!hasBackgroundStack(dir)) {
    if (Date.now() > deadline) throw new Error(`The shared stack was claimed but never started (${dir}).`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const stack = attachLocalStack(dir);
  await untilReady(stack, readyTimeoutMs);
  return stack;
}

/** mkdir makes the folder or fails: exactly one file, in whichever jest worker, gets to start the stack. */
function claim(dir: string): boolean {
  try {
    fs.mkdirSync(path.join(dir, 'claimed'));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}
