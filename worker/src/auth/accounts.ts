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
}
