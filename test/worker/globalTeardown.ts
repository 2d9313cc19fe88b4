import type {ChildProcess} from 'node:child_process';
import {stopAuthEmulator} from '../support/firebaseEmulator';

export default async function globalTeardown() {
  const child = (globalThis as {authEmulator?: ChildProcess}).authEmulator;
  if (child) stopAuthEmulator(child);
}
