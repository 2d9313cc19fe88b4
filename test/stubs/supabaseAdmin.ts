/**
 * A stand-in for Supabase Auth's admin API (GoTrue cannot run here): creating, reading and
 * updating users (a new password), generating magic-link tokens and signing a user's sessions out
 * (the others, or all of them), answering in GoTrue's shapes, including its `email_exists` error.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import {listen} from '../../scripts/support/listen';

export interface SupabaseStandIn {
  url: string;
  serviceRoleKey: string;
  users: Map<string, {id: string; email: string; email_confirmed_at: string | null}>;
  /** hashed_token → e-mail, for every sign-in link generated. */
  links: Map<string, string>;
  /** The bearer token of each `POST /logout?scope=others`: the session that stays. */
  signOutOthers: string[];
  /** The bearer token of each `POST /logout?scope=global`: every session ends, this one too. */
  signOutEverywhere: string[];
  /** The user id of each `PUT /admin/users/:id` that set a password. */
  passwordsSet: string[];
  /** Lookups of users by id, to show they are cached. */
  lookups: string[];
  close(): Promise<void>;
}

export async function startSupabaseStandIn(): Promise<SupabaseStandIn> {
  const serviceRoleKey = `service-role-${crypto.randomUUID()}`;
  const users: SupabaseStandIn['users'] = new Map();
  const links = new Map<string, string>();
  const signOutOthers: string[] = [];
  const signOutEverywhere: string[] = [];
  const passwordsSet: string[] = [];
  const lookups: string[] = [];
  const server = http.createServer(async (request, response) => {
    let raw = '';
    for await (const chunk of request) raw += chunk;
    const send = (status: number, body?: unknown) => {
      response.writeHead(status, {'content-type': 'application/json'});
      response.end(body === undefined ? undefined : JSON.stringify(body));
    };
    const {pathname, searchParams} = new URL(request.url ?? '/', 'http://supabase.local');
    if (request.headers.apikey !== serviceRoleKey) {
      return send(401, {message: 'Invalid API key'});
    }
    // The user's own session, as supabase-js's signOut({scope: 'others'}) calls it.
    if (request.method === 'POST' && pathname === '/auth/v1/logout') {
      const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      if (!bearer || bearer === serviceRoleKey)
        return send(401, {
          code: 401,
          error_code: 'no_authorization',
          msg: 'This endpoint requires a valid Bearer token',
        });
      if (searchParams.get('scope') === 'others') signOutOthers.push(bearer);
      if (searchParams.get('scope') === 'global') signOutEverywhere.push(bearer);
      return send(204);
    }
    if (request.headers.authorization !== `Bearer ${serviceRoleKey}`) {
      return send(401, {code: 401, error_code: 'no_authorization', msg: 'This endpoint requires a valid Bearer token'});
    }
    const body = JSON.parse(raw || '{}') as {
      email?: string;
      email_confirm?: boolean;
      type?: string;
      password?: unknown;
    };
    const email = body.email?.toLowerCase() ?? '';
    const byId = /^\/auth\/v1\/admin\/users\/([^/]+)$/.exec(pathname);
    if (request.method === 'GET' && byId) {
      lookups.push(byId[1]!);
      const user = [...users.values()].find((candidate) => candidate.id === byId[1]);
      return user
        ? send(200, {...user, aud: 'authenticated', role: 'authenticated'})
        : send(404, {code: 404, error_code: 'user_not_found', msg: 'User not found'});
    }
    if (request.method === 'PUT' && byId) {
      const user = [...users.values()].find((candidate) => candidate.id === byId[1]);
      if (!user) return send(404, {code: 404, error_code: 'user_not_found', msg: 'User not found'});
      if (typeof body.password === 'string') {
        if (body.password.length < 6)
          return send(422, {code: 422, error_code: 'weak_password', msg: 'Password should be at least 6 characters.'});
        passwordsSet.push(user.id);
      }
      return send(200, {...user, aud: 'authenticated', role: 'authenticated'});
    }
    if (request.method === 'POST' && pathname === '/auth/v1/admin/users') {
      if (users.has(email)) {
        return send(422, {
          code: 422,
          error_code: 'email_exists',
          msg: 'A user with this email address has already been registered',
        });
      }
      const user = {
        id: crypto.randomUUID(),
        email,
        email_confirmed_at: body.email_confirm ? new Date().toISOString() : null,
      };
      users.set(email, user);
      return send(200, {...user, aud: 'authenticated', role: 'authenticated'});
    }
    if (request.method === 'POST' && pathname === '/auth/v1/admin/generate_link') {
      const user = users.get(email);
      if (!user) return send(404, {code: 404, error_code: 'user_not_found', msg: 'User not found'});
      const hashed = crypto.randomBytes(28).toString('hex');
      links.set(hashed, email);
      return send(200, {
        ...user,
        action_link: `http://supabase.local/auth/v1/verify?token=${hashed}&type=magiclink`,
        hashed_token: hashed,
        verification_type: 'magiclink',
      });
    }
    send(404, {code: 404, msg: 'Not found'});
  });
  const running = await listen(server);
  return {
    url: running.url,
    serviceRoleKey,
    users,
    links,
    signOutOthers,
    signOutEverywhere,
    passwordsSet,
    lookups,
    close: running.close,
  };
}
