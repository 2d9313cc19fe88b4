/**
 * The one small interface the site signs people in through. Firebase (the default) and Supabase
 * each implement it, so pages never import a provider's SDK.
 */

export interface AuthUser {
  uid: string;
  email: string | null;
  displayName: string | null;
  photoURL: string | null;
}

export type AuthProviderName = 'firebase' | 'supabase';

export interface AuthClient {
  readonly provider: AuthProviderName;
  /**
   * Calls `listener` once the signed-in user is known (null when nobody is), then on every change.
   * Returns the unsubscribe function.
   */
  onUserChanged(listener: (user: AuthUser | null) => void): () => void;
  /** Google sign-in in a popup. */
  signInWithGoogle(): Promise<void>;
  /** E-mails a one-time sign-in link that returns to `continueUrl`. */
  sendSignInLink(email: string, continueUrl: string): Promise<void>;
  /** Whether `url` is the return of a sign-in link this provider sent. */
  isSignInLink(url: string): boolean;
  /**
   * Whether finishing a link needs the e-mail it was sent to (Firebase checks it, so a link opened
   * on another device asks for it; Supabase does not).
   */
  readonly linkNeedsEmail: boolean;
  /** Finishes the sign-in from the link's URL. */
  completeSignInLink(url: string, email: string | null): Promise<void>;
  signInWithPassword(email: string, password: string): Promise<void>;
  /**
   * E-mails a link to choose a new password, and never says whether the e-mail has an account.
   * Firebase's link opens Firebase's own page, which takes the new password and then continues to
   * `urls.signIn`; Supabase's link signs in and returns to `urls.newPassword`, where the site asks.
   */
  sendPasswordReset(email: string, urls: {signIn: string; newPassword: string}): Promise<void>;
  /** Sets a new password for the signed-in user. */
  updatePassword(password: string): Promise<void>;
  /** Signs in with the token `retrieveUserFromCheckoutSession` returned for a guest purchase. */
  signInWithCheckoutToken(token: string): Promise<void>;
  /**
   * The token the worker checks, or null when nobody is signed in; `refresh` forces a new one.
   * Throws SessionEndedError when the session is over and nothing can renew it.
   */
  idToken(refresh?: boolean): Promise<string | null>;
  signOut(): Promise<void>;
}

/**
 * The session is over for good (signed out elsewhere, a checkout sign-in past its hour, the
 * account turned off or deleted): the message says what to do, in the words of `sessionEnded.ts`;
 * `code` keeps the provider's own. The site treats it as the worker's 401 SESSION_ENDED: it signs
 * the visitor out.
 */
export class SessionEndedError extends Error {
  readonly code: string;

  constructor(message: string, code: string) {
    super(message);
    this.name = 'SessionEndedError';
    this.code = code;
  }
}
