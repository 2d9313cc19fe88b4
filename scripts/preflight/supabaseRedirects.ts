/**
 * Sign-in with Supabase: its Auth sends a magic link, or a password reset, back only to a URL its
 * URL Configuration allows; any other `redirectTo` falls back to the project's Site URL without a
 * word, so a buyer's link lands on the wrong page. The site asks for two: ROUTES.finishSignIn and
 * ROUTES.newPassword, on SITE_URL. Only Supabase's Management API reads that configuration
 * (`GET /v1/projects/{ref}/config/auth`), with a personal access token the worker never holds: the
 * seller gives it to this run alone, as SUPABASE_ACCESS_TOKEN in the shell. Without it, a warning
 * says what to check by hand.
 */
import {ROUTES} from '../../src/config';
import {type CheckLine, fail, ok, valueOf, type Vars, warn} from './lines';

/** What is read of the answer (Supabase's Management API reference, "Get project's auth config"). */
export interface SupabaseAuthConfig {
  site_url: string | null;
  /** Comma-separated; an entry may use `*` and `**` wildcards. */
  uri_allow_list: string | null;
}

export interface SupabaseRedirectsInput {
  /** The site's settings (`.env` under the shell): AUTH_PROVIDER, SUPABASE_URL, SUPABASE_ACCESS_TOKEN. */
  site: Vars;
  siteUrl: string;
  /** The Management API's base; Supabase's own unless a test points it at a stand-in. */
  apiUrl?: string;
}

const SETTINGS_PAGE = 'Supabase dashboard, Authentication, URL Configuration';

/** GoTrue's rule: a URL on the Site URL's host is allowed; else it must match an allow-list entry. */
export function redirectAllowed(url: string, config: SupabaseAuthConfig): boolean {
  const host = (address: string) => {
    try {
      return new URL(address).host;
    } catch {
      return null;
    }
  };
  if (config.site_url && host(config.site_url) !== null && host(config.site_url) === host(url)) return true;
  return (config.uri_allow_list ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .some((entry) => {
      const pattern = entry
        .split(/(\*\*|\*)/)
        .map((part) => (part === '**' ? '.*' : part === '*' ? '[^/.]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
        .join('');
      return new RegExp(`^${pattern}/?$`).test(url) || entry.replace(/\/+$/, '') === url.replace(/\/+$/, '');
    });
}

export async function checkSupabaseRedirects({
  site,
  siteUrl,
  apiUrl = 'https://api.supabase.com',
}: SupabaseRedirectsInput): Promise<CheckLine[]> {
  if ((valueOf(site, 'AUTH_PROVIDER') ?? 'firebase') !== 'supabase') return [];
  const wanted = [ROUTES.finishSignIn, ROUTES.newPassword].map((route) => `${siteUrl.replace(/\/+$/, '')}${route}`);
  const byHand = `${SETTINGS_PAGE}: add ${wanted.join(' and ')} to Redirect URLs (or make ${siteUrl} the Site URL)`;
  const token = valueOf(site, 'SUPABASE_ACCESS_TOKEN');
  if (!token)
    return [
      warn(
        "Sign-in: Supabase's Redirect URLs not checked (give SUPABASE_ACCESS_TOKEN, a personal access token, to this run to check them)",
        byHand,
      ),
    ];
  const ref = /^https:\/\/([a-z0-9]+)\.supabase\.co\/?$/.exec(valueOf(site, 'SUPABASE_URL') ?? '')?.[1];
  if (!ref)
    return [
      warn(
        "Sign-in: Supabase's Redirect URLs not checked: SUPABASE_URL is not a hosted project's https://<ref>.supabase.co",
        byHand,
      ),
    ];

  const response = await fetch(`${apiUrl.replace(/\/+$/, '')}/v1/projects/${ref}/config/auth`, {
    headers: {authorization: `Bearer ${token}`},
  });
  if (response.status === 401 || response.status === 403) {
    return [
      fail(
        `Sign-in: Supabase refused SUPABASE_ACCESS_TOKEN for project ${ref} (${response.status})`,
        'Supabase dashboard, Account, Access Tokens: generate a token of an account that is a member of the project',
      ),
    ];
  }
  if (response.status === 404)
    return [fail(`Sign-in: Supabase knows no project ${ref}`, 'Copy SUPABASE_URL again from Project Settings, API')];
  if (!response.ok)
    return [
      fail(
        `Sign-in: Supabase's Management API answered ${response.status}`,
        'Try again in a minute; https://status.supabase.com says whether it is down',
      ),
    ];
  const config = (await response.json()) as SupabaseAuthConfig;
  const refused = wanted.filter((url) => !redirectAllowed(url, config));
  if (refused.length > 0) {
    return [
      fail(
        `Sign-in: Supabase would not send sign-in links back to ${refused.join(' and ')}`,
        `${SETTINGS_PAGE}: add ${refused.join(' and ')} to Redirect URLs (or make ${siteUrl} the Site URL)`,
      ),
    ];
  }
  return [ok(`Sign-in: Supabase sends sign-in and password links back to ${siteUrl}`)];
}
