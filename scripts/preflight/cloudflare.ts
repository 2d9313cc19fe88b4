/**
 * Cloudflare: the deployed environment of worker/wrangler.jsonc has a real D1 database (with its
 * migrations applied, asked of Cloudflare by `wrangler d1 migrations list`), every
 * secret the worker needs (asked of Cloudflare by `wrangler secret list`), no secret among its
 * committed `vars`, and a SITE_URL on the config's domain.
 */
import {appConfig} from '../../src/config';
import {migrationFiles, migrationText, movedData, restoreCommands} from '../support/migrations';
import {type CheckLine, fail, messageOf, ok, secretPut, warn} from './lines';

/** What is read of the environment's configuration (wrangler's `unstable_readConfig`). */
export interface WorkerConfig {
  d1_databases: {binding: string; database_name?: string; database_id?: string}[];
  vars: Record<string, unknown>;
}

export interface CloudflareCheckInput {
  config: WorkerConfig;
  /** The wrangler environment `npm run deploy` uses: `site`. */
  env: string;
  /** The names of the secrets set in that environment; the real run asks `wrangler secret list`. */
  secretNames: () => Promise<string[]>;
  /** The migrations of worker/migrations/ not yet applied to that database on Cloudflare. */
  pendingMigrations: () => Promise<string[]>;
  authProvider: string;
}

/** Secrets every deploy needs, whatever the sign-in provider. */
const SECRETS = [
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'GITHUB_TOKEN',
  'MAILGUN_API_KEY',
  'MAILGUN_WEBHOOK_SIGNING_KEY',
];
const PROVIDER_SECRETS: Record<string, string[]> = {
  firebase: ['FIREBASE_SERVICE_ACCOUNT'],
  supabase: ['SUPABASE_SERVICE_ROLE_KEY'],
};
/** Never committed: secrets, whether or not the provider in use needs them. */
const NEVER_IN_VARS = [...SECRETS, 'FIREBASE_SERVICE_ACCOUNT', 'SUPABASE_SERVICE_ROLE_KEY', 'SUPABASE_JWT_SECRET'];
/** Settings the docs put in secrets (kept out of the repository) that may be vars as well. */
const SETTINGS = ['GITHUB_REPO', 'MAILGUN_DOMAIN'];
/** Development and test settings: on a deployed worker they point at stand-ins or the emulator. */
export const DEVELOPMENT_ONLY = [
  'STRIPE_API_URL',
  'GITHUB_API_URL',
  'FIREBASE_AUTH_EMULATOR_HOST',
  'DEV_VISITOR_COUNTRY',
];
const PLACEHOLDER_ID = /^0{8}-0{4}-0{4}-0{4}-0{12}$/;
const D1_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function checkCloudflare(input: CloudflareCheckInput): Promise<CheckLine[]> {
  const {config, env} = input;
  const where = `worker/wrangler.jsonc (env.${env})`;
  const d1 = d1Line(config, env, where);
  const lines: CheckLine[] = [
    d1,
    ...(d1.status === 'ok' ? await migrationsLines(input.pendingMigrations, env) : []),
    siteUrlLine(config.vars.SITE_URL, where),
  ];
  if (env === 'site' && config.vars.SAME_ORIGIN !== 'true') {
    lines.push(
      fail(
        `Cloudflare: SAME_ORIGIN is not "true" in ${where}: the site is built to call /api on its own origin`,
        `Set "SAME_ORIGIN": "true" in env.${env}.vars of worker/wrangler.jsonc`,
      ),
    );
  }
  let secrets: string[];
  try {
    secrets = await input.secretNames();
  } catch (error) {
    const message = messageOf(error);
    // Cloudflare's "workers.api.error.script_not_found" (10007): no deploy and no secret yet.
    const noWorker = /10007|does not exist|not found/i.test(message);
    const fix = noWorker
      ? `Set the secrets first (docs: Deployment, Set the secrets): npm run secrets -- ~/production-secrets.env, and answer Yes when Wrangler offers to create the Worker of env ${env}`
      : 'cd worker && npx wrangler login, then run this again';
    return [...lines, fail(`Cloudflare: could not list the secrets of env ${env}: ${message}`, fix)];
  }
  const vars = new Set(Object.keys(config.vars));
  const needed = [...SECRETS, ...(PROVIDER_SECRETS[input.authProvider] ?? [])];
  const missing = needed.filter((name) => !secrets.includes(name));
  for (const name of missing)
    lines.push(fail(`Cloudflare: the secret ${name} is not set in env ${env}`, secretPut(name, env)));
  for (const name of SETTINGS.filter((name) => !secrets.includes(name) && !vars.has(name))) {
    lines.push(fail(`Cloudflare: ${name} is set neither as a secret nor in vars of env ${env}`, secretPut(name, env)));
  }
  if (!secrets.includes('ADMIN_EMAILS') && !vars.has('ADMIN_EMAILS')) {
    lines.push(
      warn(
        `Cloudflare: ADMIN_EMAILS is not set in env ${env}: nobody can open the seller's console`,
        secretPut('ADMIN_EMAILS', env),
      ),
    );
  }
  for (const name of NEVER_IN_VARS.filter((name) => vars.has(name))) {
    lines.push(
      fail(
        `Cloudflare: ${name} is in the vars of ${where}: committed in plain text`,
        `Delete it from env.${env}.vars, then ${secretPut(name, env)}`,
      ),
    );
  }
  for (const name of secrets.filter((name) => vars.has(name) && !NEVER_IN_VARS.includes(name))) {
    lines.push(
      fail(
        `Cloudflare: ${name} is both a secret and in the vars of ${where}`,
        `Keep one: delete it from env.${env}.vars, or cd worker && npx wrangler secret delete ${name} --env ${env}`,
      ),
    );
  }
  for (const name of DEVELOPMENT_ONLY.filter((name) => secrets.includes(name) || vars.has(name))) {
    lines.push(
      fail(
        `Cloudflare: ${name} is set in env ${env}: it is for development and tests only`,
        `cd worker && npx wrangler secret delete ${name} --env ${env} (or delete it from env.${env}.vars)`,
      ),
    );
  }
  if (missing.length === 0) lines.push(ok(`Cloudflare: every secret the worker needs is set in env ${env}`));
  return lines;
}

function d1Line(config: WorkerConfig, env: string, where: string): CheckLine {
  const database = config.d1_databases.find((entry) => entry.binding === 'DB');
  const id = database?.database_id ?? '';
  const create = `cd worker && npx wrangler d1 create ${database?.database_name ?? 'DB'}, then put the id it prints in env.${env}.d1_databases[0].database_id of worker/wrangler.jsonc`;
  if (!database) return fail(`Cloudflare: ${where} has no D1 database bound as DB`, create);
  if (!D1_ID.test(id) || PLACEHOLDER_ID.test(id))
    return fail(`Cloudflare: the D1 database_id in ${where} is ${id ? `the placeholder ${id}` : 'not set'}`, create);
  return ok(`Cloudflare: D1 database ${database.database_name ?? ''} (${id}) in env ${env}`);
}

/**
 * Asking for the pending migrations also proves the database_id names a database of this account.
 * Pending ones only warn: `npm run deploy` (and `worker:deploy`) apply them before the upload. One
 * that moves data (scripts/support/migrations.ts) warns again, on a database in use: going back
 * past it takes the data back too, so the seller notes the time before deploying.
 */
async function migrationsLines(pendingMigrations: () => Promise<string[]>, env: string): Promise<CheckLine[]> {
  const line = await migrationsLine(pendingMigrations, env);
  if (!line.pending) return [line.line];
  // A new database (every migration pending) holds nothing to move.
  const inUse = line.pending.length < migrationFiles().length;
  const moving = inUse
    ? line.pending.flatMap((file) => {
        const moved = movedData(migrationText(file));
        return moved ? [{file, moved}] : [];
      })
    : [];
  return [
    line.line,
    ...moving.map(({file, moved}) =>
      warn(
        `Cloudflare: ${file} moves data in env ${env} (${moved}): going back past it takes the database back too, not only the worker`,
        `npm run deploy prints the time to restore to before it applies it; if it goes wrong: ${restoreCommands(env, '<that time>')} (docs: Deployment, "Migrations, and going back")`,
      ),
    ),
  ];
}

/** The line on the pending migrations, and their names when there are any (and Cloudflare answered). */
async function migrationsLine(
  pendingMigrations: () => Promise<string[]>,
  env: string,
): Promise<{line: CheckLine; pending?: string[]}> {
  const apply = `cd worker && npx wrangler d1 migrations apply DB --remote --env ${env} (npm run deploy does it before uploading the worker)`;
  let pending: string[];
  try {
    pending = await pendingMigrations();
  } catch (error) {
    return {
      line: fail(
        `Cloudflare: could not read the D1 database's migrations in env ${env}: ${messageOf(error)}`,
        `cd worker && npx wrangler d1 list: the database_id of env.${env} in worker/wrangler.jsonc must be one of these (npx wrangler login first)`,
      ),
    };
  }
  if (pending.length > 0)
    return {
      line: warn(
        `Cloudflare: ${pending.length} D1 migration${pending.length === 1 ? ' is' : 's are'} not applied yet: ${pending.join(', ')}`,
        apply,
      ),
      pending,
    };
  return {line: ok(`Cloudflare: every D1 migration is applied in env ${env}`)};
}

function siteUrlLine(value: unknown, where: string): CheckLine {
  const expected = `https://${appConfig.domainName}`;
  const fix = `Set "SITE_URL": "${expected}" in the vars of ${where}, and add ${appConfig.domainName} to the Worker (Cloudflare dashboard, Workers, the Worker, Settings, Domains & Routes)`;
  let url: URL;
  try {
    url = new URL(String(value ?? ''));
  } catch {
    return fail(`Cloudflare: SITE_URL in ${where} is ${value ? `"${String(value)}", not a URL` : 'not set'}`, fix);
  }
  const host = url.hostname.replace(/^www\./, '');
  if (url.protocol === 'https:' && host === appConfig.domainName)
    return ok(`Cloudflare: SITE_URL is ${url.origin}, the config's domain`);
  if (url.protocol === 'https:' && host.endsWith('.workers.dev')) {
    return warn(
      `Cloudflare: SITE_URL is ${url.origin}, not ${expected} yet: links, e-mails and webhooks use the workers.dev address`,
      fix,
    );
  }
  return fail(`Cloudflare: SITE_URL is ${url.origin}, but the site is served on ${expected} (src/config)`, fix);
}
