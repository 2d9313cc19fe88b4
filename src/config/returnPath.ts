/**
 * Where a visitor is sent back to: the page in a sign-in's `?next=`, and the success, cancel and
 * return URLs the worker hands Stripe. One rule for all of them, here because the site and the
 * worker both hold it (an open redirect is the hole it closes: SECURITY.md).
 */

/** The query parameter that names the page a sign-in returns to. */
export const NEXT_PARAM = 'next';

/**
 * `value` as the browser will follow it from a page of `origin`, as a path with its query and hash
 * (`/admin?q=1#leads`), or null when it leads off the site.
 *
 * The browser parses with the WHATWG URL parser, so this does too: it drops a tab or a newline
 * anywhere (`/\t/evil.example` is `//evil.example`), trims leading spaces, and reads `\` as `/`.
 * A check of the raw string misses what the parser removes; the path handed on is the parsed one.
 * A `next` in its own query must stay on the site too: a sign-in page reached through it (a
 * checkout's cancel URL, a reset link's second hop) follows that one next.
 */
export function sitePath(value: string, origin: string): string | null {
  const url = parsed(value, origin);
  if (url?.origin !== origin) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Read again, the parsed path must lead to the same place: `/.//evil.example` parses to the path
  // `//evil.example`, which a second reading takes for another host (and `/.//`, for no URL at all).
  if (parsed(path, origin)?.href !== url.href) return null;
  // The site's router decodes the path (history's decodeURI) before the browser reads it:
  // `/%5C/evil.example` becomes `/\/evil.example` there, another host again.
  const routed = decoded(url.pathname);
  if (routed === null || parsed(routed, origin)?.origin !== origin) return null;
  const next = url.searchParams.get(NEXT_PARAM);
  if (next !== null && sitePath(next, origin) === null) return null;
  return path;
}

/**
 * `value`, an absolute URL, as the browser will follow it (what the worker hands Stripe), or null
 * when it leads off the site on `origin`, or is no absolute URL: a caller names the whole URL.
 */
export function siteUrl(value: string, origin: string): string | null {
  let absolute: string;
  try {
    absolute = new URL(value).href;
  } catch {
    return null;
  }
  const path = sitePath(absolute, origin);
  return path === null ? null : `${origin}${path}`;
}

/**
 * `value` read from a page of `origin`, or null when the parser refuses it. A path can be one that
 * no URL has, so refusing it is an answer, never a throw: `/.//` reads again as `//` (no host), and
 * `/%5C` decodes to a slash and a backslash, the same.
 */
function parsed(value: string, origin: string): URL | null {
  try {
    return new URL(value, origin);
  } catch {
    return null;
  }
}

function decoded(pathname: string): string | null {
  try {
    return decodeURI(pathname);
  } catch {
    // The router throws on it too (a malformed escape): no page to return to.
    return null;
  }
}
