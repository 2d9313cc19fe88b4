import type {MiddlewareHandler} from 'hono';
import {getCookie, setCookie} from 'hono/cookie';
import {API_PATHS, PLAUSIBLE_PATHS, SAME_ORIGIN_PREFIX, XSRF_COOKIE, XSRF_HEADER} from '../../src/config/api';
import type {AppEnv} from './app';
import {HttpError} from './errors';
import {settingsOf} from './settings';

/**
 * The worker on the site's own origin (`SAME_ORIGIN=true`: one Worker that also serves the built
 * site, a host's rewrite, or the dev server's proxy).
 *
 * - It answers only under SAME_ORIGIN_PREFIX: every other path is the site's, so it gets the
 *   built site's own answer (its 404 page) when this Worker serves the site, or a 404.
 * - The anti-forgery token (§7): the browser sends this origin's cookies with every call, so a
 *   page on another site could make it post here with them. Every call that changes something
 *   must echo the `XSRF-TOKEN` cookie in the `X-XSRF-TOKEN` header, which only a page of this
 *   origin can read. Today no route trusts a cookie (callers prove who they are with a bearer
 *   token that a forged request cannot carry), so this is the second lock, kept for the day one
 *   does. Webhooks and Plausible's event are exempt (NO_TOKEN_ASKED says why).
 *
 * On the worker's own origin (the default), none of this applies: the site cannot read the
 * worker's cookies there, and CORS admits the site's origin only.
 */
export const sameOrigin: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!settingsOf(c.env).sameOrigin) return next();
  const path = c.req.path;
  if (!underApiPrefix(path)) {
    if (c.env.ASSETS) return c.env.ASSETS.fetch(c.req.raw);
    throw new HttpError(
      404,
      `No route for ${c.req.method} ${path}: on the site's origin the API is under ${SAME_ORIGIN_PREFIX}/`,
      'NOT_FOUND',
    );
  }

  const cookie = getCookie(c, XSRF_COOKIE);
  const held = cookie && TOKEN.test(cookie) ? cookie : undefined;
  const secure = new URL(settingsOf(c.env).siteOrigin).protocol === 'https:';
  const token = held ?? newToken();
  if (changesSomething(c.req.method) && !NO_TOKEN_ASKED.includes(path) && !signedLink(path)) {
    const echoed = c.req.header(XSRF_HEADER);
    if (!held || !echoed || !(await sameToken(held, echoed))) {
      throw new HttpError(
        403,
        'This request is missing its anti-forgery token, or it does not match. Reload the page and try again.',
        'XSRF_FAILED',
        held ? {} : {'Set-Cookie': cookieHeader(token, secure)},
      );
    }
  }
  await next();
  if (!held && !NO_COOKIE_SET.includes(path)) setCookie(c, XSRF_COOKIE, token, cookieOptions(secure));
};

const underApiPrefix = (path: string) => path === SAME_ORIGIN_PREFIX || path.startsWith(`${SAME_ORIGIN_PREFIX}/`);

/**
 * Whether this request is one of the site's files that this Worker serves from its static assets
 * (`sameOrigin` hands it to ASSETS): their headers are the build's `_headers`, not the API's. A
 * worker set up wrongly answers everything itself, so that answer is the API's.
 */
export function servedFromAssets(env: Env, path: string): boolean {
  try {
    return settingsOf(env).sameOrigin && Boolean(env.ASSETS) && !underApiPrefix(path);
  } catch {
    return false;
  }
}

const TOKEN = /^[A-Za-z0-9_-]{32,128}$/;

/**
 * A visit through an affiliate's link: the landing page posts it before the visitor has asked for
 * anything, so it can hold no token yet. It carries no identity, and what it changes (a click,
 * counted once per visitor and day) anyone could as well cause by following the link. It also gets
 * no anti-forgery cookie: an affiliate's link sets no cookie on a page that needs none (the spec);
 * the browser's first call that needs the token gets it then.
 */
const AFFILIATE_VISIT = [`${SAME_ORIGIN_PREFIX}${API_PATHS.affiliateVisit}`];
const NO_COOKIE_SET: string[] = AFFILIATE_VISIT;

/**
 * Calls that cannot echo the token, and need not:
 * - webhooks: servers call them, and they prove themselves with a signature;
 * - Plausible's event: its script posts it without our header. It carries no identity and changes
 *   nothing of ours, and a page on another site could as well post the same event to Plausible;
 * - a release e-mail's one-click unsubscribe link: the mail provider posts it (RFC 8058), with no
 *   cookie, and the link's own signature is what authorizes it;
 * - an affiliate's visit (AFFILIATE_VISIT says why).
 */
const NO_TOKEN_ASKED: string[] = [
  API_PATHS.stripeWebhook,
  API_PATHS.mailgunWebhook,
  API_PATHS.mailgunEvents,
  API_PATHS.githubWebhook,
  `${SAME_ORIGIN_PREFIX}${API_PATHS.plausible}${PLAUSIBLE_PATHS.event}`,
  ...AFFILIATE_VISIT,
];

const signedLink = (path: string) => path.startsWith(`${API_PATHS.releaseUnsubscribe}/`);

const changesSomething = (method: string) => !['GET', 'HEAD', 'OPTIONS'].includes(method);

function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** Readable by the page (that is the point), sent to this origin only, never cross-site. */
function cookieOptions(secure: boolean) {
  return {path: '/', sameSite: 'Strict', secure, httpOnly: false} as const;
}

function cookieHeader(token: string, secure: boolean): string {
  return `${XSRF_COOKIE}=${token}; Path=/; SameSite=Strict${secure ? '; Secure' : ''}`;
}

async function sameToken(a: string, b: string): Promise<boolean> {
  const [left, right] = [new TextEncoder().encode(a), new TextEncoder().encode(b)];
  return left.byteLength === right.byteLength && crypto.subtle.timingSafeEqual(left, right);
}
