import type {Settings} from '../settings';

/**
 * Supabase Auth's admin API (service-role key), the one source for whether a Supabase e-mail is
 * confirmed: a token's `user_metadata` is the user's to write (`auth.updateUser`), so it proves
 * nothing. A confirmed user is remembered for a minute, so a dashboard's calls cost one lookup;
 * an unconfirmed one is asked again each time, so a confirmation counts at once (and tokens of
 * unconfirmed users are rare: magic links and Google confirm the address).
 */
export interface SupabaseUser {
  id: string;
  email: string | null;
  email_confirmed_at: string | null;
}

const CACHE_MS = 60_000;
const cache = new Map<string, {user: SupabaseUser | null; until: number}>();

export function supabaseAdmin(settings: Settings) {
  const {SUPABASE_URL: url, SUPABASE_SERVICE_ROLE_KEY: key} = settings;
  if (!url || !key) throw new Error('SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY are required');
  return {
    base: url.replace(/\/$/, ''),
    headers: {'content-type': 'application/json', apikey: key, authorization: `Bearer ${key}`},
  };
}

/** The user as Supabase's admin API sees it now (or within the last minute); null when unknown. */
export async function supabaseUser(
  settings: Settings,
  uid: string,
  {fresh = false} = {},
): Promise<SupabaseUser | null> {
  const cached = cache.get(uid);
  if (!fresh && cached && cached.until > Date.now()) return cached.user;
  const {base, headers} = supabaseAdmin(settings);
  const response = await fetch(`${base}/auth/v1/admin/users/${encodeURIComponent(uid)}`, {headers});
  if (!response.ok && response.status !== 404) throw new Error(`Supabase's admin API answered ${response.status}`);
  const body = response.ok ? ((await response.json()) as SupabaseUser) : null;
  const user = body?.id ? body : null;
  if (cache.size > 10_000) cache.clear();
  if (user?.email_confirmed_at) cache.set(uid, {user, until: Date.now() + CACHE_MS});
  else cache.delete(uid);
  return user;
}

/** Whether Supabase itself has confirmed this e-mail for this user; false when it cannot say. */
export async function supabaseConfirmed(settings: Settings, uid: string, email: string): Promise<boolean> {
  if (!settings.SUPABASE_SERVICE_ROLE_KEY) return false;
  try {
    const user = await supabaseUser(settings, uid);
    return Boolean(user?.email_confirmed_at) && user?.email?.toLowerCase() === email;
  } catch {
    return false;
  }
}
