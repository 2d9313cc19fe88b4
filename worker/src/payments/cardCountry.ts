import type Stripe from 'stripe';
import {log} from '../log';
import {describe} from '../errors';
import {FAIR_PRICE_COUNTRY_KEY, FAIR_PRICE_PERCENT_KEY} from './fairPriceCheckout';
import {idOf, stripeFor} from './stripe';
import {settingsOf} from '../settings';

/**
 * Where the money that paid comes from, as the charge says: a card's issuing country, or the
 * funding source's under Link. '' when the method tells no country (Cash App, Amazon Pay, a bank
 * debit, …): Checkout offers every method the seller turned on, not only cards.
 */
export function fundingCountry(charge: Stripe.Charge | null): string {
  const details = charge?.payment_method_details;
  return (details?.card?.country ?? details?.link?.country ?? '').toUpperCase();
}

/**
 * After a paid checkout that had a country discount: the country of the card that paid (the
 * payment's latest charge, `payment_method_details.card.country`, or Link's funding source) against
 * the country the discount was given for. A card from elsewhere, or a payment that tells no
 * country at all, flags the purchase (a discount taken through a VPN and paid by a method without
 * a country would otherwise pass unseen) for the seller's console (admin), who
 * accepts it or refunds it: a VPN or a friend abroad is not proof of abuse, so nothing is taken
 * back on its own. Checked once per purchase: a webhook delivered again finds the card recorded
 * and neither asks Stripe nor flags twice (nor flags again what the seller accepted). A failure to
 * read Stripe is logged, and the next fulfilment of the session (a redelivery, the success page)
 * tries again; it never stands between the buyer and the purchase.
 */
export async function checkCardCountry(env: Env, session: Stripe.Checkout.Session): Promise<void> {
  const country = session.metadata?.[FAIR_PRICE_COUNTRY_KEY];
  const paymentIntentId = idOf(session.payment_intent);
  if (!country || !paymentIntentId) return;
  try {
    const known = await env.DB.prepare('SELECT card_country FROM purchases WHERE session_id = ?1').bind(session.id).first<{card_country: string | null}>();
    if (!known || known.card_country !== null) return;
    const intent = await stripeFor(settingsOf(env)).paymentIntents.retrieve(paymentIntentId, {expand: ['latest_charge']});
    const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
    const cardCountry = fundingCountry(charge);
    const flagged = cardCountry !== country.toUpperCase();
    const recorded = await env.DB.prepare(
      `UPDATE purchases SET fair_price_country = ?2, fair_price_percent = ?3, card_country = ?4, country_review = ?5
       WHERE session_id = ?1 AND card_country IS NULL RETURNING session_id`,
    )
      .bind(session.id, country.toUpperCase(), Number(session.metadata?.[FAIR_PRICE_PERCENT_KEY]) || null, cardCountry, flagged ? 'flagged' : null)
      .first();
    if (recorded && flagged) log.warn('fair_price.card_country_mismatch', {sessionId: session.id, country, cardCountry});
  } catch (err) {
    log.error('fair_price.card_country_unread', {sessionId: session.id, error: describe(err)});
  }
}
