/**
 * The buyer's own refunds (issue 42), in Chromium against the local stack: a buyer who just paid
 * finds both in the dashboard's Billing card, each under its heading, "Money-back guarantee" and
 * the EU consumer's "Right of withdrawal". One flow walks each right at 1440 px and on a 390 px
 * phone, in its own words (`ownRefundWords`): the offer names the right's last day; the second
 * step (the guarantee's optional reason; the withdrawal asks none, as the law asks no reason) is
 * left with "Keep my purchase", then confirmed. The dashboard then says the purchase was refunded
 * and offers neither right any more; Stripe's record (the receipts) says the full price went back,
 * and e-mails say so: the guarantee's receipt, or the withdrawal's acknowledgement with the time it
 * was received, then its receipt. Axe on both steps. The worker's own checks (the windows, a dispute, one
 * refund per buyer, delivery ending the withdrawal) are test/worker/selfRefund.test.ts's.
 */
import {appConfig, endedPurchase, PLAN_CURRENCY, planAmount, type OwnRefundKind} from '../../src/config';
import {DAY_MS} from '../../src/config/dates';
import {ownRefundWords, type OwnRefundWords} from '../../src/config/guarantee';
import {formatMoney} from '../../src/config/money';
import type {LocalStack} from '../../scripts/support/localStack';
import {axeViolations} from './axe';
import {escapeRegExp, plan, uniqueEmail, useLocalSession} from './localSession';

jest.setTimeout(300_000);

// The shared stack: each go signs up a buyer of its own and only adds to it.
const session = useLocalSession();
const cents = planAmount(plan);
const paid = formatMoney(cents, PLAN_CURRENCY);
const bought = `${appConfig.appName} (${plan.name})`;

/** Both rights, as the dashboard shows them, and the worker's POST /refundPurchase names them. */
const KINDS = Object.keys(ownRefundWords) as OwnRefundKind[];

/**
 * What sets each right apart beyond its words: how long it runs from the checkout, the e-mails its
 * refund sends, in order, by their subjects, and a line of the first one's text that says when the
 * worker acted (captured: a UTC date and time).
 */
const RIGHTS: Record<OwnRefundKind, {days: number; subjects: string[]; when: RegExp}> = {
  guarantee: {
    days: appConfig.guarantee.days,
    subjects: [`Your ${appConfig.appName} refund of ${paid}`],
    when: new RegExp(
      `^As you asked, we refunded your purchase of ${escapeRegExp(bought)}: ${escapeRegExp(paid)}, on (.+ GMT)\\.$`,
      'm',
    ),
  },
  // Its acknowledgement on a durable medium (Directive 2011/83/EU, Art. 11a): what was withdrawn
  // from, and when, as soon as it is recorded; then the refund's receipt.
  withdrawal: {
    days: appConfig.withdrawal.days,
    subjects: [
      `We received your withdrawal from your ${appConfig.appName} purchase`,
      `Your ${appConfig.appName} refund of ${paid}`,
    ],
    when: new RegExp(
      `^We received your withdrawal from the contract for your purchase of ${escapeRegExp(bought)}, made on .+,\\non (.+ GMT), from your dashboard\\.`,
      'm',
    ),
  },
};

/** The e-mails the stack printed to `to` from `from` on, each its subject and its text (the `| ` lines under it). */
function mailsTo(stack: LocalStack, to: string, from: number): {subject: string; text: string}[] {
  const lines = stack.output().slice(from).split('\n');
  const head = new RegExp(`\\[e-mail\\] +to ${escapeRegExp(to)}: "(.*)"$`);
  return lines.flatMap((line, at) => {
    const subject = head.exec(line)?.[1];
    if (subject === undefined) return [];
    const text: string[] = [];
    for (const next of lines.slice(at + 1)) {
      const body = /^ +\| ?(.*)$/.exec(next);
      if (!body) break;
      text.push(body[1]!);
    }
    return [{subject, text: text.join('\n')}];
  });
}

describe.each(KINDS)('the buyer’s own refund: %s', (kind) => {
  const words = ownRefundWords[kind];
  const right = RIGHTS[kind];
  const [other] = KINDS.filter((each) => each !== kind).map((each) => ownRefundWords[each]);

  it.each([
    ['1440 px', {width: 1440, height: 900}],
    ['390 px (a phone)', {width: 390, height: 844}],
  ])(
    `at %s a paid buyer sees both rights, uses "${words.button}" in two steps, and the dashboard then says the purchase was refunded`,
    async (_, viewport) => {
      const stack = session.stack();
      const email = uniqueEmail(kind);
      const tab = await session.open('/', {viewport});
      const {page, errors} = tab;
      // Both rights run from the checkout: the last day is read from around it (a checkout over midnight UTC).
      const before = Date.now();
      await session.checkoutAsGuest(tab, email);
      const lastDays = [before, Date.now()].map((at) => at + right.days * DAY_MS);

      // Before anything is clicked the buyer sees both rights, each under its heading with its button.
      const billing = page.getByRole('region', {name: 'Billing'});
      await session.waitToSee(tab, billing.getByRole('heading', {name: words.heading}));
      const shown = async (role: 'heading' | 'button', name: (each: OwnRefundWords) => string) =>
        Object.fromEntries(
          await Promise.all(
            KINDS.map(async (each) => {
              const locator = billing.getByRole(role, {name: name(ownRefundWords[each]), exact: true});
              return [each, await locator.isVisible()] as const;
            }),
          ),
        );
      const both = Object.fromEntries(KINDS.map((each) => [each, true]));
      expect(await shown('heading', (each) => each.heading)).toEqual(both);
      expect(await shown('button', (each) => each.button)).toEqual(both);

      // The first step: this right's offer, naming its last day, and its button. Axe on the whole dashboard.
      const offers = [...new Set(lastDays.map((at) => escapeRegExp(words.offer(at))))];
      await billing.getByText(new RegExp(`^(${offers.join('|')})$`)).waitFor();
      const open = billing.getByRole('button', {name: words.button, exact: true});
      expect(await axeViolations(page)).toEqual([]);

      // The second step, a form under the right's name, says what confirming does; "Keep" goes back.
      await open.click();
      const step = billing.getByRole('form', {name: words.heading});
      await step.getByText(words.confirmText, {exact: true}).waitFor();
      const confirm = step.getByRole('button', {name: words.confirm, exact: true});
      const keep = step.getByRole('button', {name: words.keep, exact: true});
      expect([await confirm.isVisible(), await keep.isVisible()]).toEqual([true, true]);
      // The guarantee asks for an optional reason; the withdrawal for none: no textbox in the card at all.
      const reason = words.reasonLabel === null ? null : step.getByRole('textbox', {name: words.reasonLabel});
      expect([await billing.getByRole('textbox').count(), await reason?.isVisible()]).toEqual(
        reason ? [1, true] : [0, undefined],
      );
      // Only this right's second step opened: the other still offers its first.
      expect([
        await billing.getByRole('form', {name: other!.heading}).count(),
        await billing.getByRole('button', {name: other!.button, exact: true}).isVisible(),
      ]).toEqual([0, true]);
      expect(await axeViolations(page, {within: 'section[aria-labelledby="billing-heading"]'})).toEqual([]);
      await keep.click();
      await open.waitFor();
      expect([await step.count(), await confirm.count()]).toEqual([0, 0]);

      // Now for real (the guarantee with a reason). The page asks the worker for this right, by its kind.
      await open.click();
      await reason?.fill('It was not what I needed.');
      const mailsFrom = stack.output().length;
      const confirmedAt = Date.now();
      const [asked] = await Promise.all([
        page.waitForRequest((request) => request.method() === 'POST' && request.url().endsWith('/refundPurchase')),
        confirm.click(),
      ]);
      expect(asked.postDataJSON()).toMatchObject({kind});

      // The dashboard reads the purchase again, refunded today: no billing card, so neither right on offer.
      const ended = endedPurchase(
        {
          state: 'refunded',
          plan: {id: plan.id, name: plan.name},
          boughtAt: Date.now(),
          since: Date.now(),
          amount: cents,
          refunded: cents,
          currency: PLAN_CURRENCY,
          upgrades: [],
        },
        {status: 'none'},
      );
      await session.waitToSee(tab, page.getByRole('heading', {level: 1, name: ended.title}));
      for (const paragraph of ended.paragraphs) await page.getByText(paragraph, {exact: true}).waitFor();
      const buttonsLeft = await Promise.all(
        KINDS.map((each) => page.getByRole('button', {name: ownRefundWords[each].button}).count()),
      );
      expect(buttonsLeft).toEqual(KINDS.map(() => 0));
      // Stripe's record of the payment, as the receipts show it: all of it refunded.
      const receipts = page.getByRole('region', {name: 'Receipts'});
      await session.waitToSee(tab, receipts.getByText(`, ${paid} refunded`));

      // One refund, so this right's e-mails once each: the guarantee's receipt, or the withdrawal's
      // acknowledgement then the receipt; the first names the purchase and when the worker acted on it.
      const last = right.subjects.at(-1)!;
      await stack.waitForLine(
        new RegExp(`\\[e-mail\\] +to ${escapeRegExp(email)}: "${escapeRegExp(last)}"`),
        undefined,
        mailsFrom,
      );
      const mails = mailsTo(stack, email, mailsFrom);
      expect(mails.map((mail) => mail.subject)).toEqual(right.subjects);
      expect(mails[0]!.text).toMatch(right.when);
      const at = Date.parse(right.when.exec(mails[0]!.text)![1]!);
      // A UTC date and time to the second: from the second the buyer confirmed to now.
      expect(at).toBeGreaterThanOrEqual(Math.floor(confirmedAt / 1000) * 1000);
      expect(at).toBeLessThanOrEqual(Date.now());
      expect(errors).toEqual([]);
    },
  );
});
