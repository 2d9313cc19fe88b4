import {createLocalJWKSet, errors, type JSONWebKeySet, type JWTVerifyGetKey} from 'jose';

/**
 * Signing keys fetched from a JWKS URL and kept as long as the response's Cache-Control allows
 * (Google rotates its keys and says how long each set is good for). A token with a key id we do
 * not know makes one early refetch, at most once a minute, in case the keys rotated.
 */
interface Entry {
  getKey: JWTVerifyGetKey;
  fetchedAt: number;
  expiresAt: number;
}

const entries = new Map<string, Entry>();
const REFETCH_AFTER_MS = 60_000;

function maxAgeMs(cacheControl: string | null): number {
  if (!cacheControl || /no-store|no-cache/i.test(cacheControl)) return 0;
  const match = /max-age=(\d+)/i.exec(cacheControl);
  return match ? Number(match[1]) * 1000 : 0;
}

async function load(url: string): Promise<Entry> {
  const response = await fetch(url, {headers: {accept: 'application/json'}});
  if (!response.ok) throw new Error(`Signing keys answered ${response.status} at ${url}`);
  const jwks = (await response.json()) as JSONWebKeySet;
  const now = Date.now();
  const entry = {
    getKey: createLocalJWKSet(jwks),
    fetchedAt: now,
    expiresAt: now + maxAgeMs(response.headers.get('cache-control')),
  };
  entries.set(url, entry);
  return entry;
}

export function remoteKeys(url: string): JWTVerifyGetKey {
  return async (header, token) => {
    const now = Date.now();
    let entry = entries.get(url);
    if (!entry || entry.expiresAt <= now) entry = await load(url);
    try {
      return await entry.getKey(header, token);
    } catch (err) {
      if (err instanceof errors.JWKSNoMatchingKey && now - entry.fetchedAt > REFETCH_AFTER_MS) {
        return (await load(url)).getKey(header, token);
      }
      throw err;
    }
  };
}
