import {
  decodeProtectedHeader,
  errors,
  jwtVerify,
  UnsecuredJWT,
  type JWTPayload,
  type ProtectedHeaderParameters,
} from 'jose';
import {HttpError} from '../errors';
import {log} from '../log';
import type {Settings} from '../settings';
import {KeysUnavailable, remoteKeys} from './jwks';
import {supabaseConfirmed} from './supabaseUsers';
import {type AuthUser, CHECKOUT_CLAIM} from './user';

const GOOGLE_KEYS = 'https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com';

export const unauthorized = () => new HttpError(401, 'Unauthorized');

/** Clocks drift: a token issued a little "in the future" by the provider's clock is still good. */
export const CLOCK_SKEW_SECONDS = 60;

/**
 * Verifies a Firebase ID token (or a Supabase access token when AUTH_PROVIDER=supabase) and
 * returns its user. Expired tokens answer 401 TOKEN_EXPIRED so the client can refresh and retry;
 * anything else wrong answers 401 Unauthorized.
 */
export async function verifyToken(settings: Settings, token: string): Promise<AuthUser> {
  let header: ProtectedHeaderParameters;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    throw unauthorized();
  }
  try {
    const payload =
      settings.AUTH_PROVIDER === 'supabase'
        ? await verifySupabase(settings, token)
        : await verifyFirebase(settings, token, header);
    return await userOf(settings, payload);
  } catch (err) {
    if (err instanceof errors.JWTExpired) throw new HttpError(401, 'Token expired', 'TOKEN_EXPIRED');
    if (err instanceof KeysUnavailable) {
      log.error('auth.keys_unavailable', {reason: err.message});
      throw new HttpError(
        503,
        'Sign-in cannot be checked right now. Please try again in a minute.',
        'AUTH_UNAVAILABLE',
      );
    }
    if (err instanceof HttpError) throw err;
    if (err instanceof errors.JOSEError) throw unauthorized();
    throw err;
  }
}

async function verifyFirebase(settings: Settings, token: string, header: ProtectedHeaderParameters) {
  const project = settings.FIREBASE_PROJECT_ID;
  if (!project) throw new Error('FIREBASE_PROJECT_ID is not set');
  const claims = {
    issuer: `https://securetoken.google.com/${project}`,
    audience: project,
    requiredClaims: ['iat', 'exp', 'sub'],
  };
  if (header.alg === 'none') {
    // The Auth emulator signs nothing; its tokens are good only where the emulator is the backend.
    if (!settings.FIREBASE_AUTH_EMULATOR_HOST) throw unauthorized();
    return UnsecuredJWT.decode(token, claims).payload;
  }
  if (header.alg !== 'RS256' || typeof header.kid !== 'string' || header.kid === '') {
    throw unauthorized();
  }
  const keys = remoteKeys(settings.FIREBASE_JWKS_URL ?? GOOGLE_KEYS);
  return (await jwtVerify(token, keys, {...claims, algorithms: ['RS256']})).payload;
}

async function verifySupabase(settings: Settings, token: string) {
  const base = settings.SUPABASE_URL;
  if (!base) throw new Error('SUPABASE_URL is not set');
  const claims = {
    issuer: `${base.replace(/\/$/, '')}/auth/v1`,
    audience: 'authenticated',
    requiredClaims: ['iat', 'exp', 'sub'],
  };
  if (settings.SUPABASE_JWT_SECRET) {
    const secret = new TextEncoder().encode(settings.SUPABASE_JWT_SECRET);
    return (await jwtVerify(token, secret, {...claims, algorithms: ['HS256']})).payload;
  }
  const keys = remoteKeys(`${claims.issuer}/.well-known/jwks.json`);
  return (await jwtVerify(token, keys, {...claims, algorithms: ['ES256', 'RS256']})).payload;
}

async function userOf(settings: Settings, payload: JWTPayload): Promise<AuthUser> {
  const {sub, iat} = payload;
  if (typeof sub !== 'string' || sub.length === 0 || sub.length > 128) throw unauthorized();
  if (typeof iat !== 'number' || iat > Math.floor(Date.now() / 1000) + CLOCK_SKEW_SECONDS) throw unauthorized();
  const email = typeof payload.email === 'string' ? payload.email.toLowerCase() : undefined;
  const fromCheckout = payload[CHECKOUT_CLAIM] === true;
  const authTime = typeof payload.auth_time === 'number' ? payload.auth_time : (amrTime(payload) ?? iat);
  // A checkout session's e-mail was typed by the payer: it proves nothing, whatever the token says.
  const emailVerified = Boolean(email) && !fromCheckout && (await emailVerifiedBy(settings, sub, email!, payload));
  return {uid: sub, email, emailVerified, authTime, fromCheckout, signInMethod: signInMethodOf(settings, payload)};
}

/** GoTrue's `amr`: [{method, timestamp}], one entry per way the session signed in. */
function amrOf(payload: JWTPayload): {method?: unknown; timestamp?: unknown}[] {
  return (Array.isArray(payload.amr) ? payload.amr : []).map((entry: unknown) =>
    typeof entry === 'string' ? {method: entry} : ((entry ?? {}) as {method?: unknown; timestamp?: unknown}),
  );
}

/** When a Supabase session signed in (its `iat` moves with every refresh; `amr` keeps the sign-in). */
function amrTime(payload: JWTPayload): number | undefined {
  const times = amrOf(payload)
    .map((entry) => entry.timestamp)
    .filter((time): time is number => typeof time === 'number');
  return times.length > 0 ? Math.max(...times) : undefined;
}

function signInMethodOf(settings: Settings, payload: JWTPayload): string | null {
  if (settings.AUTH_PROVIDER === 'supabase') {
    const methods = amrOf(payload)
      .map((entry) => entry.method)
      .filter((method): method is string => typeof method === 'string');
    return methods.includes('password') ? 'password' : (methods[0] ?? null);
  }
  const method = (payload.firebase as {sign_in_provider?: unknown} | undefined)?.sign_in_provider;
  return typeof method === 'string' ? method : null;
}

async function emailVerifiedBy(settings: Settings, uid: string, email: string, payload: JWTPayload): Promise<boolean> {
  if (settings.AUTH_PROVIDER === 'supabase') return supabaseConfirmed(settings, uid, email);
  return payload.email_verified === true;
}
