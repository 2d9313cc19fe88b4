/**
 * `npm start -- --local` as a buyer runs it, on free ports with a fresh local D1, for the
 * end-to-end tests and `npm run audit`. Its terminal output is kept: they read the printed
 * sign-in links, invitations and e-mails from it, as a person would.
 */
import {type ChildProcess, spawn, type SpawnOptions} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type {Page} from 'playwright-core';
import {freePort} from '../local/ports';
import {afterPurchase, appConfig, type Plan} from '../../src/config';
import {SAME_ORIGIN_PREFIX} from '../../src/config/api';
import {ROOT} from './site';

export const READY_LINE = 'Ctrl-C stops everything.';

export interface LocalStack {
  siteUrl: string;
  workerUrl: string;
  /** Where the site calls the worker: its own port, or the site's origin under /api (`--same-origin`). */
  apiBase: string;
  emulatorHost: string;
  /** Its process, where this process started it in the foreground (not one `attachLocalStack` reads). */
  process?: ChildProcess;
  /** The exit code, once it has stopped. */
  exited: Promise<number | null>;
  /** Everything printed so far. */
  output(): string;
  /**
   * Resolves with the first printed line matching `pattern`, waiting for it to appear; with
   * `from` (a length of `output()`), the first one printed after that point.
   */
  waitForLine(pattern: RegExp, timeoutMs?: number, from?: number): Promise<string>;
  /** Ctrl-C, then the exit code. */
  interrupt(): Promise<number | null>;
}

export interface StartOptions {
  ports?: {site?: number; worker?: number; emulator?: number};
  /** More of `npm start`'s flags, after `--local` (`--built`). */
  flags?: string[];
  /** Variables for `npm start` on top of this process's own. */
  env?: NodeJS.ProcessEnv;
  /** How long to wait for the ready line; 0 returns at once. */
  readyTimeoutMs?: number;
  /** `npm run seed:local -- <seed>` into the fresh local D1 first: that many demo purchases. */
  seed?: number;
  /**
   * A local D1 folder to start from, copied (one with the migrations applied, for a test that
   * starts many stacks); an empty one by default, as a first `npm start` has.
   */
  stateFrom?: string;
  /**
   * An Auth emulator already running (host:port), for `npm start` to use instead of starting its
   * own (FIREBASE_AUTH_EMULATOR_HOST): the browser suite's stacks share one.
   */
  emulatorHost?: string;
  /**
   * A folder for what it prints (`output.log`) and where it runs (`stack.json`), instead of this
   * process's memory: the stack then runs on in the background when this process is done with it,
   * and any process reads it with `attachLocalStack(dir)` (the browser suite's shared stack) and
   * stops it with `interrupt()`.
   */
  background?: string;
}

/** A background stack's `stack.json`: what another process needs to read it and stop it. */
interface StackRecord {
  pid: number;
  stateDir: string;
  generatedDir: string;
  siteUrl: string;
  workerUrl: string;
  apiBase: string;
  emulatorHost: string;
}

export async function startLocalStack({
  ports = {},
  flags = [],
  env = {},
  readyTimeoutMs = 240_000,
  seed,
  background,
  emulatorHost,
  stateFrom,
}: StartOptions = {}): Promise<LocalStack> {
  const site = ports.site ?? (await freePort());
  const worker = ports.worker ?? (await freePort());
  const emulator = ports.emulator ?? (await freePort());
  const inspector = await freePort();
  const state = fs.mkdtempSync(path.join(os.tmpdir(), 'slipway-e2e-d1-'));
  if (stateFrom !== undefined) fs.cpSync(stateFrom, state, {recursive: true});
  // Docusaurus writes the site's generated modules into the repository (.docusaurus/): each stack
  // gets a folder of its own, so stacks side by side never write over each other's.
  const generated = path.join(ROOT, `.docusaurus-${site}`);
  if (seed !== undefined) {
    const {code, output: printed} = await runToEnd(
      process.execPath,
      ['--import', 'tsx', 'scripts/seedLocal.ts', String(seed)],
      {
        cwd: ROOT,
        env: {...process.env, ...env, LOCAL_STATE_DIR: state},
      },
    );
    if (code !== 0) throw new Error(`seed:local failed (${code}):\n${printed}`);
  }
  const log = background === undefined ? undefined : fs.openSync(path.join(background, OUTPUT), 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts', '--local', ...flags], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...env,
      SITE_PORT: String(site),
      WORKER_PORT: String(worker),
      AUTH_EMULATOR_PORT: String(emulator),
      INSPECTOR_PORT: String(inspector),
      // Empty: its own emulator, whatever this process's environment holds.
      FIREBASE_AUTH_EMULATOR_HOST: emulatorHost ?? '',
      LOCAL_STATE_DIR: state,
      DOCUSAURUS_GENERATED_FILES_DIR_NAME: path.basename(generated),
      FORCE_COLOR: '0',
    },
    stdio: log === undefined ? ['ignore', 'pipe', 'pipe'] : ['ignore', log, log],
    // Not detached, even in the background: it stays in the starter's process group, so a Ctrl-C
    // in the terminal that runs jest stops it too, and no stack is left running on its ports.
  });
  const urls = {
    siteUrl: `http://localhost:${site}`,
    workerUrl: `http://127.0.0.1:${worker}`,
    apiBase: flags.includes('--same-origin')
      ? `http://localhost:${site}${SAME_ORIGIN_PREFIX}`
      : `http://127.0.0.1:${worker}`,
    emulatorHost: emulatorHost ?? `127.0.0.1:${emulator}`,
  };
  let stack: LocalStack;
  if (log !== undefined) {
    fs.closeSync(log);
    child.unref();
    const record: StackRecord = {pid: child.pid!, stateDir: state, generatedDir: generated, ...urls};
    // Whole or not at all, for a process reading it as it appears.
    fs.writeFileSync(path.join(background!, `${RECORD}.part`), JSON.stringify(record));
    fs.renameSync(path.join(background!, `${RECORD}.part`), path.join(background!, RECORD));
    stack = attachLocalStack(background!);
  } else {
    let output = '';
    const printed = new OutputWatch(
      () => output,
      () => child.exitCode,
    );
    const append = (chunk: Buffer) => {
      output += chunk.toString();
      printed.changed();
    };
    child.stdout!.on('data', append);
    child.stderr!.on('data', append);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    // Never rejects (it only resolves on exit); whoever waits for the exit awaits `exited` itself.
    void exited.then(() => {
      removeStackFiles(state, generated);
      printed.changed();
    });
    stack = {
      ...urls,
      process: child,
      exited,
      output: () => output,
      waitForLine: printed.waitForLine,
      async interrupt() {
        if (child.exitCode === null) child.kill('SIGINT');
        return exited;
      },
    };
  }
  if (readyTimeoutMs > 0) {
    try {
      await untilReady(stack, readyTimeoutMs);
    } catch (error) {
      await stack.interrupt();
      throw error;
    }
  }
  return stack;
}

/** Resolves once the stack has printed its ready line (`READY_LINE`): every process it started answers. */
export function untilReady(stack: LocalStack, timeoutMs: number): Promise<string> {
  return stack.waitForLine(new RegExp(escapeRegExp(READY_LINE)), timeoutMs);
}

const OUTPUT = 'output.log';
const RECORD = 'stack.json';

/** Whether `dir` holds a background stack's record (it may be starting, running or stopped). */
export const hasBackgroundStack = (dir: string) => fs.existsSync(path.join(dir, RECORD));

/**
 * A stack started in the `background` folder `dir`, read from any process: its output is the
 * file, and `interrupt()` is Ctrl-C to its process (which stops what it started). Its local D1 and
 * generated folder go when it has stopped.
 */
export function attachLocalStack(dir: string): LocalStack {
  const record = JSON.parse(fs.readFileSync(path.join(dir, RECORD), 'utf8')) as StackRecord;
  const {pid, stateDir, generatedDir, ...urls} = record;
  const logFile = path.join(dir, OUTPUT);
  const running = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const output = () => fs.readFileSync(logFile, 'utf8');
  const printed = new OutputWatch(output, () => (running() ? null : 0));
  // inotify on the file: a line is read as soon as it is written, with no polling.
  const watcher = fs.watch(logFile, () => printed.changed());
  watcher.unref();
  // Another process's child: this one can only see it gone (no exit code), checked from the first ask on.
  let exited: Promise<number | null> | undefined;
  const gone = () =>
    (exited ??= new Promise((resolve) => {
      const check = setInterval(() => {
        if (running()) return;
        clearInterval(check);
        watcher.close();
        removeStackFiles(stateDir, generatedDir);
        printed.changed();
        resolve(null);
      }, 200);
    }));
  return {
    ...urls,
    get exited() {
      return gone();
    },
    output,
    waitForLine: printed.waitForLine,
    async interrupt() {
      if (running()) process.kill(pid, 'SIGINT');
      return gone();
    },
  };
}

/** A stack's own local D1 and generated site modules, once it has stopped. */
function removeStackFiles(stateDir: string, generatedDir: string): void {
  fs.rmSync(stateDir, {recursive: true, force: true});
  fs.rmSync(generatedDir, {recursive: true, force: true});
}

/** Waits for lines of a stack's output, told each time it grows. */
class OutputWatch {
  private readonly waiters = new Set<() => void>();

  constructor(
    private readonly output: () => string,
    private readonly exitCode: () => number | null,
  ) {}

  changed(): void {
    this.waiters.forEach((check) => check());
  }

  readonly waitForLine = (pattern: RegExp, timeoutMs = 30_000, from = 0): Promise<string> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`No line matching ${pattern} within ${timeoutMs} ms. Output:\n${this.output()}`));
      }, timeoutMs);
      const check = () => {
        const printed = this.output();
        const line = printed
          .slice(from)
          .split('\n')
          .find((candidate) => pattern.test(candidate));
        const code = this.exitCode();
        if (line !== undefined || code !== null) {
          clearTimeout(timer);
          this.waiters.delete(check);
          if (line !== undefined) resolve(line);
          else reject(new Error(`npm start exited (${code}) before printing ${pattern}. Output:\n${printed}`));
        }
      };
      this.waiters.add(check);
      check();
    });
}

/** Runs a command to its end without blocking this process (jest's timers keep running): its exit code and output. */
function runToEnd(
  command: string,
  args: string[],
  options: SpawnOptions,
): Promise<{code: number | null; output: string}> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {...options, stdio: ['ignore', 'pipe', 'pipe']});
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({code, output}));
  });
}

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The line the terminal prints for a sign-in e-mail the emulator "sent" to `email`, as the docs quote it. */
export function printedSignInLine(kind: 'link' | 'password reset', email: string): RegExp {
  return new RegExp(`^\\[sign-in\\] ${kind} for ${escapeRegExp(email)}: http`);
}

/**
 * On the sign-in page open in `page`: asks for a magic link for `email`, reads the link from the
 * terminal (printed from the emulator, as the inbox would show it) and opens it, as a person does.
 */
export async function followMagicLink(page: Page, stack: LocalStack, email: string): Promise<void> {
  // The link sent now, not one sent to the same address before.
  const from = stack.output().length;
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', {name: 'Send magic link'}).click();
  await page.getByRole('heading', {name: 'Check your inbox'}).waitFor();
  const line = await stack.waitForLine(printedSignInLine('link', email), 30_000, from);
  await page.goto(line.slice(line.indexOf('http')));
  await page.waitForFunction(() => document.documentElement.dataset.hasHydrated === 'true');
}

/**
 * On the pricing, signed out: buys `plan` as `email` on the local checkout page and comes back to
 * `/success` once the signed webhook and the welcome e-mail are through, as a guest buyer does.
 * The dashboard is one click further (Go to Dashboard, signed in by the session exchange).
 */
export async function buyAsGuest(page: Page, stack: LocalStack, email: string, plan: Plan): Promise<void> {
  await page
    .getByRole('article', {name: plan.name})
    .getByRole('button', {name: `Get ${appConfig.appName} ${plan.name}`})
    .click();
  // The local checkout page shows the plan and its price, then pays.
  await page.waitForURL(/\/checkout\/cs_test_/);
  await page.getByRole('heading', {name: plan.name}).waitFor();
  const price = `$${plan.price}.00`;
  if (!(await page.textContent('body'))?.includes(price))
    throw new Error(`The local checkout page does not show ${plan.name}'s price, ${price}.`);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', {name: `Pay ${price}`}).click();

  // Stripe's return carries the session id, which leaves the address bar as the page loads.
  await page.waitForURL(`${stack.siteUrl}/success`);
  await page.waitForFunction(() => document.documentElement.dataset.hasHydrated === 'true');
  // Thanked only once the worker has read the checkout as paid.
  await page.getByRole('heading', {name: afterPurchase.successPage.paid.title}).waitFor();
  await stack.waitForLine(new RegExp(`paid ${escapeRegExp(plan.name)} as ${escapeRegExp(email)} .*webhook delivered`));
  await stack.waitForLine(new RegExp(`\\[e-mail\\] +to ${escapeRegExp(email)}`));
}
