import type Stripe from 'stripe';
import {
  findPlanByPriceId,
  findStoredPlan,
  maxSeatsOf,
  seatsRefusal,
  soldInTiers,
  type UpgradeRefusal,
} from '../../../src/config';
import {reconcileSoon} from '../access/grants/reconcileSoon';
import {contextOf} from '../context';
import {log} from '../log';
import {effectivePlan, effectiveSeats, paidAndKept, type PurchaseStatus} from '../purchases';
import {settingsOf} from '../settings';
import {checkCardCountry} from '../payments/cardCountry';
import {idOf, stripeFor} from '../payments/stripe';
import {UPGRADE_METADATA} from './metadata';
import {movePaid} from './movePaid';
import {quantityOf, upgradeLine} from './quote';
import {upgradeRowLabel} from './rowLabel';
import {type AppliedUpgrade, sendRefusalMail, sendUpgradeMails} from './upgradeMail';

/** An upgrade as the worker recorded it when it made the session (see migrations/0019_upgrades.sql). */
interface UpgradeRow {
  session_id: string;
  purchase_session_id: string;
  user_id: string;
  email: string | null;
  from_plan: string;
  to_plan: string;
  amount: number;
  currency: string;
  status: 'open' | 'paid' | 'revoked' | 'refused' | 'failed';
  refused_reason: string | null;
  /** Seats it adds (0 for a move to a higher plan), and the purchase's seats when it was priced (0039). */
  seats_added: number;
  from_seats: number;
  /** The line item its session sells (0042); null on a row made before the worker stored it. */
  price_id: string | null;
  quantity: number | null;
  /** What its price credited for what the purchase had paid and kept (0042); null for none, or before. */
  credit: number | null;
}

/**
 * Why a paid upgrade is not applied; each is refunded at once, since the payer got nothing, and the
 * payer is told why in the words of `UPGRADE_REFUSALS` (src/config/upgrades.ts). `stale`: the
 * purchase is no longer on the plan the upgrade was priced from (another upgrade was paid since, in
 * another tab), so its credit is wrong. `access revoked`: the seller revoked the purchase's access
 * since the session was made (access/grants/sellerRevocation.ts), so the higher plan would give
 * nothing. `credited a payment taken back`: an upgrade applied, whose price credited an earlier
 * upgrade's payment that was then refunded or lost to a dispute (upgrades/revocations.ts
 * `revokeUpgradeStatements`); refused then, it is refunded as these are.
 */
export type Refusal = UpgradeRefusal;

/**
 * Fulfilment of an upgrade's Checkout Session, as `fulfillCheckout` is for a purchase: a function
 * of the session id, safe to run again, in any order of events. A paid session is checked against
 * the worker's own row (the buyer who asked, the amount it computed) and the purchase it upgrades
 * (the same buyer's, still paid); then one conditional UPDATE applies it, once per purchase and
 * plan (a unique index holds it). A second payment for the same upgrade is refused and refunded.
 */
export async function fulfillUpgrade(
  env: Env,
  session: Stripe.Checkout.Session,
  options: {paymentFailed?: boolean},
): Promise<{status: PurchaseStatus | 'ignored'; session: Stripe.Checkout.Session; email: string | null}> {
  const row = await env.DB.prepare('SELECT * FROM upgrades WHERE session_id = ?1').bind(session.id).first<UpgradeRow>();
  if (!row || !matchesRecord(session, row)) {
    log.error('upgrade.ignored', {
      sessionId: session.id,
      reason: row ? 'the session does not match the recorded upgrade' : 'no upgrade recorded',
    });
    return {status: 'ignored', session, email: null};
  }
  const paid = session.status === 'complete' && session.payment_status === 'paid';
  if (!paid) {
    const failed = options.paymentFailed === true;
    if (failed)
      await env.DB.prepare(
        `UPDATE upgrades SET status = 'failed', updated_at = ?2 WHERE session_id = ?1 AND status = 'open'`,
      )
        .bind(session.id, Date.now())
        .run();
    // Completed, its payment still on its way (a bank debit takes days): the row keeps the
    // payment's id, and with it the upgrade code's use it holds (upgradeCode.ts) past the session's day.
    else if (session.status === 'complete' && idOf(session.payment_intent))
      await env.DB.prepare(
        `UPDATE upgrades SET payment_intent_id = ?2, updated_at = ?3 WHERE session_id = ?1 AND status = 'open'`,
      )
        .bind(session.id, idOf(session.payment_intent), Date.now())
        .run();
    return {status: failed ? 'failed' : 'open', session, email: row.email};
  }

  const paymentIntentId = idOf(session.payment_intent);
  const refusal = await refusalOf(env.DB, session, row);
  // The purchase's state is checked again in the one statement that applies the upgrade: a refund
  // of the purchase landing meanwhile cannot leave a paid upgrade on a revoked purchase, and an
  // upgrade paid in another tab since this one was priced makes it stale (its credit is wrong), as
  // do seats added since a team's move up was priced for fewer, or since a move to a larger team
  // tier was priced from a smaller (its credit is wrong), as does a refund of what the credit
  // counted (the purchase now keeps less than it was credited). Seats added past the plan's most (two
  // tabs, each within it) are refused, as are seats the plan is no longer sold for (the seller
  // changed it to sell teams in tiers, or fewer seats, after the session was made). A purchase
  // recorded before the worker stored plan ids names its plan: either is the same plan.
  const fromPlanName = findStoredPlan(row.from_plan)?.name ?? row.from_plan;
  const toPlan = findStoredPlan(row.to_plan);
  const seatsNow = `(SELECT ${effectiveSeats('p')} FROM purchases p WHERE p.session_id = ?4)`;
  const applied = await env.DB.prepare(
    `WITH verdict AS (SELECT CASE
         WHEN ?3 IS NOT NULL THEN ?3
         WHEN EXISTS (SELECT 1 FROM payment_revocations WHERE payment_intent_id = ?2) THEN 'revoked'
         WHEN ?10 = 0 AND ${movePaid('?4', '?5')} THEN 'duplicate'
         WHEN NOT EXISTS (SELECT 1 FROM purchases p WHERE p.session_id = ?4 AND p.status = 'paid') THEN 'purchase not paid'
         WHEN COALESCE((SELECT ${effectivePlan('p')} FROM purchases p WHERE p.session_id = ?4), '') NOT IN (?8, ?9) THEN 'stale'
         WHEN (?10 = 0 OR ?13 = 1) AND ${seatsNow} != ?11 THEN 'stale'
         WHEN ?15 IS NOT NULL AND (SELECT ${paidAndKept('p')} FROM purchases p WHERE p.session_id = ?4) < ?15 THEN 'stale'
         WHEN ?10 > 0 AND ${seatsNow} + ?10 > ?12 THEN 'too many seats'
         WHEN ?14 = 1 THEN 'seats not sold'
         ELSE 'paid' END AS outcome)
     UPDATE upgrades SET
       status = CASE (SELECT outcome FROM verdict) WHEN 'paid' THEN 'paid' WHEN 'revoked' THEN 'revoked' ELSE 'refused' END,
       refused_reason = CASE WHEN (SELECT outcome FROM verdict) IN ('paid', 'revoked') THEN NULL ELSE (SELECT outcome FROM verdict) END,
       revoke_reason = (SELECT reason FROM payment_revocations WHERE payment_intent_id = ?2),
       -- A partial refund Stripe delivered before this completion (webhooks/stripe.ts refund).
       amount_refunded = MAX(amount_refunded, COALESCE((SELECT amount_refunded FROM payment_refunds WHERE payment_intent_id = ?2), 0)),
       payment_intent_id = ?2, amount_paid = ?6, paid_at = ?7, updated_at = ?7
     WHERE session_id = ?1 AND status IN ('open', 'failed')
     RETURNING status, refused_reason`,
  )
    .bind(
      session.id,
      paymentIntentId,
      refusal,
      row.purchase_session_id,
      row.to_plan,
      paidAmount(session),
      Date.now(),
      row.from_plan,
      fromPlanName,
      row.seats_added,
      row.from_seats,
      toPlan ? maxSeatsOf(toPlan) : 1,
      toPlan && soldInTiers(toPlan) ? 1 : 0,
      toPlan && seatsRefusal(toPlan, row.from_seats + row.seats_added) !== null ? 1 : 0,
      row.credit,
    )
    .first<{status: UpgradeRow['status']; refused_reason: Refusal | null}>();
  // Null: an earlier delivery recorded it already; nothing more to do.
  const now =
    applied ??
    (await env.DB.prepare('SELECT status, refused_reason FROM upgrades WHERE session_id = ?1')
      .bind(session.id)
      .first<UpgradeRow>())!;
  const label = upgradeRowLabel(row);
  if (applied?.status === 'refused') {
    log.error('upgrade.refused', {
      sessionId: session.id,
      upgradeOf: row.purchase_session_id,
      reason: applied.refused_reason,
      label,
    });
    if (paymentIntentId) await refundRefused(env, session.id, paymentIntentId, applied.refused_reason!);
  } else if (applied) {
    log.info('upgrade.recorded', {
      sessionId: session.id,
      upgradeOf: row.purchase_session_id,
      status: applied.status,
      label,
    });
    if (applied.status === 'paid') {
      await sendUpgradeMails(env, await appliedUpgrade(env.DB, row, session));
      // What the new plan adds on GitHub (extra repositories), once: the job's key is the upgrade's.
      await reconcileSoon(contextOf(env), row.purchase_session_id, `upgrade:${session.id}`);
    }
  }
  // Sold at its purchase's fair price: its card is checked as a purchase's is, once (a redelivery
  // finds it recorded), whichever delivery applied it.
  if (now.status === 'paid') await checkCardCountry(contextOf(env), session, row.purchase_session_id);
  return {status: now.status === 'paid' ? 'paid' : 'revoked', session, email: row.email};
}

/**
 * The session is the one the worker made for this row: same purchase, same plan, and the line item
 * the row records. A row from before the worker recorded it (0042) is matched against the config.
 */
function matchesRecord(session: Stripe.Checkout.Session, row: UpgradeRow): boolean {
  const metadata = session.metadata ?? {};
  const items = session.line_items?.data ?? [];
  const bought =
    row.price_id !== null
      ? items.some((item) => item.price?.id === row.price_id && (item.quantity ?? 1) === row.quantity)
      : soldByConfig(items, row);
  return (
    metadata[UPGRADE_METADATA.upgradeOf] === row.purchase_session_id &&
    metadata[UPGRADE_METADATA.toPlan] === row.to_plan &&
    bought
  );
}

/** A row from before 0042: one of its line items is a price of its plan now, in the quantity its seats make. */
function soldByConfig(items: Stripe.LineItem[], row: UpgradeRow): boolean {
  const seats = {added: row.seats_added, of: row.from_seats};
  const toPlan = findStoredPlan(row.to_plan);
  const quantity = toPlan ? upgradeLine(toPlan, seats).quantity : quantityOf(seats);
  return items.some(
    (item) =>
      item.price?.id && findPlanByPriceId(item.price.id)?.id === row.to_plan && (item.quantity ?? 1) === quantity,
  );
}

/**
 * What the buyer paid for the upgrade itself: the price less the credit, before tax (Stripe Tax
 * adds its own on top, and an inclusive price holds it already).
 */
function paidAmount(session: Stripe.Checkout.Session): number | null {
  if (session.amount_subtotal === null || session.amount_subtotal === undefined) return session.amount_total ?? null;
  return session.amount_subtotal - (session.total_details?.amount_discount ?? 0);
}

/** Why this paid upgrade must not be applied, or null: a duplicate is decided in the UPDATE itself. */
async function refusalOf(db: D1Database, session: Stripe.Checkout.Session, row: UpgradeRow): Promise<Refusal | null> {
  if (session.client_reference_id !== row.user_id) return 'another buyer';
  if (paidAmount(session) !== row.amount || session.currency !== row.currency) return 'amount mismatch';
  const purchase = await db
    .prepare('SELECT status, user_id, email, revoked_by_seller_at FROM purchases WHERE session_id = ?1')
    .bind(row.purchase_session_id)
    .first<{
      status: PurchaseStatus;
      user_id: string | null;
      email: string | null;
      revoked_by_seller_at: number | null;
    }>();
  if (!purchase) return 'purchase not paid';
  const owned =
    purchase.user_id === row.user_id ||
    (purchase.user_id === null && row.email !== null && purchase.email === row.email);
  if (!owned) return 'another buyer';
  if (purchase.status !== 'paid') return 'purchase not paid';
  return purchase.revoked_by_seller_at === null ? null : 'access revoked';
}

/**
 * Gives back a payment that bought nothing: a second payment for an upgrade already paid, one for
 * a purchase refunded or disputed meanwhile (or whose access the seller revoked), one that is not
 * what the worker priced or not the asking buyer's, one back from a dispute won that no longer
 * stands on its purchase (payments/revocations.ts `restorePayment`). Once per session (Stripe's idempotency key), and
 * its `charge.refunded` leaves the refused upgrade as it is. Refunded, the payer is e-mailed why, once.
 */
export async function refundRefused(env: Env, sessionId: string, paymentIntentId: string, reason: Refusal) {
  try {
    await stripeFor(settingsOf(env)).refunds.create(
      {
        payment_intent: paymentIntentId,
        reason: reason === 'duplicate' ? 'duplicate' : 'requested_by_customer',
        metadata: {upgradeSession: sessionId, refusedBecause: reason},
      },
      {idempotencyKey: `upgrade-refused-${sessionId}`},
    );
    log.info('upgrade.refunded', {sessionId, reason});
  } catch (err) {
    // The seller sees the refused upgrade in the console, and refunds it there.
    log.error('upgrade.refund_failed', {sessionId, reason, error: err instanceof Error ? err.message : String(err)});
    return;
  }
  try {
    await sendRefusalMail(env, sessionId, reason);
  } catch (err) {
    // The refund stands; the outbox could not take the e-mail (the console shows the refusal).
    log.error('upgrade.refusal_mail_failed', {sessionId, error: err instanceof Error ? err.message : String(err)});
  }
}

/** The applied upgrade as its e-mails tell it: to the paying account's address, else the purchase's. */
async function appliedUpgrade(
  db: D1Database,
  row: UpgradeRow,
  session: Stripe.Checkout.Session,
): Promise<AppliedUpgrade> {
  const purchase = await db
    .prepare('SELECT email FROM purchases WHERE session_id = ?1')
    .bind(row.purchase_session_id)
    .first<{email: string | null}>();
  return {
    sessionId: row.session_id,
    purchaseSessionId: row.purchase_session_id,
    email: row.email ?? purchase?.email ?? null,
    fromPlan: row.from_plan,
    toPlan: row.to_plan,
    amount: session.amount_total ?? null,
    currency: session.currency ?? row.currency,
    seats: {added: row.seats_added, of: row.from_seats},
  };
}
