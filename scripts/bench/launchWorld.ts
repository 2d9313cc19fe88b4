/**
 * The world `npm run bench:launch` simulates a launch in: the worker bundle in workerd (Miniflare)
 * with a fresh local D1, the GitHub, Stripe and Mailgun stand-ins, and ID tokens the worker
 * verifies in full against a local JWKS (no emulator). Its clock can be moved on by whole days
 * although the worker's Date.now() cannot be faked: `advance` shifts the world back instead.
 * GitHub holds two private repositories, the kit's and the prompts the featured plan grants
 * besides it (GITHUB_EXTRA_REPOS), each with its own cap of invitations.
 */
import {appConfig} from '../../src/config';
import {
  EXTRA_FIXTURE_REPO,
  FIXTURE_REPO,
  type GitHubStandIn,
  LOCAL_EXTRA_REPOS,
  LOCAL_GITHUB_EXTRA_REPOS,
  LOCAL_GITHUB_WEBHOOK_SECRET,
  type RepositoryRecord,
  startGitHubStandIn,
} from '../local/githubApi';
import {type MailgunStandIn, startMailgunStandIn} from '../local/mailgunApi';
import {signStripePayload, startStripeStandIn, type StripeStandIn} from '../local/stripeApi';
import {offlineServiceAccount} from '../support/offlineServiceAccount';
import {baseVars, type RunningWorker, startWorker} from '../support/workerRuntime';
import {BENCH_PROJECT, serveJwks, settledAccountSql, tokenSigner} from './idTokens';

export const WEBHOOK_SECRET = 'whsec_launch_bench';

/** A repository the buyers are invited to: its key ('kit', or the plan's extra key) and owner/name. */
export interface BenchRepository {
  key: string;
  name: string;
}

/** The kit's repository first, then each extra one the stand-in holds (the prompts). */
export const BENCH_REPOSITORIES: readonly BenchRepository[] = [
  {key: 'kit', name: FIXTURE_REPO},
  ...Object.entries(LOCAL_EXTRA_REPOS).map(([key, name]) => ({key, name})),
];

export interface LaunchWorld {
  worker: RunningWorker;
  github: GitHubStandIn;
  stripe: StripeStandIn;
  mailgun: MailgunStandIn;
  /** The invitations GitHub created, in order, on the simulated clock: GitHub's own count. */
  invitationsCreated: {at: number; login: string; repository: string}[];
  /** A repository's collaborators and invitations on the stand-in, by owner/name. */
  recordOf(repository: string): RepositoryRecord;
  /** An ID token for a buyer whose account is past its first verified sign-in. */
  signIn(user: {uid: string; email: string}): Promise<string>;
  /** A Stripe event's payload signed as Stripe signs it, for the worker's webhook. */
  signWebhook(payload: string): string;
  /** The simulated time now (ms since the epoch): the real clock plus what `advance` added. */
  now(): number;
  /**
   * What `advance` added so far: a time D1 holds (moved back by as much) plus this is when it was
   * on the simulated clock. Exact, where `now() - Date.now()` reads the clock twice and may be 1 ms
   * off, enough to swap two grants queued in the same millisecond.
   */
  elapsed(): number;
  /** Simulated time passes: `ms` more of it. */
  advance(ms: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Columns holding a time in ms that the worker compares with Date.now(): every INTEGER column
 * named `…_at`, and the outbox's `run_after`. Found in the schema, so that a table added later
 * moves with the rest.
 */
const TIME_COLUMN = /_at$|^run_after$/;

export async function startLaunchWorld({bundleDir}: {bundleDir?: string} = {}): Promise<LaunchWorld> {
  let elapsed = 0;
  const now = () => Date.now() + elapsed;
  const invitationsCreated: {at: number; login: string; repository: string}[] = [];
  const onEvent = (line: string) => {
    const invited = /^invited @(\S+) to (\S+)/.exec(line);
    if (invited) invitationsCreated.push({at: now(), login: invited[1]!, repository: invited[2]!});
  };
  const [stripe, github, mailgun] = await Promise.all([
    startStripeStandIn(),
    startGitHubStandIn({now, onEvent, extraRepositories: [EXTRA_FIXTURE_REPO]}),
    startMailgunStandIn(),
  ]);
  const {sign, jwks} = await tokenSigner();
  const jwksServer = await serveJwks(jwks);
  const worker = await startWorker(
    {
      ...baseVars(),
      FIREBASE_PROJECT_ID: BENCH_PROJECT,
      // Empty: no emulator shortcut, every token goes through the RS256 check.
      FIREBASE_AUTH_EMULATOR_HOST: '',
      FIREBASE_JWKS_URL: jwksServer.url,
      FIREBASE_SERVICE_ACCOUNT: await offlineServiceAccount(BENCH_PROJECT),
      STRIPE_SECRET_KEY: 'sk_test_launch_bench',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: stripe.url,
      GITHUB_TOKEN: 'ghp_launch_bench',
      GITHUB_REPO: FIXTURE_REPO,
      GITHUB_EXTRA_REPOS: LOCAL_GITHUB_EXTRA_REPOS,
      GITHUB_API_URL: github.url,
      MAILGUN_API_KEY: 'key-launch-bench',
      MAILGUN_DOMAIN: `mail.${appConfig.domainName}`,
      MAILGUN_API_URL: mailgun.url,
      // The release published after the launch: signed as the local stack signs it, with its links' secret.
      GITHUB_WEBHOOK_SECRET: LOCAL_GITHUB_WEBHOOK_SECRET,
      UNSUBSCRIBE_SECRET: 'launch-bench-unsubscribe-secret',
    },
    bundleDir,
  );

  const timeColumns: {table: string; columns: string[]}[] = [];
  const tables = await worker.db.all<{name: string}>(
    `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%'`,
  );
  for (const {name} of tables) {
    const columns = (await worker.db.all<{name: string; type: string}>(`PRAGMA table_info("${name}")`))
      .filter((column) => column.type.toUpperCase() === 'INTEGER' && TIME_COLUMN.test(column.name))
      .map((column) => column.name);
    if (columns.length > 0) timeColumns.push({table: name, columns});
  }

  const shifts = new Map<number, () => Promise<void>>();
  return {
    worker,
    github,
    stripe,
    mailgun,
    invitationsCreated,
    recordOf: (repository) => (repository === FIXTURE_REPO ? github : github.extra(repository)),
    async signIn(user) {
      await worker.db.run(settledAccountSql(user.uid));
      return sign(user);
    },
    signWebhook: (payload) => signStripePayload(payload, WEBHOOK_SECRET),
    now,
    elapsed: () => elapsed,
    async advance(ms) {
      // The worker's clock is the real one: its stored times move back by `ms`, which is the same
      // to every comparison it makes (`sent_at > now - 24 h`, `run_after <= now`, an expiry). The
      // rate limits' fixed windows are dropped instead (their key holds the window's start, and
      // moving keys could collide): a step of an hour or more leaves every window in the past.
      // The stand-in keeps its own times and reads `now`, which moves on by `ms`.
      let shift = shifts.get(ms);
      if (!shift) {
        // Made once for each step size: a month of hourly steps runs it thousands of times.
        shift = worker.db.preparedBatch([
          ...timeColumns.map(
            ({table, columns}) =>
              `UPDATE "${table}" SET ${columns.map((column) => `"${column}" = "${column}" - ${Math.round(ms)}`).join(', ')}`,
          ),
          'DELETE FROM rate_limits',
        ]);
        shifts.set(ms, shift);
      }
      await shift();
      elapsed += ms;
    },
    async stop() {
      await worker.dispose();
      jwksServer.close();
      await Promise.all([stripe.close(), github.close(), mailgun.close()]);
    },
  };
}
