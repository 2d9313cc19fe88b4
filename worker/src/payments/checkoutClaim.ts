import {CHECKOUT_RETURN_PARAMS} from '../../../src/config/api';
import {newSecretToken, tokenHash} from '../secretToken';

/**
 * The proof that a browser came back from paying. Whoever creates a Checkout Session learns its id
 * (it is in the checkout URL) and may send the link to someone else to pay: the id alone must not
 * sign anyone in. The claim is a secret the worker writes into the success URL only, which Stripe
 * sends the payer's browser to once it has paid; the creator's answer (the checkout URL) never
 * carries it. The session's metadata keeps only the claim's SHA-256.
 */
export const CLAIM_METADATA_KEY = 'claim_sha256';

/** A new claim: a one-time secret (see ../secretToken). */
export const newClaim = newSecretToken;
export const claimHash = tokenHash;

/** Whether `claim` is the one whose hash the session keeps; compared in constant time. */
export async function claimMatches(claim: string, storedHash: string | undefined): Promise<boolean> {
  if (!storedHash) return false;
  const [left, right] = [new TextEncoder().encode(await claimHash(claim)), new TextEncoder().encode(storedHash)];
  return left.byteLength === right.byteLength && crypto.subtle.timingSafeEqual(left, right);
}

/**
 * The success URL Stripe sends the payer to: the site's, with `sessionId={CHECKOUT_SESSION_ID}`
 * (Stripe fills it in) and the claim, keeping any query the site gave.
 */
export function successUrlWith(successUrl: string, claim: string): string {
  const url = new URL(successUrl);
  url.hash = '';
  url.searchParams.set(CHECKOUT_RETURN_PARAMS.claim, claim);
  // Appended as written: URLSearchParams would encode the braces Stripe looks for.
  return `${url.toString()}&${CHECKOUT_RETURN_PARAMS.sessionId}={CHECKOUT_SESSION_ID}`;
}
