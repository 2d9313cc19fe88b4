/**
 * The Supabase implementation of the site's auth interface, on `@supabase/supabase-js`.
 */
import {createClient, type EmailOtpType, type SupportedStorage, type User} from '@supabase/supabase-js';
import type {AuthClient, AuthUser} from './types';

export interface SupabaseAuthOptions {
  url: string;
  anonKey: string;
  /** Where the session is kept; the browser's localStorage when omitted. */
  storage?: SupportedStorage;
}

function toAuthUser(user: User): AuthUser {
  const meta = user.user_metadata ?? {};
  return {
    uid: user.id,
    email: user.email ?? null,
    displayName: meta.full_name ?? meta.name ?? null,
    photoURL: meta.avatar_url ?? meta.picture ?? null,
  };
}

function sameUser(a: AuthUser | null, b: AuthUser | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Supabase answers `{error}` rather than throwing; turn that into an Error a person can read. */
function check(error: {message: string} | null, doing: string): void {
  if (error) throw new Error(error.message || `Could not ${doing}.`);
}

export function createSupabaseAuth({url, anonKey, storage}: SupabaseAuthOptions): AuthClient {
  const {auth} = createClient(url, anonKey, {
    auth: {
      // PKCE keeps tokens out of the URL; the page decides when a link's `?code=` is exchanged.
      flowType: 'pkce',
      detectSessionInUrl: false,
      ...(storage ? {storage} : {}),
    },
  });

  return {
    provider: 'supabase',
    // The link proves the address by itself, so another device never asks for it.
    linkNeedsEmail: false,

    onUserChanged(listener) {
      // Supabase also emits on token refreshes and tab refocus; report only real changes, as Firebase does.
      let last: AuthUser | null | undefined;
      const {data} = auth.onAuthStateChange((_event, session) => {
        const user = session ? toAuthUser(session.user) : null;
        if (last !== undefined && sameUser(last, user)) return;
        last = user;
        listener(user);
      });
      return () => data.subscription.unsubscribe();
    },

    async signInWithGoogle() {
      // Supabase has no popup: this navigates to Google, which returns to /finish-sign-in with a
      // `?code=` that the page exchanges through `completeSignInLink` (detectSessionInUrl is off).
      const {error} = await auth.signInWithOAuth({
        provider: 'google',
        options: {redirectTo: `${window.location.origin}/finish-sign-in`},
      });
      check(error, 'start Google sign-in');
    },

    async sendSignInLink(email, continueUrl) {
      const {error} = await auth.signInWithOtp({email, options: {emailRedirectTo: continueUrl}});
      check(error, 'send the sign-in link');
    },

    isSignInLink(link) {
      const params = new URL(link).searchParams;
      return params.has('code') || (params.has('token_hash') && params.has('type'));
    },

    async completeSignInLink(link) {
      const params = new URL(link).searchParams;
      const tokenHash = params.get('token_hash');
      const type = params.get('type');
      const code = params.get('code');
      if (tokenHash && type) {
        const {error} = await auth.verifyOtp({token_hash: tokenHash, type: type as EmailOtpType});
        check(error, 'finish signing in');
      } else if (code) {
        // Needs the code verifier this browser stored when it asked for the link.
        const {error} = await auth.exchangeCodeForSession(code);
        check(error, 'finish signing in');
      } else {
        throw new Error('This is not a sign-in link.');
      }
    },

    async signInWithCheckoutToken(token) {
      // The worker's admin `generate_link` (type magiclink) hands back a hashed token; GoTrue
      // verifies it as 'email', which covers both magic-link and first-sign-in confirmation tokens
      // ('magiclink' is deprecated).
      const {error} = await auth.verifyOtp({token_hash: token, type: 'email'});
      check(error, 'sign in after checkout');
    },

    async idToken(refresh = false) {
      const {data, error} = await auth.getSession();
      check(error, 'read the session');
      if (!data.session) return null;
      if (!refresh) return data.session.access_token;
      const refreshed = await auth.refreshSession();
      check(refreshed.error, 'refresh the session');
      return refreshed.data.session?.access_token ?? null;
    },

    async signOut() {
      const {error} = await auth.signOut();
      check(error, 'sign out');
    },
  };
}
