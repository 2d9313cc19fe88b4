/**
 * The money-back guarantee (issue 42), in Chromium against the local stack: a buyer who just paid
 * finds "Money-back guarantee" in the dashboard's Billing card, opens the refund's second step and
 * backs out of it, then refunds the purchase with a reason. The dashboard then says the purchase
 * was refunded and offers no refund any more; Stripe's record (the receipts) and the refund's
 * e-mail say the full price went back, once. At 1440 px and on a 390 px phone, axe on both steps.
 * The worker's own checks (the window, a dispute, one refund per buyer) are test/worker/selfRefund.test.ts's.
 */
import {appConfig, endedPurchase, PLAN_CURRENCY, planAmount} from '../../src/config';
import {DAY_MS} from '../../src/config/dates';
import {guaranteeWords} from '../../src/config/guarantee';
import {formatMoney} from '../../src/config/money';
import {axeViolations} from './axe';
import {escapeRegExp, plan, uniqueEmail, useLocalSession} from './localSession';

jest.setTimeout(300_000);

// The shared stack: each go signs up a buyer of its own and only adds to it.
const session = useLocalSession();
const cents = planAmount(plan);
const paid = formatMoney(cents, PLAN_CURRENCY);

it.each([
  ['1440 px', {width: 1440, height: 900}],
  ['390 px (a phone)', {width: 390, height: 844}],
])(
  'at %s a paid buyer refunds their own purchase in two steps, and the dashboard then says it was refunded',
  async (_, viewport) => {
    const stack = session.stack();
    // The stack may be shared with other files: read only what it prints from here on.
    const from = stack.output().length;
    const email = uniqueEmail('refunder');
    const tab = await session.open('/', {viewport});
    const {page, errors} = tab;
    // The guarantee runs from the checkout: its last day is read from around it (a checkout over midnight UTC).
    const before = Date.now();
    await session.checkoutAsGuest(tab, email);
    const lastDays = [before, Date.now()].map((at) => at + appConfig.guarantee.days * DAY_MS);

    // The first step: the offer, naming the guarantee's last day, and one button.
    const billing = page.getByRole('region', {name: 'Billing'});
    await session.waitToSee(tab, billing.getByRole('heading', {name: guaranteeWords.heading}));
    const offers = [...new Set(lastDays.map((at) => escapeRegExp(guaranteeWords.offer(at))))];
    await billing.getByText(new RegExp(`^(${offers.join('|')})$`)).waitFor();
    const refund = billing.getByRole('button', {name: guaranteeWords.button});
    const reason = billing.getByRole('textbox', {name: guaranteeWords.reasonLabel});
    expect(await axeViolations(page)).toEqual([]);

    // The second step asks for an optional reason and says what confirming does; "Keep" goes back.
    await refund.click();
    await reason.waitFor();
    await billing.getByText(guaranteeWords.confirmText).waitFor();
    const confirm = billing.getByRole('button', {name: guaranteeWords.confirm});
    const keep = billing.getByRole('button', {name: guaranteeWords.keep});
    expect([await confirm.isVisible(), await keep.isVisible()]).toEqual([true, true]);
    expect(await axeViolations(page, {within: 'section[aria-labelledby="billing-heading"]'})).toEqual([]);
    await keep.click();
    await refund.waitFor();
    expect([await reason.count(), await confirm.count()]).toEqual([0, 0]);

    // Now for real, with a reason.
    await refund.click();
    await reason.fill('It was not what I needed.');
    await confirm.click();

    // The dashboard reads the purchase again, refunded today: no billing card, so no refund on offer.
    const words = endedPurchase(
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
    await session.waitToSee(tab, page.getByRole('heading', {level: 1, name: words.title}));
    for (const paragraph of words.paragraphs) await page.getByText(paragraph, {exact: true}).waitFor();
    expect(await page.getByRole('button', {name: guaranteeWords.button}).count()).toBe(0);
    // Stripe's record of the payment, as the receipts show it: all of it refunded.
    const receipts = page.getByRole('region', {name: 'Receipts'});
    await session.waitToSee(tab, receipts.getByText(`, ${paid} refunded`));

    // One refund, so one receipt of it by e-mail, for the full price.
    const receipt = new RegExp(`\\[e-mail\\] +to ${escapeRegExp(email)}: "[^"\\n]*refund of ${escapeRegExp(paid)}"`);
    await stack.waitForLine(receipt, undefined, from);
    expect(stack.output().slice(from).match(new RegExp(receipt, 'g'))).toHaveLength(1);
    expect(errors).toEqual([]);
  },
);
