/**
 * Reads a `Stripe-Signature` header (`t=<unix seconds>,v1=<hex>[,v1=…][,v0=…]`) before the
 * signature itself is checked. Stripe's library allows timestamps from the future; we refuse them,
 * and a header that is not well-formed never reaches the HMAC.
 */
export interface SignatureHeader {
  timestamp: number;
  signatures: string[];
}

const MAX_HEADER_LENGTH = 4096;

export function parseSignatureHeader(header: string | null | undefined): SignatureHeader | null {
  if (!header || header.length > MAX_HEADER_LENGTH) return null;
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator <= 0) return null;
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === 't') {
      if (timestamp !== null || !/^\d{1,12}$/.test(value)) return null;
      timestamp = Number(value);
    } else if (key === 'v1') {
      if (!/^[0-9a-f]{64}$/.test(value)) return null;
      signatures.push(value);
    } else if (!/^v\d+$/.test(key)) {
      return null;
    }
  }
  return timestamp !== null && signatures.length > 0 ? {timestamp, signatures} : null;
}

/** Seconds a signature may be old (Stripe's default) or ahead of our clock. */
export const TOLERANCE_SECONDS = 300;
export const FUTURE_SKEW_SECONDS = 30;

export function isFresh(header: SignatureHeader, nowSeconds = Math.floor(Date.now() / 1000)): boolean {
  return header.timestamp <= nowSeconds + FUTURE_SKEW_SECONDS && nowSeconds - header.timestamp <= TOLERANCE_SECONDS;
}
