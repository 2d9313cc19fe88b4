/**
 * Random one-time secrets that the worker hands out in a URL (a checkout's claim, a download
 * link), and the SHA-256 it keeps instead of the secret itself.
 */

/** 32 random bytes, base64url: unguessable, and safe in a path or a query. */
export function newSecretToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** The hex SHA-256 of a token: what D1 or Stripe's metadata keeps. */
export async function tokenHash(token: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}
