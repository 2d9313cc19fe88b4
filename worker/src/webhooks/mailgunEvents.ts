import {Hono} from 'hono';
import {bodyLimit} from 'hono/body-limit';
import {z} from 'zod';
import type {MailgunEventsResult} from '../../../src/config/api';
import type {AppEnv} from '../app';
import {HttpError} from '../errors';
import {log} from '../log';
import {type DeliveryEvent, eventStatement} from '../releases/deliveries';
import {checkMailgunSignature, mailgunSigningKey, replayed, spendTokenStatement} from './mailgunSignature';

/**
 * An event is a small JSON document (a few KB: the message's headers at most). The body is parsed
 * before its signature can be read, so the cap also bounds what an unsigned post costs.
 */
const MAX_BODY_BYTES = 64 * 1024;

const signatureShape = z.object({
  signature: z.object({
    timestamp: z.union([z.string(), z.number()]).transform(String),
    token: z.string(),
    signature: z.string(),
  }),
});

/**
 * What is read of an event (Mailgun's user manual, "Webhook Payloads"): which event, for whom, how
 * bad a failure is, Mailgun's words for it, and the `v:` variables the message was sent with.
 */
const eventShape = z.object({
  'event-data': z.object({
    event: z.string(),
    recipient: z.string().max(320).optional(),
    severity: z.string().optional(),
    reason: z.string().nullish(),
    'delivery-status': z.object({message: z.string().nullish(), description: z.string().nullish()}).nullish(),
    // `{}` or `[]` when the message had none.
    'user-variables': z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]).optional(),
  }),
});
type EventData = z.infer<typeof eventShape>['event-data'];

/**
 * POST /api/webhook/mailgun/events: Mailgun's event webhooks (delivered, permanent failure),
 * signed like the inbound webhook (the same key, each token once, a fresh timestamp; without the
 * key, refused). An event of a release e-mail (its `v:release-id` names a release the worker
 * stored) moves that buyer's row in `release_deliveries`; any other event is answered 200 and
 * changes nothing, so that Mailgun does not retry it.
 */
export const mailgunEvents = new Hono<AppEnv>().post('/', bodyLimit({maxSize: MAX_BODY_BYTES}), async (c) => {
  const key = mailgunSigningKey(c.env);
  let body: unknown;
  try {
    body = JSON.parse(await c.req.text());
  } catch {
    throw new HttpError(400, 'The body must be JSON, as Mailgun posts its events');
  }
  const signed = signatureShape.safeParse(body);
  if (!signed.success) throw new HttpError(401, 'Missing or malformed Mailgun signature', 'BAD_SIGNATURE');
  const {token} = signed.data.signature;
  await checkMailgunSignature(key, signed.data.signature);
  const parsed = eventShape.safeParse(body);
  if (!parsed.success) throw new HttpError(400, 'The body has no event-data, or it is malformed');

  const event = releaseEventOf(parsed.data['event-data']);
  // The token and the change in one transaction: a replay changes nothing and is refused.
  const db = c.env.DB;
  const results = await db.batch<{token?: string}>([
    ...(event ? [eventStatement(db, event, token)] : []),
    spendTokenStatement(db, token),
  ]);
  if (results.at(-1)!.results.length === 0) throw replayed();
  const changed = event ? (results[0]!.meta.changes ?? 0) > 0 : false;
  log.info('mailgun.event', {event: parsed.data['event-data'].event, releaseId: event?.releaseId ?? null, changed});
  return c.json<MailgunEventsResult>({received: true, recorded: changed});
});

/** The event as a change of a release e-mail's row, or null when it is not one the worker keeps. */
function releaseEventOf(data: EventData): DeliveryEvent | null {
  const variables = Array.isArray(data['user-variables']) ? {} : (data['user-variables'] ?? {});
  const releaseId = Number(variables['release-id']);
  const audience = variables['release-audience'];
  if (!Number.isSafeInteger(releaseId) || releaseId <= 0 || (audience !== 'updates' && audience !== 'upgrade'))
    return null;
  const email = data.recipient?.trim().toLowerCase();
  if (!email) return null;
  if (data.event === 'delivered') return {releaseId, audience, email, status: 'delivered', reason: null};
  // A temporary failure is Mailgun still trying: only a permanent one is the end.
  if (data.event === 'failed' && data.severity === 'permanent') {
    const status = data['delivery-status'];
    const reason = status?.message || status?.description || data.reason || 'Mailgun reported a permanent failure';
    return {releaseId, audience, email, status: 'failed', reason: reason.slice(0, 500)};
  }
  return null;
}
