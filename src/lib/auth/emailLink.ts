/**
 * The e-mail link sign-in's two halves (§4): the address is kept in this browser when the link is
 * sent, so opening the link here needs no typing; on another device the finish page asks for it.
 */
import {ROUTES} from '../../config/links';
import {readItem, removeItem, writeItem} from '../browserStorage';

const STORAGE_KEY = 'emailForSignIn';

export function finishSignInUrl(origin: string, email: string): string {
  return `${origin}${ROUTES.finishSignIn}?email=${encodeURIComponent(email)}`;
}

/** Private windows may refuse storage: the finish page then asks for the address. */
export function rememberEmail(email: string): void {
  writeItem('localStorage', STORAGE_KEY, email);
}

export function rememberedEmail(): string | null {
  return readItem('localStorage', STORAGE_KEY);
}

export function forgetEmail(): void {
  removeItem('localStorage', STORAGE_KEY);
}

/** The validation error keys of the e-mail field. */
export type EmailError = 'required' | 'email';

export const EMAIL_ERROR_MESSAGES: Record<EmailError, string> = {
  required: 'Enter your e-mail address.',
  email: 'Enter a valid e-mail address, like you@example.com.',
};

/** Checks the field the way the browser defines a valid e-mail address (`type="email"`). */
export function emailError(input: HTMLInputElement): EmailError | null {
  if (input.value.trim() === '') return 'required';
  if (input.validity.typeMismatch) return 'email';
  return null;
}
