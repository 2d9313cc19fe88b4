import {ROUTES} from './links';

/** The mark on the sign-in page a reset continues to. */
const CHANGED = {name: 'password', value: 'changed'} as const;

/**
 * What the sign-in screens say once a password is reset, said once. Firebase's reset page sets the
 * new password, then continues to the sign-in page the site named (`signInPage`); only a reset that
 * succeeded continues there. Supabase's reset link signs the visitor in to /new-password instead,
 * which says `saved` as it goes on.
 */
export const passwordReset = {
  /** Where Firebase's reset page continues to: the sign-in page, marked so that it says `changed`. */
  signInPage: `${ROUTES.signIn}?${CHANGED.name}=${CHANGED.value}`,
  /** On that sign-in page. */
  changed: 'Your password was changed. Sign in with your new password.',
  /** As /new-password goes on, the new password set. */
  saved: 'Your new password is saved.',
} as const;

/** Whether a sign-in page's query is the mark of a reset that continued there. */
export function afterPasswordReset(search: string): boolean {
  return new URLSearchParams(search).get(CHANGED.name) === CHANGED.value;
}
