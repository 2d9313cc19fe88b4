import type {MiddlewareHandler} from 'hono';
import {z} from 'zod';
import type {StripeMode} from '../../src/config';
import {isLoopbackAddress, isLoopbackHost} from './address';
import {serviceAccountSchema} from './auth/serviceAccount';
import {HttpError} from './errors';
import {EXTRA_REPOS_FORMAT, extraReposConflict, extraRepoPairs} from './extraRepos';
import {log} from './log';
import {isLiveKey} from './payments/stripeClient';

/**
 * The worker's variables, checked once per isolate. Missing optional services stay `undefined`
 * so each module can say plainly what is not configured instead of failing half-way.
 */
const optional = z
  .string()
  .optional()
  .transform((value) => (value && value.trim() !== '' ? value.trim() : undefined));

const settingsSchema = z.object({
  SITE_URL: z.url({message: 'SITE_URL must be an absolute URL'}),
  AUTH_PROVIDER: optional.pipe(z.enum(['firebase', 'supabase']).default('firebase')),
  FIREBASE_PROJECT_ID: optional,
  FIREBASE_AUTH_EMULATOR_HOST: optional,
  FIREBASE_SERVICE_ACCOUNT: optional,
  // Development only (fairPrices.ts): read in emulator mode alone, which answers only loopback.
  DEV_VISITOR_COUNTRY: optional.pipe(
    z
      .string()
      .regex(/^[A-Za-z]{2}$/, 'DEV_VISITOR_COUNTRY must be a two-letter country code, such as BR')
      .optional(),
  ),
  FIREBASE_JWKS_URL: optional,
  SUPABASE_URL: optional,
  SUPABASE_SERVICE_ROLE_KEY: optional,
  SUPABASE_JWT_SECRET: optional,
  STRIPE_SECRET_KEY: optional,
  STRIPE_WEBHOOK_SECRET: optional,
  STRIPE_API_URL: optional,
  GITHUB_TOKEN: optional,
  GITHUB_REPO: optional.pipe(
    z
      .string()
      .regex(/^[\w.-]+\/[\w.-]+$/, 'GITHUB_REPO must be owner/name')
      .optional(),
  ),
  // Extra private repositories the plans grant (src/config: Plan.extraRepositories), key=owner/name, comma-separated.
  GITHUB_EXTRA_REPOS: optional.pipe(
    z
      .string()
      .regex(
        EXTRA_REPOS_FORMAT,
        'GITHUB_EXTRA_REPOS must be key=owner/name pairs, comma-separated, such as prompts=your-name/your-prompts',
      )
      .optional(),
  ),
  GITHUB_PERMISSION: optional.pipe(z.enum(['pull', 'triage', 'push', 'maintain', 'admin']).default('pull')),
  GITHUB_API_URL: optional,
  GITHUB_WEBHOOK_SECRET: optional,
  UNSUBSCRIBE_SECRET: optional,
  MAILGUN_API_KEY: optional,
  MAILGUN_DOMAIN: optional,
  MAILGUN_WEBHOOK_SIGNING_KEY: optional,
  MAILGUN_API_URL: optional,
  PLAUSIBLE_HOST: optional.pipe(z.string().default('https://plausible.io')),
  /** A Plausible Stats API key: the console's funnel then starts at the site's visitors. */
  PLAUSIBLE_API_KEY: optional,
  ADMIN_EMAILS: optional,
  GITHUB_EXEMPT: optional,
  SAME_ORIGIN: optional.pipe(
    z.enum(['true', 'false'], {message: 'SAME_ORIGIN must be true or false'}).default('false'),
  ),
  // The Free plan's 50 unless told otherwise: counting too few only spreads work over more cron runs.
  SUBREQUEST_LIMIT: optional.pipe(
    z
      .string()
      .regex(/^[1-9]\d{0,7}$/, 'SUBREQUEST_LIMIT must be a whole number of subrequests, such as 50 or 10000')
      .default('50'),
  ),
});

function parseJson(value: string | undefined): unknown {
  try {
    return value === undefined ? undefined : JSON.parse(value);
  } catch {
    return undefined;
  }
}

type Parsed = Omit<z.output<typeof settingsSchema>, 'SAME_ORIGIN' | 'SUBREQUEST_LIMIT'>;

export interface Settings extends Parsed {
  /** The site's origin, e.g. `https://slipway.dev`. */
  siteOrigin: string;
  /** The worker answers on the site's own origin, under SAME_ORIGIN_PREFIX (see sameOrigin.ts). */
  sameOrigin: boolean;
  /** The verified e-mails that may use the seller's console (lower-case); none when unset. */
  adminEmails: string[];
  /** GitHub logins the repository audit leaves out (lower-case), besides the repository's owner. */
  githubExempt: string[];
  /** Which price ids the plans use: production for live keys, test otherwise. */
  stripeMode: StripeMode;
  /** Fetches to the internet one invocation may make (Cloudflare's plan limit): see subrequests.ts. */
  subrequestLimit: number;
  /**
   * The extra repositories' `owner/name` by key (GITHUB_EXTRA_REPOS). A key a plan names that is
   * missing here grants nothing: the worker never guesses a repository (access/grants/reconcile.ts).
   */
  extraRepos: Record<string, string>;
}

const cache = new WeakMap<object, Settings | HttpError>();

/**
 * The settings, or a 503 naming the variable at fault: a worker set up wrongly refuses every
 * request (and the cron) rather than run half-safe.
 */
export function settingsOf(env: Env): Settings {
  let settings = cache.get(env);
  if (!settings) {
    settings = check(env);
    if (settings instanceof HttpError) log.error('settings.refused', {reason: settings.message});
    cache.set(env, settings);
  }
  if (settings instanceof HttpError) throw settings;
  return settings;
}

function check(env: Env): Settings | HttpError {
  const parsed = settingsSchema.safeParse(env);
  if (!parsed.success) return misconfigured(`Worker variables are invalid: ${z.prettifyError(parsed.error)}`);
  const {SAME_ORIGIN, SUBREQUEST_LIMIT, ...vars} = parsed.data;
  const live = isLiveKey(vars.STRIPE_SECRET_KEY);
  const siteUrl = new URL(vars.SITE_URL);
  if (vars.FIREBASE_AUTH_EMULATOR_HOST) {
    // Emulator mode accepts unsigned tokens: only ever on a developer's own machine.
    const refusal = !isLoopbackHost(siteUrl.hostname)
      ? 'SITE_URL must be on loopback (localhost or 127.0.0.1)'
      : !vars.FIREBASE_PROJECT_ID?.startsWith('demo-')
        ? 'FIREBASE_PROJECT_ID must start with demo-'
        : live
          ? 'STRIPE_SECRET_KEY must not be a live key'
          : null;
    if (refusal) return emulatorRefusal(refusal);
  } else if (vars.AUTH_PROVIDER === 'firebase') {
    // Without it the worker can neither sign a guest in nor check an account's first verified
    // sign-in (auth/firstVerifiedSignIn.ts), so it would serve verified e-mails it cannot trust.
    const refusal = !vars.FIREBASE_PROJECT_ID
      ? 'FIREBASE_PROJECT_ID must be set'
      : !serviceAccountSchema.safeParse(parseJson(vars.FIREBASE_SERVICE_ACCOUNT)).success
        ? "FIREBASE_SERVICE_ACCOUNT must be the service account's JSON key (one line)"
        : null;
    if (refusal) return misconfigured(`AUTH_PROVIDER is firebase, so ${refusal}.`);
  }
  const extraRepos = extraRepoPairs(vars.GITHUB_EXTRA_REPOS);
  const conflict = extraReposConflict(vars.GITHUB_REPO, extraRepos);
  if (conflict) return misconfigured(conflict);
  return {
    ...vars,
    siteOrigin: siteUrl.origin,
    sameOrigin: SAME_ORIGIN === 'true',
    subrequestLimit: Number(SUBREQUEST_LIMIT),
    stripeMode: live ? 'production' : 'test',
    adminEmails: list(vars.ADMIN_EMAILS),
    githubExempt: list(vars.GITHUB_EXEMPT),
    extraRepos,
  };
}

/** A comma-separated variable, lower-cased, blanks dropped. */
function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);
}

function misconfigured(message: string) {
  return new HttpError(503, message, 'MISCONFIGURED');
}

function emulatorRefusal(reason: string) {
  return misconfigured(
    `FIREBASE_AUTH_EMULATOR_HOST is set, so ${reason}. Unset FIREBASE_AUTH_EMULATOR_HOST outside development.`,
  );
}

/**
 * Emulator mode, checked per request: the variables above can all look like a developer's machine
 * (the committed defaults do: a `demo-` project, a localhost SITE_URL), so each request must also
 * have been made on this machine. Its URL's host must be loopback: in production it is the name
 * the request came in on. And `cf-connecting-ip` must be loopback or absent: Cloudflare sets it to
 * the caller's address; wrangler dev and Miniflare to the socket's peer (127.0.0.1 on loopback),
 * but keep one the caller sent. Else 503 MISCONFIGURED, naming the variable, like the rest.
 */
export const emulatorOnLoopback: MiddlewareHandler<{Bindings: Env}> = async (c, next) => {
  if (settingsOf(c.env).FIREBASE_AUTH_EMULATOR_HOST) {
    const host = new URL(c.req.url).hostname;
    const caller = c.req.header('cf-connecting-ip');
    if (!isLoopbackHost(host) || (caller !== undefined && !isLoopbackAddress(caller))) {
      log.error('settings.refused_request', {reason: 'emulator mode off loopback', host});
      throw emulatorRefusal('the worker answers only requests made on this machine (loopback), and this one was not');
    }
  }
  await next();
};
