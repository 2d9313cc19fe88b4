import type Stripe from 'stripe';
import type {Context} from '../context';
import {log} from '../log';
import {describe} from '../errors';
import {enqueue, PermanentError} from '../jobs';
import {NextRun} from '../subrequests';
import {registerJob, runJob} from '../outbox';
import {FAIR_PRICE_COUNTRY_KEY, FAIR_PRICE_PERCENT_KEY} from './fairPriceCheckout';
import {idOf, stripeFor} from './stripe';

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
 * What the outbox job `card-country` checks: one paid session's payment against its discount's
 * country. The session is a purchase's, or an upgrade's (its own payment, at its purchase's fair
 * price): each is recorded on its own row and reviewed on its own.
 */
interface CardCountryCheck {
  sessionId: string;
  paymentIntentId: string;
  /** The country the discount was given for, upper-case. */
  country: string;
  /** For an upgrade's payment, the purchase it upgrades: the check is recorded in `upgrades`. */
  upgradeOf?: string;
}

/** The table that holds a checked payment's row: fixed names, never input. */
const tableOf = (check: Pick<CardCountryCheck, 'upgradeOf'>) => (check.upgradeOf ? 'upgrades' : 'purchases');

/**
 * After a paid checkout that had a country discount: the country of the card that paid (the
 * payment's latest charge, `payment_method_details.card.country`, or Link's funding source) against
 * the country the discount was given for. A card from elsewhere, or a payment that tells no
 * country at all, flags the purchase (a discount taken through a VPN and paid by a method without
 * a country would otherwise pass unseen) for the seller's console (admin), who
 * accepts it or refunds it: a VPN or a friend abroad is not proof of abuse, so nothing is taken
 * back on its own. Checked once per purchase: a webhook delivered again finds the card recorded
 * and neither asks Stripe nor flags twice (nor flags again what the seller accepted).
 *
 * The discount itself (country, percent) is recorded at once, from the session: an upgrade is
 * priced from it, whatever Stripe answers next. Reading the card goes through the outbox, so a
 * Stripe that does not answer is asked again by the cron (with the outbox's backoff) instead of
 * leaving the purchase unchecked; it never stands between the buyer and the purchase.
 *
 * An upgrade sold at its purchase's fair price is checked the same way (`upgradeOf`: the purchase
 * it upgrades, from the worker's own row): its card against the discount's country, flagged on the
 * upgrade's row for the seller to accept or refund, and its job listed on the purchase's page.
 */
export async function checkCardCountry(
  context: Context,
  session: Stripe.Checkout.Session,
  upgradeOf?: string,
): Promise<void> {
  const country = session.metadata?.[FAIR_PRICE_COUNTRY_KEY]?.toUpperCase();
  const paymentIntentId = idOf(session.payment_intent);
  if (!country || !paymentIntentId) return;
  const check: CardCountryCheck = {sessionId: session.id, paymentIntentId, country, ...(upgradeOf && {upgradeOf})};
  const unchecked = await context.db
    .prepare(
      `UPDATE ${tableOf(check)} SET fair_price_country = ?2, fair_price_percent = ?3
       WHERE session_id = ?1 AND card_country IS NULL RETURNING session_id`,
    )
    .bind(session.id, country, Number(session.metadata?.[FAIR_PRICE_PERCENT_KEY]) || null)
    .first();
  if (!unchecked) return;
  const id = await enqueue(context.db, {
    key: `card-country:${session.id}`,
    kind: 'card-country',
    sessionId: upgradeOf ?? session.id,
    payload: check,
  });
  if (id !== null) await runJob(context, id);
}

/** The read, and the Stripe client's one retry of it (`maxNetworkRetries`). */
const READ_SUBREQUESTS = 2;

async function readCardCountry(context: Context, check: CardCountryCheck): Promise<void> {
  // Stripe's client fetches by itself, past the budget's wrappers: counted here, so that the cron's
  // later steps (invitations, re-sends) know what this invocation has left.
  if (!context.subrequests.has(READ_SUBREQUESTS)) throw new NextRun("This run cannot fit reading the card's country");
  for (let i = 0; i < READ_SUBREQUESTS; i++) context.subrequests.spend();
  let charge: Stripe.Charge | null;
  try {
    const intent = await stripeFor(context.settings).paymentIntents.retrieve(check.paymentIntentId, {
      expand: ['latest_charge'],
    });
    charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
  } catch (err) {
    log.warn('fair_price.card_country_unread', {...logged(check), error: describe(err)});
    // Stripe refusing the read (the payment is not in this account) will not change: the seller looks.
    const status = (err as {statusCode?: number}).statusCode;
    if (status !== undefined && status >= 400 && status < 500 && status !== 429)
      throw new PermanentError(describe(err));
    throw err; // the outbox retries it later
  }
  const cardCountry = fundingCountry(charge);
  const flagged = cardCountry !== check.country;
  const recorded = await record(context.db, check, cardCountry, flagged);
  if (recorded && flagged) log.warn('fair_price.card_country_mismatch', {...logged(check), cardCountry});
}

/** What the log says of a check: the session, and the purchase an upgrade's payment upgrades. */
const logged = (check: CardCountryCheck) => ({
  sessionId: check.sessionId,
  country: check.country,
  ...(check.upgradeOf && {upgradeOf: check.upgradeOf}),
});

/**
 * Records the card's country once. What the seller accepted stays accepted; a flag set because the
 * card could not be read clears when a later read (the console's retry of the job) finds it matches.
 */
function record(db: D1Database, check: CardCountryCheck, cardCountry: string, flagged: boolean) {
  return db
    .prepare(
      `UPDATE ${tableOf(check)} SET card_country = ?2, country_review = CASE WHEN country_review = 'accepted' THEN 'accepted' ELSE ?3 END
       WHERE session_id = ?1 AND card_country IS NULL RETURNING session_id`,
    )
    .bind(check.sessionId, cardCountry, flagged ? 'flagged' : null)
    .first();
}

registerJob<CardCountryCheck>('card-country', {
  run: readCardCountry,
  // Never read after every retry: flagged for the seller to decide, rather than a discount nobody
  // checked. The card's country stays unknown (NULL): flagged with no country is how the console
  // tells "Stripe never said" from a payment that tells no country (''), and a retry of the job
  // from the console can still record it.
  async gaveUp(context, check) {
    const flagged = await context.db
      .prepare(
        `UPDATE ${tableOf(check)} SET country_review = 'flagged' WHERE session_id = ?1 AND card_country IS NULL AND country_review IS NULL RETURNING session_id`,
      )
      .bind(check.sessionId)
      .first();
    if (flagged) log.warn('fair_price.card_country_mismatch', {...logged(check), cardCountry: 'unread'});
  },
});
