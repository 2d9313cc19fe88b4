import {appConfig, ROUTES} from '../../src/config';
import {PermanentError, RetryableError} from './jobs';
import type {Settings} from './settings';

/** One e-mail, as Mailgun's messages API takes it. */
export interface MailMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
}

/**
 * Sends through Mailgun's HTTP API with fetch: four form fields do not justify a client library
 * (mailgun.js brings form-data and axios, which Workers do not need).
 */
export async function sendMail(settings: Settings, message: MailMessage): Promise<void> {
  const {MAILGUN_API_KEY: key, MAILGUN_DOMAIN: domain} = settings;
  if (!key || !domain) throw new RetryableError('Mailgun is not configured (MAILGUN_API_KEY, MAILGUN_DOMAIN)');
  const form = new FormData();
  form.set('from', message.from);
  form.set('to', message.to);
  form.set('subject', message.subject);
  form.set('text', message.text);
  if (message.replyTo) form.set('h:Reply-To', message.replyTo);
  const base = (settings.MAILGUN_API_URL ?? 'https://api.mailgun.net').replace(/\/$/, '');
  let response: Response;
  try {
    response = await fetch(`${base}/v3/${encodeURIComponent(domain)}/messages`, {
      method: 'POST',
      headers: {authorization: `Basic ${btoa(`api:${key}`)}`},
      body: form,
    });
  } catch (err) {
    throw new RetryableError(`Mailgun could not be reached: ${String(err)}`);
  }
  if (response.ok) return;
  const detail = `Mailgun answered ${response.status}: ${(await response.text()).slice(0, 200)}`;
  if (response.status === 429 || response.status >= 500) {
    const retryAfter = Number(response.headers.get('retry-after'));
    throw new RetryableError(detail, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined);
  }
  throw new PermanentError(detail);
}

/** Cents as the seller reads them: `$99.00`, `€49.00`, or the code for other currencies. */
export function formatAmount(amount: number | null | undefined, currency: string | null | undefined): string {
  if (amount === null || amount === undefined) return 'an unknown amount';
  const code = (currency ?? 'usd').toUpperCase();
  return new Intl.NumberFormat('en-US', {style: 'currency', currency: code}).format(amount / 100);
}

/** News of a sale for the seller (`forwardRepliesTo`), with where to find it in the console. */
export function saleMail(
  settings: Settings,
  sale: {plan: string; email: string | null; amount: number | null | undefined; currency: string | null | undefined},
): MailMessage {
  const {appName, mailgun} = appConfig;
  const amount = formatAmount(sale.amount, sale.currency);
  const find = `${settings.siteOrigin}${ROUTES.admin}${sale.email ? `?q=${encodeURIComponent(sale.email)}` : ''}`;
  return {
    from: mailgun.fromNoReply,
    to: mailgun.forwardRepliesTo,
    subject: `New sale: ${appName} ${sale.plan}, ${amount}`,
    text: [
      `${sale.email ?? 'A buyer'} bought ${appName} ${sale.plan} for ${amount}.`,
      '',
      `The purchase in your console: ${find}`,
    ].join('\n'),
  };
}

/** The one e-mail a buyer gets after paying: where to claim the code. */
export function welcomeMail(settings: Settings, to: string, plan: string | null): MailMessage {
  const dashboard = `${settings.siteOrigin}${appConfig.auth.callbackUrl}`;
  const {appName, mailgun} = appConfig;
  return {
    from: mailgun.fromNoReply,
    to,
    replyTo: mailgun.supportEmail,
    subject: `Your ${appName} purchase: get the code`,
    text: [
      `Thank you for buying ${appName}${plan ? ` (${plan})` : ''}.`,
      '',
      `Open your dashboard, enter your GitHub username and press Request Access:`,
      dashboard,
      '',
      'GitHub then e-mails you an invitation to the private repository. Accept it, and the code is yours.',
      '',
      `Questions? Reply to this e-mail or write to ${mailgun.supportEmail}.`,
    ].join('\n'),
  };
}
