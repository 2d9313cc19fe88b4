import {appConfig} from '../../../src/config';
import type {Context} from '../context';
import {FREE_PLAN_RELEASE_BATCH, onFreePlan} from '../freePlan';
import {enqueue, PermanentError} from '../jobs';
import {log} from '../log';
import {MailgunRefused, postToMailgun} from '../mail';
import {registerJob} from '../outbox';
import type {Settings} from '../settings';
import {NextRun} from '../subrequests';
import {type Audience, audienceOf} from './audience';
import {recordFailed, recordSent} from './deliveries';
import {releaseForm, type StoredRelease} from './releaseForm';
import {notesHtmlOf, type StoredNotes} from './storedNotes';

/**
 * One batch of a release's e-mail: up to MAX_BATCH buyers in one call to Mailgun's batch sending.
 * With `recipient-variables`, Mailgun sends each address its own copy, so no buyer sees another's
 * address, and each copy carries that buyer's own unsubscribe link. One outbox job per batch: a
 * failed batch is retried alone, and a batch sent is never sent again.
 */
export interface ReleaseBatch {
  releaseId: number;
  audience: Audience;
  recipients: string[];
  /** Where the worker answers the unsubscribe links (the origin GitHub's delivery came to, and the path). */
  unsubscribeUrl: string;
  /**
   * The batch's own outbox key (`release:<id>:…`), from which the halves of a refused batch take
   * theirs. Batches queued before it existed have none; see keyOf.
   */
  key?: string;
}

/** Mailgun's cap on recipients per call ("Batch sending", its user manual). */
export const MAX_BATCH = 1000;

/** Recipients of one release batch: Mailgun's cap on the Paid plan, FREE_PLAN_RELEASE_BATCH on the Free plan. */
export function releaseBatchSize(settings: Pick<Settings, 'subrequestLimit'>): number {
  return onFreePlan(settings) ? FREE_PLAN_RELEASE_BATCH : MAX_BATCH;
}

/**
 * An audience's addresses as batches of the plan's size, each keyed `<keyPrefix><audience>:<n>`:
 * the same addresses split the same way get the same keys, so queuing them twice sends nothing twice.
 */
export function batchesOf(
  settings: Pick<Settings, 'subrequestLimit'>,
  {
    releaseId,
    audience,
    emails,
    unsubscribeUrl,
    keyPrefix,
  }: {releaseId: number; audience: Audience; emails: string[]; unsubscribeUrl: string; keyPrefix: string},
): ReleaseBatch[] {
  return chunks(emails, releaseBatchSize(settings)).map((recipients, index) => ({
    releaseId,
    audience,
    recipients,
    unsubscribeUrl,
    key: `${keyPrefix}${audience}:${index}`,
  }));
}

/**
 * How far apart a release's batches go out: the hour shared evenly by the config's
 * `releases.batchesPerHour`, so that a new sending domain sees a steady flow, never a burst.
 */
export function batchSpacingMs(): number {
  return Math.ceil(3_600_000 / Math.max(1, appConfig.releases.batchesPerHour));
}

async function sendBatch(context: Context, batch: ReleaseBatch): Promise<void> {
  const {settings, db} = context;
  // One batch an invocation on the Free plan: a second would pass its 10 ms of CPU (freePlan.ts).
  // Checked first, so that each batch waiting for the next run costs this one nothing more.
  if (context.releaseBatchesLeft < 1)
    throw new NextRun('This run has sent its release batch; the next cron run sends the next');
  // Queued bigger than this plan's batches (before a deploy that moved to the Free plan): in parts.
  const size = releaseBatchSize(settings);
  if (batch.recipients.length > size) return queueParts(db, batch, chunks(batch.recipients, size), 'part');
  const secret = settings.UNSUBSCRIBE_SECRET;
  if (!secret) throw new PermanentError('Release e-mails need UNSUBSCRIBE_SECRET for their unsubscribe links');
  const release = await db
    .prepare(
      'SELECT id, tag, name, body, notes_html, notes_renderer, html_url, withdrawn_at FROM releases WHERE id = ?1',
    )
    .bind(batch.releaseId)
    .first<StoredRelease & StoredNotes & {withdrawn_at: number | null}>();
  if (!release) throw new PermanentError(`Release ${batch.releaseId} is not stored`);
  // Deleted or unpublished on GitHub since it was announced: the e-mails not yet sent stay unsent.
  if (release.withdrawn_at !== null) return;
  // Checked again now: whoever unsubscribed or was refunded since the batch was queued is left out.
  const recipients = await audienceOf(db, batch.audience, batch.recipients);
  if (recipients.length === 0) return;
  context.releaseBatchesLeft -= 1;
  // The notes as rendered when the release was stored: not parsed again for every batch.
  const notesHtml = (await notesHtmlOf(db, [release])).get(release.id)!;
  const form = await releaseForm({
    settings,
    secret,
    release: {...release, notesHtml},
    audience: batch.audience,
    releaseId: batch.releaseId,
    unsubscribeUrl: batch.unsubscribeUrl,
    recipients,
  });
  const sentAt = Date.now();
  const delivery = {releaseId: batch.releaseId, audience: batch.audience, emails: recipients};
  try {
    await postToMailgun(context, form);
  } catch (err) {
    // Mailgun refuses a whole call for one bad address: the batch is split until it is alone.
    // Only a refusal that names the recipients: any other 400 (a bad sender, say) would refuse
    // every half too, and is the batch's own, given up once.
    if (err instanceof MailgunRefused && err.status === 400) {
      if (RECIPIENT_REFUSAL.test(err.reason)) return refused(context, {...batch, recipients}, err.reason);
      throw new PermanentError(`Mailgun refused the batch: ${err.reason}`);
    }
    throw err;
  }
  try {
    await recordSent(db, delivery, sentAt);
  } catch (err) {
    // Mailgun took the batch: a retry would send it again to every buyer in it. The record is
    // second to that; its loss is logged, and the console does not count these buyers as e-mailed.
    log.error('releases.record_failed', {
      releaseId: batch.releaseId,
      recipients: recipients.length,
      error: err instanceof Error ? err.message : String(err),
    });
  }
}

/** Mailgun's 400 for an address it will not send to names the `to` parameter ("'to' parameter is not a valid address"). */
const RECIPIENT_REFUSAL = /'to'|\bto parameter|recipient/i;

/**
 * Mailgun answered 400 to the batch. Alone, the address is recorded failed with Mailgun's words;
 * with others, the batch is queued again as two halves (new outbox jobs, keys derived from its
 * own), each sent, and split again if refused, so that one bad address sinks only itself.
 */
async function refused({db}: Context, batch: ReleaseBatch, reason: string): Promise<void> {
  if (batch.recipients.length === 1) {
    await recordFailed(db, {releaseId: batch.releaseId, audience: batch.audience, emails: batch.recipients}, reason);
    log.warn('releases.address_refused', {releaseId: batch.releaseId, reason});
    return;
  }
  await queueParts(db, batch, chunks(batch.recipients, Math.ceil(batch.recipients.length / 2)), '');
  log.info('releases.batch_split', {releaseId: batch.releaseId, recipients: batch.recipients.length, reason});
}

function chunks(recipients: string[], size: number): string[][] {
  const parts: string[][] = [];
  for (let start = 0; start < recipients.length; start += size) parts.push(recipients.slice(start, start + size));
  return parts;
}

/**
 * Queues a batch again as parts, each a job of its own, due at once, keyed from the batch's own
 * key (`<key>.<label><n>`, n from 1): the same batch split the same way queues nothing twice.
 */
async function queueParts(db: D1Database, batch: ReleaseBatch, parts: string[][], label: string): Promise<void> {
  const key = keyOf(batch);
  for (const [index, recipients] of parts.entries()) {
    const part: ReleaseBatch = {...batch, recipients, key: `${key}.${label}${index + 1}`};
    await enqueue(db, {key: part.key!, kind: 'release-mail', payload: part});
  }
}

/** The batch's outbox key; for a batch queued without one, a key made of what is unique to it. */
function keyOf(batch: ReleaseBatch): string {
  return (
    batch.key ?? `release:${batch.releaseId}:${batch.audience}:from-${batch.recipients[0]}-${batch.recipients.length}`
  );
}

/** The outbox gave up on the batch (a refusal other than 400, or retries used up): its buyers failed. */
async function gaveUp({db}: Context, batch: ReleaseBatch, error: string): Promise<void> {
  const emails = await audienceOf(db, batch.audience, batch.recipients);
  if (emails.length > 0) await recordFailed(db, {releaseId: batch.releaseId, audience: batch.audience, emails}, error);
}

registerJob<ReleaseBatch>('release-mail', {run: (context, batch) => sendBatch(context, batch), gaveUp});
