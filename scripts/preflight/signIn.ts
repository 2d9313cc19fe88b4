/**
 * Sign-in: the site and the worker name the same provider and project, it is a real project (not
 * the emulator's `demo-` one), and nothing points either at the Auth emulator. Reads settings
 * only: the site's (`.env` and the shell, as the build does) and the worker's.
 */
import {serviceAccountSchema} from '../../worker/src/auth/serviceAccount';
import {type CheckLine, fail, notAsked, ok, secretPut, valueOf, type Vars, warn} from './lines';

export interface SignInCheckInput {
  /** What the site's build reads: `.env` under the shell's environment. */
  site: Vars;
  /** The worker's variables as deployed. */
  worker: Vars;
  env: string;
  /** The secrets set on Cloudflare: one set there whose value this machine lacks is not checked, and a warning says so. */
  onCloudflare?: readonly string[];
}

const CONSOLE = 'https://console.firebase.google.com';
const EMULATOR_VARIABLES = ['FIREBASE_AUTH_EMULATOR_HOST', 'FIREBASE_EMULATOR_HUB', 'FIRESTORE_EMULATOR_HOST'];

export function checkSignIn({site, worker, env, onCloudflare = []}: SignInCheckInput): CheckLine[] {
  const siteProvider = valueOf(site, 'AUTH_PROVIDER') ?? 'firebase';
  const workerProvider = valueOf(worker, 'AUTH_PROVIDER') ?? 'firebase';
  if (siteProvider !== workerProvider) {
    return [
      fail(
        `Sign-in: the site signs in with ${siteProvider} (.env) but the worker checks ${workerProvider} tokens`,
        `Set AUTH_PROVIDER to the same provider in .env and in worker/wrangler.jsonc (env.${env}.vars)`,
      ),
    ];
  }
  return siteProvider === 'supabase'
    ? supabase(site, worker, env, onCloudflare)
    : firebase(site, worker, env, onCloudflare);
}

function firebase(site: Vars, worker: Vars, env: string, onCloudflare: readonly string[]): CheckLine[] {
  const lines: CheckLine[] = [];
  const siteProject = valueOf(site, 'FIREBASE_PROJECT_ID');
  const workerProject = valueOf(worker, 'FIREBASE_PROJECT_ID');
  const webConfig = `${CONSOLE}, Project settings, Your apps: copy the web app's config into .env (FIREBASE_API_KEY, FIREBASE_AUTH_DOMAIN, FIREBASE_PROJECT_ID, FIREBASE_APP_ID)`;
  if (!valueOf(site, 'FIREBASE_API_KEY') || !siteProject) {
    lines.push(
      fail(
        'Sign-in: .env has no Firebase web config: the built site would sign in against the local emulator',
        webConfig,
      ),
    );
  } else if (siteProject.startsWith('demo-')) {
    lines.push(
      fail(`Sign-in: the site's FIREBASE_PROJECT_ID is ${siteProject}, the emulator's demo project`, webConfig),
    );
  }
  if (!workerProject || workerProject.startsWith('demo-')) {
    lines.push(
      fail(
        `Sign-in: the worker's FIREBASE_PROJECT_ID is ${workerProject ?? 'not set'}, not a real project`,
        `Set FIREBASE_PROJECT_ID in worker/wrangler.jsonc (env.${env}.vars) to your project's id`,
      ),
    );
  } else if (siteProject && siteProject !== workerProject) {
    lines.push(
      fail(
        `Sign-in: the site signs in to ${siteProject} but the worker verifies tokens of ${workerProject}`,
        `Make FIREBASE_PROJECT_ID the same in .env and worker/wrangler.jsonc (env.${env}.vars)`,
      ),
    );
  }
  lines.push(
    ...(!valueOf(worker, 'FIREBASE_SERVICE_ACCOUNT') && onCloudflare.includes('FIREBASE_SERVICE_ACCOUNT')
      ? [notAsked('Sign-in', 'FIREBASE_SERVICE_ACCOUNT')]
      : serviceAccount(worker, workerProject, env)),
  );
  lines.push(...emulatorLines(site, worker, env));
  if (!lines.some((line) => line.status === 'fail'))
    lines.unshift(ok(`Sign-in: Firebase project ${workerProject} on the site and the worker`));
  return lines;
}

function serviceAccount(worker: Vars, project: string | undefined, env: string): CheckLine[] {
  const make = `${CONSOLE}, Project settings, Service accounts, Generate new private key; then ${secretPut('FIREBASE_SERVICE_ACCOUNT', env)} (the JSON on one line)`;
  const raw = valueOf(worker, 'FIREBASE_SERVICE_ACCOUNT');
  if (!raw) return [fail('Sign-in: FIREBASE_SERVICE_ACCOUNT is not set: the worker refuses to run', make)];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  const account = serviceAccountSchema.safeParse(parsed);
  if (!account.success) return [fail("Sign-in: FIREBASE_SERVICE_ACCOUNT is not a service account's JSON key", make)];
  if (account.data.project_id && project && account.data.project_id !== project) {
    return [fail(`Sign-in: the service account belongs to ${account.data.project_id}, not ${project}`, make)];
  }
  return [];
}

function emulatorLines(site: Vars, worker: Vars, env: string): CheckLine[] {
  const lines: CheckLine[] = [];
  for (const name of EMULATOR_VARIABLES) {
    if (valueOf(site, name))
      lines.push(
        fail(
          `Sign-in: ${name} is set for the site's build: it would sign in against an emulator`,
          `Remove ${name} from .env and unset it in this shell (unset ${name})`,
        ),
      );
    if (valueOf(worker, name))
      lines.push(
        fail(
          `Sign-in: ${name} is set for the worker: it would accept unsigned tokens (and refuse to run)`,
          `Remove ${name} from worker/wrangler.jsonc (env.${env}.vars), or: cd worker && npx wrangler secret delete ${name} --env ${env}`,
        ),
      );
  }
  return lines;
}

function supabase(site: Vars, worker: Vars, env: string, onCloudflare: readonly string[]): CheckLine[] {
  const lines: CheckLine[] = [];
  const keys = 'Supabase dashboard, Project Settings, API';
  if (!valueOf(site, 'SUPABASE_URL') || !valueOf(site, 'SUPABASE_ANON_KEY'))
    lines.push(
      fail(
        'Sign-in: .env lacks SUPABASE_URL or SUPABASE_ANON_KEY',
        `${keys}: copy the project URL and the anon key into .env`,
      ),
    );
  const held = (name: string) => !valueOf(worker, name) && onCloudflare.includes(name);
  if (held('SUPABASE_URL')) lines.push(notAsked('Sign-in', 'SUPABASE_URL'));
  else if (!valueOf(worker, 'SUPABASE_URL'))
    lines.push(fail("Sign-in: the worker's SUPABASE_URL is not set", secretPut('SUPABASE_URL', env)));
  else if (
    valueOf(site, 'SUPABASE_URL') &&
    valueOf(site, 'SUPABASE_URL')!.replace(/\/+$/, '') !== valueOf(worker, 'SUPABASE_URL')!.replace(/\/+$/, '')
  ) {
    lines.push(
      fail(
        'Sign-in: the site and the worker name different SUPABASE_URLs',
        `Make SUPABASE_URL the same in .env and for the worker (${secretPut('SUPABASE_URL', env)})`,
      ),
    );
  }
  if (held('SUPABASE_SERVICE_ROLE_KEY')) lines.push(notAsked('Sign-in', 'SUPABASE_SERVICE_ROLE_KEY'));
  else if (!valueOf(worker, 'SUPABASE_SERVICE_ROLE_KEY'))
    lines.push(
      fail(
        'Sign-in: SUPABASE_SERVICE_ROLE_KEY is not set',
        `${keys}: copy the service_role key; then ${secretPut('SUPABASE_SERVICE_ROLE_KEY', env)}`,
      ),
    );
  if (!valueOf(worker, 'SUPABASE_JWT_SECRET') && !onCloudflare.includes('SUPABASE_JWT_SECRET'))
    lines.push(
      warn('Sign-in: no SUPABASE_JWT_SECRET: guests who pay sign in with the purchase e-mail instead of at once'),
    );
  if (!lines.some((line) => line.status === 'fail'))
    lines.unshift(
      ok(
        `Sign-in: Supabase at ${valueOf(worker, 'SUPABASE_URL') ?? valueOf(site, 'SUPABASE_URL')} on the site and the worker`,
      ),
    );
  return lines;
}
