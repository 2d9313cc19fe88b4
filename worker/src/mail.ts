import {
  afterPurchase,
  appConfig,
  immediateDeliveryRequest,
  PLAN_CURRENCY,
  planForSeats,
  ROUTES,
} from '../../src/config';
import {enqueue, PermanentError, RetryableError} from './jobs';
import {registerJob, runJob} from './outbox';
import type {Context} from './context';
import type {Settings} from './settings';

/** One e-mail, as Mailgun's messages API takes it. */
export interface MailMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
  /** Headers of its own (`List-Unsubscribe`), sent as Mailgun's `h:` fields. */
  headers?: Record<string, string>;
}

/**
 * Sends through Mailgun's HTTP API with fetch: four form fields do not justify a client library
 * (mailgun.js brings form-data and axios, which Workers do not need).
 */
/** Sends one message, spending one of the invocation's subrequests. */
export async function sendMail(
  context: Pick<Context, 'settings' | 'subrequests'>,
  message: MailMessage,
): Promise<void> {
  const form = new FormData();
  form.set('from', message.from);
  form.set('to', message.to);
  form.set('subject', message.subject);
  form.set('text', message.text);
  if (message.replyTo) form.set('h:Reply-To', message.replyTo);
  for (const [name, value] of Object.entries(message.headers ?? {})) form.set(`h:${name}`, value);
  await postToMailgun(context, form);
}

/**
 * Posts a message's form to Mailgun's messages API. A rate limit, a 5xx or the network is worth
 * retrying (Retry-After kept); any other refusal is permanent.
 */
export async function postToMailgun(
  {settings, subrequests}: Pick<Context, 'settings' | 'subrequests'>,
  form: FormData,
): Promise<void> {
  const {MAILGUN_API_KEY: key, MAILGUN_DOMAIN: domain} = settings;
  if (!key || !domain) throw new RetryableError('Mailgun is not configured (MAILGUN_API_KEY, MAILGUN_DOMAIN)');
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
  const body = await response.text();
  const detail = `Mailgun answered ${response.status}: ${body.slice(0, 200)}`;
  if (response.status === 429 || response.status >= 500) {
    const retryAfter = Number(response.headers.get('retry-after'));
    throw new RetryableError(detail, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined);
  }
  throw new MailgunRefused(response.status, detail, mailgunMessage(body));
}

/**
 * Mailgun refused the message for good (a 4xx other than 429): `status` is its answer's, and
 * `reason` its own words (the `message` of its JSON answer), for whoever must be told why.
 */
export class MailgunRefused extends PermanentError {
  constructor(
    readonly status: number,
    detail: string,
    readonly reason: string,
  ) {
    super(detail);
  }
}

/** Mailgun's error answers are `{"message": "..."}`; anything else is kept as text. */
function mailgunMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as {message?: unknown};
    if (typeof parsed.message === 'string' && parsed.message) return parsed.message.slice(0, 500);
  } catch {
    // Not JSON: the text itself.
  }
  return body.slice(0, 500) || 'Mailgun gave no reason';
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
  sale: {
    plan: string;
    /** How many seats it bought: more than one for a team. */
    seats: number;
    email: string | null;
    amount: number | null | undefined;
    currency: string | null | undefined;
  },
): MailMessage {
  const {appName, mail} = appConfig;
  const bought = `${appName} ${planForSeats(sale.plan, sale.seats)}`;
  const amount = formatAmount(sale.amount, sale.currency);
  const find = `${settings.siteOrigin}${ROUTES.admin}${sale.email ? `?q=${encodeURIComponent(sale.email)}` : ''}`;
  return {
    from: mail.fromNoReply,
    to: mail.forwardRepliesTo,
    subject: `New sale: ${bought}, ${amount}`,
    text: [
      `${sale.email ?? 'A buyer'} bought ${bought} for ${amount}.`,
      '',
      `The purchase in your console: ${find}`,
    ].join('\n'),
  };
}

/** What one scheduled repository audit found and did (admin/scheduledAudit.ts). */
export interface AuditDigest {
  repository: string;
  /** Paid buyers missing from the repository, invited again. */
  reinvited: {login: string; email: string | null}[];
  /** Missing paid buyers whose invitation could not go, with the reason in the seller's words. */
  failed: {login: string; reason: string}[];
  /** On the repository without a paid grant: reported only, never removed by the schedule. */
  unpaid: {login: string; on: string}[];
  /** Refunded or disputed, still on the repository: reported only. */
  revokedPresent: {login: string; email: string | null}[];
  /** Missing paid buyers the schedule leaves to the queue or to the seller (queued, failed, an invitation declined or withdrawn). */
  missingLeft: {login: string; email: string | null}[];
  /** Invitations that expired after the last automatic re-send; `repository` for a plan's extra repository. */
  expiredForGood: {login: string; email: string | null; repository?: string}[];
  /** Missing paid buyers left for the next runs (the batch or the cap stopped this one). */
  left: number;
}

/** Whether the digest has anything to say: with nothing found and nothing done, no e-mail goes. */
export function digestHasNews(digest: AuditDigest): boolean {
  const {reinvited, failed, unpaid, revokedPresent, missingLeft, expiredForGood, left} = digest;
  return (
    [reinvited, failed, unpaid, revokedPresent, missingLeft, expiredForGood].some((list) => list.length > 0) || left > 0
  );
}

/** The seller's daily digest of the repository audit (to `forwardRepliesTo`, like news of a sale). */
export function auditDigestMail(settings: Settings, digest: AuditDigest): MailMessage {
  const {appName, mail} = appConfig;
  const who = (entry: {login: string; email?: string | null}) =>
    `  @${entry.login}${entry.email ? ` (${entry.email})` : ''}`;
  const section = (title: string, lines: string[]) => (lines.length > 0 ? ['', title, ...lines] : []);
  const fixed = digest.reinvited.length;
  const toLook =
    digest.failed.length +
    digest.unpaid.length +
    digest.revokedPresent.length +
    digest.missingLeft.length +
    digest.expiredForGood.length;
  return {
    from: mail.fromNoReply,
    to: mail.forwardRepliesTo,
    subject: `${appName} repository audit: ${fixed} re-invited, ${toLook} to look at`,
    text: [
      `Today's audit of ${digest.repository} compared who GitHub has on it with the paid purchases.`,
      ...section('Paid, missing from the repository, invited again:', digest.reinvited.map(who)),
      ...section(
        'Paid, missing, and the invitation could not go:',
        digest.failed.map((entry) => `  @${entry.login}: ${entry.reason}`),
      ),
      ...section(
        'Paid and missing, waiting in the invitation queue, failed, or their invitation declined or withdrawn (see Failures and the purchase; you can resend):',
        digest.missingLeft.map(who),
      ),
      ...section(
        'On the repository without a paid purchase (left there: the audit removes nobody on its own):',
        digest.unpaid.map((entry) => `  @${entry.login} (${entry.on})`),
      ),
      ...section('Refunded or disputed, still on the repository (left there):', digest.revokedPresent.map(who)),
      ...section(
        `Invitations that expired, not accepted after ${appConfig.repository.resendsAfterExpiry} re-sends (the buyer can ask again; you can resend):`,
        digest.expiredForGood.map((entry) => `${who(entry)}${entry.repository ? `, to ${entry.repository}` : ''}`),
      ),
      ...(digest.left > 0
        ? ['', `${digest.left} more missing buyers are invited again in the next runs, within GitHub's daily cap.`]
        : []),
      '',
      `Review and fix in your console: ${settings.siteOrigin}${ROUTES.admin}`,
    ].join('\n'),
  };
}

/**
 * The one e-mail a buyer gets after paying: the link to the dashboard, where the code is claimed.
 * Where the buyer asked at checkout for delivery at once (`consent`), it confirms that request on
 * a durable medium, as the EU's law asks (Directive 2011/83/EU, Art. 8(7)): its words, when, and
 * what it means for the right of withdrawal.
 */
export function welcomeMail(
  settings: Settings,
  to: string,
  plan: string | null,
  consent: {version: string; at: number} | null = null,
): MailMessage {
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
      ...(consent ? ['', ...consentLines(consent)] : []),
      '',
      `Questions? Reply to this e-mail or write to ${appConfig.support.email}.`,
    ].join('\n'),
  };
}

/** The confirmation of the buyer's request for delivery at once, with the words they accepted. */
function consentLines({version, at}: {version: string; at: number}): string[] {
  const {enabled, days} = appConfig.withdrawal;
  return [
    `At checkout, on ${new Date(at).toUTCString()}, you ticked the box that said: "${immediateDeliveryRequest}"`,
    `(version ${version} of those words). So your right of withdrawal ends once the code is delivered to you: when you`,
    'first download it, or accept the invitation to the private repository.',
    ...(enabled
      ? [
          `Until then, and to the end of the ${days}th day after the day of your purchase, you may withdraw from your dashboard.`,
        ]
      : []),
  ];
}

/**
 * Why a buyer got the invitation again, and how often that happens before it is left to expire;
 * `afterLast` is what the buyer can do then.
 */
function resentLines(
  login: string,
  repository: string,
  count: number,
  afterLast = 'ask again from your dashboard',
): string[] {
  const max = appConfig.repository.resendsAfterExpiry;
  return [
    '',
    'This is a new invitation: GitHub invitations expire after 7 days, and the last one was not accepted.',
    `Accept it at https://github.com/${repository}/invitations (signed in to GitHub as @${login}).`,
    count < max
      ? `We send it again on our own ${max} times at most (this was ${count} of ${max}).`
      : `This was the last time we send it on our own (${count} of ${max}): after it expires, ${afterLast}.`,
  ];
}

/**
 * An extra repository's invitation (a plan's `extraRepositories`), sent again by the cron as it
 * expired (access/grants/expiryResends.ts). After the last re-send, the dashboard offers a new one
 * (access/grants/renew.ts), as it does for the kit's.
 */
export function extraResentMail(resend: {
  to: string;
  login: string;
  repository: string;
  key: string;
  count: number;
}): MailMessage {
  const {appName, mail, support} = appConfig;
  // Described once in src/config (`extraRepositories`), by key; a key described nowhere reads as itself.
  const name = (appConfig.extraRepositories as Record<string, {name: string}>)[resend.key]?.name ?? resend.key;
  return {
    from: mail.fromNoReply,
    to: resend.to,
    replyTo: support.email,
    subject: `Your ${appName} invitation to ${name} was sent again to @${resend.login}`,
    text: [
      `Your ${appName} purchase includes ${name}, the private repository ${resend.repository}.`,
      ...resentLines(resend.login, resend.repository, resend.count),
      '',
      `Questions? Reply to this e-mail or write to ${support.email}.`,
    ].join('\n'),
  };
}

/**
 * Who holds the purchase's seat now, for the owner of the purchase's e-mail: sent each time an
 * invitation goes out, so that a seat taken by whoever else held the purchase (the checkout's
 * creator) never goes unnoticed, and with the way to take it back.
 */
export function seatMail(
  settings: Settings,
  seat: {to: string; login: string; repository: string; waited?: boolean; resent?: number},
): MailMessage {
  const {appName, mail} = appConfig;
  // Signed in, /signin goes on to the dashboard.
  const signIn = `${settings.siteOrigin}${appConfig.auth.loginUrl}`;
  return {
    from: mail.fromNoReply,
    to: seat.to,
    replyTo: appConfig.support.email,
    subject:
      seat.resent === undefined
        ? `Your ${appName} repository seat is with @${seat.login}`
        : `Your ${appName} invitation was sent again to @${seat.login}`,
    text: [
      `The seat of your ${appName} purchase now belongs to the GitHub account @${seat.login}:`,
      `GitHub has e-mailed it an invitation to ${seat.repository}.`,
      // A buyer whose invitation waited was told on the dashboard; this is the news it went.
      ...(seat.waited
        ? ['It waited in line: GitHub lets a repository send only so many invitations a day. It went out now.']
        : []),
      // The cron sent it again (expiryResends.ts): the buyer may have missed the first.
      ...(seat.resent === undefined ? [] : resentLines(seat.login, seat.repository, seat.resent)),
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

/**
 * Queues an e-mail through the outbox, once under `key` however often its event comes, and sends it
 * now; the cron retries it if Mailgun is busy.
 */
export async function mailOnce(
  context: Context,
  key: string,
  message: MailMessage,
  sessionId?: string | null,
): Promise<void> {
  const id = await enqueue(context.db, {key, kind: 'mail', payload: message, ...(sessionId && {sessionId})});
  if (id !== null) await runJob(context, id);
}
