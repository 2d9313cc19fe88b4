/**
 * What a person reads when a password step fails: the same plain words whichever provider
 * answered. `firebase.ts` and `supabase.ts` each map their own error codes to these.
 */
export const PASSWORD_ERRORS = {
  weakPassword: 'This password is too weak. Use at least 6 characters.',
  leakedPassword: 'This password has appeared in a data leak. Choose another one.',
  wrongPassword:
    'Wrong e-mail or password. An account made with Google or a magic link has no password: use "Forgot password?" to set one.',
  missingPassword: 'Enter your password.',
  emailNotConfirmed: 'Confirm your e-mail first: open the link we sent you when you registered.',
  samePassword: 'Choose a password different from your current one.',
  signInAgain: 'For your safety, sign in again before you change your password.',
  turnedOff: 'Passwords are turned off for this site. Use Google or a magic link.',
} as const;

/** An Error with a message a person can act on; `code` keeps the provider's own code, for the console. */
export function plainError(message: string, code: string): Error {
  return Object.assign(new Error(message), {code});
}
