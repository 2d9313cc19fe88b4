/**
 * Mailgun's event webhooks, as it posts them (its user manual, "Webhook Payloads" and "Securing
 * Webhooks"): JSON with a `signature` (an HMAC-SHA256 of `timestamp + token` with the webhook
 * signing key) and the `event-data`, whose `user-variables` are the message's `v:` variables. The
 * fields here are those the worker reads and a few around them; Mailgun sends more. Their names
 * and types are those of Mailgun's Node SDK (mailgun.js's `DomainEvent`, a dev dependency for its
 * types only), narrowed where the manual lists the values (`event`, `severity`).
 */
import {createHmac, randomBytes} from 'node:crypto';
import type {DomainEvent} from 'mailgun.js/definitions';

/**
 * The webhook signing key `npm start -- --local` gives the worker when Mailgun is stood in for,
 * so that a local test can post Mailgun's events (a bounce) as Mailgun would sign them.
 */
export const LOCAL_MAILGUN_SIGNING_KEY = 'local-mode-mailgun-webhook-signing-key';

export interface MailgunEventData extends Pick<
  DomainEvent,
  'id' | 'timestamp' | 'recipient' | 'recipient-domain' | 'tags'
> {
  event: 'accepted' | 'delivered' | 'failed' | 'opened' | 'clicked' | 'unsubscribed' | 'complained';
  /** On `failed`: `permanent` (Mailgun gave up) or `temporary` (it tries again). */
  severity?: 'permanent' | 'temporary';
  /** On `failed`: e.g. `bounce`, `suppress-bounce`, `generic`. */
  reason?: string;
  'delivery-status'?: {code?: number; message?: string; description?: string; 'attempt-no'?: number};
  /** The message's `v:` variables; `[]` when it had none. */
  'user-variables': Record<string, string> | [];
  message: {headers: {'message-id': string; subject?: string; to?: string}};
}

export interface MailgunEventPayload {
  signature: {timestamp: string; token: string; signature: string};
  'event-data': MailgunEventData;
}

export interface EventOptions {
  severity?: MailgunEventData['severity'];
  /** The receiving server's words, for a failure. */
  message?: string;
  variables?: Record<string, string>;
  /** Seconds since 1970; now by default. */
  timestamp?: number;
  token?: string;
}

/** One event about one recipient, signed with `key` as Mailgun signs it. */
export function signedEvent(
  key: string,
  event: MailgunEventData['event'],
  recipient: string,
  options: EventOptions = {},
): MailgunEventPayload {
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const token = options.token ?? randomBytes(25).toString('hex');
  const failed = event === 'failed';
  return {
    signature: {
      timestamp,
      token,
      signature: createHmac('sha256', key)
        .update(timestamp + token)
        .digest('hex'),
    },
    'event-data': {
      event,
      id: randomBytes(11).toString('base64url'),
      timestamp: Number(timestamp),
      recipient,
      'recipient-domain': recipient.split('@')[1] ?? '',
      ...(failed && {severity: options.severity ?? 'permanent', reason: 'bounce'}),
      'delivery-status': failed
        ? {
            code: 550,
            message: options.message ?? '5.1.1 The email account that you tried to reach does not exist',
            'attempt-no': 1,
          }
        : {code: 250, message: 'OK', 'attempt-no': 1},
      'user-variables': options.variables ?? [],
      tags: ['release'],
      message: {headers: {'message-id': `${randomBytes(8).toString('hex')}@mailgun.local`}},
    },
  };
}
