/**
 * A note in this browser of which account has bought: written when the worker's access status
 * says so (the dashboard reads it on every visit, and every sign-in lands there), read by the
 * header to offer the dashboard in place of the buy button. It is display only and names the
 * account it is for: a purchase opens nothing the worker has not checked itself.
 */
import {useSyncExternalStore} from 'react';
import {serviceName} from '../../config/serviceName';
import {readItem, removeItem, writeItem} from '../browserStorage';

/** Named after the product (serviceName), so a rename renames it too. */
const BUYER_HINT = `${serviceName}:buyer`;
const listeners = new Set<() => void>();

/** What the worker said of this account: a buyer, or not (which forgets any earlier note). */
export function rememberBuyer(uid: string, paid: boolean): void {
  if (paid) writeItem('localStorage', BUYER_HINT, uid);
  else if (readItem('localStorage', BUYER_HINT) === uid) removeItem('localStorage', BUYER_HINT);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab's dashboard may learn it first.
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

/** Whether this browser last heard from the worker that `uid` has bought; false while nobody is signed in. */
export function useBuyerHint(uid: string | undefined): boolean {
  return useSyncExternalStore(
    subscribe,
    () => uid !== undefined && readItem('localStorage', BUYER_HINT) === uid,
    // Prerendered pages are for visitors.
    () => false,
  );
}
