/**
 * What the dashboard tells a buyer about their money and their access when a payment did not stay
 * simply paid: refunded in full, disputed, reversed by a lost dispute, partly refunded, an upgrade
 * of the purchase refunded or disputed on its own, or another purchase of theirs refunded. Each
 * state has its own words, with its dates, from the worker's answer (AccessStatus.payment,
 * AccessStatus.otherEnded). A purchase's upgrades are payments of their own: a refund of the
 * purchase at Stripe leaves them charged, and the words add up what truly went back. The seller's
 * revocation is told in `afterPurchase.revokedBySeller`; on a purchase refunded or disputed since,
 * here, and what is said of GitHub is what the purchase's grant says is so (a removal still tried,
 * or failed, is not called done).
 */
import {appConfig} from './app';
import type {AccessStatus, PaymentStanding, UpgradeStanding} from './api';
import {formatDay} from './dates';
import {formatMoney} from './money';

/** The states in which the purchase's access was taken back. */
export type EndedState = 'refunded' | 'disputed' | 'dispute_lost';

export function hasEnded(standing: PaymentStanding | undefined): standing is PaymentStanding & {state: EndedState} {
  return standing?.state === 'refunded' || standing?.state === 'disputed' || standing?.state === 'dispute_lost';
}

/** "your Slipway Starter purchase of 3 May 2026": the plan its own payment bought. */
function purchaseOf(standing: PaymentStanding): string {
  return `${appConfig.appName} ${standing.plan.name} purchase of ${formatDay(standing.boughtAt)}`;
}

/** When a payment came to its state (when it was made, if the worker has no date). */
const since = (payment: PaymentStanding | UpgradeStanding) =>
  formatDay(payment.since ?? ('boughtAt' in payment ? payment.boughtAt : payment.paidAt));

const money = (payment: {currency: string | null}, amount: number) => formatMoney(amount, payment.currency);

const and = (items: readonly string[]) => new Intl.ListFormat('en', {style: 'long', type: 'conjunction'}).format(items);

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** What an upgrade bought, after "upgrade": "to Advanced", or for seats added "for 2 more seats". */
function upgradedTo(upgrade: UpgradeStanding): string {
  if (upgrade.seatsAdded > 0) return `for ${upgrade.seatsAdded} more ${upgrade.seatsAdded === 1 ? 'seat' : 'seats'}`;
  return `to ${upgrade.plan.name}`;
}

/** "its upgrade to Advanced of 4 May 2026", "its upgrades to Advanced of 4 May 2026 and for 2 more seats of 6 May 2026" */
function itsUpgrades(upgrades: readonly UpgradeStanding[]): string {
  return `its upgrade${upgrades.length === 1 ? '' : 's'} ${and(upgrades.map((upgrade) => `${upgradedTo(upgrade)} of ${formatDay(upgrade.paidAt)}`))}`;
}

/** "the $30.00 you paid for {what}", or "the payment for {what}" when its amount is not recorded. */
function paidFor(upgrade: UpgradeStanding, what: string): string {
  return upgrade.amount === null
    ? `the payment for ${what}`
    : `the ${money(upgrade, upgrade.amount)} you paid for ${what}`;
}

/**
 * What became of an upgrade's own payment, `what` naming the upgrade: "the $30.00 you paid for the
 * upgrade was not refunded". It is told beside a refund or a dispute, so `paid` reads "not refunded".
 */
function upgradeFate(upgrade: UpgradeStanding, what: string): string {
  const paid = paidFor(upgrade, what);
  switch (upgrade.state) {
    case 'paid':
      return `${paid} was not refunded`;
    case 'partly_refunded':
      return `${money(upgrade, upgrade.refunded)} of ${paid} was refunded on ${since(upgrade)}`;
    case 'refunded':
      return `${paid} was refunded in full on ${since(upgrade)}`;
    case 'disputed':
      return `${paid} has been disputed with your bank or card issuer since ${since(upgrade)}`;
    case 'dispute_lost':
      return `${paid} was reversed by your bank or card issuer on ${since(upgrade)}, when its dispute closed in your favour`;
  }
}

/** Each upgrade's fate, as one sentence's clause: the one upgrade is `one` ("it", "the upgrade"), several are named by their plan. */
function upgradeFates(upgrades: readonly UpgradeStanding[], one: string): string {
  return and(
    upgrades.map((upgrade) => upgradeFate(upgrade, upgrades.length === 1 ? one : `the upgrade ${upgradedTo(upgrade)}`)),
  );
}

/** Where to ask for what of an upgrade was kept, when a purchase ended for good and some was. */
function askBack(upgrades: readonly UpgradeStanding[]): string {
  const kept = upgrades.some((upgrade) => upgrade.state === 'paid' || upgrade.state === 'partly_refunded');
  return kept ? ` To ask for what was not refunded, write to ${appConfig.support.email}.` : '';
}

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

/**
 * A refunded purchase, what went back and what did not: its own payment, and its upgrades', each
 * a payment of its own that the refund of the purchase may have left charged.
 */
function refundedInFull(standing: PaymentStanding & {state: EndedState}): string {
  const opening = `Your ${purchaseOf(standing)} ${whatBecame(standing)}`;
  const {upgrades, total} = standing;
  if (upgrades.length === 0) {
    return `${opening}: ${formatMoney(standing.refunded > 0 ? standing.refunded : standing.amount, standing.currency)} went back to the payment method you used.`;
  }
  const back = upgrades.filter((upgrade) => upgrade.state === 'refunded');
  const kept = upgrades.filter((upgrade) => upgrade.state !== 'refunded');
  const partly = kept.some((upgrade) => upgrade.state === 'partly_refunded');
  const named = `${opening}${back.length > 0 ? `, and so was ${itsUpgrades(back)}` : ''}${kept.length > 0 ? `, but not ${partly ? 'all of ' : ''}${itsUpgrades(kept)}` : ''}`;
  if (kept.length === 0 && total && total.amount !== null && total.refunded >= total.amount) {
    return `${named}: ${money(standing, total.refunded)}, all you paid, went back to the payment method you used.`;
  }
  // Payments in different currencies are not added up: each refund is told in its own.
  const refunded = total
    ? `${money(standing, total.refunded)}${total.amount !== null ? ` of the ${money(standing, total.amount)} you paid` : ''}`
    : and([standing, ...back].map((payment) => money(payment, payment.refunded)));
  const rest = kept.length > 0 ? `, and ${upgradeFates(kept, 'the upgrade')}` : '';
  return `${named}: ${refunded} went back to the payment method you used${rest}.${askBack(kept)}`;
}

/** A dispute is about one payment: what became of the upgrades' own, which it does not cover. */
function besideTheDispute(standing: PaymentStanding, covers: 'does' | 'did'): string {
  if (standing.upgrades.length === 0) return '';
  const own = standing.upgrades.length === 1 ? 'a payment of its own' : 'payments of their own';
  return ` The dispute ${covers} not cover ${itsUpgrades(standing.upgrades)}, ${own}: ${upgradeFates(standing.upgrades, 'it')}.`;
}

/** What became of its access, after "so": ended, suspended while a dispute is open, or revoked by the seller before. */
function itsAccess(standing: PaymentStanding & {state: EndedState}): string {
  if (standing.state !== 'disputed') return 'its access ended';
  return standing.revokedBySeller
    ? 'its access, which the seller had revoked before, stays revoked'
    : 'its access is suspended while the dispute is open';
}

/** What the words of an ended purchase read of its access record (GET /accessStatus): the grant's status, its account, a removal still tried. */
export type EndedAccess = Pick<AccessStatus, 'status' | 'username' | 'removing'>;

/**
 * Where the purchase's GitHub account stands, as its grant says: none invited (or none that
 * GitHub took), off the repository, still being taken off it (the outbox retries), or perhaps still
 * on it (the removal failed for good, or the grant was never taken back).
 */
function onGitHub(access: EndedAccess): 'none' | 'removed' | 'removing' | 'still' {
  if (!access.username || access.status === 'none' || access.status === 'failed') return 'none';
  if (access.status === 'revoked') return access.removing ? 'removing' : 'removed';
  return 'still';
}

/**
 * What became of the access, after `lead` ("With the refund, its access to the code ended"): the
 * GitHub account's invitation withdrawn or the account removed, only once its grant says so, and
 * the download stopped.
 */
function accessTaken(lead: string, access: EndedAccess): string {
  const who = `@${access.username ?? ''}`;
  const {downloads} = appConfig.repository;
  const andDownload = downloads ? ', and the code can no longer be downloaded here' : '';
  const downloadOnly = downloads ? ': the code can no longer be downloaded here' : '';
  switch (onGitHub(access)) {
    case 'none':
      return `${lead}: no GitHub account is invited for it${andDownload}.`;
    case 'removed':
      return `${lead}: ${who}'s invitation to the private repository on GitHub is withdrawn, or the account removed from it${andDownload}.`;
    case 'removing':
      return `${lead}${downloadOnly}. ${who}'s invitation to the private repository on GitHub is being withdrawn, or the account removed from it: GitHub did not answer the first try, and it is tried again, so the account may still be on it for now.`;
    case 'still':
      return `${lead}${downloadOnly}. Removing ${who} from the private repository on GitHub failed, though, so the account may still be on it until the seller removes it.`;
  }
}

/** How a dispute open can end for the access: back by itself, unless the seller had revoked it. */
function disputeOutcome(standing: PaymentStanding, access: EndedAccess): string {
  const yours = 'the money is returned to you and the access ends for good';
  if (standing.revokedBySeller) {
    return `If the dispute closes in the seller's favour, the purchase is paid again, but its access does not come back by itself: the seller revoked it, and only the seller can grant it again. If it closes in yours, ${yours}.`;
  }
  const same = onGitHub(access) === 'none' ? '' : ', for the same GitHub account';
  return `If the dispute closes in the seller's favour, the access comes back by itself${same}; if it closes in yours, ${yours}.`;
}

/**
 * The words of the dashboard of a buyer whose only purchase left was refunded or disputed, with
 * `access`, the purchase's access record: what is so on GitHub, and whether the seller revoked it first.
 */
export function endedPurchase(
  standing: PaymentStanding & {state: EndedState},
  access: EndedAccess,
): {title: string; paragraphs: string[]} {
  const {appName, support} = appConfig;
  const opening = `Your ${purchaseOf(standing)} ${whatBecame(standing)}`;
  const before = (event: string) => `The seller had revoked its access to the code before the ${event}`;
  const licence = 'Its licence to use the code ended too, as the Terms of Service say.';
  switch (standing.state) {
    case 'refunded':
      return {
        title: `Your ${appName} purchase was refunded`,
        paragraphs: [
          refundedInFull(standing),
          `${accessTaken(standing.revokedBySeller ? before('refund') : 'With the refund, its access to the code ended', access)} ${licence}`,
          `Your receipts stay below, the refund with them. To use ${appName} again, choose a plan.`,
        ],
      };
    case 'disputed':
      return {
        title: `Your ${appName} purchase is disputed`,
        paragraphs: [
          `${opening}. A dispute asks the bank to reverse the payment, here of ${formatMoney(standing.amount, standing.currency)}.${besideTheDispute(standing, 'does')}`,
          `${accessTaken(standing.revokedBySeller ? before('dispute') : 'While the dispute is open, its access to the code is suspended', access)} ${disputeOutcome(standing, access)}`,
          `Your receipts stay below. Questions about the dispute: write to ${support.email}.`,
        ],
      };
    case 'dispute_lost':
      return {
        title: `Your ${appName} purchase was reversed`,
        paragraphs: [
          `${opening}: the payment was returned to you.${besideTheDispute(standing, 'did')}${askBack(standing.upgrades)}`,
          `${accessTaken(standing.revokedBySeller ? before('dispute') : 'With that, its access to the code ended', access)} ${licence}`,
          `Your receipts stay below. To use ${appName} again, choose a plan.`,
        ],
      };
  }
}

/**
 * An upgrade of a paid purchase refunded, disputed or reversed on its own: the purchase and its
 * access stay, and the plan is what the purchase gives now (`planNow`); a part refunded keeps it.
 */
function upgradeNote(payment: PaymentStanding, upgrade: UpgradeStanding): string {
  const fate = capitalized(upgradeFate(upgrade, `the upgrade ${upgradedTo(upgrade)} of ${formatDay(upgrade.paidAt)}`));
  if (upgrade.state === 'partly_refunded') return `${fate}. A partial refund keeps the upgrade and its plan.`;
  const what =
    upgrade.state === 'disputed'
      ? 'what it added is suspended while the dispute is open'
      : 'what it added was taken back';
  const plan = payment.planNow ? `: your ${purchaseOf(payment)} gives the ${payment.planNow.name} plan now` : '';
  return `${fate}, so ${what}${plan}.`;
}

/**
 * Notes beside a paid purchase: part of it refunded (the access stays), one of its upgrades
 * refunded or disputed (the plan drops back), or another purchase of the account refunded or
 * disputed (its access went, this one's stays). Empty when there is nothing to say.
 */
export function standingNotes(payment: PaymentStanding | undefined, otherEnded: PaymentStanding | undefined): string[] {
  const notes: string[] = [];
  if (payment?.state === 'partly_refunded') {
    notes.push(
      `${money(payment, payment.refunded)} of the ${formatMoney(payment.amount, payment.currency)} you paid for your ${purchaseOf(payment)} was refunded on ${since(payment)}. A partial refund keeps the purchase, its plan and its access.`,
    );
  }
  for (const upgrade of payment?.upgrades ?? []) {
    if (payment && upgrade.state !== 'paid') notes.push(upgradeNote(payment, upgrade));
  }
  if (hasEnded(otherEnded)) {
    const upgrades =
      otherEnded.upgrades.length > 0
        ? `${capitalized(upgradeFates(otherEnded.upgrades, itsUpgrades(otherEnded.upgrades)))}.`
        : '';
    const current = payment ? `Your ${purchaseOf(payment)} is paid, and the access below is its own.` : '';
    notes.push(
      [
        `Your other ${purchaseOf(otherEnded)} ${whatBecame(otherEnded)}, so ${itsAccess(otherEnded)}.`,
        upgrades,
        current,
      ]
        .filter(Boolean)
        .join(' '),
    );
  }
  return notes;
}
