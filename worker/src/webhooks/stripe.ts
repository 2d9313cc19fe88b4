import {Hono} from 'hono';
import {bodyLimit} from 'hono/body-limit';
import type Stripe from 'stripe';
import type {AppEnv} from '../app';
import {HttpError} from '../errors';
import {log} from '../log';
import {checkoutExpired} from '../payments/checkoutReminders';
import {unsubscribeBase} from '../releases/unsubscribeLink';
import {fulfillCheckout} from '../payments/fulfilment';
import {disputeChanged, recordAmountRefunded, revokePayment} from '../payments/revocations';
import {forgetSeatRefund} from '../payments/refunds';
import {isFresh, parseSignatureHeader, TOLERANCE_SECONDS} from '../payments/signatureHeader';
import {idOf, stripeFor, subtleCrypto} from '../payments/stripe';
import {settingsOf} from '../settings';
import type {HandledStripeEvent} from './stripeEvents';
import {z} from 'zod';

/**
 * POST /api/webhook/stripe. The raw body's signature is checked before anything else; each event
 * id is recorded before the answer; a repeat of a finished event does nothing. Our own failures
 * answer 5xx so that Stripe delivers again.
 */
export const stripeWebhook = new Hono<AppEnv>().post('/', bodyLimit({maxSize: 512 * 1024}), async (c) => {
  const settings = settingsOf(c.env);
  const secret = settings.STRIPE_WEBHOOK_SECRET;
  if (!secret) {
    log.error('stripe.webhook_unconfigured');
    throw new HttpError(503, 'Stripe webhooks are not configured (STRIPE_WEBHOOK_SECRET)', 'NOT_CONFIGURED');
  }
  const signature = c.req.header('stripe-signature');
  const header = parseSignatureHeader(signature);
  if (!header) throw new HttpError(400, 'Missing or malformed Stripe-Signature header', 'BAD_SIGNATURE');
  if (!isFresh(header))
    throw new HttpError(400, 'The signature timestamp is too old or in the future', 'BAD_SIGNATURE');

  const payload = await c.req.text();
  let event: Stripe.Event;
  try {
    event = await stripeFor(settings).webhooks.constructEventAsync(
      payload,
      signature!,
      secret,
      TOLERANCE_SECONDS,
      subtleCrypto,
    );
  } catch {
    throw new HttpError(400, 'The Stripe signature does not match the body', 'BAD_SIGNATURE');
  }
  // Signed, so it came from Stripe's key; still, nothing below reads a field it has not checked.
  const shape = (shapes[event.type as keyof typeof shapes] ?? envelope).safeParse(event);
  if (!shape.success) {
    log.warn('stripe.event_malformed', {
      eventId: typeof event.id === 'string' ? event.id : null,
      type: String(event.type),
    });
    throw new HttpError(400, 'The event does not have the shape Stripe gives its type');
  }

  const handler = handlerFor(event);
  if (!handler) {
    // Nothing to do but remember it: one statement, and a repeat changes nothing either.
    await c.env.DB.prepare(
      `INSERT INTO stripe_events (id, type, received_at, processed_at, object_id, payment_intent_id)
         VALUES (?1, ?2, ?3, ?3, ?4, ?5)
         ON CONFLICT (id) DO NOTHING`,
    )
      .bind(event.id, event.type, Date.now(), ...subjectOf(event))
      .run();
    return c.json({received: true, handled: false});
  }

  const recorded = await c.env.DB.prepare(
    `INSERT INTO stripe_events (id, type, received_at, object_id, payment_intent_id) VALUES (?1, ?2, ?3, ?4, ?5)
       ON CONFLICT (id) DO UPDATE SET id = id
       RETURNING processed_at`,
  )
    .bind(event.id, event.type, Date.now(), ...subjectOf(event))
    .first<{processed_at: number | null}>();
  if (recorded?.processed_at) return c.json({received: true, duplicate: true});

  // Where this worker answers its unsubscribe links, for the e-mails an event queues (a reminder).
  const handled = await handler(c.env, event, unsubscribeBase(c.req.url));
  await c.env.DB.prepare('UPDATE stripe_events SET processed_at = ?2 WHERE id = ?1').bind(event.id, Date.now()).run();
  log.info('stripe.event', {eventId: event.id, type: event.type, handled});
  return c.json({received: true, handled});
});

/** An expandable reference: Stripe sends the id, or the object when expanded. */
const reference = z.union([z.string().max(255), z.object({id: z.string().max(255)}).loose()]).nullish();
/** Every event: an id to record it by, a type, and an object it is about. */
const envelope = z
  .object({
    id: z.string().min(1).max(255),
    type: z.string().max(255),
    data: z.object({object: z.object({}).loose()}).loose(),
  })
  .loose();
const about = (object: z.ZodObject) => envelope.extend({data: z.object({object}).loose()});
const checkoutSession = about(z.object({id: z.string().regex(/^cs_(test|live)_[A-Za-z0-9]{1,200}$/)}).loose());
const dispute = about(
  z.object({id: z.string().min(1).max(255), status: z.string().max(64), payment_intent: reference}).loose(),
);
/** What the handled events must carry, by type. */
const shapes = {
  'checkout.session.completed': checkoutSession,
  'checkout.session.async_payment_succeeded': checkoutSession,
  'checkout.session.async_payment_failed': checkoutSession,
  'checkout.session.expired': checkoutSession,
  'charge.refunded': about(
    z
      .object({refunded: z.boolean(), amount_refunded: z.number().int().nonnegative(), payment_intent: reference})
      .loose(),
  ),
  'charge.refund.updated': about(z.object({status: z.string().max(64).nullable(), payment_intent: reference}).loose()),
  'charge.dispute.created': dispute,
  'charge.dispute.closed': dispute,
} satisfies Record<HandledStripeEvent, z.ZodType>;

/** What an event is about, so a purchase's page can list its events: the object and its payment. */
function subjectOf(event: Stripe.Event): [string | null, string | null] {
  // Any type may come here, unhandled ones too: read only what has the shape of a reference.
  const object = event.data.object as {id?: unknown; payment_intent?: unknown};
  const intent = reference.safeParse(object.payment_intent);
  return [typeof object.id === 'string' ? object.id : null, intent.success ? idOf(intent.data) : null];
}

type EventOf<T extends Stripe.Event.Type> = Extract<Stripe.Event, {type: T}>;
type Handler<T extends Stripe.Event.Type> = (env: Env, event: EventOf<T>, unsubscribeUrl: string) => Promise<boolean>;

/**
 * Fulfilment reads the session's state from Stripe, so every checkout event is the same call. A
 * session for something this product does not sell is acknowledged and left alone.
 */
function fulfil(options: {paymentFailed?: boolean} = {}) {
  return async (env: Env, event: {data: {object: {id: string}}}) => {
    try {
      const {status} = await fulfillCheckout(env, event.data.object.id, options);
      return status !== 'ignored';
    } catch (err) {
      // A session this key cannot see (the other mode's, another account's): no retry will help.
      if ((err as {statusCode?: number}).statusCode !== 404) throw err;
      log.warn('checkout.unknown_to_stripe', {sessionId: event.data.object.id});
      return false;
    }
  };
}

/**
 * Stripe refunded some or all of a charge (from the console or its own dashboard). The amount is
 * recorded for the console; a partial refund keeps access, only a full refund takes it back.
 */
async function refund(env: Env, charge: Stripe.Charge) {
  const id = idOf(charge.payment_intent);
  if (!id) return false;
  // Events may come out of order: the amount refunded only grows.
  const recorded = await recordAmountRefunded(env.DB, id, charge.amount_refunded);
  if (!charge.refunded) return recorded;
  await revokePayment(env, id, 'refunded');
  return true;
}

/**
 * A refund Stripe will not pay out after all: it failed (the card was closed or reported lost) or
 * was canceled. Stripe gives the money back to the seller and lowers the charge's amount refunded,
 * and the event carries the refund, not the charge: the figure is read from Stripe as it stands and
 * recorded so, lower too. D1 kept above it, the console's page would never match Stripe again, and
 * every refund from it would be refused. Access does not change: a partial refund never took it,
 * and a full refund's revocation is final (revocations.ts).
 */
async function refundUndone(env: Env, refund: Stripe.Refund) {
  if (refund.status !== 'failed' && refund.status !== 'canceled') return false;
  const id = idOf(refund.payment_intent);
  if (!id) return false;
  const intent = await stripeFor(settingsOf(env)).paymentIntents.retrieve(id, {expand: ['latest_charge']});
  const charge = intent.latest_charge;
  if (!charge || typeof charge === 'string') return false;
  log.info('stripe.refund_undone', {
    paymentIntentId: id,
    refundId: refund.id,
    status: refund.status,
    amountRefunded: charge.amount_refunded,
  });
  // A refund of a team's seats that was not paid out gives the seats back (empty: their members
  // were told and are off; the owner gives them again).
  const seatsBack = await forgetSeatRefund(env.DB, refund.id);
  return (await recordAmountRefunded(env.DB, id, charge.amount_refunded, {asItStands: true})) || seatsBack;
}

/**
 * The events the worker acts on, one handler each; a handler answers whether it changed anything.
 * Every other type is acknowledged so Stripe stops sending it.
 */
const handlers: {[T in keyof typeof shapes]: Handler<T>} = {
  'checkout.session.completed': fulfil(),
  'checkout.session.async_payment_succeeded': fulfil(),
  'checkout.session.async_payment_failed': fulfil({paymentFailed: true}),
  // Left unpaid: a reminder with Stripe's recovery link, if the buyer agreed to offers.
  'checkout.session.expired': (env, event, unsubscribeUrl) => checkoutExpired(env, event.data.object, unsubscribeUrl),
  'charge.refunded': (env, event) => refund(env, event.data.object),
  'charge.refund.updated': (env, event) => refundUndone(env, event.data.object),
  // Open: access waits for the outcome. Closed: lost is final, won gives access back.
  'charge.dispute.created': (env, event) => disputeChanged(env, event.data.object),
  'charge.dispute.closed': (env, event) => disputeChanged(env, event.data.object),
};

type AnyHandler = (env: Env, event: Stripe.Event, unsubscribeUrl: string) => Promise<boolean>;

function handlerFor(event: Stripe.Event): AnyHandler | undefined {
  return handlers[event.type as keyof typeof handlers] as AnyHandler | undefined;
}
