import {appConfig} from '../../../src/config';
import type {Context} from '../context';
import {PermanentError} from '../jobs';
import {postToMailgun} from '../mail';
import {registerJob} from '../outbox';
import type {Settings} from '../settings';
import {type Audience, audienceOf} from './audience';
import {escapeHtml, renderNotes} from './notes';
import {unsubscribeToken} from './unsubscribeLink';

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
}

/** Mailgun's cap on recipients per call ("Batch sending", its user manual). */
export const MAX_BATCH = 1000;

interface StoredRelease {
  tag: string;
  name: string;
  body: string;
  html_url: string | null;
}

async function sendBatch(context: Context, batch: ReleaseBatch): Promise<void> {
  const {settings, db} = context;
  const secret = settings.UNSUBSCRIBE_SECRET;
  if (!secret) throw new PermanentError('Release e-mails need UNSUBSCRIBE_SECRET for their unsubscribe links');
  const release = await db
    .prepare('SELECT tag, name, body, html_url FROM releases WHERE id = ?1')
    .bind(batch.releaseId)
    .first<StoredRelease>();
  if (!release) throw new PermanentError(`Release ${batch.releaseId} is not stored`);
  // Checked again now: whoever unsubscribed or was refunded since the batch was queued is left out.
  const recipients = await audienceOf(db, batch.audience, batch.recipients);
  if (recipients.length === 0) return;
  const variables: Record<string, {unsubscribe: string}> = {};
  for (const email of recipients) {
    variables[email] = {unsubscribe: `${batch.unsubscribeUrl}/${await unsubscribeToken(secret, email)}`};
  }
  const message = batch.audience === 'updates' ? updateMessage(settings, release) : upgradeNote(settings, release);
  const form = new FormData();
  form.set('from', appConfig.mail.fromNoReply);
  for (const email of recipients) form.append('to', email);
  form.set('recipient-variables', JSON.stringify(variables));
  form.set('subject', message.subject);
  form.set('text', `${message.text}\n\nNo more e-mails about new releases: %recipient.unsubscribe%\n`);
  form.set('html', `${message.html}<hr><p><a href="%recipient.unsubscribe%">No more e-mails about new releases</a></p>`);
  form.set('h:Reply-To', appConfig.support.email);
  // RFC 8058 one-click unsubscribe, which Gmail and Yahoo ask of bulk senders.
  form.set('h:List-Unsubscribe', '<%recipient.unsubscribe%>');
  form.set('h:List-Unsubscribe-Post', 'List-Unsubscribe=One-Click');
  form.set('o:tag', 'release');
  await postToMailgun(context, form);
}

interface ReleaseMessage {
  subject: string;
  text: string;
  html: string;
}

/** For a buyer whose plan includes updates: the release's name, its notes, and the dashboard. */
function updateMessage(settings: Settings, release: StoredRelease): ReleaseMessage {
  const {appName} = appConfig;
  const dashboard = `${settings.siteOrigin}${appConfig.auth.callbackUrl}`;
  const notes = release.body.trim();
  return {
    subject: `${appName} ${release.name} is out`,
    text: [
      `${appName} ${release.name} (${release.tag}) is out, and your plan includes it.`,
      ...(notes ? ['', notes] : []),
      '',
      `Get it from your dashboard: ${dashboard}`,
    ].join('\n'),
    html: [
      `<p>${escapeHtml(`${appName} ${release.name} (${release.tag}) is out, and your plan includes it.`)}</p>`,
      notes ? renderNotes(notes) : '',
      `<p><a href="${escapeHtml(dashboard)}">Get it from your dashboard</a></p>`,
    ].join('\n'),
  };
}

/** For a buyer whose plan leaves updates out: that a new version exists, and where plans are. */
function upgradeNote(settings: Settings, release: StoredRelease): ReleaseMessage {
  const {appName} = appConfig;
  const pricing = `${settings.siteOrigin}/#pricing`;
  const line = `${appName} ${release.name} is out. Your plan does not include updates; the plans that do are on our site.`;
  return {
    subject: `${appName} ${release.name} is out`,
    text: `${line}\n\n${pricing}`,
    html: `<p>${escapeHtml(line)}</p><p><a href="${escapeHtml(pricing)}">See the plans</a></p>`,
  };
}

registerJob<ReleaseBatch>('release-mail', {run: (context, batch) => sendBatch(context, batch)});
