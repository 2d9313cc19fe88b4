import {Hono} from 'hono';
import {HttpError} from './errors';
import type {AppEnv} from './app';
import {clientAddress} from './http';
import {log} from './log';
import {settingsOf} from './settings';

/** Plausible's own paths, the same under our proxy's prefix (API_PATHS.plausible). */
export const PLAUSIBLE_PATHS = {script: '/js/script.js', event: '/api/event'} as const;

/**
 * Plausible through our own origin, so that blockers of third-party analytics do not skew the
 * numbers. Plausible counts unique visitors by IP, so the visitor's goes in X-Forwarded-For.
 * Bodies are held to the worker's JSON limit (set where the routes are mounted); Plausible's own
 * failures answer 502 in our error shape.
 */
export const analyticsRoutes = new Hono<AppEnv>()
  .get(PLAUSIBLE_PATHS.script, async (c) => {
    const upstream = await plausible(c.env, PLAUSIBLE_PATHS.script, {headers: {'user-agent': c.req.header('user-agent') ?? ''}});
    return new Response(upstream.body, {
      status: upstream.status,
      headers: {
        'content-type': upstream.headers.get('content-type') ?? 'application/javascript',
        'cache-control': upstream.headers.get('cache-control') ?? 'public, max-age=86400',
      },
    });
  })
  .post(PLAUSIBLE_PATHS.event, async (c) => {
    const upstream = await plausible(c.env, PLAUSIBLE_PATHS.event, {
      method: 'POST',
      headers: {
        'content-type': c.req.header('content-type') ?? 'application/json',
        'user-agent': c.req.header('user-agent') ?? '',
        'x-forwarded-for': clientAddress(c),
      },
      body: await c.req.text(),
    });
    return new Response(upstream.body, {
      status: upstream.status,
      headers: {'content-type': upstream.headers.get('content-type') ?? 'text/plain'},
    });
  });

async function plausible(env: Env, path: string, init: RequestInit): Promise<Response> {
  const url = `${settingsOf(env).PLAUSIBLE_HOST.replace(/\/$/, '')}${path}`;
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (err) {
    log.warn('plausible.unreachable', {path, error: err instanceof Error ? err.message : String(err)});
    throw unavailable();
  }
  if (response.status >= 500) {
    log.warn('plausible.failed', {path, status: response.status});
    throw unavailable();
  }
  return response;
}

const unavailable = () => new HttpError(502, 'Analytics is unavailable right now', 'UPSTREAM_UNAVAILABLE');
