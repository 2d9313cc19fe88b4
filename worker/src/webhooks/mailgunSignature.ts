import {HttpError} from '../errors';
import {settingsOf} from '../settings';

/**
 * How Mailgun proves a post is its own, for every webhook it calls (inbound e-mail, events): an
 * HMAC-SHA256 of `timestamp + token` with the account's webhook signing key. The timestamp must
 * be fresh and each token is accepted once (`mailgun_tokens`); 406 tells Mailgun not to retry.
 */
export interface MailgunSignature {
  timestamp: string;
  token: string;
  signature: string;
}

const MAX_AGE_SECONDS = 300;

/** MAILGUN_WEBHOOK_SIGNING_KEY; without it every post is refused (503), never taken unsigned. */
export function mailgunSigningKey(env: Env): string {
  const key = settingsOf(env).MAILGUN_WEBHOOK_SIGNING_KEY;
  if (!key)
    throw new HttpError(503, 'Mailgun webhooks are not configured (MAILGUN_WEBHOOK_SIGNING_KEY)', 'NOT_CONFIGURED');
  return key;
}

/** Throws 401 for a missing, malformed or forged signature, 406 for a stale one. */
export async function checkMailgunSignature(
  key: string,
  {timestamp, token, signature}: MailgunSignature,
): Promise<void> {
  if (!/^\d{1,12}$/.test(timestamp) || !token || token.length > 256 || !/^[0-9a-f]{64}$/.test(signature)) {
    throw new HttpError(401, 'Missing or malformed Mailgun signature', 'BAD_SIGNATURE');
  }
  if (!(await validSignature(key, timestamp + token, signature))) {
    throw new HttpError(401, 'The Mailgun signature does not match', 'BAD_SIGNATURE');
  }
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > MAX_AGE_SECONDS) {
    throw new HttpError(406, 'The Mailgun timestamp is stale', 'STALE_SIGNATURE');
  }
}

/** The statement that spends a token: it answers the token when it was fresh, no row when used. */
export function spendTokenStatement(db: D1Database, token: string): D1PreparedStatement {
  return db
    .prepare(
      'INSERT INTO mailgun_tokens (token, used_at) VALUES (?1, ?2) ON CONFLICT (token) DO NOTHING RETURNING token',
    )
    .bind(token, Date.now());
}

export const replayed = () => new HttpError(406, 'This Mailgun token was already used', 'REPLAYED_SIGNATURE');

async function validSignature(key: string, data: string, signatureHex: string): Promise<boolean> {
  const encoder = new TextEncoder();
  const hmac = await crypto.subtle.importKey('raw', encoder.encode(key), {name: 'HMAC', hash: 'SHA-256'}, false, [
    'verify',
  ]);
  const signature = new Uint8Array(signatureHex.match(/../g)!.map((byte) => parseInt(byte, 16)));
  // subtle.verify compares in constant time.
  return crypto.subtle.verify('HMAC', hmac, signature, encoder.encode(data));
}
