/**
 * The affiliate programme (issue 43, the spec's "30% per sale"): a signed-in user joins at
 * `/affiliates`, names a code and shares a link (`/?via=code`). A visit through the link is kept in
 * the visitor's own browser (local storage, never a cookie) for `referralDays`; the checkout sends
 * the visit's id and the worker, which recorded the visit, decides whether it still counts. On
 * payment the worker credits `commissionPercent` of what was paid, after discounts and before tax,
 * and holds it until a refund or a dispute is no longer likely (`commissionHoldDays`). The seller
 * pays affiliates by their own means and marks each payout made in the console.
 *
 * Nothing here is trusted from the browser: the code names an affiliate, the visit's id finds a
 * visit the worker recorded, and every amount and rate is the worker's.
 */
import {appConfig} from './app';
import {DAY_MS} from './dates';
import {formatMoney} from './money';
import type {AppConfig} from './types';

/** The query parameter of an affiliate's link: `https://your.site/?via=code`. */
export const AFFILIATE_PARAM = 'via';

/**
 * What an affiliate names their code: lower-case letters, digits and dashes, 3 to 32 of them, not
 * starting or ending with a dash. It is a link's part, so it is kept lower-case and unique.
 */
export const AFFILIATE_CODE_PATTERN = /^[a-z0-9](?:[a-z0-9-]{1,30})[a-z0-9]$/;
export const AFFILIATE_CODE_RULE =
  'A code is 3 to 32 lower-case letters, digits and dashes, starting and ending with a letter or a digit';

/**
 * The programme, or undefined when the seller runs none (`affiliates` in app.ts), or when its
 * figures are out of bounds (`affiliateProblems`): a typo must not credit more than a sale, so
 * the site shows no programme and the worker credits nothing until it is fixed. `npm test` and
 * `npm run preflight` name the problem.
 */
export function affiliateProgramme(config: AppConfig = appConfig): AppConfig['affiliates'] {
  return affiliateProblems(config).length === 0 ? config.affiliates : undefined;
}

/**
 * Whether the programme pays affiliates through Stripe Connect (`affiliates.stripeConnect`): the
 * affiliate sets up an Express account from their page, and the console sends each payout as a
 * transfer. Off, the seller pays by their own means and marks each payout made.
 */
export function stripeConnectOn(config: AppConfig = appConfig): boolean {
  return affiliateProgramme(config)?.stripeConnect === true;
}

/** The bounds of the programme's figures: a whole percent of a sale, and whole days. */
export const AFFILIATE_BOUNDS = {
  commissionPercent: {least: 1, most: 100},
  referralDays: {least: 1, most: 365},
  disputeDays: {least: 0, most: 365},
} as const;

/** What is wrong with the programme's figures in the config, as a seller reads it; empty when nothing is (or no programme). */
export function affiliateProblems(config: AppConfig = appConfig): string[] {
  const programme = config.affiliates;
  if (!programme) return [];
  return (Object.keys(AFFILIATE_BOUNDS) as (keyof typeof AFFILIATE_BOUNDS)[]).flatMap((key) => {
    const value = programme[key];
    const {least, most} = AFFILIATE_BOUNDS[key];
    return Number.isInteger(value) && value >= least && value <= most
      ? []
      : [`affiliates.${key} is ${String(value)}: it must be a whole number from ${least} to ${most}`];
  });
}

/**
 * Days from a purchase's payment until its commission may be paid: the longest a buyer may ask for
 * their money back (the guarantee, the right of withdrawal), then the programme's dispute period.
 */
export function commissionHoldDays(config: AppConfig = appConfig): number {
  const programme = config.affiliates;
  if (!programme) return 0;
  const refundDays = Math.max(config.guarantee.days, config.withdrawal.enabled ? config.withdrawal.days : 0);
  return refundDays + programme.disputeDays;
}

/** When a commission on a purchase paid at `paidAt` becomes payable. */
export function commissionPayableAt(paidAt: number, config: AppConfig = appConfig): number {
  return paidAt + commissionHoldDays(config) * DAY_MS;
}

/**
 * Where a commission stands, as the affiliate and the console read it. `pending`: held until its
 * purchase can no longer be refunded or disputed easily. `payable`: held long enough, not yet
 * paid. `paid`: the seller paid it. `sending`: in a payout through Stripe not yet confirmed.
 * `refundedAfterPayout`: paid, and its purchase refunded or
 * disputed since: the share refunded is taken off a payout. `cancelled`: its purchase was refunded
 * in full or disputed before it was paid (a partial refund lowers it instead).
 */
export const COMMISSION_STATES = {
  pending: 'Pending: held until the refund and dispute period is over.',
  payable: 'Payable: the seller pays it with the next payout.',
  paid: 'Paid.',
  sending: 'Being sent: the seller sent it through Stripe, which has not confirmed it yet.',
  refundedAfterPayout: 'Refunded after it was paid: what was paid for the refunded share is taken off a payout.',
  cancelled: 'Cancelled: the purchase was refunded or disputed.',
} as const;
export type CommissionState = keyof typeof COMMISSION_STATES;

/** The words of the affiliate's page and the console. */
export const AFFILIATE_WORDS = {
  heading: 'Affiliates',
  pitch: (percent: number) => `Earn ${percent}% of every sale you send our way.`,
  terms: (config: AppConfig = appConfig) => {
    const programme = config.affiliates;
    if (!programme) return '';
    return [
      `You earn ${programme.commissionPercent}% of what a buyer you sent paid, after discounts and before tax.`,
      `A visit through your link counts for ${programme.referralDays} days, and the last link a visitor followed wins.`,
      `Each commission is held for ${commissionHoldDays(config)} days after the payment, while the buyer may still ask for a refund or dispute it; a refund or a dispute cancels it.`,
      'Your own purchases earn nothing.',
    ];
  },
  signInToJoin: 'Sign in to join the programme and get your link.',
  join: 'Join the programme',
  codeLabel: 'Your code',
  codeTaken: 'This code is taken: pick another.',
  alreadyJoined: 'You have already joined: your link is below.',
  notJoined: 'You have not joined the affiliate programme.',
  emailNotVerified:
    'Verify your e-mail before you join: sign in with Google or with an e-mail link, which prove it. Commission is credited to a verified address.',
  noProgramme: 'There is no affiliate programme.',
  unknownCode: 'No affiliate has this code.',
  unknownVisit: 'This referral is unknown or has expired.',
  selfReferral: 'A purchase by the affiliate themselves earns no commission.',
  payoutNothing: 'Nothing is payable to this affiliate.',
  owedBack: 'Owed back',
  owedBackNote:
    'Commission paid on purchases refunded or disputed since, beyond what is payable: it is taken off the next payouts.',
  payoutChanged: (payable: number, currency: string) =>
    `What is payable has changed since you looked: it is ${formatMoney(payable, currency)} now. Check it, then pay again.`,
  payoutMade: (amount: number, currency: string, reference: string) =>
    `Marked ${formatMoney(amount, currency)} paid (${reference}).`,

  // The affiliate's page (/affiliates).
  description: (appName: string) => `Join the ${appName} affiliate programme: share your link, earn on every sale.`,
  termsHeading: 'How it works',
  signIn: 'Sign in to join',
  loading: 'Loading your affiliate account',
  loadFailed: 'Your affiliate account could not be loaded.',
  tryAgain: 'Try again',
  joinHeading: 'Pick your code',
  joinIntro: 'Your code is the end of your link. It cannot be changed once you join.',
  joining: 'Joining',
  linkHeading: 'Your link',
  linkLabel: 'Your affiliate link',
  copy: 'Copy link',
  copied: 'Copied.',
  copyFailed: 'Could not copy: select the link and copy it.',
  joinedOn: (code: string, day: string) => `Your code is ${code}, since ${day}.`,
  figuresHeading: 'Your figures',
  clicks: 'Clicks',
  clicksNote: 'Visits through your link, counted once per visitor and day.',
  sales: 'Sales',
  pending: 'Pending',
  payable: 'Payable',
  paid: 'Paid',
  commissionsHeading: 'Commissions',
  commissionsCaption: 'Your commissions, newest first',
  noCommissions: 'No commissions yet: share your link.',
  columns: {
    date: 'Date',
    amount: 'Amount paid',
    commission: 'Commission',
    state: 'State',
    payableFrom: 'Payable from',
  },

  // The console's Affiliates view.
  consoleIntro:
    'Affiliates earn a share of the sales their link brings. Pay them by your own means, then mark the payout here.',
  consoleCaption: 'Affiliates',
  noAffiliates: 'No affiliates yet.',
  loadingAffiliates: 'Loading affiliates',
  consoleColumns: {
    code: 'Code',
    email: 'E-mail',
    joined: 'Joined',
    clicks: 'Clicks',
    sales: 'Sales',
    pending: 'Pending',
    payable: 'Payable',
    paid: 'Paid',
    lastPayout: 'Last payout',
    action: 'Action',
    /** Shown only when the programme pays through Stripe (`stripeConnect`). */
    stripe: 'Stripe',
  },
  totalPending: 'Pending, all affiliates',
  totalPayable: 'Payable, all affiliates',
  totalPaid: 'Paid, all affiliates',
  totalOwedBack: 'Owed back, all affiliates',
  payableOwing: (payable: string, owedBack: string) =>
    `${payable} (${owedBack} owed back from refunds after a payout, taken off later payouts)`,
  lastPayout: (amount: number, currency: string, day: string, reference: string) =>
    `${formatMoney(amount, currency)} on ${day} (${reference})`,
  markPaid: 'Mark paid',
  referenceLabel: 'Payment reference',
  referenceHint: 'Your transfer id or invoice number, kept with the payout.',
  markPaidQuestion: (amount: number, currency: string, code: string) =>
    `You paid ${formatMoney(amount, currency)} to ${code}: their payable commission is marked paid.`,
  csvDone: 'The commissions were downloaded as CSV.',

  // Payouts through Stripe Connect (`stripeConnect`): the affiliate's page.
  payoutsHeading: 'Payouts',
  stripeStates: {
    unconnected: 'Set up payouts with Stripe and what you earn is sent to your bank account through Stripe.',
    onboarding: 'Stripe still needs some details, or is checking them, before it can pay you.',
    ready:
      'Payouts are set up: the seller sends what is payable to your Stripe account, and Stripe pays it out to your bank.',
  },
  connectActions: {
    unconnected: 'Set up payouts with Stripe',
    onboarding: 'Finish setting up with Stripe',
    ready: 'Open your Stripe dashboard',
  },
  connecting: 'Opening Stripe',
  connectFailed: 'Stripe could not be reached: try again in a moment.',
  connectOff: 'Payouts through Stripe are off: the seller pays affiliates by their own means.',

  // Payouts through Stripe Connect: the console.
  consoleStripeStates: {
    unconnected: 'Not set up with Stripe',
    onboarding: 'Setting up with Stripe',
    ready: 'Set up with Stripe',
  },
  payThroughStripe: 'Pay through Stripe',
  payThroughStripeQuestion: (amount: number, currency: string, code: string) =>
    `Send ${formatMoney(amount, currency)} to ${code} through Stripe, from your Stripe balance to their account: their payable commission is marked paid.`,
  transferMade: (amount: number, currency: string, transferId: string) =>
    `Sent ${formatMoney(amount, currency)} through Stripe (${transferId}).`,
  transferSending: (amount: number, currency: string) =>
    `Sending ${formatMoney(amount, currency)} through Stripe: Stripe has not answered yet, and the worker asks again until it does. It is sent once.`,
  /** A transfer made, said by the console when the worker's answer said nothing more. */
  transferSent: (amount: number, currency: string) => `Sent ${formatMoney(amount, currency)} through Stripe.`,
  transferRefused: (reason: string) => `Stripe refused the transfer, and nothing was marked paid: ${reason}`,
  balanceInsufficient:
    'your Stripe balance has too little available. Add funds, or wait until pending payments are available, and send it again.',
  stripeNotReady: 'This affiliate has not finished setting up payouts with Stripe.',
  lastPayoutSending: (amount: number, currency: string, day: string) =>
    `${formatMoney(amount, currency)} on ${day}, sending through Stripe`,
} as const;
