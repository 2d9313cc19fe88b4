import {appConfig, releaseLabel} from '../../../src/config';
import type {Audience} from './audience';
import {escapeHtml} from './notes';
import {oneClickHeaders, unsubscribeToken} from './unsubscribeLink';

/**
 * What one batch of a release's e-mail says, as the form Mailgun's batch sending takes: every
 * recipient in `to`, each one's own unsubscribe link in `recipient-variables`. Apart from the
 * sending so that `npm run bench:release-cpu` can time it: its CPU time grows with the recipients
 * (a signed link each), and decides how many a batch may hold on Cloudflare's Free plan.
 */
export interface StoredRelease {
  tag: string;
  name: string;
  body: string;
  html_url: string | null;
}

export interface ReleaseFormInput {
  settings: {siteOrigin: string};
  /** UNSUBSCRIBE_SECRET, which signs each recipient's link. */
  secret: string;
  /** The release, with its notes as rendered when it was stored. */
  release: StoredRelease & {notesHtml: string};
  audience: Audience;
  releaseId: number;
  /** Where the worker answers the unsubscribe links. */
  unsubscribeUrl: string;
  recipients: string[];
}

export async function releaseForm({
  settings,
  secret,
  release,
  audience,
  releaseId,
  unsubscribeUrl,
  recipients,
}: ReleaseFormInput): Promise<FormData> {
  const variables: Record<string, {unsubscribe: string}> = {};
  for (const email of recipients) {
    variables[email] = {unsubscribe: `${unsubscribeUrl}/${await unsubscribeToken(secret, email)}`};
  }
  const message = audience === 'updates' ? updateMessage(settings, release) : upgradeNote(settings, release);
  const form = new FormData();
  form.set('from', appConfig.mail.fromNoReply);
  for (const email of recipients) form.append('to', email);
  form.set('recipient-variables', JSON.stringify(variables));
  form.set('subject', message.subject);
  form.set('text', `${message.text}\n\nNo more e-mails about new releases: %recipient.unsubscribe%\n`);
  form.set(
    'html',
    `${message.html}<hr><p><a href="%recipient.unsubscribe%">No more e-mails about new releases</a></p>`,
  );
  form.set('h:Reply-To', appConfig.support.email);
  for (const [name, value] of Object.entries(oneClickHeaders('%recipient.unsubscribe%'))) form.set(`h:${name}`, value);
  form.set('o:tag', 'release');
  // Custom variables, which Mailgun hands back in each event's `user-variables`: how a delivered
  // or bounced event finds its release and its buyer's row (releases/events.ts).
  form.set('v:release-id', String(releaseId));
  form.set('v:release-audience', audience);
  return form;
}

interface ReleaseMessage {
  subject: string;
  text: string;
  html: string;
}

/** For a buyer whose plan includes updates: the release's name, its notes, and the dashboard. */
function updateMessage(settings: {siteOrigin: string}, release: StoredRelease & {notesHtml: string}): ReleaseMessage {
  const {appName} = appConfig;
  const dashboard = `${settings.siteOrigin}${appConfig.auth.callbackUrl}`;
  const notes = release.body.trim();
  // The tag once: a release named by its tag reads "Slipway v1.2.0 is out", not "v1.2.0 (v1.2.0)".
  const out = `${appName} ${releaseLabel(release)} is out, and your plan includes it.`;
  return {
    subject: `${appName} ${release.name} is out`,
    text: [out, ...(notes ? ['', notes] : []), '', `Get it from your dashboard: ${dashboard}`].join('\n'),
    html: [
      `<p>${escapeHtml(out)}</p>`,
      notes ? release.notesHtml : '',
      `<p><a href="${escapeHtml(dashboard)}">Get it from your dashboard</a></p>`,
    ].join('\n'),
  };
}

/**
 * For a buyer whose plan leaves updates out: that a new version exists, and that the dashboard
 * upgrades their purchase for the difference (its Your plan card).
 */
function upgradeNote(settings: {siteOrigin: string}, release: StoredRelease): ReleaseMessage {
  const {appName} = appConfig;
  const dashboard = `${settings.siteOrigin}${appConfig.auth.callbackUrl}`;
  const line = `${appName} ${release.name} is out. Your plan does not include updates: upgrade to a plan that does, for the difference, from your dashboard.`;
  return {
    subject: `${appName} ${release.name} is out`,
    text: `${line}\n\n${dashboard}`,
    html: `<p>${escapeHtml(line)}</p><p><a href="${escapeHtml(dashboard)}">Upgrade from your dashboard</a></p>`,
  };
}
