import type Stripe from 'stripe';
import {z} from 'zod';
import {appConfig, findPlanPrice, formatDay, planForSeats} from '../../../src/config';
import type {Context} from '../context';
import {enqueueStatement, PermanentError} from '../jobs';
import {log} from '../log';
import {formatAmount, sendMail} from '../mail';
import {registerJob} from '../outbox';
import {oneClickHeaders, unsubscribeToken} from '../releases/unsubscribeLink';
import {CLAIM_METADATA_KEY} from './checkoutClaim';

/**
 * Abandoned checkouts won back (`checkout.recoverAbandoned`, docs: payments). A purchase's session
 * that Stripe let expire unpaid, whose buyer agreed in Checkout's box to news and offers, carries
 * Stripe's recovery link: the buyer gets one reminder with it, `reminderDelayHours` later. Nothing
 * goes without that consent, nothing goes twice to one address (a row an address, ever), and
 * nothing goes to an address that unsubscribed or bought since. A recovered checkout that is paid
 * is a purchase like any other, with `recovered_from` (fulfilment.ts).
 */

/** What the worker reads of an expired session; anything else in it is left alone. */
const expiredSession = z
  .object({
    id: z.string(),
    created: z.number().int(),
    metadata: z.record(z.string(), z.string()).nullish(),
    customer_email: z.string().nullish(),
    customer_details: z.object({email: z.string().nullish()}).loose().nullish(),
    consent: z.object({promotions: z.string().nullish()}).loose().nullish(),
    amount_total: z.number().int().nullish(),
    currency: z.string().nullish(),
    after_expiration: z
      .object({
        recovery: z
          .object({
            // Stripe's own link (a signed event brought it): http(s) only, and written as a URL parses.
            url: z
              .url({protocol: /^https?$/})
              .max(5000)
              .transform((url) => new URL(url).href)
              .nullish(),
            expires_at: z.number().int().nullish(),
          })
          .loose()
          .nullish(),
      })
      .loose()
      .nullish(),
  })
  .loose();

const HOUR_MS = 3600_000;

/** A reminder as D1 keeps it. */
interface Reminder {
  session_id: string;
  email: string;
  plan: string | null;
  price_id: string;
  /** Cleared once sent or skipped: the link is a bearer's, and nobody needs it then. */
  recovery_url: string | null;
  recovery_expires_at: number;
  unsubscribe_url: string;
  status: 'queued' | 'sent' | 'skipped' | 'failed';
  started_at: number;
  amount: number | null;
  currency: string | null;
}

type Skipped = 'unsubscribed' | 'bought' | 'link_expired' | 'price_gone';

/**
 * `checkout.session.expired`: queues the reminder when the session is one of this site's purchases
 * (its metadata names a plan's price and carries the buyer's claim, as only the worker's own
 * sessions do), the buyer opted in, and Stripe made a recovery link. Answers whether it queued one.
 */
export async function checkoutExpired(
  env: Env,
  event: Stripe.Checkout.Session,
  unsubscribeUrl: string,
  now = Date.now(),
): Promise<boolean> {
  const parsed = expiredSession.safeParse(event);
  if (!parsed.success) return false;
  const session = parsed.data;
  const priceId = session.metadata?.priceId;
  const sold = priceId ? findPlanPrice(priceId) : undefined;
  if (!sold || !session.metadata?.[CLAIM_METADATA_KEY]) return false;
  const recovery = session.after_expiration?.recovery;
  const email = (session.customer_details?.email ?? session.customer_email ?? '').trim().toLowerCase();
  const consented = session.consent?.promotions === 'opt_in';
  if (!consented || !recovery?.url || !recovery.expires_at || !z.email().safeParse(email).success) {
    log.info('checkout.expired', {sessionId: session.id, reminder: false, consented, recovery: Boolean(recovery?.url)});
    return false;
  }
  const sendAfter = now + appConfig.checkout.reminderDelayHours * HOUR_MS;
  // The row and its job in one batch, the job only while the row waits: a delivery that failed
  // half-way and comes again queues what is missing, and a second address's checkout queues nothing.
  const [inserted] = await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO checkout_reminders (session_id, email, plan, price_id, recovery_url, recovery_expires_at,
         unsubscribe_url, expired_at, send_after, created_at, amount, currency, started_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?8, ?10, ?11, ?12)
       ON CONFLICT DO NOTHING RETURNING session_id`,
    ).bind(
      session.id,
      email,
      planForSeats(sold.plan.name, sold.price.seats),
      priceId,
      recovery.url,
      recovery.expires_at * 1000,
      unsubscribeUrl,
      now,
      sendAfter,
      session.amount_total ?? null,
      session.currency ?? null,
      session.created * 1000,
    ),
    enqueueStatement(
      env.DB,
      {
        key: `checkout-reminder:${session.id}`,
        kind: 'checkout-reminder',
        payload: {sessionId: session.id},
        runAfter: sendAfter,
      },
      now,
      {sql: `EXISTS (SELECT 1 FROM checkout_reminders WHERE session_id = ?7 AND status = 'queued')`, param: session.id},
    ),
  ]);
  // Not inserted: this address has had its one reminder, or this event came before.
  const queued = (inserted?.results.length ?? 0) > 0;
  log.info('checkout.expired', {sessionId: session.id, reminder: queued, consented: true, recovery: true});
  return queued;
}

/** Why the reminder stays unsent now, or null to send it. */
async function skipped(db: D1Database, reminder: Reminder, now: number): Promise<Skipped | null> {
  const [unsubscribed, bought] = await db.batch<{found: number}>([
    db.prepare('SELECT 1 AS found FROM release_unsubscribes WHERE email = ?1').bind(reminder.email),
    // Bought since the checkout began (recovered by other means, or again; a payment still settling
    // too): nothing to remind.
    db
      .prepare(
        `SELECT 1 AS found FROM purchases
         WHERE lower(email) = ?1 AND status IN ('paid', 'revoked', 'open') AND created_at >= ?2 LIMIT 1`,
      )
      .bind(reminder.email, reminder.started_at),
  ]);
  if (unsubscribed!.results.length > 0) return 'unsubscribed';
  if (bought!.results.length > 0) return 'bought';
  if (reminder.recovery_expires_at <= now) return 'link_expired';
  // The link sells the price the checkout had: one the site no longer sells would be paid and never
  // fulfilled (fulfilment knows only the config's prices).
  if (!findPlanPrice(reminder.price_id)) return 'price_gone';
  return null;
}

/** The reminder's words: what was left, the link and until when it works, and the way out. */
export function reminderMail(reminder: Reminder & {recovery_url: string}, unsubscribe: string) {
  const {appName, support} = appConfig;
  const what = `${appName}${reminder.plan ? ` ${reminder.plan}` : ''}`;
  const price = reminder.amount === null ? '' : ` (${formatAmount(reminder.amount, reminder.currency)})`;
  return {
    from: appConfig.mail.fromNoReply,
    to: reminder.email,
    replyTo: support.email,
    subject: `Your ${appName} checkout, if you still want it`,
    text: [
      `You began to buy ${what}${price} and left before paying. If you still want it, this link opens the`,
      `checkout again, at the same price, until ${formatDay(reminder.recovery_expires_at)}:`,
      reminder.recovery_url,
      '',
      'You agreed at checkout to hear from us about news and offers. This is the only reminder we send about it.',
      `Questions? Reply to this e-mail or write to ${support.email}.`,
      '',
      `No more e-mails from us: ${unsubscribe}`,
    ].join('\n'),
    headers: oneClickHeaders(unsubscribe),
  };
}

/** Sent or skipped: what the reminder needed of the buyer's checkout is dropped; the address stays, for one an address. */
function settle(db: D1Database, sessionId: string, status: 'sent' | 'skipped' | 'failed', reason: string | null) {
  return db
    .prepare(
      `UPDATE checkout_reminders SET status = ?2, skip_reason = ?3, sent_at = CASE WHEN ?2 = 'sent' THEN ?4 END,
         recovery_url = NULL, amount = NULL, currency = NULL
       WHERE session_id = ?1 AND status = 'queued'`,
    )
    .bind(sessionId, status, reason, Date.now())
    .run();
}

/** The outbox's job: checks again now, then sends once, and records what became of it. */
async function sendReminder(context: Context, {sessionId}: {sessionId: string}): Promise<void> {
  const {db, settings} = context;
  const reminder = await db
    .prepare('SELECT * FROM checkout_reminders WHERE session_id = ?1')
    .bind(sessionId)
    .first<Reminder>();
  if (!reminder || reminder.status !== 'queued' || !reminder.recovery_url) return;
  const reason = await skipped(db, reminder, Date.now());
  if (reason) {
    await settle(db, sessionId, 'skipped', reason);
    log.info('checkout.reminder_skipped', {sessionId, reason});
    return;
  }
  // Fails closed: no reminder goes without its way out.
  const secret = settings.UNSUBSCRIBE_SECRET;
  if (!secret) throw new PermanentError('Checkout reminders need UNSUBSCRIBE_SECRET for their unsubscribe links');
  const unsubscribe = `${reminder.unsubscribe_url}/${await unsubscribeToken(secret, reminder.email)}`;
  await sendMail(context, reminderMail({...reminder, recovery_url: reminder.recovery_url}, unsubscribe));
  await settle(db, sessionId, 'sent', null);
  log.info('checkout.reminder_sent', {sessionId});
}

registerJob<{sessionId: string}>('checkout-reminder', {
  run: sendReminder,
  // Given up (no UNSUBSCRIBE_SECRET, Mailgun refused the address, retries spent): it says so.
  gaveUp: async ({db}, {sessionId}) => {
    await settle(db, sessionId, 'failed', null);
  },
});
