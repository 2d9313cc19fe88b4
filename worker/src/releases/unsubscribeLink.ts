import {API_PATHS} from '../../../src/config/apiPaths';

/**
 * Where this worker answers its unsubscribe links, from the URL of the request it is serving (a
 * webhook's, the console's): the base every e-mail's own link is made on.
 */
export function unsubscribeBase(requestUrl: string): string {
  return `${new URL(requestUrl).origin}${API_PATHS.releaseUnsubscribe}`;
}

/** RFC 8058's one-click unsubscribe headers, which Gmail and Yahoo ask of bulk senders, for `link`. */
export function oneClickHeaders(link: string): Record<string, string> {
  return {'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click'};
}

/**
 * The signed one-click unsubscribe link of a release e-mail or a checkout's reminder: `<address, base64url>.<HMAC-SHA256 of
 * it with UNSUBSCRIBE_SECRET, base64url>`. It names the address it unsubscribes, and nobody
 * without the secret can make one for another address. It does not expire: RFC 8058 links must
 * keep working for as long as the e-mail may be read.
 */
const PURPOSE = 'release-unsubscribe:';

const toBase64Url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    return Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

// Imported once per secret and use, not once per address: a batch signs up to 1,000 links. An
// import per link cost a 1,000-address batch about 11 ms of workerd's CPU time (of about 70). The
// key itself is kept, not the import's promise: a promise made in one request and awaited in
// another is what workerd warns against.
const keys = new Map<string, CryptoKey>();
async function hmacKey(secret: string, usage: 'sign' | 'verify'): Promise<CryptoKey> {
  const id = `${usage}:${secret}`;
  const known = keys.get(id);
  if (known) return known;
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    {name: 'HMAC', hash: 'SHA-256'},
    false,
    [usage],
  );
  keys.set(id, key);
  return key;
}

export async function unsubscribeToken(secret: string, email: string): Promise<string> {
  const address = new TextEncoder().encode(email);
  const signature = await crypto.subtle.sign(
    'HMAC',
    await hmacKey(secret, 'sign'),
    new TextEncoder().encode(PURPOSE + email),
  );
  return `${toBase64Url(address)}.${toBase64Url(new Uint8Array(signature))}`;
}

/** The address a token unsubscribes, or null for a token this secret did not sign. */
export async function addressOfToken(secret: string, token: string): Promise<string | null> {
  const [encoded, signed, ...rest] = token.split('.');
  if (!encoded || !signed || rest.length > 0 || token.length > 1000) return null;
  const address = fromBase64Url(encoded);
  const signature = fromBase64Url(signed);
  if (!address || !signature) return null;
  const email = new TextDecoder().decode(address);
  // subtle.verify compares in constant time.
  const valid = await crypto.subtle.verify(
    'HMAC',
    await hmacKey(secret, 'verify'),
    signature,
    new TextEncoder().encode(PURPOSE + email),
  );
  return valid ? email : null;
}
