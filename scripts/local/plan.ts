/**
 * Which services `npm start` runs for real and which it stands in for, decided from the keys in
 * the root `.env` (the site) and `worker/.dev.vars` (the worker). A pure function, so the rules
 * are tested without starting anything.
 */
import type {LocalService} from '../../src/buildTime/siteSettings';
import {appConfig} from '../../src/config';

/** Who opens the seller's console in local mode when `ADMIN_EMAILS` names nobody. */
export const LOCAL_ADMIN_EMAIL = `admin@${appConfig.domainName}`;

export type Vars = Record<string, string | undefined>;

export interface StartPlan {
  /** Services that run as local stand-ins, in the order the banner lists them. */
  local: LocalService[];
  /** Whether the Firebase Auth emulator is started. */
  emulator: boolean;
  /** The worker's ADMIN_EMAILS: the seller's console opens for these (printed at start). */
  admins: string;
}

const filled = (vars: Vars, name: string) => Boolean(vars[name]?.trim());

/**
 * `forceLocal` (`npm start -- --local`) ignores every key: the whole journey on this machine,
 * whatever `.env` and `.dev.vars` hold.
 */
export function planStart(siteEnv: Vars, workerVars: Vars, forceLocal = false): StartPlan {
  const supabase = !forceLocal && (siteEnv.AUTH_PROVIDER ?? '').trim() === 'supabase';
  const emulator = !supabase && (forceLocal || !filled(siteEnv, 'FIREBASE_API_KEY'));
  const local: LocalService[] = [];
  if (emulator) local.push('sign-in');
  if (forceLocal || !filled(workerVars, 'STRIPE_SECRET_KEY')) local.push('payments');
  if (forceLocal || !filled(workerVars, 'GITHUB_TOKEN')) local.push('github');
  if (forceLocal || !filled(workerVars, 'MAILGUN_API_KEY')) local.push('email');
  const admins =
    forceLocal || !filled(workerVars, 'ADMIN_EMAILS') ? LOCAL_ADMIN_EMAIL : workerVars.ADMIN_EMAILS!.trim();
  return {local, emulator, admins};
}
