/**
 * Abandoned checkouts won back (issue 43), with `checkout.recoverAbandoned` on (a bundle built with
 * it, the rest of the config as committed): Checkout asks for consent to offers and keeps a
 * recovery link; a buyer who ticked the box and left gets one reminder, after the delay, with that
 * link and a one-click unsubscribe; nobody else gets anything; a purchase paid through the link is
 * counted as won back in the console's Sales.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Stripe from 'stripe';
import {appConfig, formatDay} from '../../src/config';
import {ADMIN_PATHS, API_PATHS, type SalesSummary} from '../../src/config/api';
import {stripeEvent} from '../../scripts/local/stripeApi';
import {buildWorkerBundleWithConfig} from '../../scripts/support/workerRuntime';
import {completedEvent, PRICE_STARTER, startStack, uniqueEmail, useSellerStack} from './stack';

const bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'worker-checkout-recovery-'));
beforeAll(() => {
  buildWorkerBundleWithConfig(bundleDir, [
    {file: 'app.ts', from: 'recoverAbandoned: false,', to: 'recoverAbandoned: true,'},
  ]);
}, 180_000);
const seller = useSellerStack({UNSUBSCRIBE_SECRET: 'unsubscribe-secret-for-the-recovery-suite'}, {bundleDir});
afterAll(() => fs.rmSync(bundleDir, {recursive: true, force: true}));

const HOUR_MS = 3600_000;

/** The buyer opens the worker's checkout, types their address, ticks the box or not, and leaves. */
async function abandoned(email: string, {promotions = true, country}: {promotions?: boolean; country?: string} = {}) {
  const sessionId = await seller.stack.openCheckout({email, priceId: PRICE_STARTER, country});
  const event = seller.stack.stripe.expire(sessionId, {email, promotions});
  expect((await seller.stack.deliver(event)).status).toBe(200);
  return {sessionId, event};
}

/** The cron, once the reminders' delay is over: every queued reminder is due. */
async function afterTheDelay() {
  await seller.stack.worker.db.run("UPDATE jobs SET run_after = 0 WHERE kind = 'checkout-reminder'");
  await seller.stack.worker.scheduled();
}

const remindersTo = (email: string) => seller.stack.mailgun.sent.filter((mail) => mail.fields.to === email);

async function reminderRow(sessionId: string) {
  const [row] = await seller.stack.worker.db.all<{status: string; skip_reason: string | null}>(
    'SELECT status, skip_reason FROM checkout_reminders WHERE session_id = ?',
    sessionId,
  );
  return row;
}

async function sales(): Promise<SalesSummary> {
  const response = await seller.stack.call(`${ADMIN_PATHS.sales}?period=30d`, {token: seller.admin.idToken});
  expect(response.status).toBe(200);
  return (await response.json()) as SalesSummary;
}

test("the worker's checkout asks for consent to offers and keeps a recovery link that takes codes as the session did", async () => {
  await seller.stack.openCheckout({email: uniqueEmail('asked'), priceId: PRICE_STARTER});
  const made = seller.stack.stripe.created.at(-1)!;
  expect(made.consent_collection).toEqual({promotions: 'auto'});
  expect(made.after_expiration).toEqual({recovery: {enabled: 'true', allow_promotion_codes: 'true'}});
  // A fair price's coupon and a code never stack, in the copy either.
  await seller.stack.openCheckout({email: uniqueEmail('fair'), priceId: PRICE_STARTER, country: 'IN'});
  expect(seller.stack.stripe.created.at(-1)!.after_expiration).toEqual({
    recovery: {enabled: 'true', allow_promotion_codes: 'false'},
  });
});

test('a buyer who agreed to offers gets one reminder after the delay, with the link and a one-click unsubscribe; paid through it, the console counts it won back', async () => {
  const before = (await sales()).recovered;
  const email = uniqueEmail('left');
  const {sessionId, event} = await abandoned(email);
  const recovery = (event.data.object as Stripe.Checkout.Session).after_expiration!.recovery!;
  // Queued for the delay the config sets, not sent at once nor by a cron run before it.
  const [job] = await seller.stack.worker.db.all<{run_after: number; created_at: number}>(
    "SELECT run_after, created_at FROM jobs WHERE kind = 'checkout-reminder' AND key = ?",
    `checkout-reminder:${sessionId}`,
  );
  expect(job!.run_after - job!.created_at).toBe(appConfig.checkout.reminderDelayHours * HOUR_MS);
  await seller.stack.worker.scheduled();
  expect(remindersTo(email)).toEqual([]);

  await afterTheDelay();
  const [mail] = remindersTo(email);
  expect(remindersTo(email)).toHaveLength(1);
  expect(mail!.fields.subject).toBe(`Your ${appConfig.appName} checkout, if you still want it`);
  expect(mail!.fields.text).toContain(recovery.url!);
  expect(mail!.fields.text).toContain(`until ${formatDay(recovery.expires_at! * 1000)}`);
  expect(mail!.fields['h:List-Unsubscribe']).toMatch(
    new RegExp(`^<https?://[^>]+${API_PATHS.releaseUnsubscribe}/[\\w.-]+>$`),
  );
  expect(mail!.fields['h:List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
  expect(await reminderRow(sessionId)).toEqual({status: 'sent', skip_reason: null});

  // Delivered again, and the cron again: nothing more.
  expect((await seller.stack.deliver(event)).status).toBe(200);
  await afterTheDelay();
  expect(remindersTo(email)).toHaveLength(1);

  // The buyer follows the link and pays: a purchase like any other, recorded as won back.
  const recovered = seller.stack.stripe.recover(recovery.url!);
  expect(recovered.recovered_from).toBe(sessionId);
  seller.stack.stripe.complete(recovered.id, {email, paid: true});
  expect((await seller.stack.deliver(completedEvent(seller.stack, recovered.id))).status).toBe(200);
  const [purchase] = await seller.stack.worker.db.all<{status: string; recovered_from: string; amount_total: number}>(
    'SELECT status, recovered_from, amount_total FROM purchases WHERE session_id = ?',
    recovered.id,
  );
  expect(purchase).toMatchObject({status: 'paid', recovered_from: sessionId});
  expect((await sales()).recovered).toEqual({
    reminders: before.reminders + 1,
    purchases: before.purchases + 1,
    revenue: before.revenue + purchase!.amount_total,
  });
});

test('no consent, no reminder: a buyer who did not agree to offers, or typed no address, gets nothing', async () => {
  const email = uniqueEmail('no-consent');
  const {sessionId} = await abandoned(email, {promotions: false});
  expect(await reminderRow(sessionId)).toBeUndefined();
  // Ticked, but no address typed: nobody to write to.
  const silent = await seller.stack.openCheckout({email: uniqueEmail('unused'), priceId: PRICE_STARTER});
  const session = seller.stack.stripe.sessions.get(silent)!;
  session.customer_email = null;
  const event = seller.stack.stripe.expire(silent, {promotions: true});
  expect((await seller.stack.deliver(event)).status).toBe(200);
  expect(await reminderRow(silent)).toBeUndefined();
  await afterTheDelay();
  expect(remindersTo(email)).toEqual([]);
});

test('one reminder an address, ever: a second checkout left by the same buyer gets none', async () => {
  const email = uniqueEmail('twice');
  await abandoned(email);
  await afterTheDelay();
  const {sessionId} = await abandoned(email.toUpperCase());
  expect(await reminderRow(sessionId)).toBeUndefined();
  await afterTheDelay();
  expect(remindersTo(email)).toHaveLength(1);
});

test('checked again when it is due: an address that unsubscribed, bought or is paying since, or whose price is no longer sold, gets nothing, and the reason is kept', async () => {
  const unsubscribed = uniqueEmail('unsubscribed');
  const left = await abandoned(unsubscribed);
  await seller.stack.worker.db.run(
    'INSERT INTO release_unsubscribes (email, created_at) VALUES (?, ?)',
    unsubscribed,
    Date.now(),
  );
  const bought = uniqueEmail('bought');
  const leftToo = await abandoned(bought);
  const paid = await seller.stack.paidCheckout({email: bought, priceId: PRICE_STARTER});
  expect((await seller.stack.deliver(completedEvent(seller.stack, paid))).status).toBe(200);
  // Paying since by a method that settles later: the purchase is recorded, not paid yet.
  const paying = uniqueEmail('paying');
  const leftPaying = await abandoned(paying);
  const settling = await seller.stack.paidCheckout({email: paying, priceId: PRICE_STARTER, paid: false});
  expect((await seller.stack.deliver(completedEvent(seller.stack, settling))).status).toBe(200);
  // A price the site no longer sells: the link would take the money and fulfil nothing.
  const retired = await abandoned(uniqueEmail('retired'));
  await seller.stack.worker.db.run(
    "UPDATE checkout_reminders SET price_id = 'price_retired_since' WHERE session_id = ?",
    retired.sessionId,
  );
  await afterTheDelay();
  expect(await reminderRow(leftPaying.sessionId)).toEqual({status: 'skipped', skip_reason: 'bought'});
  expect(await reminderRow(retired.sessionId)).toEqual({status: 'skipped', skip_reason: 'price_gone'});
  expect(remindersTo(unsubscribed)).toEqual([]);
  expect(remindersTo(bought).filter((mail) => /if you still want it/.test(mail.fields.subject!))).toEqual([]);
  expect(await reminderRow(left.sessionId)).toEqual({status: 'skipped', skip_reason: 'unsubscribed'});
  expect(await reminderRow(leftToo.sessionId)).toEqual({status: 'skipped', skip_reason: 'bought'});
  // Settled, the row keeps the address (one reminder an address) and drops the link and the amount.
  expect(
    await seller.stack.worker.db.all(
      'SELECT recovery_url, amount, currency FROM checkout_reminders WHERE session_id IN (?, ?)',
      left.sessionId,
      leftToo.sessionId,
    ),
  ).toEqual([
    {recovery_url: null, amount: null, currency: null},
    {recovery_url: null, amount: null, currency: null},
  ]);
});

test('a delivery that stopped half-way, once Stripe delivers it again, still queues the reminder', async () => {
  const email = uniqueEmail('half-way');
  const {sessionId, event} = await abandoned(email);
  // The row was stored but not its job, and the event not marked done: Stripe delivers it again.
  await seller.stack.worker.db.run('DELETE FROM jobs WHERE key = ?', `checkout-reminder:${sessionId}`);
  await seller.stack.worker.db.run('UPDATE stripe_events SET processed_at = NULL WHERE id = ?', event.id);
  expect((await seller.stack.deliver(event)).status).toBe(200);
  await afterTheDelay();
  expect(remindersTo(email)).toHaveLength(1);
});

test("an expired session the worker did not make (another product's on the same Stripe account) is left alone", async () => {
  const email = uniqueEmail('elsewhere');
  const other = seller.stack.stripe.add({
    status: 'expired',
    metadata: {},
    customer_email: email,
    consent: {promotions: 'opt_in', terms_of_service: null},
    after_expiration: {
      recovery: {
        enabled: true,
        allow_promotion_codes: false,
        url: 'https://buy.stripe.com/r/elsewhere',
        expires_at: Math.floor(Date.now() / 1000) + 30 * 24 * 3600,
      },
    },
  });
  const response = await seller.stack.deliver(stripeEvent('checkout.session.expired', other));
  expect(response.status).toBe(200);
  expect(await response.json()).toMatchObject({handled: false});
  expect(await reminderRow(other.id)).toBeUndefined();
});

test('with no UNSUBSCRIBE_SECRET, no reminder goes: one without its way out is never sent, and the console lists the job as failed', async () => {
  const bare = await startStack({UNSUBSCRIBE_SECRET: ''}, {bundleDir});
  try {
    const email = uniqueEmail('no-secret');
    const sessionId = await bare.openCheckout({email, priceId: PRICE_STARTER});
    expect((await bare.deliver(bare.stripe.expire(sessionId, {email, promotions: true}))).status).toBe(200);
    await bare.worker.db.run("UPDATE jobs SET run_after = 0 WHERE kind = 'checkout-reminder'");
    await bare.worker.scheduled();
    expect(bare.mailgun.sent.filter((mail) => mail.fields.to === email)).toEqual([]);
    const [job] = await bare.worker.db.all<{status: string; last_error: string}>(
      "SELECT status, last_error FROM jobs WHERE kind = 'checkout-reminder'",
    );
    expect(job).toEqual({status: 'failed', last_error: expect.stringContaining('UNSUBSCRIBE_SECRET')});
    const [row] = await bare.worker.db.all('SELECT status FROM checkout_reminders WHERE session_id = ?', sessionId);
    expect(row).toEqual({status: 'failed'});
  } finally {
    await bare.stop();
  }
});
