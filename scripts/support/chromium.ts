import {existsSync} from 'node:fs';
import {chromium, type Browser} from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_MISSING = `Chromium was not found at ${CHROMIUM_PATH}. The browser tests need it; install it with:
  apt-get update && apt-get install -y chromium
(or point CHROMIUM_PATH at another Chromium build).`;

/** Fails loudly, never skips, when the browser is missing. */
export function assertChromium(): void {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(CHROMIUM_MISSING);
}

/** Headless Chromium with the flags a machine with no outside network needs. */
export async function launchChromium(): Promise<Browser> {
  assertChromium();
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}
