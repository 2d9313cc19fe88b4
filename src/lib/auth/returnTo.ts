/**
 * Where a sign-in returns: the page that sent the visitor to sign in (`?next=/admin`), or the
 * callback URL. Only a path on this site is followed, so a crafted link cannot send a visitor who
 * just signed in to another site (an open redirect).
 */
import {appConfig} from '../../config';

export const NEXT_PARAM = 'next';

export function isSitePath(path: string): boolean {
  // One leading slash and no backslash: `//evil.example` and `/\evil.example` leave the site.
  return /^\/(?![/\\])/.test(path) && !path.includes('\\');
}

/** The page to open after signing in, read from a query string. */
export function returnPath(search: string): string {
  const next = new URLSearchParams(search).get(NEXT_PARAM);
  return next && isSitePath(next) ? next : appConfig.auth.callbackUrl;
}

/** The page a private page sent the visitor from, as written in `?next=`, or null when none did. */
export function sentFrom(search: string): string | null {
  const next = new URLSearchParams(search).get(NEXT_PARAM);
  return next && isSitePath(next) ? next : null;
}

/**
 * The sign-in page for a visitor a private page turned away, naming that page even when it is the
 * default one: the sign-in page says why the visitor is there from it.
 */
export function signInFor(path: string): string {
  return isSitePath(path) ? `${appConfig.auth.loginUrl}?${NEXT_PARAM}=${encodeURIComponent(path)}` : appConfig.auth.loginUrl;
}

/** `url` with the page to come back to, when it is not the default one. */
export function withReturnPath(url: string, path: string): string {
  if (!isSitePath(path) || path === appConfig.auth.callbackUrl) return url;
  const separator = url.includes('?') ? '&' : '?';
  return `${url}${separator}${NEXT_PARAM}=${encodeURIComponent(path)}`;
}
