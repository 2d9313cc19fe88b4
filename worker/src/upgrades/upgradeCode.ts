import {findStoredPlan, launchCodeState, launchCodeTerms, PLAN_CURRENCY, UPGRADE_CODE_WORDS} from '../../../src/config';
import type {UpgradeCodeStanding} from '../../../src/config/api';
import {formatDay} from '../../../src/config/dates';
import {heldFairPrice} from '../payments/fairPriceCheckout';
import type {Purchase} from '../purchases';

/**
 * Upgrade codes (issue 43): launch codes for past buyers only (`launch_codes.for_upgrades`), never
 * made at Stripe. Checkout takes one discount and an upgrade's is its credit coupon, so the worker
 * finds the code the buyer typed, keeps its limits itself, and takes it off the upgrade's price
 * (session.ts folds it into the credit coupon). GET /upgrades?code= and POST /createUpgradeSession
 * ask the same question here, so the price the dashboard shows is the price the session charges.
 */

/** Checkout Sessions expire after 24 hours (Stripe's default); one made in the last 23 serves again. */
export const REUSABLE_FOR_MS = 23 * 60 * 60 * 1000;

/** How long Stripe lets a Checkout Session be paid (its default expiry): an open one holds a code's use as long. */
export const SESSION_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** An upgrade code as its row holds it, with what the worker needs to price and limit it. */
export interface UpgradeCode {
  id: string;
  code: string;
  percentOff: number | null;
  amountOff: number | null;
  maxUses: number | null;
  endsAt: number | null;
  endedAt: number | null;
  /** The plan upgraded to that it is for, or null for every upgrade. */
  plan: string | null;
}

/** The code a priced upgrade carries: its id (the upgrade's row and session record it) and its text. */
export type AppliedUpgradeCode = Pick<UpgradeCode, 'id' | 'code'>;

/**
 * SQL for the uses an upgrade code `code` (an alias of launch_codes) has taken: its upgrades paid
 * (refunded or disputed since or not, as a purchase's use counts).
 */
export function upgradeCodePaidUses(code: string): string {
  return `(SELECT COUNT(*) FROM upgrades u WHERE u.launch_code_id = ${code}.id AND u.status IN ('paid', 'revoked'))`;
}

/**
 * SQL for the uses an upgrade code `code` has taken or holds: its paid ones, and one for each other
 * purchase with a checkout priced with it that may still be paid: made since `since` (a session's
 * lifetime ago), or completed and waiting for a slow payment (a bank debit: its row has the
 * payment's id). Counting them keeps `max_uses` from being overrun by buyers who all opened a
 * checkout before any paid. A purchase counts once, however many checkouts it opened (it can pay
 * only one move at a time: a second is refused as stale); the asking purchase's own are left out,
 * so asking again finds its open session.
 */
export function upgradeCodeUses(code: string, purchase: string, since: string): string {
  return `(${upgradeCodePaidUses(code)} + (SELECT COUNT(DISTINCT u.purchase_session_id) FROM upgrades u
    WHERE u.launch_code_id = ${code}.id AND u.status = 'open' AND u.purchase_session_id != ${purchase}
      AND (u.created_at > ${since} OR u.payment_intent_id IS NOT NULL)))`;
}

/**
 * SQL for whether the code `code` may still be used by `purchase` at `now`: not ended, not past its
 * end date, not used up (`upgradeCodeUses`). The INSERT of an upgrade's row asks it again, so two
 * buyers racing for a code's last use cannot both have it.
 */
export function upgradeCodeOpen(code: string, purchase: string, now: string, since: string): string {
  return `(${code}.ended_at IS NULL AND (${code}.ends_at IS NULL OR ${code}.ends_at > ${now})
    AND (${code}.max_uses IS NULL OR ${upgradeCodeUses(code, purchase, since)} < ${code}.max_uses))`;
}

interface UpgradeCodeRow {
  id: string;
  code: string;
  percent_off: number | null;
  amount_off: number | null;
  max_uses: number | null;
  ends_at: number | null;
  ended_at: number | null;
  plan: string | null;
  uses: number;
  paid_uses: number;
}

/**
 * The upgrade code typed, whatever its case, or null. Only upgrade codes: a launch code for
 * purchases is typed at Stripe's Checkout, never here. Of codes with the same text (one ended, one
 * made again since), the one still standing, else the newest.
 */
async function findUpgradeCode(
  db: D1Database,
  typed: string,
  purchase: string,
  now: number,
): Promise<(UpgradeCode & {uses: number; paidUses: number}) | null> {
  const row = await db
    .prepare(
      `SELECT c.id, c.code, c.percent_off, c.amount_off, c.max_uses, c.ends_at, c.ended_at, c.plan,
         ${upgradeCodeUses('c', '?2', '?4')} AS uses, ${upgradeCodePaidUses('c')} AS paid_uses
       FROM launch_codes c WHERE c.for_upgrades = 1 AND upper(c.code) = upper(?1)
       ORDER BY (c.ended_at IS NULL AND (c.ends_at IS NULL OR c.ends_at > ?3)) DESC, c.created_at DESC LIMIT 1`,
    )
    .bind(typed, purchase, now, now - SESSION_LIFETIME_MS)
    .first<UpgradeCodeRow>();
  if (!row) return null;
  return {
    id: row.id,
    code: row.code,
    percentOff: row.percent_off,
    amountOff: row.amount_off,
    maxUses: row.max_uses,
    endsAt: row.ends_at,
    endedAt: row.ended_at,
    plan: row.plan,
    uses: row.uses,
    paidUses: row.paid_uses,
  };
}

/**
 * The upgrade code `typed` as this purchase's buyer may use it on upgrades to `toPlans` (the offers
 * GET /upgrades lists, or the one plan POST /createUpgradeSession asks for): the code, and its
 * standing as the dashboard reads it, with why it does not apply (UPGRADE_CODE_WORDS), in order:
 * unknown, ended, expired, used up, a fair price held (a code never stacks with it), a plan it is
 * not for. `code` is null when it does not apply.
 */
export async function upgradeCodeFor(
  db: D1Database,
  typed: string,
  asked: {purchase: Purchase; toPlans: readonly string[]},
  now = Date.now(),
): Promise<{code: UpgradeCode | null; standing: UpgradeCodeStanding}> {
  const found = await findUpgradeCode(db, typed, asked.purchase.session_id, now);
  if (!found) return {code: null, standing: {code: typed, terms: null, refused: UPGRADE_CODE_WORDS.unknown}};
  const terms = launchCodeTerms({...found, currency: PLAN_CURRENCY, firstTimeOnly: false, forUpgrades: true});
  const refused = refusalOf(found, asked, now);
  return {code: refused === null ? found : null, standing: {code: found.code, terms, refused}};
}

function refusalOf(
  code: UpgradeCode & {uses: number; paidUses: number},
  asked: {purchase: Purchase; toPlans: readonly string[]},
  now: number,
): string | null {
  const state = launchCodeState(code, code.paidUses, now);
  if (state === 'ended') return UPGRADE_CODE_WORDS.ended;
  if (state === 'expired') return UPGRADE_CODE_WORDS.expired(formatDay(code.endsAt!));
  if (state === 'used up') return UPGRADE_CODE_WORDS.usedUp;
  // Not used up, but its other uses are held by checkouts that may yet be paid.
  if (code.maxUses !== null && code.uses >= code.maxUses) return UPGRADE_CODE_WORDS.held;
  if (heldFairPrice(asked.purchase) !== null) return UPGRADE_CODE_WORDS.fairPrice;
  if (code.plan !== null && !asked.toPlans.includes(code.plan))
    return UPGRADE_CODE_WORDS.otherPlan(findStoredPlan(code.plan)?.name ?? code.plan);
  return null;
}

/** Whether the code takes from an upgrade to `planId`: every upgrade, or its plan's alone. */
export function codeAppliesTo(code: UpgradeCode, planId: string): boolean {
  return code.plan === null || code.plan === planId;
}
