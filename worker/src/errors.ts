import type {Context} from 'hono';
import {HTTPException} from 'hono/http-exception';
import type {ContentfulStatusCode} from 'hono/utils/http-status';
import type {ErrorBody, ErrorCode} from '../../src/config/api';
import {log} from './log';

/** An answer for the caller: `{"error": message, "code"?}` with a 4xx or 5xx status. */
export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly code?: ErrorCode,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function errorBody(message: string, code?: ErrorCode): ErrorBody {
  return code ? {error: message, code} : {error: message};
}

/** The one error handler: every failure leaves the worker in the same JSON shape. */
export function onError(err: Error, c: Context) {
  if (err instanceof HttpError) {
    for (const [name, value] of Object.entries(err.headers)) c.header(name, value);
    return c.json(errorBody(err.message, err.code), err.status);
  }
  if (err instanceof HTTPException) {
    // Hono's own refusals (a body over the size limit, for one).
    const status = err.status as ContentfulStatusCode;
    const message = status === 413 ? 'Request body is too large' : err.message || 'Bad request';
    return c.json(errorBody(message), status);
  }
  // The route's pattern, not the path: a path may carry a secret (a download link's token).
  log.error('request.failed', {method: c.req.method, route: c.req.routePath, error: describe(err)});
  return c.json(errorBody('Something went wrong on our side. Please try again.'), 500);
}

export function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
