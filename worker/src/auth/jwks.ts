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

/** The signing keys could not be fetched: the caller is not at fault, and a retry may work. */
export class KeysUnavailable extends Error {}
const REFETCH_AFTER_MS = 60_000;

function maxAgeMs(cacheControl: string | null): number {
  if (!cacheControl || /no-store|no-cache/i.test(cacheControl)) return 0;
  const match = /max-age=(\d+)/i.exec(cacheControl);
  return match ? Number(match[1]) * 1000 : 0;
}

async function load(url: string): Promise<Entry> {
  let entry: Entry;
  try {
    const response = await fetch(url, {headers: {accept: 'application/json'}});
    if (!response.ok) throw new Error(`answered ${response.status}`);
    const now = Date.now();
    entry = {
      getKey: createLocalJWKSet((await response.json()) as JSONWebKeySet),
      fetchedAt: now,
      expiresAt: now + maxAgeMs(response.headers.get('cache-control')),
    };
  } catch (err) {
    throw new KeysUnavailable(`Signing keys at ${url}: ${err instanceof Error ? err.message : String(err)}`);
  }
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
