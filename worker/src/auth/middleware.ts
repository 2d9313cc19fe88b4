import type {Context} from 'hono';
import {createMiddleware} from 'hono/factory';
import type {AppEnv} from '../app';
import {settingsOf} from '../settings';
import {guardSessions} from './firstVerifiedSignIn';
import type {AuthUser} from './user';
import {unauthorized, verifyToken} from './verifyToken';

const MAX_TOKEN_LENGTH = 8192;

function bearerToken(c: Context): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '');
  return match?.[1];
}

async function authenticate(c: Context<AppEnv>, token: string) {
  if (token.length > MAX_TOKEN_LENGTH) throw unauthorized();
  const settings = settingsOf(c.env);
  const user = await verifyToken(settings, token);
  await guardSessions(c.env.DB, settings, user, token);
  c.set('user', user);
}

/** Refuses the request with 401 unless it carries a valid ID token. */
export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  const token = bearerToken(c);
  if (!token) throw unauthorized();
  await authenticate(c, token);
  await next();
});

/** Reads the user when a token is sent (a bad one is still a 401); guests pass through. */
export const optionalUser = createMiddleware<AppEnv>(async (c, next) => {
  const token = bearerToken(c);
  if (token) await authenticate(c, token);
  await next();
});

/** The user set by `requireUser`. */
export function currentUser(c: Context<AppEnv>): AuthUser {
  const user = c.get('user');
  if (!user) throw unauthorized();
  return user;
}
