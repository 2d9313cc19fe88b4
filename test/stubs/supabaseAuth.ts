/**
 * A stand-in for the Supabase Auth (GoTrue) endpoints the browser client calls (GoTrue cannot run
 * here): magic links with PKCE, token-hash verification, refresh, the current user and logout, the
 * checkout's access tokens, which the worker signs with the project's JWT secret, and passwords
 * (sign-up with or without e-mail confirmation, password sign-in, recovery, a new password).
 * Paths, query strings, bodies and error shapes follow what `@supabase/auth-js` sends and expects;
 * answers are typed with its own `User`/`Session`/`JwtPayload` so they cannot drift.
 *
 * Access tokens are real HS256 JWTs, signed with node:crypto rather than jose: jose ships ES modules
 * only and the unit project does not compile node_modules, so jose cannot load there.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type {JwtPayload, Session, User} from '@supabase/auth-js';
import {listen} from '../../scripts/support/listen';

/** One link the stand-in was asked to e-mail: a magic link, a sign-up confirmation or a recovery. */
export interface LinkRequest {
  kind: LinkKind;
  email: string;
  /** The `redirect_to` the client asked the link to return to. */
  redirectTo: string | null;
  tokenHash: string;
  /** The link as a token-hash e-mail template builds it: `redirect_to?token_hash=…&type=email` (or `signup`, `recovery`). */
  link: string;
  /** Set when the client used PKCE: where GoTrue's own /verify sends the browser, `redirect_to?code=…`. */
  codeLink: string | null;
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
}

/** GoTrue's e-mail templates: Magic Link, Confirm signup, Reset Password. */
export type LinkKind = 'email' | 'signup' | 'recovery';

export interface SupabaseAuthStandIn {
  url: string;
  anonKey: string;
  /** The HS256 secret access tokens are signed with. */
  jwtSecret: string;
  linkRequests: LinkRequest[];
  /** Every POST /logout, with its scope. */
  logouts: {scope: string; email: string}[];
  /**
   * Imitates the worker's checkout sign-in token: an access token for `email`'s user, signed with
   * the JWT secret, with no session behind it and no refresh token. `expiresIn` may be negative.
   */
  issueCheckoutAccessToken(
    email: string,
    options?: {userMetadata?: Record<string, unknown>; expiresIn?: number},
  ): string;
  /** The project's "Confirm email" setting (on by default in Supabase, off here unless set). */
  requireEmailConfirmation(on: boolean): void;
  /** Answers the next request to `path` (e.g. '/otp') with a GoTrue error. */
  failNext(path: string, status: number, errorCode: string, message: string): void;
  close(): Promise<void>;
}

const API_VERSION = '2024-01-01';
const EXPIRES_IN = 3600;

class GoTrueError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    message: string,
    /** More fields of the answer, such as a weak password's `weak_password: {reasons}`. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** GoTrue's defaults: at least 6 characters; a leaked-password check, when the project turns it on. */
const MIN_PASSWORD_LENGTH = 6;
const LEAKED_PASSWORDS = new Set(['password123']);

function checkPasswordStrength(password: string): void {
  const reasons = [
    ...(password.length < MIN_PASSWORD_LENGTH ? ['length'] : []),
    ...(LEAKED_PASSWORDS.has(password) ? ['pwned'] : []),
  ];
  if (reasons.length === 0) return;
  const message = reasons.includes('length')
    ? `Password should be at least ${MIN_PASSWORD_LENGTH} characters.`
    : 'Password is known to be weak and easy to guess, please choose a different one.';
  throw new GoTrueError(422, 'weak_password', message, {weak_password: {reasons}});
}

const otpExpired = () => new GoTrueError(403, 'otp_expired', 'Token has expired or is invalid');

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** GoTrue's own tokens name their session; the worker's checkout tokens have none. */
type Claims = Omit<JwtPayload, 'session_id'> & {session_id?: string};

function signJwt(claims: Claims, secret: string): string {
  const unsigned = `${base64url({alg: 'HS256', typ: 'JWT'})}.${base64url(claims)}`;
  return `${unsigned}.${crypto.createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

function verifyJwt(token: string, secret: string): Claims {
  const [header = '', payload = '', signature = ''] = token.split('.');
  const expected = crypto.createHmac('sha256', secret).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  const claims =
    given.length === expected.length && crypto.timingSafeEqual(given, expected)
      ? (JSON.parse(Buffer.from(payload, 'base64url').toString()) as Claims)
      : null;
  if (!claims)
    throw new GoTrueError(403, 'bad_jwt', 'invalid JWT: unable to parse or verify signature, signature is invalid');
  if (claims.exp <= Date.now() / 1000)
    throw new GoTrueError(403, 'bad_jwt', 'invalid JWT: unable to parse or verify signature, token has expired');
  return claims;
}

export async function startSupabaseAuthStandIn(): Promise<SupabaseAuthStandIn> {
  const anonKey = `anon-${crypto.randomUUID()}`;
  const jwtSecret = crypto.randomBytes(32).toString('hex');
  const linkRequests: LinkRequest[] = [];
  const logouts: SupabaseAuthStandIn['logouts'] = [];
  const failures = new Map<string, GoTrueError>();
  const users = new Map<string, User>();
  const passwords = new Map<string, string>();
  let confirmEmail = false;
  /** Unused token hashes → e-mail and the template they were sent with; verifying one deletes it. */
  const tokenHashes = new Map<string, {email: string; kind: LinkKind}>();
  /** PKCE auth codes → the link they stand for. */
  const authCodes = new Map<string, {tokenHash: string; challenge: string; method: string}>();
  const sessions = new Map<string, {email: string; refreshToken: string}>();
  let url = '';

  const userFor = (email: string, userMetadata: Record<string, unknown> = {}): User => {
    let user = users.get(email);
    if (!user) {
      const now = new Date().toISOString();
      user = {
        id: crypto.randomUUID(),
        aud: 'authenticated',
        role: 'authenticated',
        email,
        phone: '',
        app_metadata: {provider: 'email', providers: ['email']},
        user_metadata: userMetadata,
        identities: [],
        created_at: now,
        updated_at: now,
        is_anonymous: false,
      };
      users.set(email, user);
    }
    return user;
  };

  // GoTrue keeps the token's hash, sha224 of e-mail + OTP, which is what links and generate_link carry.
  const newTokenHash = (email: string, kind: LinkKind = 'email'): string => {
    const hash = crypto
      .createHash('sha224')
      .update(email + crypto.randomInt(1e6))
      .digest('hex');
    tokenHashes.set(hash, {email, kind});
    return hash;
  };

  /** "E-mails" a link of `kind` to `email`: token hash, and a PKCE code when the client sent a challenge. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the client's JSON, read field by field as GoTrue does
  const sendLink = (kind: LinkKind, email: string, query: URLSearchParams, body: Record<string, any>) => {
    const tokenHash = newTokenHash(email, kind);
    const redirectTo = query.get('redirect_to');
    const back = new URL(redirectTo ?? 'http://localhost:3000/');
    const link = new URL(back);
    link.searchParams.set('token_hash', tokenHash);
    link.searchParams.set('type', kind);
    let codeLink: string | null = null;
    if (body.code_challenge) {
      const code = crypto.randomUUID();
      authCodes.set(code, {tokenHash, challenge: body.code_challenge, method: body.code_challenge_method});
      const withCode = new URL(back);
      withCode.searchParams.set('code', code);
      codeLink = withCode.href;
    }
    linkRequests.push({
      kind,
      email,
      redirectTo,
      tokenHash,
      link: link.href,
      codeLink,
      codeChallenge: body.code_challenge ?? null,
      codeChallengeMethod: body.code_challenge_method ?? null,
    });
  };

  const startSession = (email: string): Session => {
    const now = new Date().toISOString();
    const user = users.get(email)!;
    user.email_confirmed_at ??= now;
    user.confirmed_at ??= now;
    user.last_sign_in_at = now;
    const sessionId = crypto.randomUUID();
    sessions.set(sessionId, {email, refreshToken: ''});
    return tokensFor(sessionId);
  };

  const tokensFor = (sessionId: string): Session => {
    const session = sessions.get(sessionId)!;
    const user = users.get(session.email)!;
    session.refreshToken = crypto.randomBytes(9).toString('base64url');
    const iat = Math.floor(Date.now() / 1000);
    const claims: JwtPayload = {
      iss: `${url}/auth/v1`,
      sub: user.id,
      aud: 'authenticated',
      exp: iat + EXPIRES_IN,
      iat,
      email: user.email,
      phone: '',
      app_metadata: user.app_metadata,
      user_metadata: user.user_metadata,
      role: 'authenticated',
      aal: 'aal1',
      amr: [{method: 'otp', timestamp: iat}],
      session_id: sessionId,
      is_anonymous: false,
    };
    return {
      access_token: signJwt(claims, jwtSecret),
      token_type: 'bearer',
      expires_in: EXPIRES_IN,
      expires_at: iat + EXPIRES_IN,
      refresh_token: session.refreshToken,
      user,
    };
  };

  /** Who a bearer token is for. Like GoTrue, a token without a `session_id` claim (the checkout's) has no session. */
  const callerOf = (authorization: string | undefined) => {
    const claims = verifyJwt(authorization?.replace(/^Bearer /, '') ?? '', jwtSecret);
    const user = [...users.values()].find((known) => known.id === claims.sub);
    if (!user) throw new GoTrueError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
    if (!claims.session_id) return {sessionId: null, email: user.email!};
    if (!sessions.has(claims.session_id))
      throw new GoTrueError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist');
    return {sessionId: claims.session_id, email: user.email!};
  };

  const handle = (
    method: string,
    path: string,
    query: URLSearchParams,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as in sendLink
    body: Record<string, any>,
    authorization?: string,
  ): unknown => {
    if (method === 'POST' && path === '/otp') {
      const email = String(body.email ?? '').toLowerCase();
      if (!email)
        throw new GoTrueError(400, 'validation_failed', 'Only an email address or phone number should be provided');
      if (!users.has(email) && body.create_user === false)
        throw new GoTrueError(422, 'otp_disabled', 'Signups not allowed for otp');
      userFor(email, body.data);
      sendLink('email', email, query, body);
      return {};
    }
    if (method === 'POST' && path === '/verify') {
      if (!body.type) throw new GoTrueError(400, 'validation_failed', 'Verify requires a verification type');
      const sent = tokenHashes.get(body.token_hash);
      // A hash is found only as the type of its template ('email' also as the deprecated 'magiclink').
      const types = sent?.kind === 'email' ? ['email', 'magiclink'] : [sent?.kind];
      if (!sent || !types.includes(body.type)) throw otpExpired();
      tokenHashes.delete(body.token_hash);
      return startSession(sent.email);
    }
    if (method === 'POST' && path === '/token' && query.get('grant_type') === 'pkce') {
      const flow = authCodes.get(body.auth_code);
      if (!flow) throw new GoTrueError(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found');
      const verifier = String(body.code_verifier ?? '');
      const challenge =
        flow.method === 's256' ? crypto.createHash('sha256').update(verifier).digest('base64url') : verifier;
      if (challenge !== flow.challenge)
        throw new GoTrueError(403, 'bad_code_verifier', 'code challenge does not match previously saved code verifier');
      authCodes.delete(body.auth_code);
      const sent = tokenHashes.get(flow.tokenHash);
      if (!sent) throw otpExpired();
      tokenHashes.delete(flow.tokenHash);
      return startSession(sent.email);
    }
    if (method === 'POST' && path === '/signup') {
      const email = String(body.email ?? '').toLowerCase();
      const password = String(body.password ?? '');
      if (!email || !password) throw new GoTrueError(400, 'validation_failed', 'Signup requires a valid password');
      checkPasswordStrength(password);
      const existing = users.get(email);
      if (existing?.email_confirmed_at || passwords.has(email)) {
        // With confirmation on, GoTrue hides that the e-mail is taken: a look-alike user with no
        // identities, and no e-mail. Without it, it says so.
        if (!confirmEmail) throw new GoTrueError(422, 'user_already_exists', 'User already registered');
        return {...existing, id: crypto.randomUUID(), identities: []};
      }
      const user = userFor(email, body.data);
      const now = new Date().toISOString();
      user.identities = [
        {
          id: user.id,
          identity_id: crypto.randomUUID(),
          user_id: user.id,
          provider: 'email',
          identity_data: {email, sub: user.id},
          created_at: now,
          updated_at: now,
          last_sign_in_at: now,
        },
      ];
      passwords.set(email, password);
      if (!confirmEmail) return startSession(email);
      sendLink('signup', email, query, body);
      return user;
    }
    if (method === 'POST' && path === '/token' && query.get('grant_type') === 'password') {
      const email = String(body.email ?? '').toLowerCase();
      if (!passwords.has(email) || passwords.get(email) !== body.password) {
        throw new GoTrueError(400, 'invalid_credentials', 'Invalid login credentials');
      }
      if (!users.get(email)!.email_confirmed_at)
        throw new GoTrueError(400, 'email_not_confirmed', 'Email not confirmed');
      return startSession(email);
    }
    if (method === 'POST' && path === '/recover') {
      const email = String(body.email ?? '').toLowerCase();
      // The same answer whether or not the e-mail has an account.
      if (users.has(email)) sendLink('recovery', email, query, body);
      return {};
    }
    if (method === 'PUT' && path === '/user') {
      const {email} = callerOf(authorization);
      if (typeof body.password === 'string') {
        if (passwords.get(email) === body.password) {
          throw new GoTrueError(422, 'same_password', 'New password should be different from the old password.');
        }
        checkPasswordStrength(body.password);
        passwords.set(email, body.password);
      }
      return users.get(email);
    }
    if (method === 'POST' && path === '/token' && query.get('grant_type') === 'refresh_token') {
      const found = [...sessions].find(([, session]) => session.refreshToken === body.refresh_token);
      if (!found)
        throw new GoTrueError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
      return tokensFor(found[0]);
    }
    if (method === 'GET' && path === '/user') {
      return users.get(callerOf(authorization).email);
    }
    if (method === 'POST' && path === '/logout') {
      const {sessionId, email} = callerOf(authorization);
      const scope = query.get('scope') ?? 'global';
      logouts.push({scope, email});
      for (const [id, session] of sessions) {
        // Without a session of its own, the caller can only end every session of the user, as in GoTrue.
        const ends =
          sessionId === null || scope === 'global'
            ? session.email === email
            : scope === 'local'
              ? id === sessionId
              : id !== sessionId && session.email === email;
        if (ends) sessions.delete(id);
      }
      return null;
    }
    throw new GoTrueError(404, 'not_found', 'Not found');
  };

  const server = http.createServer(async (request, response) => {
    let raw = '';
    for await (const chunk of request) raw += chunk;
    const requestUrl = new URL(request.url ?? '/', 'http://supabase.local');
    const path = requestUrl.pathname.replace(/^\/auth\/v1/, '');
    // Newer clients announce an API version; GoTrue then names errors by a string `code`.
    const versioned = request.headers['x-supabase-api-version'] === API_VERSION;
    const send = (status: number, body: unknown) => {
      const headers: http.OutgoingHttpHeaders = {'content-type': 'application/json'};
      if (versioned) headers['x-supabase-api-version'] = API_VERSION;
      response.writeHead(status, headers);
      response.end(body === null ? undefined : JSON.stringify(body));
    };
    // The API gateway in front of GoTrue rejects requests without the project's key.
    if (request.headers.apikey !== anonKey) return send(401, {message: 'Invalid API key'});
    try {
      const failure = failures.get(path);
      if (failure) {
        failures.delete(path);
        throw failure;
      }
      const result = handle(
        request.method ?? 'GET',
        path,
        requestUrl.searchParams,
        JSON.parse(raw || '{}'),
        request.headers.authorization,
      );
      send(result === null ? 204 : 200, result);
    } catch (caught) {
      const error = caught instanceof GoTrueError ? caught : new GoTrueError(500, 'unexpected_failure', String(caught));
      send(
        error.status,
        versioned
          ? {code: error.errorCode, message: error.message, ...error.extra}
          : {code: error.status, error_code: error.errorCode, msg: error.message, ...error.extra},
      );
    }
  });
  const running = await listen(server);
  url = running.url;
  return {
    url,
    anonKey,
    jwtSecret,
    linkRequests,
    logouts,
    issueCheckoutAccessToken(email, {userMetadata, expiresIn = EXPIRES_IN} = {}) {
      const user = userFor(email.toLowerCase(), userMetadata);
      const iat = Math.floor(Date.now() / 1000);
      return signJwt(
        {
          iss: `${url}/auth/v1`,
          sub: user.id,
          aud: 'authenticated',
          exp: iat + expiresIn,
          iat,
          email: user.email,
          role: 'authenticated',
          aal: 'aal1',
          amr: [{method: 'checkout', timestamp: iat}],
          app_metadata: user.app_metadata,
          user_metadata: user.user_metadata,
          is_anonymous: false,
          checkout: true,
        },
        jwtSecret,
      );
    },
    requireEmailConfirmation(on) {
      confirmEmail = on;
    },
    failNext(path, status, errorCode, message) {
      failures.set(path, new GoTrueError(status, errorCode, message));
    },
    close: running.close,
  };
}
