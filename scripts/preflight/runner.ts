/**
 * Runs every check against one set of settings and writes the checklist. The services' addresses
 * come from the settings (STRIPE_API_URL, GITHUB_API_URL, MAILGUN_API_URL), so tests point the
 * same run at the local stand-ins; only what Cloudflare is asked (its secrets, the pending
 * migrations) is passed in.
 *
 * A secret set on Cloudflare whose value this machine does not hold (a redeploy after the secrets
 * file was deleted, as the docs advise) is not a failure: Cloudflare never gives a value back, so
 * the service it opens is not asked, and one warning says so and how to check it.
 */
import {checkCloudflare} from './cloudflare';
import {checkExtraRepositories} from './extraRepositories';
import {checkGitHub} from './github';
import {type CheckLine, fail, messageOf, notAsked, valueOf} from './lines';
import {checkMail} from './mail';
import {checkReleaseWebhook} from './releaseWebhook';
import type {PreflightSettings} from './settings';
import {checkSignIn} from './signIn';
import {checkStripe} from './stripe';
import {checkSupabaseRedirects} from './supabaseRedirects';

export interface PreflightRun {
  settings: PreflightSettings;
  secretNames: () => Promise<string[]>;
  pendingMigrations: () => Promise<string[]>;
}

/** The checks, in the order they are printed; they ask their services at the same time. */
export async function runChecks({settings, secretNames, pendingMigrations}: PreflightRun): Promise<CheckLine[]> {
  const {worker, site, env, config} = settings;
  const value = (name: string) => valueOf(worker, name);
  const siteUrl = value('SITE_URL') ?? '';
  // Asked of Cloudflare once, for its own line and for the secrets this machine lacks.
  const listed = secretNames();
  listed.catch(() => undefined); // its own line reports a failure
  const onCloudflare = () => listed.catch((): string[] => []);
  const guard = (name: string, check: () => Promise<CheckLine[]> | CheckLine[]) =>
    Promise.resolve()
      .then(check)
      .catch((error: unknown) => [
        fail(
          `${name}: the check could not run: ${messageOf(error)}`,
          'Fix the setting it names, then run npm run preflight again',
        ),
      ]);
  /** `check`, unless the secret that opens the service is on Cloudflare only: then a warning that it was not asked. */
  const withValueOf =
    (secret: string, service: string, check: () => Promise<CheckLine[]> | CheckLine[]) =>
    async (): Promise<CheckLine[]> => {
      if (value(secret) || !(await onCloudflare()).includes(secret)) return check();
      return [notAsked(service, secret)];
    };
  const sections = await Promise.all([
    guard('Cloudflare', () =>
      checkCloudflare({
        config,
        env,
        secretNames: () => listed,
        pendingMigrations,
        authProvider: value('AUTH_PROVIDER') ?? 'firebase',
      }),
    ),
    guard('Sign-in', async () => checkSignIn({site, worker, env, onCloudflare: await onCloudflare()})),
    guard('Sign-in', () =>
      checkSupabaseRedirects({site, siteUrl, apiUrl: valueOf(site, 'SUPABASE_MANAGEMENT_API_URL')}),
    ),
    guard(
      'Stripe',
      withValueOf('STRIPE_SECRET_KEY', 'Stripe', () =>
        checkStripe({
          secretKey: value('STRIPE_SECRET_KEY'),
          webhookSecret: value('STRIPE_WEBHOOK_SECRET'),
          siteUrl,
          apiUrl: value('STRIPE_API_URL'),
          env,
        }),
      ),
    ),
    guard(
      'GitHub',
      withValueOf('GITHUB_TOKEN', 'GitHub', async () => [
        ...(await checkGitHub({
          token: value('GITHUB_TOKEN'),
          repo: value('GITHUB_REPO'),
          permission: value('GITHUB_PERMISSION'),
          apiUrl: value('GITHUB_API_URL'),
          env,
        })),
        ...(await guard('GitHub', () =>
          checkExtraRepositories({
            token: value('GITHUB_TOKEN'),
            extraRepos: value('GITHUB_EXTRA_REPOS'),
            kitRepo: value('GITHUB_REPO'),
            apiUrl: value('GITHUB_API_URL'),
            env,
          }),
        )),
        ...(await guard('GitHub webhook', () =>
          checkReleaseWebhook({
            token: value('GITHUB_TOKEN'),
            repo: value('GITHUB_REPO'),
            webhookSecret: value('GITHUB_WEBHOOK_SECRET'),
            unsubscribeSecret: value('UNSUBSCRIBE_SECRET'),
            siteUrl,
            apiUrl: value('GITHUB_API_URL'),
            env,
          }),
        )),
      ]),
    ),
    guard(
      'Mail',
      withValueOf('MAILGUN_API_KEY', 'Mail', () =>
        checkMail({
          apiKey: value('MAILGUN_API_KEY'),
          domain: value('MAILGUN_DOMAIN'),
          signingKey: value('MAILGUN_WEBHOOK_SIGNING_KEY'),
          apiUrl: value('MAILGUN_API_URL'),
          siteUrl,
          env,
        }),
      ),
    ),
  ]);
  return sections.flat();
}

const TAGS = {ok: '  ok  ', warn: ' warn ', fail: ' FAIL '} as const;

/** The checklist as printed: one line each, the fix under a failure or warning. */
export function formatChecklist(lines: CheckLine[]): string {
  const out = lines.flatMap((line) => [
    `[${TAGS[line.status]}] ${line.label}`,
    ...(line.fix ? [`         fix: ${line.fix}`] : []),
  ]);
  const failures = lines.filter((line) => line.status === 'fail').length;
  const warnings = lines.filter((line) => line.status === 'warn').length;
  out.push(
    '',
    failures > 0
      ? `Preflight: ${failures} failure${failures === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}. Fix the failures, then run npm run preflight again.`
      : `Preflight: ready to deploy (${warnings} warning${warnings === 1 ? '' : 's'}).`,
  );
  return out.join('\n');
}

/** 1 when any line failed: the deploy stops. */
export const exitCodeOf = (lines: CheckLine[]) => (lines.some((line) => line.status === 'fail') ? 1 : 0);
