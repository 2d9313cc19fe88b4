import Stripe from 'stripe';
import {
  appConfig,
  findStoredPlan,
  LAUNCH_CODE_LIMITS,
  LAUNCH_CODE_WORDS,
  launchCodeCouponName,
  PLAN_CURRENCY,
  planPrices,
  launchCodeState,
  type Plan,
  upgradesFrom,
} from '../../../src/config';
import type {AdminLaunchCode} from '../../../src/config/api';
import {DAY_MS} from '../../../src/config/dates';
import type {launchCodeBody} from '../../../src/config/apiSchemas';
import type {z} from 'zod';
import {HttpError} from '../errors';
import {log} from '../log';
import {paymentProviderError, stripeFor} from '../payments/stripe';
import type {Settings} from '../settings';
import {SESSION_LIFETIME_MS, upgradeCodePaidUses, upgradeCodeUses} from '../upgrades/upgradeCode';

type LaunchCodeRequest = z.output<typeof launchCodeBody>;

/** Metadata on what the worker made at Stripe: the seller sees in Stripe's dashboard where a code came from. */
const MADE_BY = {made_by: 'console launch code'};

interface LaunchCodeRow {
  id: string;
  code: string;
  percent_off: number | null;
  amount_off: number | null;
  currency: string;
  max_uses: number | null;
  ends_at: number | null;
  first_time_only: number;
  for_upgrades: number;
  plan: string | null;
  created_at: number;
  ended_at: number | null;
  uses: number;
  held: number;
  revenue: number;
}

/** The codes the worker made, newest first, each with its uses and revenue (codesWithFigures). */
export async function listLaunchCodes(db: D1Database, now = Date.now()): Promise<AdminLaunchCode[]> {
  const {results} = await db
    .prepare(`${codesWithFigures(now)} GROUP BY c.id ORDER BY c.created_at DESC, c.id LIMIT ${LISTED_CODES}`)
    .all<LaunchCodeRow>();
  return results.map((row) => shown(row, now));
}

/** The newest codes the console lists: a seller makes a few a launch, not thousands. */
const LISTED_CODES = 500;

/**
 * Each code with what it sold: purchases for a launch code, upgrades for an upgrade code (one list
 * of sales, so both kinds are counted alike). A use is a purchase Stripe applied it to, or an
 * upgrade priced with it, that the buyer paid for, refunded or disputed since or not (Stripe
 * counted the redemption; an upgrade code's paid upgrades are what its limit counts). Revenue is
 * what the sales still paid (status `paid`, as the Sales panel counts) took, less their partial
 * refunds: one refunded in full or lost to a dispute adds nothing. An upgrade code's `held` are the
 * uses checkouts in progress hold (upgradeCodeUses, for every purchase, less the paid ones).
 */
const codesWithFigures = (now: number) => `SELECT c.*, COUNT(s.id) AS uses,
    CASE WHEN c.for_upgrades = 1
      THEN ${upgradeCodeUses('c', "''", String(now - SESSION_LIFETIME_MS))} - ${upgradeCodePaidUses('c')} ELSE 0 END AS held,
    COALESCE(SUM(CASE WHEN s.status = 'paid' THEN s.paid - s.refunded END), 0) AS revenue
  FROM launch_codes c
  LEFT JOIN (
    SELECT promotion_code_id AS code_id, session_id AS id, status, COALESCE(amount_total, 0) AS paid, amount_refunded AS refunded
      FROM purchases WHERE promotion_code_id IS NOT NULL
    UNION ALL
    SELECT launch_code_id, session_id, status, COALESCE(amount_paid, 0), amount_refunded
      FROM upgrades WHERE launch_code_id IS NOT NULL
  ) s ON s.code_id = c.id AND s.status IN ('paid', 'revoked')`;

function shown(row: LaunchCodeRow, now: number): AdminLaunchCode {
  return {
    id: row.id,
    code: row.code,
    percentOff: row.percent_off,
    amountOff: row.amount_off,
    currency: row.currency,
    maxUses: row.max_uses,
    endsAt: row.ends_at,
    firstTimeOnly: row.first_time_only === 1,
    forUpgrades: row.for_upgrades === 1,
    plan: row.plan,
    createdAt: row.created_at,
    endedAt: row.ended_at,
    state: launchCodeState({endedAt: row.ended_at, endsAt: row.ends_at, maxUses: row.max_uses}, row.uses, now),
    uses: row.uses,
    held: row.held,
    revenue: row.revenue,
  };
}

/** The code's row with its figures, or null for an id the worker never made. */
async function readLaunchCode(db: D1Database, id: string, now = Date.now()): Promise<AdminLaunchCode | null> {
  const row = await db
    .prepare(`${codesWithFigures(now)} WHERE c.id = ?1 GROUP BY c.id`)
    .bind(id)
    .first<LaunchCodeRow>();
  return row ? shown(row, now) : null;
}

/**
 * Makes a launch code at Stripe: a coupon (what it takes off, once, restricted to a plan's
 * products when asked), then the promotion code buyers type, with its limits. Stripe checks
 * every limit at checkout; the worker records the code so the console can list and end it. An
 * upgrade code (`forUpgrades`) is never made at Stripe (Checkout takes one discount, and an
 * upgrade's is its credit): the worker records it alone, and keeps its limits itself
 * (upgrades/upgradeCode.ts); its plan is the plan upgraded to.
 *
 * The worker refuses first what Stripe would refuse with words the seller cannot act on: a code
 * already active (whatever its case, and whichever kind: a buyer types the text), an end date past
 * or years ahead, a plan the site does not sell, a plan whose product another plan shares.
 */
export async function createLaunchCode(
  db: D1Database,
  settings: Settings,
  request: LaunchCodeRequest,
  by: string,
  now = Date.now(),
): Promise<AdminLaunchCode> {
  if (request.endsAt !== undefined && request.endsAt <= now) throw new HttpError(400, LAUNCH_CODE_WORDS.pastEnd);
  if (request.endsAt !== undefined && request.endsAt > now + LAUNCH_CODE_LIMITS.maxDays * DAY_MS)
    throw new HttpError(400, LAUNCH_CODE_WORDS.tooFar);
  const plan = request.plan === undefined ? undefined : findStoredPlan(request.plan);
  if (request.plan !== undefined && plan?.id !== request.plan) throw new HttpError(400, LAUNCH_CODE_WORDS.unknownPlan);
  // An upgrade code for a plan no plan moves up to could never apply.
  if (
    request.forUpgrades &&
    plan &&
    !appConfig.plans.some((from) => upgradesFrom(from).some((to) => to.id === plan.id))
  )
    throw new HttpError(400, LAUNCH_CODE_WORDS.noUpgradeTo(plan.name));
  const twin = await db
    .prepare(
      `SELECT code FROM launch_codes
       WHERE upper(code) = upper(?1) AND ended_at IS NULL AND (ends_at IS NULL OR ends_at > ?2) LIMIT 1`,
    )
    .bind(request.code, now)
    .first<{code: string}>();
  if (twin) throw new HttpError(409, LAUNCH_CODE_WORDS.codeTaken(twin.code), 'CONFLICT');

  const made = request.forUpgrades
    ? {id: upgradeCodeId(), code: request.code, couponId: ''}
    : await promotionAtStripe(stripeFor(settings), settings, request, plan);
  try {
    await db
      .prepare(
        `INSERT INTO launch_codes (id, code, coupon_id, percent_off, amount_off, currency, max_uses, ends_at,
           first_time_only, plan, created_at, created_by, for_upgrades)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)`,
      )
      .bind(
        made.id,
        made.code,
        made.couponId,
        request.percentOff ?? null,
        request.amountOff ?? null,
        PLAN_CURRENCY,
        request.maxUses ?? null,
        request.endsAt ?? null,
        request.firstTimeOnly ? 1 : 0,
        plan?.id ?? null,
        now,
        by,
        request.forUpgrades ? 1 : 0,
      )
      .run();
  } catch (error) {
    // A code live at Stripe that the console does not know would sell unseen and could not be
    // ended here: switch it off before answering the failure. An upgrade code unrecorded is none.
    if (!request.forUpgrades)
      await stripeFor(settings)
        .promotionCodes.update(made.id, {active: false})
        .catch((stripeError: unknown) =>
          log.error('launch_code.left_active', {
            promotionCode: made.id,
            error: stripeError instanceof Error ? stripeError.message : String(stripeError),
          }),
        );
    throw error;
  }
  return (await readLaunchCode(db, made.id, now))!;
}

/** An upgrade code's id (UPGRADE_CODE_ID_PATTERN): the worker's own, as Stripe never sees the code. */
function upgradeCodeId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `upcode_${[...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/** The coupon and the promotion code buyers type at Stripe's Checkout, with the code's limits. */
async function promotionAtStripe(
  stripe: Stripe,
  settings: Settings,
  request: LaunchCodeRequest,
  plan: Plan | undefined,
): Promise<{id: string; code: string; couponId: string}> {
  const products = plan ? await productsOnlyOf(stripe, settings, plan) : undefined;
  const coupon = await stripe.coupons
    .create({
      ...(request.percentOff !== undefined
        ? {percent_off: request.percentOff}
        : {amount_off: request.amountOff!, currency: PLAN_CURRENCY}),
      duration: 'once',
      name: launchCodeCouponName(request.code),
      ...(products && {applies_to: {products}}),
      metadata: MADE_BY,
    })
    .catch((error: unknown) => {
      throw paymentProviderError(error);
    });
  try {
    const promotion = await stripe.promotionCodes.create({
      promotion: {type: 'coupon', coupon: coupon.id},
      code: request.code,
      ...(request.maxUses !== undefined && {max_redemptions: request.maxUses}),
      ...(request.endsAt !== undefined && {expires_at: Math.floor(request.endsAt / 1000)}),
      restrictions: {first_time_transaction: request.firstTimeOnly ?? false},
      metadata: MADE_BY,
    });
    return {id: promotion.id, code: promotion.code, couponId: coupon.id};
  } catch (error) {
    // Stripe's refusal of the code itself (one taken that the console did not make, say) is the
    // seller's to fix; the coupon made for it stays unused, as buyers type codes, never coupon ids.
    if (error instanceof Stripe.errors.StripeInvalidRequestError)
      throw new HttpError(400, `Stripe refused the code: ${error.message}`);
    throw paymentProviderError(error);
  }
}

/**
 * The Stripe products a code for `plan` alone applies to: those of its prices in the key's mode
 * (its seats, its tiers). Stripe restricts a coupon by product, not by price, so a product another
 * plan also sells on would let the code work there too: refused, with what to change.
 */
async function productsOnlyOf(stripe: Stripe, settings: Settings, plan: Plan): Promise<string[]> {
  const productOf = async (priceId: string) => {
    const {product} = await stripe.prices.retrieve(priceId).catch((error: unknown) => {
      throw paymentProviderError(error);
    });
    return typeof product === 'string' ? product : product.id;
  };
  const ofPlan = async (each: Plan) =>
    new Set(await Promise.all(planPrices(each).map(({priceId}) => productOf(priceId[settings.stripeMode]))));
  const own = await ofPlan(plan);
  for (const other of appConfig.plans.filter((candidate) => candidate.id !== plan.id)) {
    if ([...(await ofPlan(other))].some((product) => own.has(product)))
      throw new HttpError(400, LAUNCH_CODE_WORDS.sharedProduct(plan.name, other.name));
  }
  return [...own];
}

/**
 * Ends a code the worker made: Stripe stops taking it (`active: false`), and the console shows it
 * ended. Purchases already paid with it keep their discount. An upgrade code is the worker's
 * alone: ended in D1, no upgrade session is priced with it from then on.
 */
export async function endLaunchCode(db: D1Database, settings: Settings, id: string, now = Date.now()) {
  const code = await readLaunchCode(db, id, now);
  if (!code) throw new HttpError(404, LAUNCH_CODE_WORDS.notOurs, 'NOT_FOUND');
  if (code.endedAt !== null) throw new HttpError(409, LAUNCH_CODE_WORDS.alreadyEnded, 'CONFLICT');
  if (!code.forUpgrades) {
    try {
      await stripeFor(settings).promotionCodes.update(id, {active: false});
    } catch (error) {
      throw paymentProviderError(error);
    }
  }
  await db.prepare('UPDATE launch_codes SET ended_at = ?2 WHERE id = ?1 AND ended_at IS NULL').bind(id, now).run();
  return code;
}
