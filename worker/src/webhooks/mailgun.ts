import {Hono} from 'hono';
import {bodyLimit} from 'hono/body-limit';
import {appConfig} from '../../../src/config';
import type {AppEnv} from '../app';
import {HttpError} from '../errors';
import {enqueueClaimedStatement, type Job} from '../jobs';
import {log} from '../log';
import {contextOf} from '../context';
import {runClaimed} from '../outbox';
import {formShape, readFields} from './formFields';
import {checkMailgunSignature, mailgunSigningKey, replayed, spendTokenStatement} from './mailgunSignature';

const MAX_BODY_BYTES = 5 * 1024 * 1024;
/**
 * Mailgun's parsed forward posts about 15 fields (signature, sender, subject, the bodies, the
 * headers as JSON, attachment-count), one per MIME header it also copies, and one per attachment:
 * a few dozen for a real e-mail. Tens of thousands of empty fields are a flood, refused unread.
 */
const MAX_FORM_FIELDS = 200;

/**
 * POST /api/webhook/mailgun: an inbound e-mail, forwarded to the config's forwardRepliesTo.
 * Signed as every Mailgun webhook is (mailgunSignature.ts): a fresh timestamp, each token once.
 * 406 tells Mailgun not to retry a message we will never take.
 * Cheapest refusals first: over 5 MB or MAX_FORM_FIELDS fields is 413, counted on the raw bytes;
 * then the signature, read from its three fields alone; only a signed post is parsed whole.
 */
export const mailgunWebhook = new Hono<AppEnv>().post('/', bodyLimit({maxSize: MAX_BODY_BYTES}), async (c) => {
  const key = mailgunSigningKey(c.env);
  const contentType = c.req.header('content-type') ?? '';
  const body = new Uint8Array(await c.req.arrayBuffer());
  const shape = formShape(body, contentType, MAX_FORM_FIELDS);
  if (shape === null) throw new HttpError(400, 'The body must be a form post');
  if (shape === 'tooMany') {
    throw new HttpError(413, `The form has more than ${MAX_FORM_FIELDS} fields; an e-mail from Mailgun has far fewer`);
  }
  const signed = readFields(body, shape, ['timestamp', 'token', 'signature']);
  const token = signed.get('token') ?? '';
  await checkMailgunSignature(key, {
    timestamp: signed.get('timestamp') ?? '',
    token,
    signature: signed.get('signature') ?? '',
  });
  let form: FormData;
  try {
    form = await new Response(body, {headers: {'content-type': contentType}}).formData();
  } catch {
    throw new HttpError(400, 'The body must be a form post');
  }
  const field = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : '';
  };
  const sender = field('sender') || field('from');
  const subject = field('subject') || '(no subject)';
  const forward = {
    from: appConfig.mail.fromAdmin,
    to: appConfig.mail.forwardRepliesTo,
    replyTo: sender || undefined,
    subject: `Fwd: ${subject}`,
    text: `From: ${field('from') || sender}\nTo: ${field('recipient')}\nSubject: ${subject}\n\n${fitForRow(field('body-plain'))}`,
  };
  // The token and the job in one transaction: stored together or not at all, so a failure here
  // leaves Mailgun's retry to succeed instead of being refused as a replay.
  const [queued, fresh] = await c.env.DB.batch<Partial<Job> & {token?: string}>([
    enqueueClaimedStatement(c.env.DB, {key: `forward:${token}`, kind: 'mail', payload: forward}),
    spendTokenStatement(c.env.DB, token),
  ]);
  if (fresh!.results.length === 0) throw replayed();
  const job = queued!.results[0] as Job | undefined;
  if (job) await runClaimed(contextOf(c.env), job);
  log.info('mailgun.forwarded', {jobId: job?.id ?? null});
  return c.json({received: true});
});

/**
 * D1 keeps rows under 2 MB (and JSON may double the text): a body larger than this is cut (on a character boundary), with a line
 * that says so. The whole message stays in Mailgun's logs.
 */
export const MAX_FORWARDED_BYTES = 500_000;

function fitForRow(text: string): string {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= MAX_FORWARDED_BYTES) return text;
  const kept = new TextDecoder().decode(bytes.slice(0, MAX_FORWARDED_BYTES)).replace(/\uFFFD$/, '');
  return `${kept}\n\n[Truncated: the message was ${Math.ceil(bytes.length / 1024)} KB; the first ${MAX_FORWARDED_BYTES / 1000} KB are above. The whole message is in Mailgun's logs.]`;
}
