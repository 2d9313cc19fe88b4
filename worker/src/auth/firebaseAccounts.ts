import {importPKCS8, SignJWT, UnsecuredJWT} from 'jose';
import {z} from 'zod';
import type {Settings} from '../settings';
import {serviceAccountSchema} from './serviceAccount';
import {type Accounts, provesEmail, unknowablePassword} from './accounts';
import {CHECKOUT_CLAIM} from './user';

/**
 * Firebase accounts through the Identity Toolkit REST API: the Auth emulator in development
 * (its `owner` bearer and unsigned custom tokens), the service account in production.
 */
const CUSTOM_TOKEN_AUDIENCE =
  'https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit';
const EMULATOR_SIGNER = 'firebase-auth-emulator@example.com';

type ServiceAccount = z.infer<typeof serviceAccountSchema>;

/** The fields of Identity Toolkit's `accounts:lookup` answer that say how an account signs in. */
interface FirebaseAccount {
  passwordHash?: string;
  passwordUpdatedAt?: number;
  emailLinkSignin?: boolean;
  providerUserInfo?: {providerId: string}[];
}

export function firebaseAccounts(settings: Settings): Accounts {
  const project = settings.FIREBASE_PROJECT_ID;
  if (!project) throw new Error('FIREBASE_PROJECT_ID is not set');
  const emulator = settings.FIREBASE_AUTH_EMULATOR_HOST;
  const serviceAccount = emulator ? undefined : readServiceAccount(settings);
  const base = emulator
    ? `http://${emulator}/identitytoolkit.googleapis.com/v1/projects/${project}`
    : `https://identitytoolkit.googleapis.com/v1/projects/${project}`;

  async function authorization() {
    return `Bearer ${serviceAccount ? await accessToken(serviceAccount) : 'owner'}`;
  }

  async function admin(path: string, body: unknown) {
    const response = await fetch(`${base}/${path}`, {
      method: 'POST',
      headers: {'content-type': 'application/json', authorization: await authorization()},
      body: JSON.stringify(body),
    });
    const answer = (await response.json().catch(() => ({}))) as Record<string, unknown> & {error?: {message?: string}};
    return {ok: response.ok, status: response.status, body: answer};
  }

  return {
    async create(email) {
      const {ok, status, body} = await admin('accounts', {email, emailVerified: false});
      if (body.error?.message?.startsWith('EMAIL_EXISTS')) return 'exists';
      if (!ok || typeof body.localId !== 'string') {
        throw new Error(`Firebase refused to create an account: ${status} ${body.error?.message ?? ''}`);
      }
      return {uid: body.localId};
    },
    async isVerified(uid) {
      const {ok, status, body} = await admin('accounts:lookup', {localId: [uid]});
      if (!ok) throw new Error(`Firebase refused to look the account up: ${status}`);
      const [user] = (body.users as {emailVerified?: boolean}[] | undefined) ?? [];
      return user?.emailVerified === true;
    },
    async endOtherSessions({uid, authTime}) {
      // What the Admin SDK's revokeRefreshTokens does, but from the owner's own sign-in time, so
      // that the session the owner just opened survives.
      const {ok, status} = await admin('accounts:update', {localId: uid, validSince: String(authTime)});
      if (!ok) throw new Error(`Firebase refused to revoke the sessions: ${status}`);
    },
    async removeUnprovenPassword({uid, authTime, signInMethod}) {
      const {ok, status, body} = await admin('accounts:lookup', {localId: [uid]});
      if (!ok) throw new Error(`Firebase refused to look the account up: ${status}`);
      const [user] = (body.users as FirebaseAccount[] | undefined) ?? [];
      if (!user) return 'none';
      const providers = (user.providerUserInfo ?? []).map((info) => info.providerId);
      const hasPassword =
        Boolean(user.passwordHash) || (providers.includes('password') && user.passwordUpdatedAt !== undefined);
      // Proven by a link or another provider (Google): a password set before may be anyone's. An
      // account proven only by a password reset holds the password that reset chose: the owner's.
      const provenWithoutPassword =
        user.emailLinkSignin === true || providers.some((provider) => !['password', 'phone'].includes(provider));
      if (!hasPassword || !provenWithoutPassword) return 'none';
      // A token says `password` for an e-mail link too: only Google's sign-in proves who calls.
      const keep = provesEmail(signInMethod);
      const update = await admin('accounts:update', {
        localId: uid,
        password: unknowablePassword(),
        // Tokens count in whole seconds: one of this very second must go too.
        validSince: String(keep ? authTime : Math.floor(Date.now() / 1000) + 1),
      });
      if (!update.ok) throw new Error(`Firebase refused to replace the password: ${update.status}`);
      return keep ? 'kept' : 'ended';
    },
    async signInToken({uid}) {
      const now = Math.floor(Date.now() / 1000);
      // Developer claims travel into every ID token of the session the custom token opens.
      const claims = {uid, claims: {[CHECKOUT_CLAIM]: true}};
      if (!serviceAccount) {
        return new UnsecuredJWT(claims)
          .setIssuer(EMULATOR_SIGNER)
          .setSubject(EMULATOR_SIGNER)
          .setAudience(CUSTOM_TOKEN_AUDIENCE)
          .setIssuedAt(now)
          .setExpirationTime(now + 3600)
          .encode();
      }
      const key = await importPKCS8(serviceAccount.private_key, 'RS256');
      return new SignJWT(claims)
        .setProtectedHeader({alg: 'RS256', typ: 'JWT'})
        .setIssuer(serviceAccount.client_email)
        .setSubject(serviceAccount.client_email)
        .setAudience(CUSTOM_TOKEN_AUDIENCE)
        .setIssuedAt(now)
        .setExpirationTime(now + 3600)
        .sign(key);
    },
  };
}

function readServiceAccount(settings: Settings): ServiceAccount {
  if (!settings.FIREBASE_SERVICE_ACCOUNT) {
    throw new Error('FIREBASE_SERVICE_ACCOUNT is not set (and no FIREBASE_AUTH_EMULATOR_HOST)');
  }
  return serviceAccountSchema.parse(JSON.parse(settings.FIREBASE_SERVICE_ACCOUNT));
}

let cachedAccess: {token: string; expiresAt: number; email: string} | undefined;

/** An OAuth access token for the service account (a signed JWT grant), reused until near expiry. */
async function accessToken(account: ServiceAccount): Promise<string> {
  const now = Date.now();
  if (cachedAccess && cachedAccess.email === account.client_email && cachedAccess.expiresAt > now + 60_000) {
    return cachedAccess.token;
  }
  const key = await importPKCS8(account.private_key, 'RS256');
  const seconds = Math.floor(now / 1000);
  const assertion = await new SignJWT({scope: 'https://www.googleapis.com/auth/identitytoolkit'})
    .setProtectedHeader({alg: 'RS256', typ: 'JWT'})
    .setIssuer(account.client_email)
    .setAudience('https://oauth2.googleapis.com/token')
    .setIssuedAt(seconds)
    .setExpirationTime(seconds + 3600)
    .sign(key);
  const response = await fetch('https://oauth2.googleapis.com/token', {
    method: 'POST',
    headers: {'content-type': 'application/x-www-form-urlencoded'},
    body: new URLSearchParams({grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion}),
  });
  const body = (await response.json()) as {access_token?: string; expires_in?: number};
  if (!response.ok || !body.access_token) throw new Error(`Google refused the service account: ${response.status}`);
  cachedAccess = {
    token: body.access_token,
    expiresAt: now + (body.expires_in ?? 3600) * 1000,
    email: account.client_email,
  };
  return body.access_token;
}
