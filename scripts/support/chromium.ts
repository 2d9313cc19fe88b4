import {existsSync} from 'node:fs';
import {chromium, type Browser, type BrowserContext} from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_MISSING = `Chromium was not found at ${CHROMIUM_PATH}. The browser tests and the benchmarks need it; install it with:
  apt-get update && apt-get install -y chromium
(or point CHROMIUM_PATH at another Chromium build).`;

/** Fails loudly, never skips, when the browser is missing. */
export function assertChromium(): void {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(CHROMIUM_MISSING);
}

/** The flags a machine with no outside network needs. */
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export interface LaunchOptions {
  /** Also open the DevTools protocol on this loopback port, for a tool that connects by port (Lighthouse). */
  debuggingPort?: number;
  /**
   * Every host name but localhost fails to resolve at once. Tests use it so that a page's request to
   * the outside fails the same way, at the same moment, on every machine: where DNS answered slowly a
   * console error came after a test's check, where it failed fast it came before (a CI run was lost).
   */
  offline?: boolean;
}

const OFFLINE = '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1';

const args = ({debuggingPort, offline}: LaunchOptions) => [
  ...ARGS,
  ...(debuggingPort ? [`--remote-debugging-port=${debuggingPort}`] : []),
  ...(offline ? [OFFLINE] : []),
];

/** Headless Chromium, a fresh profile. */
export async function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  assertChromium();
  return chromium.launch({executablePath: CHROMIUM_PATH, args: args(options)});
}

/** Headless Chromium on a profile kept in `userDataDir`, so every tab shares its storage (a signed-in session). */
export async function launchPersistentChromium(
  userDataDir: string,
  options: LaunchOptions = {},
): Promise<BrowserContext> {
  assertChromium();
  return chromium.launchPersistentContext(userDataDir, {executablePath: CHROMIUM_PATH, args: args(options)});
}
