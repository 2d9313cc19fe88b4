/**
 * A stand-in for Supabase Auth's admin API (GoTrue cannot run here): creating users and
 * generating magic-link tokens, answering in GoTrue's shapes, including its `email_exists` error.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import {listen} from '../support/staticServer';

export interface SupabaseStandIn {
  url: string;
  serviceRoleKey: string;
  users: Map<string, {id: string; email: string; email_confirmed_at: string | null}>;
  /** hashed_token → e-mail, for every sign-in link generated. */
  links: Map<string, string>;
  close(): Promise<void>;
}

export async function startSupabaseStandIn(): Promise<SupabaseStandIn> {
  const serviceRoleKey = `service-role-${crypto.randomUUID()}`;
  const users: SupabaseStandIn['users'] = new Map();
  const links = new Map<string, string>();
  const server = http.createServer(async (request, response) => {
    let raw = '';
    for await (const chunk of request) raw += chunk;
    const send = (status: number, body: unknown) => {
      response.writeHead(status, {'content-type': 'application/json'});
      response.end(JSON.stringify(body));
    };
    if (request.headers.apikey !== serviceRoleKey || request.headers.authorization !== `Bearer ${serviceRoleKey}`) {
      return send(401, {code: 401, error_code: 'no_authorization', msg: 'This endpoint requires a valid Bearer token'});
    }
    const body = JSON.parse(raw || '{}') as {email?: string; email_confirm?: boolean; type?: string};
    const email = body.email?.toLowerCase() ?? '';
    if (request.method === 'POST' && request.url === '/auth/v1/admin/users') {
      if (users.has(email)) {
        return send(422, {code: 422, error_code: 'email_exists', msg: 'A user with this email address has already been registered'});
      }
      const user = {id: crypto.randomUUID(), email, email_confirmed_at: body.email_confirm ? new Date().toISOString() : null};
      users.set(email, user);
      return send(200, {...user, aud: 'authenticated', role: 'authenticated'});
    }
    if (request.method === 'POST' && request.url === '/auth/v1/admin/generate_link') {
      const user = users.get(email);
      if (!user) return send(404, {code: 404, error_code: 'user_not_found', msg: 'User not found'});
      const hashed = crypto.randomBytes(28).toString('hex');
      links.set(hashed, email);
      return send(200, {...user, action_link: `http://supabase.local/auth/v1/verify?token=${hashed}&type=magiclink`, hashed_token: hashed, verification_type: 'magiclink'});
    }
    send(404, {code: 404, msg: 'Not found'});
  });
  const running = await listen(server);
  return {url: running.url, serviceRoleKey, users, links, close: running.close};
}
