/**
 * One worker benchmark's life, shared by `bench:worker` and `bench:admin`: a fresh D1 in a
 * temporary directory (the developer's local one is never touched) with the migrations applied, an
 * ID token whose keys a local JWKS server publishes (full RS256 verification, no emulator
 * shortcut), and the worker under `wrangler dev` with those settings. Everything is stopped and
 * removed however the bench ends; the process exits 1 when the bench says its goals were missed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {APPLY_LOCAL_MIGRATIONS, ensureDevVars, WORKER_DIR, wranglerSync} from '../wrangler';
import {offlineServiceAccount} from '../support/offlineServiceAccount';
import {BENCH_PROJECT, idTokenAndKeys, serveJwks, settledAccountSql} from './idTokens';
import {startWrangler, stopChildren} from './wranglerDev';

export interface WorkerBench {
  /** The temporary directory that holds the bench's D1 (and anything else it wants to keep). */
  stateDir: string;
  /** An ID token for the bench's user, signed by the keys the worker is told to trust. */
  token: string;
  /**
   * Starts the worker on the bench's D1 with these variables over the bench defaults; its URL.
   * `logFile` keeps its output (see `startWrangler`).
   */
  startWorker: (vars?: Record<string, string>, logFile?: string) => Promise<string>;
}

export function runWorkerBench(
  {name, user}: {name: string; user: {uid: string; email: string}},
  bench: (workspace: WorkerBench) => Promise<boolean>,
): void {
  const main = async () => {
    // wrangler refuses to start without it; the example's values are overridden by --var.
    ensureDevVars();
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), `slipway-bench-${name}-`));
    const {token, jwks} = await idTokenAndKeys(user);
    const jwksServer = await serveJwks(jwks);
    try {
      console.log('Applying migrations to a fresh local D1…');
      wranglerSync([...APPLY_LOCAL_MIGRATIONS, '--persist-to', stateDir], WORKER_DIR, {CI: 'true'});
      // The bench's user is past its first verified sign-in, as every returning buyer is.
      wranglerSync(
        ['d1', 'execute', 'DB', '--local', '--persist-to', stateDir, '--command', settledAccountSql(user.uid)],
        WORKER_DIR,
        {CI: 'true'},
      );
      const serviceAccount = await offlineServiceAccount(BENCH_PROJECT);
      const startWorker = (vars: Record<string, string> = {}, logFile?: string) => {
        const all: Record<string, string> = {
          SITE_URL: 'http://localhost:4200',
          FIREBASE_PROJECT_ID: BENCH_PROJECT,
          // Empty: no emulator shortcut, every token goes through the RS256 check.
          FIREBASE_AUTH_EMULATOR_HOST: '',
          FIREBASE_JWKS_URL: jwksServer.url,
          FIREBASE_SERVICE_ACCOUNT: serviceAccount,
          ...vars,
        };
        const args = [
          '--persist-to',
          stateDir,
          ...Object.entries(all).flatMap(([key, value]) => ['--var', `${key}:${value}`]),
        ];
        return startWrangler('worker', args, WORKER_DIR, logFile);
      };
      process.exitCode = (await bench({stateDir, token, startWorker})) ? 0 : 1;
    } finally {
      await stopChildren();
      jwksServer.close();
      fs.rmSync(stateDir, {recursive: true, force: true});
    }
  };
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
