/**
 * The real worker bundle (built with `wrangler deploy --dry-run`: once by the worker suite's global
 * set-up, or by `npm run bench:launch`) running in workerd through Miniflare, with a fresh local
 * D1 that has every migration in `worker/migrations` applied.
 */
import {execFileSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {Miniflare} from 'miniflare';
import {parse as parseJsonc, type ParseError, printParseErrorCode} from 'jsonc-parser';
import {CRON} from '../local/cron';
import {WORKER_DIR, WRANGLER, WRANGLER_ENV} from '../wrangler';
import {migrationFiles, migrationStatements} from './migrations';
import {ROOT} from './site';

export const BUNDLE_DIR = path.join(ROOT, '.test-build', 'worker');

/** Builds the worker bundle (of worker/, unless another copy is given) into `outDir` exactly as `wrangler deploy` would (a dry run). */
export function buildWorkerBundle(outDir: string, workerDir = WORKER_DIR) {
  fs.rmSync(outDir, {recursive: true, force: true});
  execFileSync(WRANGLER, ['deploy', '--dry-run', '--outdir', outDir], {
    cwd: workerDir,
    env: WRANGLER_ENV,
    stdio: 'pipe',
  });
}

/** One change to a file of `src/config`: `from`, which must be there, becomes `to`. */
export interface ConfigEdit {
  file: string;
  from: string;
  to: string;
}

/**
 * The worker bundle as a seller with another choice in `src/config` would deploy it. The worker
 * reads the config when it is built, not from its settings, so a test of another choice needs a
 * bundle of its own: built from a copy of worker/ and src/config/ (edited) beside the repository's
 * node_modules, exactly as buildWorkerBundle builds. Throws when an edit's `from` is not found, so
 * that a change to the config cannot leave the test running the committed choice unnoticed.
 */
export function buildWorkerBundleWithConfig(outDir: string, edits: ConfigEdit[]) {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'worker-variant-'));
  try {
    fs.cpSync(WORKER_DIR, path.join(copy, 'worker'), {
      recursive: true,
      filter: (source) => !/[\\/](\.wrangler|\.dev\.vars)$/.test(source),
    });
    fs.cpSync(path.join(ROOT, 'src', 'config'), path.join(copy, 'src', 'config'), {recursive: true});
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
    for (const {file, from, to} of edits) {
      const target = path.join(copy, 'src', 'config', file);
      const text = fs.readFileSync(target, 'utf8');
      if (!text.includes(from)) throw new Error(`src/config/${file} has no ${JSON.stringify(from)} to change`);
      fs.writeFileSync(target, text.replace(from, to));
    }
    buildWorkerBundle(outDir, path.join(copy, 'worker'));
  } finally {
    fs.rmSync(copy, {recursive: true, force: true});
  }
}

export type WorkerVars = Record<string, string>;

/** The rows a query returns, for asserting on the store of record. */
export interface Database {
  all<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T[]>;
  run(sql: string, ...params: unknown[]): Promise<void>;
  /** A query without parameters, for a caller that asks it after every one of thousands of requests. */
  prepared<T = Record<string, unknown>>(sql: string): () => Promise<T[]>;
  /** Statements run together in one round trip, as one transaction (D1's batch). */
  batch(statements: {sql: string; params?: unknown[]}[]): Promise<void>;
  /** Such a batch of statements without parameters prepared once, for a caller that runs it thousands of times. */
  preparedBatch(sqls: string[]): () => Promise<void>;
}

export interface RunningWorker {
  url: string;
  /** A request to a path of the worker, or to a whole URL (the worker then sees that URL's host). */
  fetch(pathname: string, init?: RequestInit): Promise<Response>;
  db: Database;
  /** What the worker logged, one line per entry (kept out of the test output). */
  logs: string[];
  /** Runs the cron trigger's handler once, as Cloudflare would, and says whether it threw. */
  scheduled(): Promise<'ok' | 'exception'>;
  dispose(): Promise<void>;
}

export const SITE_ORIGIN = 'http://localhost:4200';

/** What the worker runtime reads of worker/wrangler.jsonc: its top level, no environment's. */
interface WorkerConfig {
  compatibility_date: string;
  compatibility_flags?: string[];
  vars?: WorkerVars;
}

/**
 * worker/wrangler.jsonc read as the JSONC it is. Not wrangler's own reader: loading wrangler takes
 * about a second of processor time, and jest loads it afresh for every test file that starts a worker.
 */
function readConfig(): WorkerConfig {
  const file = path.join(WORKER_DIR, 'wrangler.jsonc');
  const errors: ParseError[] = [];
  const config = parseJsonc(fs.readFileSync(file, 'utf8'), errors, {allowTrailingComma: true}) as WorkerConfig;
  if (errors.length > 0)
    throw new Error(
      `${file} is not valid JSONC: ${errors.map((e) => `${printParseErrorCode(e.error)} at ${e.offset}`).join(', ')}`,
    );
  return config;
}

export function baseVars(): WorkerVars {
  const config = readConfig();
  return {...config.vars, SITE_URL: SITE_ORIGIN};
}

/**
 * The tests' way into the worker's D1: a second worker beside it, bound to the same database, that
 * runs the statements it is sent. Miniflare's own D1 proxy (`getD1Database`) makes `prepare` and
 * `bind` synchronous calls over a worker thread; on a busy machine one answer came late, and every
 * later call of the file then read the answer before its own (`SynchronousFetcher` asserting
 * `message?.id === id`): the whole file failed. A fetch is asynchronous, and answers its own call.
 */
const SQL_HOST = 'sql.test-runtime.invalid';
const SQL_WORKER = `
export default {
  async fetch(request, env) {
    const {op, statements} = await request.json();
    try {
      const prepared = statements.map(({sql, params}) => env.DB.prepare(sql).bind(...params));
      if (op === 'all') return Response.json({results: (await prepared[0].all()).results});
      if (op === 'run') await prepared[0].run();
      else await env.DB.batch(prepared);
      return Response.json({});
    } catch (error) {
      return Response.json({error: String(error?.message ?? error)}, {status: 500});
    }
  },
};`;

type SqlStatement = {sql: string; params?: unknown[]};

/**
 * The worker of the bundle in `bundleDir` (the worker suite's, unless given). `migrateBefore`: a
 * file of `worker/migrations`, for a test of the migration that moves data: the D1 stops at the
 * one before it, for the test to fill as that schema's worker left it, then apply the rest.
 */
export async function startWorker(
  vars: WorkerVars,
  bundleDir = BUNDLE_DIR,
  {migrateBefore}: {migrateBefore?: string} = {},
): Promise<RunningWorker> {
  const config = readConfig();
  const logs: string[] = [];
  const database = `test-${process.pid}-${Date.now()}`;
  const mf = new Miniflare({
    // The first worker is the one requests go to, but those for SQL_HOST.
    workers: [
      {
        name: 'worker',
        modules: true,
        scriptPath: path.join(bundleDir, 'index.js'),
        // Module names are relative to this, and the bundle may live outside the working directory.
        modulesRoot: bundleDir,
        compatibilityDate: config.compatibility_date,
        compatibilityFlags: config.compatibility_flags,
        bindings: vars,
        d1Databases: {DB: database},
      },
      {
        name: 'sql',
        modules: true,
        script: SQL_WORKER,
        compatibilityDate: config.compatibility_date,
        d1Databases: {DB: database},
        routes: [`${SQL_HOST}/*`],
      },
    ],
    // Lets scheduled() run the cron through /cdn-cgi/handler/scheduled.
    unsafeTriggerHandlers: true,
    handleStructuredLogs: ({message}: {message: string}) => {
      logs.push(message);
    },
  });
  /** Sends statements to the SQL worker; a statement D1 refuses throws its message here. */
  async function sql(op: 'all' | 'run' | 'batch', statements: SqlStatement[]) {
    const response = await mf.dispatchFetch(`http://${SQL_HOST}/`, {
      method: 'POST',
      body: JSON.stringify({op, statements: statements.map(({sql, params = []}) => ({sql, params}))}),
    });
    const answer = (await response.json()) as {results?: unknown[]; error?: string};
    if (answer.error !== undefined) throw new Error(answer.error);
    return answer.results ?? [];
  }
  let url: string;
  try {
    url = (await mf.ready).toString().replace(/\/$/, '');
    const files = migrationFiles();
    if (migrateBefore !== undefined && !files.includes(migrateBefore))
      throw new Error(`worker/migrations has no ${migrateBefore}`);
    for (const file of files) {
      if (migrateBefore !== undefined && file >= migrateBefore) break;
      await sql(
        'batch',
        migrationStatements(file).map((statement) => ({sql: statement})),
      );
    }
  } catch (error) {
    // A worker that did not start leaves no workerd behind: it would keep the test runner from exiting.
    await mf.dispose().catch(() => {});
    throw error;
  }
  const db: Database = {
    all: async <T>(query: string, ...params: unknown[]) => (await sql('all', [{sql: query, params}])) as T[],
    run: async (query: string, ...params: unknown[]) => {
      await sql('run', [{sql: query, params}]);
    },
    prepared:
      <T>(query: string) =>
      async () =>
        (await sql('all', [{sql: query}])) as T[],
    batch: async (statements) => {
      await sql('batch', statements);
    },
    preparedBatch: (queries) => async () => {
      await sql(
        'batch',
        queries.map((query) => ({sql: query})),
      );
    },
  };
  return {
    url,
    fetch: async (pathname, init) => {
      const target = /^https?:\/\//.test(pathname) ? pathname : `${url}${pathname}`;
      const response = await mf.dispatchFetch(target, init as never);
      // Miniflare's Response is undici's; hand tests a standard one.
      const empty = [101, 204, 205, 304].includes(response.status);
      return new Response(empty ? null : await response.arrayBuffer(), {
        status: response.status,
        headers: Object.fromEntries(response.headers as unknown as Iterable<[string, string]>),
      });
    },
    db,
    logs,
    scheduled: async () => {
      // Over HTTP, as `wrangler dev --test-scheduled` does, and not through Miniflare's proxy
      // (`getWorker().scheduled`): the proxy's synchronous calls can fall out of step when their
      // thread is preempted, and every later call then fails (cloudflare/workers-sdk#15552).
      const response = await mf.dispatchFetch(`${url}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent(CRON)}`);
      const outcome = await response.text();
      if (outcome !== 'ok' && outcome !== 'exception') throw new Error(`The cron did not run: ${outcome}`);
      return outcome;
    },
    dispose: () => mf.dispose(),
  };
}
