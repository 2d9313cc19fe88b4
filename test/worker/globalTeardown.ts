import type {ChildProcess} from 'node:child_process';
import {stopAuthEmulator} from '../../scripts/local/authEmulator';

export default async function globalTeardown() {
  const child = (globalThis as {authEmulator?: ChildProcess}).authEmulator;
  if (child) stopAuthEmulator(child);
}
