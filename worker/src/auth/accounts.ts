import type {Settings} from '../settings';
import {firebaseAccounts} from './firebaseAccounts';
import {supabaseAccounts} from './supabaseAccounts';

/**
 * What the checkout exchange needs from the sign-in provider: create an account for an e-mail
 * (never marked verified) and mint a one-time sign-in token for it.
 */
export interface Accounts {
  /** The new account's uid, or `exists` when the e-mail already has an account. */
  create(email: string): Promise<{uid: string} | 'exists'>;
  signInToken(account: {uid: string; email: string}): Promise<string>;
}

export function accountsFor(settings: Settings): Accounts {
  return settings.AUTH_PROVIDER === 'supabase' ? supabaseAccounts(settings) : firebaseAccounts(settings);
}
