import type {AdminActionResult} from '../../../config/api';
/** How the console writes money, times and the worker's states. Timestamps are milliseconds. */
import type {
  AdminAction,
  GrantStatus,
  PurchaseFlag,
  PurchaseState,
  SalesPeriod,
  UpgradeState,
} from '../../../config/api';
import {formatMoney} from '../../../config/money';

/** An amount in the currency's smallest unit (cents), written in that currency: 6900 USD is $69.00. */
export const money = formatMoney;

const dateTime = new Intl.DateTimeFormat('en-GB', {dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC'});
const dateOnly = new Intl.DateTimeFormat('en-GB', {dateStyle: 'medium', timeZone: 'UTC'});
const monthOnly = new Intl.DateTimeFormat('en-GB', {month: 'short', year: 'numeric', timeZone: 'UTC'});

/** A moment, in UTC like the sales days: `3 Jun 2026, 14:05 UTC`. */
export function when(at: number): string {
  return `${dateTime.format(at)} UTC`;
}

/** A day: `3 Jun 2026`. */
export function day(at: number | string): string {
  return dateOnly.format(typeof at === 'string' ? Date.parse(`${at}T00:00:00Z`) : at);
}

export const PURCHASE_STATES: Record<PurchaseState, string> = {
  paid: 'Paid',
  refunded: 'Refunded',
  disputed: 'Disputed',
  open: 'Not paid yet',
  failed: 'Payment failed',
};

export const UPGRADE_STATES: Record<UpgradeState, string> = {
  paid: 'Paid',
  refunded: 'Refunded',
  disputed: 'Disputed',
  refused: 'Not applied',
  failed: 'Payment failed',
};

/** Access that still gives the buyer something: an invitation on its way or out, or a seat in use. */
export const LIVE_ACCESS: readonly string[] = ['queued', 'pending', 'active'];

export const ACCESS_STATES: Record<GrantStatus, string> = {
  queued: 'Invitation queued',
  pending: 'Invitation pending',
  active: 'Active',
  revoked: 'Revoked',
  removal_failed: 'Removal failed',
  failed: 'Invitation failed',
};

/** What a purchase may be flagged for, as the filter names it. */
export const PURCHASE_FLAGS: Record<PurchaseFlag, string> = {
  card_country: 'Card from another country',
};

export const ADMIN_ACTIONS: Record<AdminAction, string> = {
  grant: 'Granted access',
  revoke: 'Revoked access',
  resend: 'Resent the invitation',
  reset_username_changes: 'Reset the username changes',
  take_back_member: "Took back a team member's seat",
  refund: 'Refunded',
  retry_job: 'Retried a job',
  repository_fix: 'Fixed a repository difference',
  resend_release: 'Sent a release again to those who failed',
  accept_card_country: "Accepted a card from another country than the fair price's",
  create_code: 'Made a launch code',
  end_code: 'Ended a launch code',
  affiliate_payout: 'Marked an affiliate payout',
};

/** The Sales panel's periods, as its picker and its cards name them. */
export const PERIODS: Record<SalesPeriod, string> = {
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '12m': 'Last 12 months',
  all: 'All time',
};

/** A month, from its first day: `Jun 2026`. */
export function month(first: string): string {
  return monthOnly.format(Date.parse(`${first}T00:00:00Z`));
}

/** "never", "once", "twice", "3 times". */
export function times(count: number): string {
  return count === 0 ? 'never' : count === 1 ? 'once' : count === 2 ? 'twice' : `${count} times`;
}

/**
 * What an action's outcome adds to the console's own sentence, by the worker's status word, where
 * it adds something the seller should know (the admin log keeps the worker's full detail).
 */
const OUTCOMES: Record<string, string> = {
  queued: 'The invitation is queued (GitHub busy, or its daily limit reached): it goes out by itself.',
  active: 'The account was already on the repository.',
  failed: 'It failed again: its last error is in the list.',
  retrying: 'It did not go through yet and will be tried again.',
};

/** The console's sentence for an action that worked, and what its outcome adds. */
export function answerText(answer: AdminActionResult | null, done: string): string {
  const added = answer ? OUTCOMES[answer.status] : undefined;
  return added ? `${done} ${added}` : done;
}

/** Stripe's events, as a seller says them. */
const STRIPE_EVENTS: Record<string, string> = {
  'checkout.session.completed': 'Checkout completed',
  'checkout.session.async_payment_succeeded': 'Delayed payment went through',
  'checkout.session.async_payment_failed': 'Delayed payment failed',
  'charge.refunded': 'Stripe refunded the payment',
  // A refund that failed or was canceled is one: the payment's amount refunded went back down.
  'charge.refund.updated': 'Stripe updated a refund',
  'charge.dispute.created': 'The buyer disputed the payment',
  'charge.dispute.closed': 'The dispute closed',
};

export function stripeEvent(type: string): string {
  return STRIPE_EVENTS[type] ?? type;
}

/** A job's or an event's state, as a word for the seller. */
export const EVENT_STATES: Record<string, string> = {
  done: 'done',
  failed: 'failed',
  pending: 'waiting',
  retrying: 'will be retried',
};
