/**
 * What Stripe's success URL carries back: the Checkout Session id (`?sessionId=`) and the claim
 * (`?claim=`), a secret only the browser that paid receives. Together they exchange for a sign-in,
 * so they must not stay in the address bar, where the pixel, analytics and any script tag report
 * it as the page URL: they wait in this tab's sessionStorage for the dashboard.
 */

import {CHECKOUT_CLAIM_PATTERN, CHECKOUT_RETURN_PARAMS} from '../config/api';
import {serviceName} from '../config/serviceName';
import {readItem, removeItem} from './browserStorage';

/** Named after the product (serviceName), so a rename renames them too. */
const STORAGE_KEYS = {sessionId: `${serviceName}:checkout-session`, claim: `${serviceName}:checkout-claim`} as const;
const CHECKOUT_SESSION_ID = /^cs_(test|live)_[A-Za-z0-9]{1,200}$/;

/** Each parameter taken out of the address: its name, where it is kept, and the form it must have. */
type Moved = [param: string, key: string, pattern: string];

const MOVED: Moved[] = [
  [CHECKOUT_RETURN_PARAMS.sessionId, STORAGE_KEYS.sessionId, CHECKOUT_SESSION_ID.source],
  [CHECKOUT_RETURN_PARAMS.claim, STORAGE_KEYS.claim, CHECKOUT_CLAIM_PATTERN.source],
];

/**
 * Removes each parameter from the address bar, keeping the rest of the query as written, the hash
 * and the history state, and keeps its value under its key when it has the form it must. Self-
 * contained (it uses nothing from this module), because it also runs as an inline script in <head>
 * (`checkoutSessionScript`), before any other script of the page.
 */
export function moveToSessionStorage(moved: [string, string, string][]): void {
  const {pathname, search, hash} = window.location;
  const query = new URLSearchParams(search);
  const present = moved.filter(([param]) => query.has(param));
  if (present.length === 0) return;
  const kept = search
    .slice(1)
    .split('&')
    .filter((part) => !present.some(([param]) => new URLSearchParams(part).has(param)))
    .join('&');
  window.history.replaceState(window.history.state, '', pathname + (kept ? `?${kept}` : '') + hash);
  for (const [param, key, pattern] of present) {
    const value = query.get(param) || '';
    if (!new RegExp(pattern).test(value)) continue;
    try {
      window.sessionStorage.setItem(key, value);
    } catch {
      // Storage refused (blocked site data): the buyer signs in with the purchase e-mail instead.
    }
  }
}

/** What the page does as it loads, for tests. */
export function takeCheckoutSessionFromUrl(): void {
  moveToSessionStorage(MOVED);
}

/** The inline <head> script that takes the id and the claim out of the address before anything reads them. */
export function checkoutSessionScript(): string {
  return `(${moveToSessionStorage.toString()})(${JSON.stringify(MOVED)});`;
}

/** The session waiting to be exchanged, with its claim (empty when none came back), or null. */
export function readCheckoutSession(): {sessionId: string; claim: string} | null {
  const sessionId = readItem('sessionStorage', STORAGE_KEYS.sessionId);
  return sessionId ? {sessionId, claim: readItem('sessionStorage', STORAGE_KEYS.claim) ?? ''} : null;
}

/** Forgets the id and its claim once the worker has answered for them: they are single-use. */
export function clearCheckoutSession(): void {
  removeItem('sessionStorage', STORAGE_KEYS.sessionId);
  removeItem('sessionStorage', STORAGE_KEYS.claim);
}
