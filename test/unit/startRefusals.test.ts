/**
 * @jest-environment node
 *
 * `npm start` refuses what it cannot use, at once and in words, before it starts anything: a
 * country that is not a two-letter code, and an Auth emulator to share (FIREBASE_AUTH_EMULATOR_HOST)
 * that is not host:port or where nothing answers.
 */
import {spawn} from 'node:child_process';
import path from 'node:path';
import {freePort} from '../../scripts/local/ports';

const ROOT = path.join(__dirname, '..', '..');

/** `npm start -- --local` with these flags and variables, to its end: its exit code and what it printed. */
function start(flags: string[], env: Record<string, string>): Promise<{code: number | null; printed: string}> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts', '--local', ...flags], {
      cwd: ROOT,
      env: {...process.env, FORCE_COLOR: '0', ...env},
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let printed = '';
    child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({code, printed}));
  });
}

jest.setTimeout(60_000);

// A mistake in how it was called: exit status 2, as a command-line tool's usage error.
it.each([
  [['--country', 'BRA'], {}, '--country takes a two-letter country code, such as --country BR.'],
  [[], {FIREBASE_AUTH_EMULATOR_HOST: 'localhost'}, 'FIREBASE_AUTH_EMULATOR_HOST is host:port, such as 127.0.0.1:9099'],
])('refuses %j %j: it says so and stops', async (flags, env, says) => {
  const {code, printed} = await start(flags, env);
  expect(code).toBe(2);
  expect(printed).toContain(says);
});

it('stops, saying so, when nothing answers at FIREBASE_AUTH_EMULATOR_HOST, and starts nothing', async () => {
  const [site, worker, emulator] = [await freePort(), await freePort(), await freePort()];
  const {code, printed} = await start([], {
    SITE_PORT: String(site),
    WORKER_PORT: String(worker),
    FIREBASE_AUTH_EMULATOR_HOST: `127.0.0.1:${emulator}`,
  });
  expect(code).toBe(1);
  expect(printed).toContain(
    `Nothing answers on 127.0.0.1:${emulator}: start the emulator, or unset FIREBASE_AUTH_EMULATOR_HOST.`,
  );
  expect(printed).not.toContain('Starting the Firebase Auth emulator');
  expect(printed).not.toContain('Ctrl-C stops everything.');
});
