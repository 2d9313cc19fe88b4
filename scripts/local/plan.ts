/**
 * Which services `npm start` runs for real and which it stands in for, decided from the keys in
 * the root `.env` (the site) and `worker/.dev.vars` (the worker). A pure function, so the rules
 * are tested without starting anything.
 */
import type {LocalService} from '../../src/buildTime/siteSettings';

export type Vars = Record<string, string | undefined>;

export interface StartPlan {
  /** Services that run as local stand-ins, in the order the banner lists them. */
  local: LocalService[];
  /** Whether the Firebase Auth emulator is started. */
  emulator: boolean;
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
  return {local, emulator};
}
