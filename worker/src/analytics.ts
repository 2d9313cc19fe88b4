import {Hono} from 'hono';
import type {AppEnv} from './app';
import {clientIp} from './http';
import {settingsOf} from './settings';

/**
 * Plausible through our own origin, so that blockers of third-party analytics do not skew the
 * numbers. Plausible counts unique visitors by IP, so the visitor's goes in X-Forwarded-For.
 */
export const analyticsRoutes = new Hono<AppEnv>()
  .get('/js/script.js', async (c) => {
    const upstream = await fetch(`${plausible(c.env)}/js/script.js`, {
      headers: {'user-agent': c.req.header('user-agent') ?? ''},
    });
    return new Response(upstream.body, {
      status: upstream.status,
      headers: {
        'content-type': upstream.headers.get('content-type') ?? 'application/javascript',
        'cache-control': upstream.headers.get('cache-control') ?? 'public, max-age=86400',
      },
    });
  })
  .post('/api/event', async (c) => {
    const upstream = await fetch(`${plausible(c.env)}/api/event`, {
      method: 'POST',
      headers: {
        'content-type': c.req.header('content-type') ?? 'application/json',
        'user-agent': c.req.header('user-agent') ?? '',
        'x-forwarded-for': clientIp(c),
      },
      body: await c.req.text(),
    });
    return new Response(upstream.body, {
      status: upstream.status,
      headers: {'content-type': upstream.headers.get('content-type') ?? 'text/plain'},
    });
  });

function plausible(env: Env): string {
  return settingsOf(env).PLAUSIBLE_HOST.replace(/\/$/, '');
}
