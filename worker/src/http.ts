import type {Context} from 'hono';
import type {z} from 'zod';
import {NEXT_PARAM, siteUrl} from '../../src/config';
import {addressKey} from './address';
import {HttpError} from './errors';

/**
 * Parses the JSON body against a schema: 400 with the first problem, never a 500. Only a JSON
 * content type is read: a browser sends one cross-site only after a CORS preflight, so another
 * site's plain form post is refused (415) before it can do anything.
 */
export async function readJson<T extends z.ZodType>(c: Context, schema: T): Promise<z.output<T>> {
  if (!/^application\/json\s*(;|$)/i.test(c.req.header('content-type') ?? '')) {
    throw new HttpError(415, 'Send the body as JSON, with Content-Type: application/json', 'UNSUPPORTED_MEDIA_TYPE');
  }
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw new HttpError(400, 'The body must be JSON');
  }
  return parse(schema, body, 'The body must be a JSON object');
}

export function parse<T extends z.ZodType>(schema: T, value: unknown, notAnObjectMessage?: string): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const wrongRoot = notAnObjectMessage && issue?.code === 'invalid_type' && issue.path.length === 0;
    throw new HttpError(400, wrongRoot ? notAnObjectMessage : (issue?.message ?? 'Invalid request'));
  }
  return result.data;
}

/** The caller's exact address as Cloudflare saw it (`cf-connecting-ip`); `local` without one. */
export function clientAddress(c: Context): string {
  return c.req.header('cf-connecting-ip') ?? 'local';
}

/**
 * The caller as rate limits count it (`addressKey`): an IPv4 address, or an IPv6 caller's whole
 * /64, which one customer usually holds; an IPv4-mapped IPv6 address counts as its IPv4.
 */
export function clientIp(c: Context): string {
  return addressKey(clientAddress(c));
}

/**
 * A URL Stripe is to send the browser back to (a checkout's success and cancel URLs, the billing
 * portal's return URL), as the browser will follow it (`siteUrl`): 400 naming it when it leads
 * off the site, or to a sign-in whose `next=` does (a real checkout link as a lure).
 */
export function pageOfSite(url: string, origin: string, name: string): string {
  const page = siteUrl(url, origin);
  if (page === null)
    throw new HttpError(400, `${name} must be a page of ${origin}, and so must any ${NEXT_PARAM}= in it`);
  return page;
}
