import {Hono} from 'hono';
import {bodyLimit} from 'hono/body-limit';
import type Stripe from 'stripe';
import type {AppEnv} from '../app';
import {HttpError} from '../errors';
import {log} from '../log';
import {fulfillCheckout, revokePayment} from '../payments/fulfilment';
import {isFresh, parseSignatureHeader, TOLERANCE_SECONDS} from '../payments/signatureHeader';
import {idOf, stripeFor, subtleCrypto} from '../payments/stripe';
import {settingsOf} from '../settings';

/**
 * POST /api/webhook/stripe. The raw body's signature is checked before anything else; each event
 * id is recorded before the answer; a repeat of a finished event does nothing. Our own failures
 * answer 5xx so that Stripe delivers again.
 */
export const stripeWebhook = new Hono<AppEnv>().post(
  '/',
  bodyLimit({maxSize: 512 * 1024}),
  async (c) => {
    const settings = settingsOf(c.env);
    const secret = settings.STRIPE_WEBHOOK_SECRET;
    if (!secret) {
      log.error('stripe.webhook_unconfigured');
      throw new HttpError(503, 'Stripe webhooks are not configured (STRIPE_WEBHOOK_SECRET)', 'NOT_CONFIGURED');
    }
    const signature = c.req.header('stripe-signature');
    const header = parseSignatureHeader(signature);
    if (!header) throw new HttpError(400, 'Missing or malformed Stripe-Signature header', 'BAD_SIGNATURE');
    if (!isFresh(header)) throw new HttpError(400, 'The signature timestamp is too old or in the future', 'BAD_SIGNATURE');

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

    if (!HANDLED_TYPES.has(event.type)) {
      // Nothing to do but remember it: one statement, and a repeat changes nothing either.
      await c.env.DB.prepare(
        `INSERT INTO stripe_events (id, type, received_at, processed_at) VALUES (?1, ?2, ?3, ?3)
         ON CONFLICT (id) DO NOTHING`,
      )
        .bind(event.id, event.type, Date.now())
        .run();
      return c.json({received: true, handled: false});
    }

    const recorded = await c.env.DB.prepare(
      `INSERT INTO stripe_events (id, type, received_at) VALUES (?1, ?2, ?3)
       ON CONFLICT (id) DO UPDATE SET id = id
       RETURNING processed_at`,
    )
      .bind(event.id, event.type, Date.now())
      .first<{processed_at: number | null}>();
    if (recorded?.processed_at) return c.json({received: true, duplicate: true});

    const handled = await handle(c.env, event);
    await c.env.DB.prepare('UPDATE stripe_events SET processed_at = ?2 WHERE id = ?1').bind(event.id, Date.now()).run();
    log.info('stripe.event', {eventId: event.id, type: event.type, handled});
    return c.json({received: true, handled});
  },
);

const HANDLED_TYPES = new Set<string>([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'charge.refunded',
  'charge.dispute.created',
  'charge.dispute.closed',
]);

/** Routes one verified event; unknown types are acknowledged so Stripe stops sending them. */
async function handle(env: Env, event: Stripe.Event): Promise<boolean> {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      await fulfillCheckout(env, event.data.object.id);
      return true;
    case 'checkout.session.async_payment_failed':
      await fulfillCheckout(env, event.data.object.id, {paymentFailed: true});
      return true;
    case 'charge.refunded': {
      const charge = event.data.object;
      const paymentIntent = idOf(charge.payment_intent);
      // A partial refund keeps access; only a full refund takes it back.
      if (!charge.refunded || !paymentIntent) return false;
      await revokePayment(env, paymentIntent, 'refunded');
      return true;
    }
    case 'charge.dispute.created':
    case 'charge.dispute.closed': {
      const dispute = event.data.object;
      const paymentIntent = idOf(dispute.payment_intent);
      if (!paymentIntent) return false;
      if (event.type === 'charge.dispute.closed' && dispute.status !== 'lost') return false;
      await revokePayment(env, paymentIntent, event.type === 'charge.dispute.created' ? 'disputed' : 'dispute lost');
      return true;
    }
    default:
      return false;
  }
}
