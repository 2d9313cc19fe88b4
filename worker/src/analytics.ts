import {Hono} from 'hono';
import {HttpError} from './errors';
import type {AppEnv} from './app';
import {clientAddress} from './http';
import {log} from './log';
import {settingsOf} from './settings';
import {PLAUSIBLE_PATHS} from '../../src/config/api';

/**
 * Plausible through our own origin, so that blockers of third-party analytics do not skew the
 * numbers. Plausible counts unique visitors by IP, so the visitor's goes in X-Forwarded-For.
 * Bodies are held to the worker's JSON limit (set where the routes are mounted). Only Plausible's
 * successes pass through; anything else answers in our error shape, its text kept in the logs: a
 * refused event is 400 ANALYTICS_REFUSED, Plausible's rate limit 429 with Retry-After, and any
 * other failure (of the script, or Plausible's own) 502.
 */
export const analyticsRoutes = new Hono<AppEnv>()
  .get(PLAUSIBLE_PATHS.script, async (c) => {
    const upstream = await plausible(
      c.env,
      PLAUSIBLE_PATHS.script,
      {headers: {'user-agent': c.req.header('user-agent') ?? ''}},
      unavailable,
    );
    return new Response(upstream.body, {
      status: upstream.status,
      headers: {
        'content-type': upstream.headers.get('content-type') ?? 'application/javascript',
        'cache-control': upstream.headers.get('cache-control') ?? 'public, max-age=86400',
      },
    });
  })
  .post(PLAUSIBLE_PATHS.event, async (c) => {
    const upstream = await plausible(
      c.env,
      PLAUSIBLE_PATHS.event,
      {
        method: 'POST',
        headers: {
          'content-type': c.req.header('content-type') ?? 'application/json',
          'user-agent': c.req.header('user-agent') ?? '',
          'x-forwarded-for': clientAddress(c),
        },
        body: await c.req.text(),
      },
      () => new HttpError(400, 'Analytics did not accept this event', 'ANALYTICS_REFUSED'),
    );
    return new Response(upstream.body, {
      status: upstream.status,
      headers: {'content-type': upstream.headers.get('content-type') ?? 'text/plain'},
    });
  });

/** Plausible's successful answer; any other is thrown in our shape (`refused` for its 4xx). */
async function plausible(env: Env, path: string, init: RequestInit, refused: () => HttpError): Promise<Response> {
  const url = `${settingsOf(env).PLAUSIBLE_HOST.replace(/\/$/, '')}${path}`;
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (err) {
    log.warn('plausible.unreachable', {path, error: err instanceof Error ? err.message : String(err)});
    throw unavailable();
  }
  if (response.ok) return response;
  const text = (await response.text().catch(() => '')).slice(0, 500);
  log.warn('plausible.failed', {path, status: response.status, body: text});
  if (response.status === 429) {
    throw new HttpError(429, 'Analytics is busy right now. Please try again later.', 'RATE_LIMITED', {
      'Retry-After': String(retryAfterSeconds(response.headers.get('retry-after'))),
    });
  }
  throw response.status >= 400 && response.status < 500 ? refused() : unavailable();
}

/** Plausible's Retry-After (seconds, or an HTTP date) when it is 1 s to an hour away, else a minute. */
function retryAfterSeconds(header: string | null): number {
  if (!header) return 60;
  const seconds = /^\d+$/.test(header.trim()) ? Number(header) : Math.ceil((Date.parse(header) - Date.now()) / 1000);
  return seconds >= 1 && seconds <= 3600 ? seconds : 60;
}

const unavailable = () => new HttpError(502, 'Analytics is unavailable right now', 'UPSTREAM_UNAVAILABLE');
