/**
 * Where a sign-in returns: the page that sent the visitor to sign in (`?next=/admin`), or the
 * callback URL. Only a page of this site is followed, as the browser will read it (`sitePath`), so
 * a crafted link cannot send a visitor who just signed in to another site (an open redirect).
 */
import {appConfig, NEXT_PARAM, sitePath} from '../../config';

/** The path to follow for `path`, or null when it leaves this site. Called in the browser only. */
function onThisSite(path: string): string | null {
  return sitePath(path, window.location.origin);
}

/** The page a private page sent the visitor from, as `?next=` names it, or null when none did. */
export function sentFrom(search: string): string | null {
  const next = new URLSearchParams(search).get(NEXT_PARAM);
  return next ? onThisSite(next) : null;
}

/** The page to open after signing in, read from a query string. */
export function returnPath(search: string): string {
  return sentFrom(search) ?? appConfig.auth.callbackUrl;
}

/**
 * The sign-in page for a visitor a private page turned away, naming that page even when it is the
 * default one: the sign-in page says why the visitor is there from it.
 */
export function signInFor(path: string): string {
  const page = onThisSite(path);
  return page === null
    ? appConfig.auth.loginUrl
    : `${appConfig.auth.loginUrl}?${NEXT_PARAM}=${encodeURIComponent(page)}`;
}

/** `url` with the page to come back to, when it is not the default one. */
export function withReturnPath(url: string, path: string): string {
  const page = onThisSite(path);
  if (page === null || page === appConfig.auth.callbackUrl) return url;
  const separator = url.includes('?') ? '&' : '?';
  return `${url}${separator}${NEXT_PARAM}=${encodeURIComponent(page)}`;
}
