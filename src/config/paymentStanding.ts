/**
 * What the dashboard tells a buyer about their money and their access when a payment did not stay
 * simply paid: refunded in full, disputed, reversed by a lost dispute, partly refunded, or another
 * purchase of theirs refunded. Each state has its own words, with its dates, from the worker's
 * answer (AccessStatus.payment, AccessStatus.otherEnded). The seller's revocation is told in
 * `afterPurchase.revokedBySeller`.
 */
import {appConfig} from './app';
import type {PaymentStanding} from './api';
import {formatDay} from './dates';
import {formatMoney} from './money';

/** The states in which the purchase's access was taken back. */
export type EndedState = 'refunded' | 'disputed' | 'dispute_lost';

export function hasEnded(standing: PaymentStanding | undefined): standing is PaymentStanding & {state: EndedState} {
  return standing?.state === 'refunded' || standing?.state === 'disputed' || standing?.state === 'dispute_lost';
}

/** "your Slipway Advanced purchase of 3 May 2026" */
function purchaseOf(standing: PaymentStanding): string {
  return `${appConfig.appName} ${standing.plan.name} purchase of ${formatDay(standing.boughtAt)}`;
}

const since = (standing: PaymentStanding) => formatDay(standing.since ?? standing.boughtAt);

/** What became of the purchase, after its name: "was refunded in full on 5 May 2026". */
function whatBecame(standing: PaymentStanding & {state: EndedState}): string {
  switch (standing.state) {
    case 'refunded':
      return `was refunded in full on ${since(standing)}`;
    case 'disputed':
      return `has been disputed with your bank or card issuer since ${since(standing)}`;
    case 'dispute_lost':
      return `was reversed by your bank or card issuer on ${since(standing)}, when its dispute closed in your favour`;
  }
}

/** What became of its access, after "so": ended, or suspended while a dispute is open. */
function itsAccess(state: EndedState): string {
  return state === 'disputed' ? 'its access is suspended while the dispute is open' : 'its access ended';
}

/** What happened to the access: withdrawn from the GitHub account it was for, and the download stopped. */
function accessTaken(username: string | undefined): string {
  const github = username
    ? `@${username}'s invitation to the private repository on GitHub is withdrawn, or the account removed from it`
    : 'no GitHub account is invited for it';
  return appConfig.repository.downloads ? `${github}, and the code can no longer be downloaded here` : github;
}

/** The words of the dashboard of a buyer whose only purchase left was refunded or disputed. */
export function endedPurchase(standing: PaymentStanding & {state: EndedState}, username?: string): {title: string; paragraphs: string[]} {
  const {appName, support} = appConfig;
  const opening = `Your ${purchaseOf(standing)} ${whatBecame(standing)}`;
  switch (standing.state) {
    case 'refunded':
      return {
        title: `Your ${appName} purchase was refunded`,
        paragraphs: [
          `${opening}: ${formatMoney(standing.refunded > 0 ? standing.refunded : standing.amount, standing.currency)} went back to the payment method you used.`,
          `With the refund, its access to the code ended: ${accessTaken(username)}. Its licence to use the code ended too, as the Terms of Service say.`,
          `Your receipts stay below, the refund with them. To use ${appName} again, choose a plan.`,
        ],
      };
    case 'disputed':
      return {
        title: `Your ${appName} purchase is disputed`,
        paragraphs: [
          `${opening}. A dispute asks the bank to reverse the payment, here of ${formatMoney(standing.amount, standing.currency)}.`,
          `While the dispute is open, its access to the code is suspended: ${accessTaken(username)}. If the dispute closes in the seller's favour, the access comes back by itself, for the same GitHub account; if it closes in yours, the money is returned to you and the access ends for good.`,
          `Your receipts stay below. Questions about the dispute: write to ${support.email}.`,
        ],
      };
    case 'dispute_lost':
      return {
        title: `Your ${appName} purchase was reversed`,
        paragraphs: [
          `${opening}: the payment was returned to you.`,
          `With that, its access to the code ended: ${accessTaken(username)}. Its licence to use the code ended too, as the Terms of Service say.`,
          `Your receipts stay below. To use ${appName} again, choose a plan.`,
        ],
      };
  }
}

/**
 * A note beside a paid purchase: part of it refunded (the access stays), or another purchase of the
 * account refunded or disputed (its access went, this one's stays). Empty when there is nothing to say.
 */
export function standingNotes(payment: PaymentStanding | undefined, otherEnded: PaymentStanding | undefined): string[] {
  const notes: string[] = [];
  if (payment?.state === 'partly_refunded') {
    notes.push(
      `${formatMoney(payment.refunded, payment.currency)} of the ${formatMoney(payment.amount, payment.currency)} you paid for your ${purchaseOf(payment)} was refunded on ${since(payment)}. A partial refund keeps the purchase, its plan and its access.`,
    );
  }
  if (hasEnded(otherEnded)) {
    const current = payment ? `Your ${purchaseOf(payment)} is paid, and the access below is its own.` : '';
    notes.push(`Your other ${purchaseOf(otherEnded)} ${whatBecame(otherEnded)}, so ${itsAccess(otherEnded.state)}. ${current}`.trim());
  }
  return notes;
}
