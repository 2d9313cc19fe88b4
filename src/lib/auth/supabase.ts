/**
 * The Supabase implementation of the site's auth interface, on `@supabase/supabase-js`.
 */
import {createClient, type AuthError, type EmailOtpType, type SupportedStorage, type User} from '@supabase/supabase-js';
import {ROUTES} from '../../config/links';
import {PASSWORD_ERRORS, plainError} from './passwordErrors';
import {SESSION_ENDED} from './sessionEnded';
import {type AuthClient, type AuthUser, SessionEndedError} from './types';

export interface SupabaseAuthOptions {
  url: string;
  anonKey: string;
  /** Where the session is kept; the browser's localStorage when omitted. */
  storage?: SupportedStorage;
}

/** Stands in for the refresh token a checkout sign-in does not have (see signInWithCheckoutToken). */
const NO_REFRESH_TOKEN = 'checkout-sign-in-has-no-refresh-token';
/** Supabase's own reasons ("invalid JWT", "Invalid Refresh Token") mean nothing to a buyer. */
export const CHECKOUT_TOKEN_REFUSED =
  'This sign-in from checkout has expired or is not valid. Sign in with the e-mail you paid with.';
/** Supabase's codes for a refresh that failed because the session is over, not because it was unreachable. */
const SESSION_OVER_CODES = new Set([
  'refresh_token_not_found',
  'refresh_token_already_used',
  'session_not_found',
  'session_expired',
]);

function toAuthUser(user: User): AuthUser {
  const meta = user.user_metadata ?? {};
  return {
    uid: user.id,
    email: user.email ?? null,
    // Supabase types user_metadata as `any`: these keys are what its OAuth providers write.
    displayName: (meta.full_name ?? meta.name ?? null) as string | null,
    photoURL: (meta.avatar_url ?? meta.picture ?? null) as string | null,
  };
}

function sameUser(a: AuthUser | null, b: AuthUser | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Supabase's error codes of the password calls, as a person can act on them. */
const PASSWORD_MESSAGES: Record<string, string> = {
  weak_password: PASSWORD_ERRORS.weakPassword,
  invalid_credentials: PASSWORD_ERRORS.wrongPassword,
  email_not_confirmed: PASSWORD_ERRORS.emailNotConfirmed,
  same_password: PASSWORD_ERRORS.samePassword,
  reauthentication_needed: PASSWORD_ERRORS.signInAgain,
  email_provider_disabled: PASSWORD_ERRORS.turnedOff,
};

/** Supabase answers `{error}` rather than throwing; turn that into an Error a person can read. */
function check(error: {message: string} | null, doing: string): void {
  if (error) throw new Error(error.message || `Could not ${doing}.`);
}

/** `check` for reading and refreshing the session, which says plainly when it is over. */
function checkSession(error: AuthError | null, doing: string): void {
  if (error?.code && SESSION_OVER_CODES.has(error.code)) throw new SessionEndedError(SESSION_ENDED.ended, error.code);
  check(error, doing);
}

/** `check` for the password calls, whose codes have plain words of their own. */
function checkPassword(error: AuthError | null, doing: string): void {
  const code = error?.code ?? '';
  // A weak password's reasons say which rule failed: 'length', 'characters' or 'pwned'.
  const reasons = (error as {reasons?: string[]} | null)?.reasons ?? [];
  if (code === 'weak_password' && reasons.includes('pwned') && !reasons.includes('length')) {
    throw plainError(PASSWORD_ERRORS.leakedPassword, code);
  }
  if (PASSWORD_MESSAGES[code]) throw plainError(PASSWORD_MESSAGES[code], code);
  check(error, doing);
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
        options: {redirectTo: `${window.location.origin}${ROUTES.finishSignIn}`},
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

    async signInWithPassword(email, password) {
      const {error} = await auth.signInWithPassword({email, password});
      checkPassword(error, 'sign in');
    },

    async sendPasswordReset(email, {newPassword}) {
      // The link returns with a `?code=` (PKCE, this browser) or a token hash of type 'recovery',
      // which `completeSignInLink` turns into a session; `newPassword` then asks for the password.
      const {error} = await auth.resetPasswordForEmail(email, {redirectTo: newPassword});
      checkPassword(error, 'send the reset link');
    },

    async updatePassword(password) {
      const {error} = await auth.updateUser({password});
      checkPassword(error, 'change the password');
    },

    async signInWithCheckoutToken(token) {
      // The worker signs a short-lived access token for the checkout account (a magic link would
      // confirm an e-mail the payer never proved). It comes with no refresh token, and setSession
      // wants one: the placeholder is never accepted, so the session ends when the token expires
      // and the buyer then signs in with the purchase e-mail.
      const {error} = await auth.setSession({access_token: token, refresh_token: NO_REFRESH_TOKEN});
      // A 4xx is the token refused (malformed, bad signature, or expired: then the placeholder fails
      // to refresh it); anything else, such as Supabase unreachable, keeps its own message.
      if (error?.status && error.status >= 400 && error.status < 500) throw new Error(CHECKOUT_TOKEN_REFUSED);
      check(error, 'sign in after checkout');
    },

    async idToken(refresh = false) {
      const {data, error} = await auth.getSession();
      // After a checkout sign-in's hour, supabase-js answers reads with its failed refresh for a
      // minute before it drops the session (docs/tutorials/user-authentication.mdx, Supabase tab).
      checkSession(error, 'read the session');
      if (!data.session) return null;
      if (!refresh) return data.session.access_token;
      // The worker refused the token, and a checkout sign-in has nothing to refresh it with.
      if (data.session.refresh_token === NO_REFRESH_TOKEN)
        throw new SessionEndedError(CHECKOUT_TOKEN_REFUSED, 'checkout_sign_in_over');
      const refreshed = await auth.refreshSession();
      checkSession(refreshed.error, 'refresh the session');
      return refreshed.data.session?.access_token ?? null;
    },

    async signOut() {
      const {error} = await auth.signOut();
      check(error, 'sign out');
    },
  };
}
