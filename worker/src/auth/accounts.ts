/**
 * What the checkout exchange needs from the sign-in provider. The payer of a guest checkout never
 * proved the e-mail they typed, so the account made for it stays unverified, its sign-in token is
 * marked as the checkout's, and the e-mail's owner can end that session by signing in.
 */
export interface Accounts {
  /** The new account's uid, or `exists` when the e-mail already has an account. Never verified. */
  create(email: string): Promise<{uid: string} | 'exists'>;
  /** Whether the provider reports the account's e-mail as verified (its owner signed in). */
  isVerified(uid: string): Promise<boolean>;
  /** A sign-in token for exactly this uid, carrying the `checkout` claim. */
  signInToken(account: {uid: string; email: string}): Promise<string>;
  /**
   * Ends every session of the account except the one the owner just opened (identified by its
   * bearer token and its sign-in time).
   */
  endOtherSessions(owner: {uid: string; authTime: number; token: string}): Promise<void>;
  /**
   * The first verified sign-in of an account: removes a password that may have been set before
   * the e-mail was proven (by whoever registered the address first, or a checkout's payer), and
   * ends the sessions that could hold it. `none`: there was none to remove; `kept`: removed, and
   * every other session ended (the caller proved the e-mail by a link or Google); `ended`: removed,
   * and every session ended, the caller's too (it may have signed in with that password).
   */
  removeUnprovenPassword(caller: {
    uid: string;
    authTime: number;
    token: string;
    signInMethod: string | null;
  }): Promise<'none' | 'kept' | 'ended'>;
}

/**
 * A password nobody knows, to put in place of one that must not survive: neither provider has an
 * admin call that takes a password away and keeps the e-mail (Firebase's `deleteProvider:
 * ["password"]` drops the e-mail too). The owner chooses their own with "Forgot password?".
 */
export function unknowablePassword(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** Sign-in methods that prove nothing about the e-mail: a password, a custom token, none. */
export function provesEmail(signInMethod: string | null): boolean {
  return signInMethod !== null && !['password', 'custom', 'anonymous', 'phone'].includes(signInMethod);
}
