import {SignJWT} from 'jose';
import {HttpError} from '../errors';
import type {Settings} from '../settings';
import {type Accounts, provesEmail, unknowablePassword} from './accounts';
import {CHECKOUT_CLAIM} from './user';
import {supabaseAdmin, supabaseUser} from './supabaseUsers';

/** A checkout session lasts as long as its one access token: there is no refresh token. */
const TOKEN_SECONDS = 3600;

/**
 * Supabase accounts through its Auth admin API (service-role key). GoTrue has no admin call that
 * signs a user in without confirming the e-mail (a magic link confirms it), so the sign-in token is
 * an access token for the recorded uid, signed with the project's JWT secret. Without that secret
 * (a project on asymmetric keys) the buyer signs in with the purchase e-mail instead.
 */
export function supabaseAccounts(settings: Settings): Accounts {
  const {base, headers} = supabaseAdmin(settings);

  /** GoTrue's own sign-out, called as the caller's session: everywhere else, or everywhere. */
  async function signOut(token: string, scope: 'others' | 'global') {
    const response = await fetch(`${base}/auth/v1/logout?scope=${scope}`, {
      method: 'POST',
      headers: {apikey: headers.apikey, authorization: `Bearer ${token}`},
    });
    if (!response.ok) throw new Error(`Supabase refused to sign the sessions out (${scope}): ${response.status}`);
  }

  return {
    async create(email) {
      const response = await fetch(`${base}/auth/v1/admin/users`, {
        method: 'POST',
        headers,
        body: JSON.stringify({email, email_confirm: false}),
      });
      const body = (await response.json().catch(() => ({}))) as {
        id?: string;
        error_code?: string;
        code?: string | number;
      };
      if (body.error_code === 'email_exists' || (response.status === 422 && body.code === 'email_exists')) {
        return 'exists';
      }
      if (!response.ok || !body.id) throw new Error(`Supabase refused to create an account: ${response.status}`);
      return {uid: body.id};
    },
    async isVerified(uid) {
      const user = await supabaseUser(settings, uid, {fresh: true});
      return Boolean(user?.email_confirmed_at);
    },
    async signInToken({uid, email}) {
      if (!settings.SUPABASE_JWT_SECRET) {
        throw new HttpError(
          409,
          'Sign in with the e-mail you paid with (a magic link) to reach your purchase.',
          'SIGN_IN_REQUIRED',
        );
      }
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({
        email,
        role: 'authenticated',
        aal: 'aal1',
        amr: [{method: CHECKOUT_CLAIM, timestamp: now}],
        app_metadata: {provider: 'email', providers: ['email']},
        user_metadata: {},
        is_anonymous: false,
        [CHECKOUT_CLAIM]: true,
      })
        .setProtectedHeader({alg: 'HS256', typ: 'JWT'})
        .setIssuer(`${base}/auth/v1`)
        .setAudience('authenticated')
        .setSubject(uid)
        .setIssuedAt(now)
        .setExpirationTime(now + TOKEN_SECONDS)
        .sign(new TextEncoder().encode(settings.SUPABASE_JWT_SECRET));
    },
    async endOtherSessions({token}) {
      await signOut(token, 'others');
    },
    async removeUnprovenPassword({uid, token, signInMethod}) {
      // GoTrue does not say whether a user has a password, nor since when: one nobody knows
      // replaces whatever there is.
      const response = await fetch(`${base}/auth/v1/admin/users/${encodeURIComponent(uid)}`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({password: unknowablePassword()}),
      });
      if (!response.ok) throw new Error(`Supabase refused to replace the password: ${response.status}`);
      // The session's signed `amr` says how it signed in: by a link or Google, the caller is the owner.
      const keep = provesEmail(signInMethod) && signInMethod !== CHECKOUT_CLAIM;
      await signOut(token, keep ? 'others' : 'global');
      return keep ? 'kept' : 'ended';
    },
  };
}
