import type {Settings} from '../settings';
import type {Accounts} from './accounts';
import {firebaseAccounts} from './firebaseAccounts';
import {supabaseAccounts} from './supabaseAccounts';

/** The configured sign-in provider's accounts (kept apart from the interface, which both implement). */
export function accountsFor(settings: Settings): Accounts {
  return settings.AUTH_PROVIDER === 'supabase' ? supabaseAccounts(settings) : firebaseAccounts(settings);
}
