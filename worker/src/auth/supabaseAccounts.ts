import type {Settings} from '../settings';
import type {Accounts} from './accounts';

/**
 * Supabase accounts through its Auth admin API (service-role key). The sign-in token is the hashed
 * token of a generated magic link, which the site exchanges with `verifyOtp({token_hash})`.
 */
export function supabaseAccounts(settings: Settings): Accounts {
  const {SUPABASE_URL: url, SUPABASE_SERVICE_ROLE_KEY: key} = settings;
  if (!url || !key) throw new Error('SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY are required');
  const admin = `${url.replace(/\/$/, '')}/auth/v1/admin`;
  const headers = {'content-type': 'application/json', apikey: key, authorization: `Bearer ${key}`};

  return {
    async create(email) {
      const response = await fetch(`${admin}/users`, {
        method: 'POST',
        headers,
        body: JSON.stringify({email, email_confirm: false}),
      });
      const body = (await response.json().catch(() => ({}))) as {id?: string; error_code?: string; code?: string | number};
      if (body.error_code === 'email_exists' || (response.status === 422 && body.code === 'email_exists')) {
        return 'exists';
      }
      if (!response.ok || !body.id) throw new Error(`Supabase refused to create an account: ${response.status}`);
      return {uid: body.id};
    },
    async signInToken({email}) {
      const response = await fetch(`${admin}/generate_link`, {
        method: 'POST',
        headers,
        body: JSON.stringify({type: 'magiclink', email}),
      });
      const body = (await response.json().catch(() => ({}))) as {
        hashed_token?: string;
        properties?: {hashed_token?: string};
      };
      const token = body.properties?.hashed_token ?? body.hashed_token;
      if (!response.ok || !token) throw new Error(`Supabase refused a sign-in link: ${response.status}`);
      return token;
    },
  };
}
