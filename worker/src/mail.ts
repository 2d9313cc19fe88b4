import {afterPurchase, appConfig, PLAN_CURRENCY, ROUTES} from '../../src/config';
import {PermanentError, RetryableError} from './jobs';
import {registerJob} from './outbox';
import type {Context} from './context';
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
/** Sends one message, spending one of the invocation's subrequests. */
export async function sendMail({settings, subrequests}: Pick<Context, 'settings' | 'subrequests'>, message: MailMessage): Promise<void> {
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
  subrequests.spend();
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
  const code = (currency ?? PLAN_CURRENCY).toUpperCase();
  return new Intl.NumberFormat('en-US', {style: 'currency', currency: code}).format(amount / 100);
}

/** News of a sale for the seller (`forwardRepliesTo`), with where to find it in the console. */
export function saleMail(
  settings: Settings,
  sale: {plan: string; email: string | null; amount: number | null | undefined; currency: string | null | undefined},
): MailMessage {
  const {appName, mail} = appConfig;
  const amount = formatAmount(sale.amount, sale.currency);
  const find = `${settings.siteOrigin}${ROUTES.admin}${sale.email ? `?q=${encodeURIComponent(sale.email)}` : ''}`;
  return {
    from: mail.fromNoReply,
    to: mail.forwardRepliesTo,
    subject: `New sale: ${appName} ${sale.plan}, ${amount}`,
    text: [
      `${sale.email ?? 'A buyer'} bought ${appName} ${sale.plan} for ${amount}.`,
      '',
      `The purchase in your console: ${find}`,
    ].join('\n'),
  };
}

/** The one e-mail a buyer gets after paying: the link to the dashboard, where the code is claimed. */
export function welcomeMail(settings: Settings, to: string, plan: string | null): MailMessage {
  const dashboard = `${settings.siteOrigin}${appConfig.auth.callbackUrl}`;
  const {appName, mail} = appConfig;
  return {
    from: mail.fromNoReply,
    to,
    replyTo: appConfig.support.email,
    subject: `Your ${appName} purchase: get the code`,
    text: [
      `Thank you for buying ${appName}${plan ? ` (${plan})` : ''}. Your dashboard: ${dashboard}`,
      '(On another device, sign in there with this e-mail address.)',
      '',
      'Get the code in three steps:',
      // The same steps, in the same words, as the success page and the dashboard.
      ...afterPurchase.steps.map((step, index) => `${index + 1}. ${step}`),
      '',
      'Each time the seat goes to a GitHub account, we write to this address naming it. If it is not yours, sign in',
      'with this e-mail address and request access for your own account: the seat comes back to you.',
      '',
      `Questions? Reply to this e-mail or write to ${appConfig.support.email}.`,
    ].join('\n'),
  };
}

/**
 * Who holds the purchase's seat now, for the owner of the purchase's e-mail: sent each time an
 * invitation goes out, so that a seat taken by whoever else held the purchase (the checkout's
 * creator) never goes unnoticed, and with the way to take it back.
 */
export function seatMail(settings: Settings, seat: {to: string; login: string; repository: string; waited?: boolean}): MailMessage {
  const {appName, mail} = appConfig;
  // Signed in, /signin goes on to the dashboard.
  const signIn = `${settings.siteOrigin}${appConfig.auth.loginUrl}`;
  return {
    from: mail.fromNoReply,
    to: seat.to,
    replyTo: appConfig.support.email,
    subject: `Your ${appName} repository seat is with @${seat.login}`,
    text: [
      `The seat of your ${appName} purchase now belongs to the GitHub account @${seat.login}:`,
      `GitHub has e-mailed it an invitation to ${seat.repository}.`,
      // A buyer whose invitation waited was told on the dashboard; this is the news it went.
      ...(seat.waited
        ? ['It waited in line: GitHub lets a repository send only so many invitations a day. It went out now.']
        : []),
      '',
      'Not your account? Sign in with this e-mail address (ask for a sign-in link), enter your own GitHub',
      'username on the dashboard and press Request Access: the seat moves to you, however often it has moved.',
      signIn,
      '',
      `Questions? Reply to this e-mail or write to ${appConfig.support.email}.`,
    ].join('\n'),
  };
}


registerJob<MailMessage>('mail', {run: (context, message) => sendMail(context, message)});
