import {findStoredPlan} from '../../src/config';
import type {AuthUser} from './auth/user';

export type PurchaseStatus = 'open' | 'paid' | 'failed' | 'revoked';

export interface Purchase {
  session_id: string;
  customer_id: string | null;
  user_id: string | null;
  email: string | null;
  price_id: string | null;
  /** The plan recorded: for bestPaidPurchaseOf, accessPurchaseOf and paidPurchasesOf, the plan now (a paid upgrade's). */
  plan: string | null;
  payment_intent_id: string | null;
  status: PurchaseStatus;
  created_at: number;
  /** What Stripe charged, in cents, and in which currency (null on purchases recorded before these were). */
  amount_total: number | null;
  currency: string | null;
  /** Cents refunded so far (Stripe's webhooks), and the fair-price country and percent the purchase got, if any. */
  amount_refunded?: number;
  fair_price_country?: string | null;
  fair_price_percent?: number | null;
  /** 1 while the purchase or one of its upgrades is flagged for its card's country (countryFlagged). */
  country_flagged?: number;
  /** When the seller revoked the purchase's access to the code (sellerRevocation.ts); null while it is not. */
  revoked_by_seller_at: number | null;
  /**
   * The buyer's request at checkout for delivery at once (which words, `immediateDeliveryVersion`,
   * and when), with which the right of withdrawal ends once the code is delivered; null without one.
   */
  delivery_consent_version?: string | null;
  delivery_consent_at?: number | null;
  /** When the worker first recorded it paid (the checkout's time for purchases paid before 0033). */
  paid_at?: number | null;
  /** How many seats it holds (0037): 1, or a team's, seats added later included (0039), seats refunded not (0040); seat 1 is the buyer's own. */
  seats?: number;
  /** When its code first reached the buyer: an invitation accepted, a download served (0033's triggers). */
  delivered_at?: number | null;
}

/**
 * Which purchases are the user's: one made while signed in (or claimed through the checkout
 * exchange), or a guest purchase whose e-mail equals the user's *verified* e-mail. Stripe never
 * verifies the e-mail typed at checkout, so an unverified account must not match it.
 * Binds ?1 (uid) and ?2 (verified e-mail or null).
 */
const OWNED_BY_USER = '(user_id = ?1 OR (?2 IS NOT NULL AND user_id IS NULL AND email = ?2))';

/**
 * SQL for whether purchase `other` may be the same buyer's as purchase `of`: made with the same
 * sign-in account, or to the same e-mail (a guest purchase, which OWNED_BY_USER gives the account
 * of that e-mail once it is verified). For the seller's console, which sees purchases, not accounts.
 */
export function sameBuyer(other: string, of: string): string {
  return `((${of}.user_id IS NOT NULL AND ${other}.user_id = ${of}.user_id) OR (${of}.email IS NOT NULL AND ${other}.email = ${of}.email))`;
}

function owner(user: AuthUser): [string, string | null] {
  return [user.uid, user.emailVerified && user.email ? user.email.toLowerCase() : null];
}

/**
 * SQL for the plan a purchase gives now: its latest paid upgrade's plan, else the plan bought. An
 * upgrade refunded or disputed is no longer paid, so the purchase is back to what it was before.
 */
export function effectivePlan(alias: string): string {
  // Seats added are upgrades on the plan held then: they move no plan (a move refunded since moves it back).
  return `COALESCE((SELECT u.to_plan FROM upgrades u WHERE u.purchase_session_id = ${alias}.session_id AND u.status = 'paid'
    AND u.seats_added = 0 ORDER BY u.paid_at DESC LIMIT 1), ${alias}.plan)`;
}

/**
 * SQL for the seats a purchase holds now: those it was bought with, and those its paid seat
 * upgrades added (migration 0039), less the seats the seller refunded of its own payment (0040). A
 * seat upgrade refunded or disputed is no longer paid, so its seats go again; either way the members
 * past the count lose theirs (team/removeMember.ts `endSeatsPast`).
 */
export function effectiveSeats(alias: string): string {
  return `(${alias}.seats + COALESCE((SELECT SUM(su.seats_added) FROM upgrades su
    WHERE su.purchase_session_id = ${alias}.session_id AND su.status = 'paid'), 0)
    - COALESCE((SELECT SUM(sr.seats) FROM seat_refunds sr WHERE sr.session_id = ${alias}.session_id), 0))`;
}

/**
 * SQL for what a purchase has paid and kept, in cents: its own payment and every paid upgrade's
 * (or, with `paidBefore`, those paid before that time), less what was refunded of each; null for a
 * purchase recorded without its amount. What an upgrade's credit counts (upgrades/quote.ts), and
 * what fulfilment and a revocation check it against (upgrades/revocations.ts).
 */
export function paidAndKept(alias: string, paidBefore?: string): string {
  return `(${alias}.amount_total - ${alias}.amount_refunded + COALESCE((SELECT SUM(COALESCE(ku.amount_paid, ku.amount) - ku.amount_refunded)
    FROM upgrades ku WHERE ku.purchase_session_id = ${alias}.session_id AND ku.status = 'paid'${
      paidBefore === undefined ? '' : ` AND ku.paid_at < ${paidBefore}`
    }), 0))`;
}

/**
 * SQL for whether a purchase waits on the seller for its card's country: its own payment, or one of
 * its upgrades', was flagged (payments/cardCountry.ts) and the seller has not accepted it. Until
 * then its fair-price discount is not taken as settled: the console's Flagged filter lists it, and
 * a further upgrade is priced without the discount (fairPriceCheckout.ts `heldFairPrice`).
 */
export function countryFlagged(alias: string): string {
  return `(${alias}.country_review = 'flagged' OR EXISTS (SELECT 1 FROM upgrades fu
    WHERE fu.purchase_session_id = ${alias}.session_id AND ${upgradeFlagged('fu')}))`;
}

/**
 * SQL for whether an upgrade's own payment is flagged for its card's country and still in doubt:
 * not accepted, and a payment that stands or may stand again (paid, or disputed). Refunded, or lost
 * to a dispute, the payment is gone and so is the doubt (migration 0026): the seller's refund is
 * one of the two answers to a flag, the accept the other.
 */
export function upgradeFlagged(alias: string): string {
  return `(${alias}.country_review = 'flagged' AND (${alias}.status = 'paid' OR ${alias}.revoke_reason = 'disputed'))`;
}

/** A purchase's columns, with `plan` the plan it gives now. */
const WITH_PLAN_NOW = `SELECT session_id, customer_id, user_id, email, price_id, ${effectivePlan('purchases')} AS plan,
  payment_intent_id, status, created_at, amount_total, currency, amount_refunded, fair_price_country, fair_price_percent,
  ${countryFlagged('purchases')} AS country_flagged, revoked_by_seller_at, delivery_consent_version, delivery_consent_at,
  paid_at, delivered_at, ${effectiveSeats('purchases')} AS seats FROM purchases`;

/** Every paid purchase of the user, the oldest first, each with the plan it gives now. */
export async function paidPurchasesOf(db: D1Database, user: AuthUser): Promise<Purchase[]> {
  const {results} = await db
    .prepare(`${WITH_PLAN_NOW} WHERE status = 'paid' AND ${OWNED_BY_USER} ORDER BY created_at, session_id`)
    .bind(...owner(user))
    .all<Purchase>();
  return results;
}

/**
 * The purchase that gives the user the most, of `purchases` (the oldest first): the highest plan
 * now, its paid upgrades included, by the config's prices (the order upgrades climb); of equal
 * plans, the oldest. A plan no longer in the config ranks below every plan, so a buyer who holds
 * one is still a buyer. Null for none.
 */
export function bestPurchase<P extends Pick<Purchase, 'plan'>>(purchases: readonly P[]): P | null {
  const rank = (purchase: P) => findStoredPlan(purchase.plan)?.price ?? -1;
  let best: P | null = null;
  for (const purchase of purchases) if (!best || rank(purchase) > rank(best)) best = purchase;
  return best;
}

/**
 * Of a user's paid purchases, those a choice for them is made among. The seller's revocation is
 * the purchase's (access/grants/sellerRevocation.ts), so a purchase the seller revoked stands for the buyer
 * only when the seller revoked every one: then the one chosen says revoked, and nothing is served.
 * Every place that chooses one purchase for the user chooses among these, so the dashboard, the
 * download, the invitation, the plan and the upgrade offer never disagree about a revocation.
 */
export function inForce<P extends Pick<Purchase, 'revoked_by_seller_at'>>(purchases: readonly P[]): readonly P[] {
  const kept = purchases.filter((purchase) => purchase.revoked_by_seller_at === null);
  return kept.length > 0 ? kept : purchases;
}

/**
 * The user's paid purchase that gives them the most (bestPurchase) of those in force (inForce), with
 * the plan it gives now: what the user holds (GET /userHasPaid, the upgrade offer, the billing portal).
 */
export async function bestPaidPurchaseOf(db: D1Database, user: AuthUser): Promise<Purchase | null> {
  return bestPurchase(inForce(await paidPurchasesOf(db, user)));
}

/**
 * The paid purchase whose access to the code is the user's, of those in force (inForce): of those
 * that hold an access grant, the best; else the best of all. A buyer who bought a higher plan after
 * the first was granted keeps the seat where it is, and is never given a second one by asking
 * again. What the dashboard shows (GET /accessStatus), what a download link is made for, and what
 * an invitation is asked for all read this one purchase.
 */
export async function accessPurchaseOf(db: D1Database, user: AuthUser): Promise<Purchase | null> {
  const {results} = await db
    .prepare(
      `SELECT p.*, EXISTS (SELECT 1 FROM grants g WHERE g.session_id = p.session_id AND g.seat = 1 AND g.repository_key = 'kit') AS holds_seat
       FROM (${WITH_PLAN_NOW} WHERE status = 'paid' AND ${OWNED_BY_USER}) p ORDER BY p.created_at, p.session_id`,
    )
    .bind(...owner(user))
    .all<Purchase & {holds_seat: number}>();
  const candidates = inForce(results);
  const chosen = bestPurchase(candidates.filter((row) => row.holds_seat === 1)) ?? bestPurchase(candidates);
  if (!chosen) return null;
  const {holds_seat: _held, ...purchase} = chosen;
  return purchase;
}

/** A paid purchase by its session id, with the plan it gives now, or null (not paid, or none). */
export function paidPurchase(db: D1Database, sessionId: string): Promise<Purchase | null> {
  return db.prepare(`${WITH_PLAN_NOW} WHERE status = 'paid' AND session_id = ?1`).bind(sessionId).first<Purchase>();
}

/** Whether the user has a purchase that was refunded or disputed (status revoked): not to be upgraded. */
export async function hasRevokedPurchase(db: D1Database, user: AuthUser): Promise<boolean> {
  const row = await db
    .prepare(`SELECT 1 AS found FROM purchases WHERE status = 'revoked' AND ${OWNED_BY_USER} LIMIT 1`)
    .bind(...owner(user))
    .first();
  return row !== null;
}

/**
 * The user's purchases that were paid, refunded or disputed ones included (their receipts stand),
 * the newest first, at most `limit`: what the receipts list shows.
 */
export async function receiptPurchasesOf(db: D1Database, user: AuthUser, limit: number): Promise<Purchase[]> {
  const {results} = await db
    .prepare(
      `SELECT * FROM purchases WHERE status IN ('paid', 'revoked') AND ${OWNED_BY_USER} ORDER BY created_at DESC LIMIT ?3`,
    )
    .bind(...owner(user), limit)
    .all<Purchase>();
  return results;
}

/**
 * What became of one payment (a purchase's or an upgrade's), as the Stripe webhook recorded it: its
 * status (`paid`, or `revoked` with why), how much of it was refunded, and when each thing happened.
 */
export interface PaymentOutcome {
  status: string;
  revoke_reason: string | null;
  amount_refunded?: number;
  updated_at: number;
  /** When Stripe last told of a refund of its payment (payment_refunds). */
  refunded_at: number | null;
  /** When its payment was first refunded or disputed (payment_revocations). */
  revoked_at: number | null;
  /** When the earliest dispute still open was opened, and when the last lost one closed (disputes). */
  dispute_opened_at: number | null;
  dispute_lost_at: number | null;
}

/** SQL for PaymentOutcome's times, of the payment intent `${alias}.payment_intent_id`: the same records for a purchase and an upgrade. */
function outcomeTimes(alias: string): string {
  return `(SELECT r.updated_at FROM payment_refunds r WHERE r.payment_intent_id = ${alias}.payment_intent_id) AS refunded_at,
    (SELECT v.created_at FROM payment_revocations v WHERE v.payment_intent_id = ${alias}.payment_intent_id) AS revoked_at,
    (SELECT MIN(d.updated_at) FROM disputes d WHERE d.payment_intent_id = ${alias}.payment_intent_id AND d.status NOT IN ('won', 'warning_closed', 'lost')) AS dispute_opened_at,
    (SELECT MAX(d.updated_at) FROM disputes d WHERE d.payment_intent_id = ${alias}.payment_intent_id AND d.status = 'lost') AS dispute_lost_at`;
}

/** A purchase paid, or refunded or disputed since, with the times of what became of its payment. */
export interface PurchaseWithOutcome extends Purchase, PaymentOutcome {
  status: PurchaseStatus;
  /** The plan its own payment bought (`plan` is the plan it gives now, its paid upgrades included). */
  bought_plan: string | null;
}

/**
 * The user's purchases that were paid, refunded or disputed ones included, the newest first, at
 * most `limit`, each with the plan it gives now and the times of its refunds and disputes: what
 * the dashboard says became of them.
 */
export async function purchasesWithOutcomeOf(
  db: D1Database,
  user: AuthUser,
  limit: number,
): Promise<PurchaseWithOutcome[]> {
  const {results} = await db
    .prepare(
      `SELECT p.session_id, p.customer_id, p.user_id, p.email, p.price_id, ${effectivePlan('p')} AS plan, p.plan AS bought_plan, p.payment_intent_id,
         p.status, p.created_at, p.updated_at, p.amount_total, p.currency, p.amount_refunded, p.fair_price_percent, p.revoke_reason,
         p.revoked_by_seller_at, ${outcomeTimes('p')}
       FROM purchases p WHERE p.status IN ('paid', 'revoked') AND ${OWNED_BY_USER} ORDER BY p.created_at DESC, p.session_id DESC LIMIT ?3`,
    )
    .bind(...owner(user), limit)
    .all<PurchaseWithOutcome>();
  return results;
}

/** An upgrade that was applied to its purchase (paid, or refunded or disputed since), with the times of what became of its payment. */
export interface UpgradeWithOutcome extends PaymentOutcome {
  purchase_session_id: string;
  to_plan: string;
  /** Seats it added to a team (0 for a move to a higher plan). */
  seats_added: number;
  amount_paid: number | null;
  currency: string;
  paid_at: number;
}

/**
 * The upgrades applied to these purchases, the oldest first, each with what became of its own
 * payment. A refused one (a duplicate, or paid after its purchase ended) bought nothing and was
 * given back at once: it is no part of the purchase, and its receipt says so on its own.
 */
export async function upgradesWithOutcomeOf(
  db: D1Database,
  purchaseSessionIds: readonly string[],
): Promise<UpgradeWithOutcome[]> {
  if (purchaseSessionIds.length === 0) return [];
  const {results} = await db
    .prepare(
      `SELECT u.purchase_session_id, u.to_plan, u.seats_added, u.status, u.revoke_reason, u.amount_paid, u.amount_refunded, u.currency, u.paid_at,
         u.updated_at, ${outcomeTimes('u')}
       FROM upgrades u WHERE u.purchase_session_id IN (SELECT value FROM json_each(?1)) AND u.status IN ('paid', 'revoked') AND u.paid_at IS NOT NULL
       ORDER BY u.paid_at, u.session_id`,
    )
    .bind(JSON.stringify(purchaseSessionIds))
    .all<UpgradeWithOutcome>();
  return results;
}

/**
 * The Stripe customer for the billing portal: the best paid purchase's (its upgrades' receipts are
 * on it too), else the one behind any of the user's purchases, paid or not.
 */
export async function customerOf(db: D1Database, user: AuthUser): Promise<string | null> {
  const best = await bestPaidPurchaseOf(db, user);
  if (best?.customer_id) return best.customer_id;
  const row = await db
    .prepare(
      `SELECT customer_id FROM purchases WHERE customer_id IS NOT NULL AND ${OWNED_BY_USER}
       ORDER BY status = 'paid' DESC, created_at DESC LIMIT 1`,
    )
    .bind(...owner(user))
    .first<{customer_id: string}>();
  return row?.customer_id ?? null;
}
