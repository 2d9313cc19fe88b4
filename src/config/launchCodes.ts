/**
 * Launch codes: Stripe promotion codes the seller makes in the console (issue 43). A buyer types
 * one in Checkout's own "Add promotion code" field; Stripe checks it and takes the discount off,
 * so the worker never prices a code itself. The console lists the codes the worker made, with
 * their uses and revenue from the purchases Stripe recorded them on, and ends one at Stripe.
 *
 * Codes never stack with a country's fair price: a session with a fair-price coupon has no code
 * field (worker/src/payments/fairPriceCheckout.ts).
 */
import {formatDay} from './dates';
import {formatMoney} from './money';
import {findStoredPlan} from './plans';

/**
 * What a buyer types: letters, digits and dashes, as Stripe allows, at most 40 of them (Stripe
 * takes 500; a code is read off a post and typed by hand). Unique, whatever the case, among the
 * codes still active: Stripe refuses a second, and so does the worker first.
 */
export const LAUNCH_CODE_PATTERN = /^[A-Za-z0-9-]{3,40}$/;

/** The most uses a code may be given, and the furthest ahead it may end (days): a typo's guard. */
export const LAUNCH_CODE_LIMITS = {maxUses: 100_000, maxDays: 3 * 366} as const;

/**
 * Where a code stands, as the console shows it. `active`: Stripe takes it. `ended`: the seller
 * ended it. `expired`: past its end date. `used up`: paid for as many times as it allows.
 */
export const LAUNCH_CODE_STATES = {
  active: 'Active: buyers can use it at checkout.',
  ended: 'Ended: you ended it, and Stripe no longer takes it.',
  expired: 'Expired: its end date has passed.',
  'used up': 'Used up: it has been used as many times as it allows.',
} as const;
export type LaunchCodeState = keyof typeof LAUNCH_CODE_STATES;

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
  sharedProduct: (plan: string, other: string) =>
    `${plan} shares a Stripe product with ${other}, and Stripe limits a code by product: a code for ${plan} alone would work for ${other} too. Give each plan a product of its own in Stripe, or make the code for every plan.`,
} as const;

/** What a code gives and its limits, as one line: the console's table and the admin log read the same. */
export function launchCodeTerms(code: {
  percentOff: number | null;
  amountOff: number | null;
  currency: string;
  maxUses: number | null;
  endsAt: number | null;
  firstTimeOnly: boolean;
  plan: string | null;
}): string {
  const off =
    code.percentOff !== null ? `${code.percentOff}% off` : `${formatMoney(code.amountOff, code.currency)} off`;
  return [
    code.plan === null ? off : `${off} ${findStoredPlan(code.plan)?.name ?? code.plan} only`,
    code.firstTimeOnly ? 'first-time buyers only' : null,
    code.maxUses === null ? null : `at most ${code.maxUses} ${code.maxUses === 1 ? 'use' : 'uses'}`,
    code.endsAt === null ? null : `until ${formatDay(code.endsAt)}`,
  ]
    .filter((part) => part !== null)
    .join(', ');
}
