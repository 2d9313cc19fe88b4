/**
 * The Stripe Checkout Session id that Stripe's success URL carries as `?sessionId=`. Whoever holds
 * it can exchange it for a sign-in, so it must not stay in the address bar, where the pixel,
 * analytics and any script tag report it as the page URL: it waits in this tab's sessionStorage
 * for the dashboard.
 */

import {readItem, removeItem} from './browserStorage';

const SESSION_ID_PARAM = 'sessionId';
const STORAGE_KEY = 'slipway:checkout-session';
const CHECKOUT_SESSION_ID = /^cs_(test|live)_[A-Za-z0-9]{1,200}$/;

/**
 * Removes `param` from the address bar, keeping the rest of the query as written, the hash and
 * the history state, and keeps its value under `key` when it matches `pattern`. Self-contained
 * (it uses nothing from this module), because it also runs as an inline script in <head>
 * (`checkoutSessionScript`), before any other script of the page.
 */
export function moveToSessionStorage(param: string, key: string, pattern: string): void {
  const {pathname, search, hash} = window.location;
  const query = new URLSearchParams(search);
  if (!query.has(param)) return;
  const value = query.get(param) || '';
  const kept = search
    .slice(1)
    .split('&')
    .filter((part) => !new URLSearchParams(part).has(param))
    .join('&');
  window.history.replaceState(window.history.state, '', pathname + (kept ? `?${kept}` : '') + hash);
  if (!new RegExp(pattern).test(value)) return;
  try {
    window.sessionStorage.setItem(key, value);
  } catch {
    // Storage refused (blocked site data): the buyer signs in with the purchase e-mail instead.
  }
}

/** What the page does as it loads, for tests. */
export function takeCheckoutSessionFromUrl(): void {
  moveToSessionStorage(SESSION_ID_PARAM, STORAGE_KEY, CHECKOUT_SESSION_ID.source);
}

/** The inline <head> script that takes the id out of the address before anything reads it. */
export function checkoutSessionScript(): string {
  const args = [SESSION_ID_PARAM, STORAGE_KEY, CHECKOUT_SESSION_ID.source].map((arg) => JSON.stringify(arg));
  return `(${moveToSessionStorage.toString()})(${args.join(', ')});`;
}

/** The id waiting to be exchanged, or null (also on the server, where there is no tab). */
export function readCheckoutSession(): string | null {
  return readItem('sessionStorage', STORAGE_KEY);
}

/** Forgets the id once the worker has answered for it: it is single-use. */
export function clearCheckoutSession(): void {
  removeItem('sessionStorage', STORAGE_KEY);
}
