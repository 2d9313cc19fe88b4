/**
 * Launch codes: Stripe promotion codes the seller makes in the console (issue 43). A buyer types
 * one in Checkout's own "Add promotion code" field; Stripe checks it and takes the discount off,
 * so the worker never prices a code itself. The console lists the codes the worker made, with
 * their uses and revenue from the purchases Stripe recorded them on, and ends one at Stripe.
 *
 * Codes never stack with a country's fair price: a session with a fair-price coupon has no code
 * field (worker/src/payments/fairPriceCheckout.ts).
 *
 * An upgrade code is for past buyers only: it is never a Stripe promotion code, so Checkout's code
 * field never takes it. A signed-in buyer types it on the dashboard's upgrade card, and the worker
 * takes it off the upgrade's price itself (Checkout takes one discount, and an upgrade's is its
 * credit for the plan already bought): worker/src/upgrades/. Its limits are the worker's to keep.
 */
import {formatDay} from './dates';
import {formatMoney} from './money';
import {findStoredPlan} from './plans';
import {SMALLEST_CHARGE} from './upgrades';

/**
 * What a buyer types: letters, digits and dashes, as Stripe allows, at most 40 of them (Stripe
 * takes 500; a code is read off a post and typed by hand). Unique, whatever the case, among the
 * codes still active: Stripe refuses a second, and so does the worker first.
 */
export const LAUNCH_CODE_PATTERN = /^[A-Za-z0-9-]{3,40}$/;

/** The most uses a code may be given, and the furthest ahead it may end (days): a typo's guard. */
export const LAUNCH_CODE_LIMITS = {maxUses: 100_000, maxDays: 3 * 366} as const;

/**
 * An upgrade code's id, made by the worker (a launch code's is Stripe's promotion code id, `promo_…`):
 * `upcode_` and 24 hex digits.
 */
export const UPGRADE_CODE_ID_PATTERN = /^upcode_[0-9a-f]{24}$/;

/**
 * Where a code stands, as the console shows it, whether Stripe or the worker holds it. `active`:
 * buyers can use it. `ended`: the seller ended it. `expired`: past its end date. `used up`: paid
 * for as many times as it allows.
 */
export const LAUNCH_CODE_STATES = {
  active: 'Active: buyers can use it.',
  ended: 'Ended: you ended it, and no buyer can use it now.',
  expired: 'Expired: its end date has passed.',
  'used up': 'Used up: it has been used as many times as it allows.',
} as const;
export type LaunchCodeState = keyof typeof LAUNCH_CODE_STATES;

/**
 * Where a code stands at `now`, given the uses paid with it: ended by the seller first, then past
 * its date, then used up. One rule for both kinds: the console lists it, and the worker refuses an
 * upgrade code by it (worker/src/upgrades/upgradeCode.ts).
 */
export function launchCodeState(
  code: {endedAt: number | null; endsAt: number | null; maxUses: number | null},
  paidUses: number,
  now: number,
): LaunchCodeState {
  if (code.endedAt !== null) return 'ended';
  if (code.endsAt !== null && code.endsAt <= now) return 'expired';
  if (code.maxUses !== null && paidUses >= code.maxUses) return 'used up';
  return 'active';
}

/**
 * The console's Uses cell: paid uses, of the most it allows, and an upgrade code's uses held by
 * checkouts in progress, which count against its limit until paid or a day old.
 */
export function launchCodeUsesLine(code: {uses: number; maxUses: number | null; held: number}): string {
  const uses = code.maxUses === null ? String(code.uses) : `${code.uses} / ${code.maxUses}`;
  return code.held === 0
    ? uses
    : `${uses} (${code.held} held by ${code.held === 1 ? 'a checkout' : 'checkouts'} in progress)`;
}

/** The coupon's name at Stripe (40 characters at most): what the receipt and the dashboard show. */
export function launchCodeCouponName(code: string): string {
  return `Code ${code}`.slice(0, 40);
}

/** The console's refusals, as the seller reads them. */
export const LAUNCH_CODE_WORDS = {
  codeTaken: (code: string) =>
    `A code ${code} is already active (codes are the same whatever their case). End it first, or pick another.`,
  alreadyEnded: 'This code has already ended.',
  notOurs: 'No code with this id was made in the console.',
  pastEnd: 'The end date must be in the future.',
  tooFar: `The end date must be within ${LAUNCH_CODE_LIMITS.maxDays} days.`,
  unknownPlan: 'There is no plan with this id: pick one the site sells.',
  noUpgradeTo: (plan: string) =>
    `No plan moves up to ${plan}, so an upgrade code for it could never apply: pick a plan buyers upgrade to, or every upgrade.`,
  upgradeFirstTime:
    'An upgrade code is for past buyers, so it cannot be for first-time buyers only too: untick one of them.',
  sharedProduct: (plan: string, other: string) =>
    `${plan} shares a Stripe product with ${other}, and Stripe limits a code by product: a code for ${plan} alone would work for ${other} too. Give each plan a product of its own in Stripe, or make the code for every plan.`,
} as const;

/**
 * The console's words for ending a code, asked before and said after. A promotion code is Stripe's
 * to stop taking; an upgrade code never was at Stripe: the worker stops pricing upgrades with it,
 * and a checkout already opened with it keeps its price.
 */
export const LAUNCH_CODE_ENDING = {
  question: ({code, forUpgrades}: {code: string; forUpgrades: boolean}) =>
    forUpgrades
      ? `No buyer can use ${code} from then on; upgrades already paid with it, or whose checkout is already open, keep their price.`
      : `Stripe stops taking ${code} at once; purchases already paid with it keep their discount.`,
  done: ({code, forUpgrades}: {code: string; forUpgrades: boolean}) =>
    forUpgrades ? `${code} ended: no buyer can use it now.` : `${code} ended: Stripe no longer takes it.`,
} as const;

/**
 * Why an upgrade code does not apply, as the buyer reads it on the dashboard (GET /upgrades?code=
 * answers it in `code.refused`; POST /createUpgradeSession refuses with it, 409).
 */
export const UPGRADE_CODE_WORDS = {
  unknown: 'There is no upgrade code like this: check how it is spelled.',
  ended: 'This code has ended.',
  expired: (day: string) => `This code expired on ${day}.`,
  usedUp: 'This code has been used as many times as it allows.',
  held: 'The last uses of this code are held by checkouts in progress: a checkout not paid within a day gives its use back.',
  otherPlan: (plan: string) => `This code is for upgrades to ${plan} only.`,
  fairPrice: "Your upgrade is already at your country's fair price, and a code does not combine with it.",
  seats: 'An upgrade code takes off a move to a higher plan, not seats added.',
} as const;

/**
 * What an upgrade costs with a code: the code's percent of the amount (rounded to the cent), or its
 * amount, taken off; never below Stripe's smallest charge, which Checkout needs to take a payment.
 */
export function upgradeCodeAmount(amount: number, code: {percentOff: number | null; amountOff: number | null}): number {
  const off = code.percentOff !== null ? Math.round((amount * code.percentOff) / 100) : (code.amountOff ?? 0);
  return Math.max(SMALLEST_CHARGE, amount - off);
}

/** What a code gives and its limits, as one line: the console's table and the admin log read the same. */
export function launchCodeTerms(code: {
  percentOff: number | null;
  amountOff: number | null;
  currency: string;
  maxUses: number | null;
  endsAt: number | null;
  firstTimeOnly: boolean;
  forUpgrades: boolean;
  plan: string | null;
}): string {
  const off =
    code.percentOff !== null ? `${code.percentOff}% off` : `${formatMoney(code.amountOff, code.currency)} off`;
  const planName = code.plan === null ? null : (findStoredPlan(code.plan)?.name ?? code.plan);
  return [
    code.forUpgrades
      ? `${off} upgrades${planName === null ? '' : ` to ${planName}`}, past buyers only`
      : planName === null
        ? off
        : `${off} ${planName} only`,
    code.firstTimeOnly ? 'first-time buyers only' : null,
    code.maxUses === null ? null : `at most ${code.maxUses} ${code.maxUses === 1 ? 'use' : 'uses'}`,
    code.endsAt === null ? null : `until ${formatDay(code.endsAt)}`,
  ]
    .filter((part) => part !== null)
    .join(', ');
}
