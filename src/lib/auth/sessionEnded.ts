/**
 * What a person reads when the sign-in provider ends their session: the same plain words whichever
 * provider said it. `firebase.ts` and `supabase.ts` each map their own codes to these, in a
 * SessionEndedError, which the site treats as the worker's 401 SESSION_ENDED: it signs out.
 */
import {appConfig} from '../../config/app';

export const SESSION_ENDED = {
  /** Signed out elsewhere, the session revoked, the account deleted, or a checkout sign-in past its hour. */
  ended: 'Your sign-in has ended. Sign in again.',
  /** The seller (or the provider) turned the account off. */
  disabled: `This account has been turned off. Write to ${appConfig.support.email} if you think that is a mistake.`,
} as const;
