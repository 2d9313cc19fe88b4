/**
 * `npm start`: the whole product on this machine. The site (Docusaurus, port 4200), the worker
 * (`wrangler dev` with a local D1, port 8787) and, without a real Firebase project, the Firebase
 * Auth emulator (port 9099). Services whose keys are missing run in local mode: Stripe, GitHub
 * and Mailgun are stood in for on this machine and what they do is printed here.
 *
 *   npm start              real services where keys are set, local stand-ins elsewhere
 *   npm start -- --local   local stand-ins for everything, whatever the keys
 *   npm start -- --same-origin
 *                          the worker on the site's origin under /api, through the dev server's
 *                          proxy, as `npm run deploy` serves both in production
 *   npm start -- --local --country BR
 *                          the worker takes every visitor to be in that country (ISO code), to try
 *                          fair prices: on this machine Cloudflare gives no real country. Works
 *                          with the Auth emulator only (DEV_VISITOR_COUNTRY, development only)
 *   npm start -- --built   the production build (gzipped, as a static host serves it) in place
 *                          of the dev server: slower to start, no reload, but search works and
 *                          it is what visitors get (`npm run audit` measures the dashboard so)
 *
 * Ctrl-C stops every process it started. SITE_PORT, WORKER_PORT, AUTH_EMULATOR_PORT,
 * INSPECTOR_PORT (wrangler dev's DevTools) and LOCAL_STATE_DIR (the local D1's folder) move things
 * for tests. FIREBASE_AUTH_EMULATOR_HOST (host:port, as Firebase's own tools name it) uses an Auth
 * emulator already running there instead of starting one: it is left running, and only this
 * site's sign-in links are printed.
 */
import {type ChildProcess, spawnSync} from 'node:child_process';
import {randomBytes} from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import {stripVTControlCharacters} from 'node:util';
import {parse as parseEnv} from 'dotenv';
import {appConfig, ROUTES} from '../src/config';
import {SAME_ORIGIN_PREFIX} from '../src/config/api';
import type {LocalService} from '../src/buildTime/siteSettings';
import {
  EMULATOR_PROJECT,
  leadsTo,
  oobCodes,
  passwordResetLink,
  signInLink,
  startAuthEmulator,
} from './local/authEmulator';
import {LOCAL_CRON_EVERY_MS, runCron} from './local/cron';
import {
  FIXTURE_REPO,
  type GitHubStandIn,
  LOCAL_EXTRA_REPOS,
  LOCAL_GITHUB_EXTRA_REPOS,
  LOCAL_GITHUB_WEBHOOK_SECRET,
  OWNER,
  startGitHubStandIn,
} from './local/githubApi';
import {kitArchive} from './local/kitArchive';
import {readRecordedGrants, repositoryFromGrants} from './local/localRepository';
import {type SentMail, startMailgunStandIn} from './local/mailgunApi';
import {LOCAL_MAILGUN_SIGNING_KEY} from './local/mailgunEvents';
import {planStart, type Vars} from './local/plan';
import {portInUse, waitForHttp} from './local/ports';
import {startStripeStandIn} from './local/stripeApi';
import {spawnGroup, stopGroup} from './processGroup';
import {SERVE_ADVICE} from './support/site';
import {serveStatic} from './support/staticServer';
import {APPLY_LOCAL_MIGRATIONS, ensureDevVars, WORKER_DIR, WRANGLER, WRANGLER_ENV} from './wrangler';

const ROOT = path.join(__dirname, '..');
const port = (name: string, fallback: number) => Number(process.env[name] || fallback);
const ports = {
  site: port('SITE_PORT', 4200),
  worker: port('WORKER_PORT', 8787),
  emulator: port('AUTH_EMULATOR_PORT', 9099),
};
/**
 * wrangler dev's DevTools port, when set. wrangler takes 9229, or another when that one is busy;
 * two stacks that start together both find it free, and the second's worker then fails to bind it.
 */
const inspectorPort = process.env.INSPECTOR_PORT ? ['--inspector-port', process.env.INSPECTOR_PORT] : [];
/** An Auth emulator already running, to use instead of starting one (the browser tests share one). */
const runningEmulator = process.env.FIREBASE_AUTH_EMULATOR_HOST || undefined;
if (runningEmulator !== undefined && !/^[\w.-]+:\d+$/.test(runningEmulator)) {
  console.error(
    `npm start: FIREBASE_AUTH_EMULATOR_HOST is host:port, such as 127.0.0.1:9099 (it is "${runningEmulator}").`,
  );
  process.exit(2);
}
const forceLocal = process.argv.includes('--local');
const sameOrigin = process.argv.includes('--same-origin');
const built = process.argv.includes('--built');
const countryAt = process.argv.indexOf('--country');
const visitorCountry = countryAt === -1 ? undefined : (process.argv[countryAt + 1] ?? '').toUpperCase();
if (visitorCountry !== undefined && !/^[A-Z]{2}$/.test(visitorCountry)) {
  console.error('npm start: --country takes a two-letter country code, such as --country BR.');
  process.exit(2);
}
if (sameOrigin && built) {
  // The built site is served by a plain static server here, which has no proxy to the worker.
  console.error(
    'npm start: --same-origin works with the dev server only; leave out --built (npm run deploy -- --dry-run builds the one-Worker layout).',
  );
  process.exit(2);
}
const DOCUSAURUS = require.resolve('@docusaurus/core/bin/docusaurus.mjs');
const stateDir = process.env.LOCAL_STATE_DIR ? path.resolve(process.env.LOCAL_STATE_DIR) : undefined;
/** What local mode's downloads hold: this very kit, made from git when there is a `.git` here. */
const kit = kitArchive(ROOT);

const children: ChildProcess[] = [];
const closers: (() => Promise<void>)[] = [];
let stopping = false;

/** Where each printed line starts: after the longest prefix, `[sign-in]`, and a space. */
const PREFIX_WIDTH = '[sign-in] '.length;

function say(prefix: string, line: string) {
  console.log(`${prefix.padEnd(PREFIX_WIDTH)}${line}`);
}

function readVars(file: string): Vars {
  return fs.existsSync(file) ? parseEnv(fs.readFileSync(file)) : {};
}

/**
 * Starts a process in its own group (so stopping it stops its children), its output prefixed:
 * every line but the blank ones and those `leaveOut` matches.
 */
function spawnPrefixed(
  prefix: string,
  command: string,
  args: string[],
  {leaveOut, ...options}: {cwd: string; env: NodeJS.ProcessEnv; leaveOut?: RegExp},
): ChildProcess {
  const child = spawnGroup(command, args, options);
  children.push(child);
  for (const stream of [child.stdout!, child.stderr!]) {
    readline
      .createInterface({input: stream})
      .on('line', (line) => line.trim() && !leaveOut?.test(stripVTControlCharacters(line)) && say(prefix, line));
  }
  return child;
}

/** Runs a long-lived process: its end ends everything. */
function run(
  prefix: string,
  command: string,
  args: string[],
  options: {cwd: string; env: NodeJS.ProcessEnv},
): ChildProcess {
  const child = spawnPrefixed(prefix, command, args, options);
  stopAllWhenItExits(prefix, child);
  return child;
}

/** `--built`: `docusaurus build` into `outDir`, then the build served on the site's port, gzipped, with the headers of its `_headers` (its Content-Security-Policy). */
async function buildAndServe(outDir: string, env: NodeJS.ProcessEnv): Promise<void> {
  say('[site]', 'Building the site (production build, a few minutes)…');
  // Docusaurus's closing advice is to serve the build: this command serves it next.
  const build = spawnPrefixed('[site]', process.execPath, [DOCUSAURUS, 'build', '--out-dir', outDir], {
    cwd: ROOT,
    env,
    leaveOut: SERVE_ADVICE,
  });
  const code = await new Promise<number | null>((resolve) => build.once('exit', (exitCode) => resolve(exitCode)));
  // Stopped by Ctrl-C: `stop` exits on its own.
  if (stopping) await new Promise<never>(() => undefined);
  if (code !== 0) {
    say('[site]', `the build failed (exit ${code}); stopping everything.`);
    await stop(1);
  }
  const server = await serveStatic(outDir, ports.site, {compress: true, headersFile: true});
  closers.push(server.close);
}

/** One process dying takes the others down: a half-running stack would only mislead. */
function stopAllWhenItExits(prefix: string, child: ChildProcess) {
  child.on('exit', (code, signal) => {
    if (stopping) return;
    say(prefix, `stopped unexpectedly (${signal ?? `exit ${code}`}); stopping everything.`);
    void stop(1);
  });
}

async function stop(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    await Promise.all([
      ...children.map((child) => stopGroup(child)),
      ...closers.map((close) => close().catch(() => undefined)),
    ]);
  }
  process.exit(code);
}

async function refuseBusyPorts(wanted: {name: string; port: number}[]) {
  const busy: {name: string; port: number}[] = [];
  for (const entry of wanted) if (await portInUse(entry.port)) busy.push(entry);
  if (busy.length === 0) return;
  const named = busy.map(({name, port: number}) => `port ${number} (${name})`).join(', ');
  console.error(
    `Cannot start: ${named} ${busy.length === 1 ? 'is' : 'are'} already in use.\n` +
      'Another `npm start` (or `npm run worker:dev`) may still be running: stop it, or find what holds the port\n' +
      `with \`lsof -i :${busy[0]!.port}\`.`,
  );
  process.exit(1);
}

/**
 * Prints each sign-in link the emulator "e-mails", as the inbox would show it: those of this site
 * (an emulator already running may serve other sites too).
 */
function printSignInLinks(host: string, siteUrl: string) {
  const seen = new Set<string>();
  const timer = setInterval(() => {
    oobCodes(host)
      .then((codes) => {
        for (const code of codes) {
          if (seen.has(code.oobCode) || !leadsTo(code, siteUrl)) continue;
          seen.add(code.oobCode);
          if (code.requestType === 'EMAIL_SIGNIN') say('[sign-in]', `link for ${code.email}: ${signInLink(code)}`);
          else if (code.requestType === 'PASSWORD_RESET')
            say('[sign-in]', `password reset for ${code.email}: ${passwordResetLink(code)}`);
          else say('[sign-in]', `${code.requestType} for ${code.email}: ${code.oobLink}`);
        }
      })
      .catch(() => undefined);
  }, 1000);
  closers.push(async () => clearInterval(timer));
}

/**
 * The Auth emulator's host:port: the one running at FIREBASE_AUTH_EMULATOR_HOST, which must
 * answer and is left running, or one started here and stopped with the rest.
 */
async function authEmulatorHost(workDir: string): Promise<string> {
  if (!runningEmulator) {
    say('[start]', 'Starting the Firebase Auth emulator…');
    const started = await startAuthEmulator(path.join(workDir, 'emulator'), ports.emulator);
    children.push(started.process);
    stopAllWhenItExits('[sign-in]', started.process);
    return started.host;
  }
  say('[start]', `Using the Firebase Auth emulator running on ${runningEmulator} (left running).`);
  const answers = await waitForHttp(`http://${runningEmulator}/`, {timeoutMs: 5_000}).then(
    () => true,
    () => false,
  );
  if (!answers) {
    say('[start]', `Nothing answers on ${runningEmulator}: start the emulator, or unset FIREBASE_AUTH_EMULATOR_HOST.`);
    await stop(1);
  }
  return runningEmulator;
}

const SERVICE_LINES: Record<LocalService, string> = {
  'sign-in': `sign-in    Firebase Auth emulator on ${runningEmulator ?? `127.0.0.1:${ports.emulator}`}; sign-in links are printed here`,
  payments: 'payments   a local checkout page stands in for Stripe; no card is charged',
  github: `github     invitations are recorded and printed here; a download holds ${kit.holds}`,
  email: 'e-mail     messages are printed here',
};

async function main() {
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  if (ensureDevVars()) say('[start]', 'Created worker/.dev.vars from worker/.dev.vars.example.');
  const siteEnv = {...readVars(path.join(ROOT, '.env')), ...pick(process.env, ['AUTH_PROVIDER', 'FIREBASE_API_KEY'])};
  const workerVars = readVars(path.join(WORKER_DIR, '.dev.vars'));
  const plan = planStart(siteEnv, workerVars, forceLocal);

  await refuseBusyPorts([
    {name: 'the site', port: ports.site},
    {name: 'the worker', port: ports.worker},
    ...(plan.emulator && !runningEmulator ? [{name: 'the Firebase Auth emulator', port: ports.emulator}] : []),
  ]);

  const siteUrl = `http://localhost:${ports.site}`;
  const workerUrl = `http://127.0.0.1:${ports.worker}`;
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'slipway-start-'));
  closers.push(async () => fs.rmSync(workDir, {recursive: true, force: true}));

  // What the worker is told on top of .dev.vars: the site's address and the stand-ins'.
  const overrides: Record<string, string> = {
    SITE_URL: siteUrl,
    ADMIN_EMAILS: plan.admins,
    SAME_ORIGIN: String(sameOrigin),
  };
  const siteOverrides: Record<string, string> = sameOrigin
    ? {WORKER_URL: SAME_ORIGIN_PREFIX, WORKER_PROXY_TARGET: workerUrl, LOCAL_MODE: plan.local.join(',')}
    : {WORKER_URL: workerUrl, LOCAL_MODE: plan.local.join(',')};

  if (plan.emulator) {
    const emulatorHost = await authEmulatorHost(workDir);
    Object.assign(overrides, {
      AUTH_PROVIDER: 'firebase',
      FIREBASE_PROJECT_ID: EMULATOR_PROJECT,
      FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
    });
    Object.assign(siteOverrides, {
      AUTH_PROVIDER: 'firebase',
      FIREBASE_API_KEY: '',
      FIREBASE_PROJECT_ID: EMULATOR_PROJECT,
      FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
    });
    printSignInLinks(emulatorHost, siteUrl);
    if (visitorCountry) overrides.DEV_VISITOR_COUNTRY = visitorCountry;
  } else {
    // A real project on the site: the worker must not accept the emulator's unsigned tokens.
    overrides.FIREBASE_AUTH_EMULATOR_HOST = '';
    if (visitorCountry) say('[start]', '--country works with the Auth emulator only (npm start -- --local): ignored.');
  }
  if (plan.local.includes('payments')) {
    const webhookSecret = `whsec_local_${randomBytes(16).toString('hex')}`;
    const stripe = await startStripeStandIn({
      hostedPages: {
        webhookUrl: `${workerUrl}/api/webhook/stripe`,
        webhookSecret,
        onEvent: (line) => say('[stripe]', line),
      },
      // As a seller's account would be set up: the terms' URL saved, so the terms switch works locally.
      dashboardSettings: {termsOfServiceUrl: `${siteUrl}${ROUTES.terms}`},
    });
    closers.push(stripe.close);
    Object.assign(overrides, {
      STRIPE_SECRET_KEY: 'sk_test_local_mode',
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_API_URL: stripe.url,
    });
  }
  let github: GitHubStandIn | undefined;
  if (plan.local.includes('github')) {
    github = await startGitHubStandIn({
      anyUser: true,
      anyRef: true,
      kitArchive: kit,
      extraRepositories: Object.values(LOCAL_EXTRA_REPOS),
      onEvent: (line) => say('[github]', line),
    });
    closers.push(github.close);
    // The recording's owner account is a collaborator: it stands for the seller's own, which the
    // repository audit leaves out (GITHUB_EXEMPT), as a seller lists themselves on their real repository.
    Object.assign(overrides, {
      GITHUB_TOKEN: 'local-mode-token',
      GITHUB_REPO: FIXTURE_REPO,
      GITHUB_API_URL: github.url,
      GITHUB_EXEMPT: OWNER,
    });
    // The plans' extra repositories (Advanced: the prompts) are a second repository of the stand-in.
    overrides.GITHUB_EXTRA_REPOS = LOCAL_GITHUB_EXTRA_REPOS;
    // `npm run release:local` signs its release with this; release e-mails' unsubscribe links with the other.
    Object.assign(overrides, {
      GITHUB_WEBHOOK_SECRET: LOCAL_GITHUB_WEBHOOK_SECRET,
      UNSUBSCRIBE_SECRET: randomBytes(32).toString('hex'),
    });
  }
  if (plan.local.includes('email')) {
    const mailgun = await startMailgunStandIn({onSend: printMail});
    closers.push(mailgun.close);
    Object.assign(overrides, {
      MAILGUN_API_KEY: 'local-mode-key',
      MAILGUN_DOMAIN: `${appConfig.mail.subdomain}.${appConfig.domainName}`,
      MAILGUN_API_URL: mailgun.url,
      // Mailgun's event webhooks, posted locally by tests (a bounce) as Mailgun signs them.
      MAILGUN_WEBHOOK_SIGNING_KEY: LOCAL_MAILGUN_SIGNING_KEY,
    });
  }

  const overridesFile = path.join(workDir, 'local.vars');
  fs.writeFileSync(
    overridesFile,
    Object.entries(overrides)
      .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
      .join('\n'),
  );
  const persist = stateDir ? ['--persist-to', stateDir] : [];
  say('[worker]', 'Applying the local D1 migrations…');
  const migrated = spawnSync(WRANGLER, [...APPLY_LOCAL_MIGRATIONS, ...persist], {
    cwd: WORKER_DIR,
    env: {...WRANGLER_ENV, CI: 'true'},
    encoding: 'utf8',
  });
  if (migrated.status !== 0) {
    console.error(`The local D1 migrations failed:\n${migrated.stdout}\n${migrated.stderr}`);
    await stop(1);
  }
  if (github) {
    const {grants, extraGrants} = readRecordedGrants(persist);
    const restored = repositoryFromGrants(grants, extraGrants);
    github.restore(restored);
    if (restored.users.length > 0) {
      const on = (
        repository: string,
        {collaborators, invitations}: {collaborators: string[]; invitations: unknown[]},
      ) => `${collaborators.length} collaborators and ${invitations.length} open invitations on ${repository}`;
      const counts = [
        on(FIXTURE_REPO, restored),
        ...(restored.extra ?? []).map((extra) => on(extra.repository, extra)),
      ];
      say('[github]', `starts with ${counts.join('; ')}, as the local D1 recorded them`);
    }
  }
  const worker = run(
    '[worker]',
    WRANGLER,
    [
      'dev',
      '--ip',
      '127.0.0.1',
      '--port',
      String(ports.worker),
      '--test-scheduled',
      ...inspectorPort,
      '--show-interactive-dev-session=false',
      '--env-file',
      path.join(WORKER_DIR, '.dev.vars'),
      '--env-file',
      overridesFile,
      ...persist,
    ],
    {cwd: WORKER_DIR, env: WRANGLER_ENV},
  );
  // NODE_ENV is Docusaurus's to set: an inherited one (jest's "test") matches no browserslist entry.
  const siteProcessEnv = {...process.env, ...siteOverrides, BROWSER: 'none', NODE_ENV: undefined};
  const site = built
    ? buildAndServe(path.join(workDir, 'build'), siteProcessEnv)
    : waitForHttp(siteUrl, {
        child: run(
          '[site]',
          process.execPath,
          [DOCUSAURUS, 'start', '--port', String(ports.site), '--host', 'localhost', '--no-open'],
          {cwd: ROOT, env: siteProcessEnv},
        ),
        timeoutMs: 180_000,
      });
  await Promise.all([
    waitForHttp(`${workerUrl}${sameOrigin ? `${SAME_ORIGIN_PREFIX}/` : '/'}`, {child: worker, timeoutMs: 120_000}),
    site,
  ]);
  if (plan.local.length > 0) runCronLocally(workerUrl);

  console.log('');
  say('[start]', `${appConfig.appName} is running.`);
  say('', `site       ${siteUrl}${built ? ' (the production build, gzipped)' : ''}`);
  const served = sameOrigin ? `, reached by the site at ${siteUrl}${SAME_ORIGIN_PREFIX}/` : '';
  say('', `worker     ${workerUrl} (local D1${stateDir ? ` in ${stateDir}` : ''}${served})`);
  say('', `admin      ${siteUrl}${ROUTES.admin}: sign in as ${plan.admins}`);
  if (overrides.DEV_VISITOR_COUNTRY)
    say('', `country    every visitor is taken to be in ${overrides.DEV_VISITOR_COUNTRY} (fair prices)`);
  if (plan.local.length > 0) {
    say('', 'Local mode, for the services without keys:');
    for (const service of plan.local) say('', SERVICE_LINES[service]);
    say('', 'Put real keys in .env and worker/.dev.vars to use the real services.');
  } else {
    say('', 'Every service uses the keys in .env and worker/.dev.vars.');
  }
  say('[start]', `Ready on ${siteUrl}. Ctrl-C stops everything.`);
}

/** Copies of one batch printed in full; the rest are counted (a release e-mail to every buyer is one call per 1,000). */
const PRINTED_COPIES = 3;

/**
 * A message as its recipients receive it: each copy with its own recipient variables filled in by
 * the stand-in, as Mailgun fills them (an unsubscribe link, not `%recipient.unsubscribe%`). Without
 * recipient variables, Mailgun sends one message that shows every address: printed once.
 */
function printMail({fields, copies}: SentMail) {
  const batch = fields['recipient-variables'] !== undefined;
  const shown = copies.slice(0, batch ? PRINTED_COPIES : 1);
  for (const copy of shown)
    say('[e-mail]', `to ${copy.fields.to}: "${copy.fields.subject}"\n${indent(copy.fields.text ?? '')}`);
  if (batch && copies.length > shown.length)
    say('[e-mail]', `and ${copies.length - shown.length} more copies of it, each with its own recipient's variables`);
}

/** Deployed, a cron retries the worker's queued jobs; `wrangler dev` runs no crons, so do it here. */
function runCronLocally(workerUrl: string) {
  const timer = setInterval(() => {
    // A failed run shows in the worker's own lines; the next minute tries again.
    runCron(workerUrl).catch(() => undefined);
  }, LOCAL_CRON_EVERY_MS);
  closers.push(async () => clearInterval(timer));
}

function pick(env: NodeJS.ProcessEnv, names: string[]): Vars {
  return Object.fromEntries(names.filter((name) => env[name] !== undefined).map((name) => [name, env[name]]));
}

function indent(text: string): string {
  return text
    .trim()
    .split('\n')
    .map((line) => `${' '.repeat(PREFIX_WIDTH)}| ${line}`)
    .join('\n');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  void stop(1);
});
