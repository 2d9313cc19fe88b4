/**
 * Launch codes (issue 43) on the worker: the seller makes Stripe promotion codes in the console,
 * with their limits; Stripe (the stand-in, with Stripe's checks) takes a code at checkout; the
 * worker records the code a purchase was paid with, and the console lists each code's uses and
 * revenue from those records. It ends only codes it made, and refuses a code already active.
 */
import type Stripe from 'stripe';
import {
  appConfig,
  LAUNCH_CODE_WORDS,
  launchCodeTerms,
  PLAN_CURRENCY,
  planAmount,
  UPGRADE_CODE_ID_PATTERN,
} from '../../src/config';
import {adminPath, ADMIN_PATHS, type AdminAuditEntry, type Page} from '../../src/config/api';
import {stripeClient} from '../../worker/src/payments/stripeClient';
import {freshCode, launchCodeActs} from './launchCodeActs';
import {completedEvent, disputeEvent, PRICE_ADVANCED, PRICE_STARTER, uniqueEmail, useSellerStack} from './stack';

const seller = useSellerStack();
const ADVANCED = appConfig.plans[1]!;
const DAY_MS = 24 * 3600_000;

const {create, createOk, listed, end} = launchCodeActs(seller);

/** A guest pays for `priceId` with the code typed at checkout; the webhook follows. The session's id. */
async function paidWithCode(code: string, priceId: string = PRICE_ADVANCED, email = uniqueEmail('coded')) {
  const id = await seller.stack.paidCheckout({email, priceId, promotionCode: code});
  expect((await seller.stack.deliver(completedEvent(seller.stack, id))).status).toBe(200);
  return id;
}

const lastAudit = async () => {
  const response = await seller.stack.call(ADMIN_PATHS.auditLog, {token: seller.admin.idToken});
  return ((await response.json()) as Page<AdminAuditEntry>).items[0]!;
};

describe('making a code', () => {
  test('makes the coupon and the promotion code at Stripe as asked, and lists it active with nothing sold yet', async () => {
    const code = freshCode();
    const endsAt = Date.now() + 10 * DAY_MS;
    const shown = await createOk({code, percentOff: 20, maxUses: 50, endsAt, firstTimeOnly: true});
    expect(shown).toMatchObject({
      code,
      percentOff: 20,
      amountOff: null,
      currency: PLAN_CURRENCY,
      maxUses: 50,
      endsAt,
      firstTimeOnly: true,
      plan: null,
      endedAt: null,
      state: 'active',
      uses: 0,
      revenue: 0,
    });
    const promotion = seller.stack.stripe.promotionCodes.get(shown.id)!;
    expect(promotion).toMatchObject({
      code,
      active: true,
      max_redemptions: 50,
      expires_at: Math.floor(endsAt / 1000),
      restrictions: {first_time_transaction: true},
    });
    const coupon = seller.stack.stripe.coupons.get(promotion.promotion.coupon as string)!;
    expect(coupon).toMatchObject({percent_off: 20, amount_off: null, duration: 'once'});
    // Every plan: Stripe leaves out `applies_to` of a coupon made without it.
    expect(coupon.applies_to).toBeUndefined();
    expect(await listed(shown.id)).toEqual(shown);
    expect(await lastAudit()).toMatchObject({action: 'create_code', outcome: 'done'});
    expect((await lastAudit()).detail).toContain(code);
  });

  test('an amount off is in the plans’ currency, and a plan-only code’s coupon applies to that plan’s product alone', async () => {
    const shown = await createOk({code: freshCode(), amountOff: 1500, plan: ADVANCED.id});
    expect(shown).toMatchObject({amountOff: 1500, percentOff: null, plan: ADVANCED.id});
    const promotion = seller.stack.stripe.promotionCodes.get(shown.id)!;
    const coupon = seller.stack.stripe.coupons.get(promotion.promotion.coupon as string)!;
    const product = seller.stack.stripe.prices.get(PRICE_ADVANCED)!.product;
    expect(coupon).toMatchObject({amount_off: 1500, currency: PLAN_CURRENCY, applies_to: {products: [product]}});
  });

  test('refuses a code for one plan whose Stripe product another plan shares: Stripe could not tell them apart', async () => {
    const starter = seller.stack.stripe.prices.get(PRICE_STARTER)!;
    const own = starter.product;
    starter.product = seller.stack.stripe.prices.get(PRICE_ADVANCED)!.product;
    try {
      const before = seller.stack.stripe.coupons.size;
      const response = await create({code: freshCode(), percentOff: 10, plan: ADVANCED.id});
      expect(response.status).toBe(400);
      expect(((await response.json()) as {error: string}).error).toBe(
        LAUNCH_CODE_WORDS.sharedProduct(ADVANCED.name, appConfig.plans[0]!.name),
      );
      expect(seller.stack.stripe.coupons.size).toBe(before);
    } finally {
      starter.product = own;
    }
  });

  test('a code Stripe made that D1 could not record is switched off at Stripe, so nothing sells unseen', async () => {
    const code = freshCode('unrecorded');
    await seller.stack.worker.db.run(
      `CREATE TRIGGER refuse_codes BEFORE INSERT ON launch_codes BEGIN SELECT RAISE(ABORT, 'disk full'); END`,
    );
    try {
      expect((await create({code, percentOff: 10})).status).toBe(500);
    } finally {
      await seller.stack.worker.db.run('DROP TRIGGER refuse_codes');
    }
    const made = [...seller.stack.stripe.promotionCodes.values()].find((promotion) => promotion.code === code)!;
    expect(made.active).toBe(false);
    expect(await lastAudit()).toMatchObject({action: 'create_code', outcome: 'failed'});
  });

  test.each([
    ['no discount', {}, 'Give percentOff or amountOff'],
    ['both discounts', {percentOff: 10, amountOff: 100}, 'Give percentOff or amountOff'],
    ['a percent of 0', {percentOff: 0}, 'percentOff is a whole number from 1 to 100'],
    ['a percent over 100', {percentOff: 101}, 'percentOff is a whole number from 1 to 100'],
    ['no uses', {percentOff: 10, maxUses: 0}, 'maxUses is a whole number'],
    ['an end in the past', {percentOff: 10, endsAt: Date.now() - DAY_MS}, LAUNCH_CODE_WORDS.pastEnd],
    ['an end years ahead', {percentOff: 10, endsAt: Date.now() + 4000 * DAY_MS}, LAUNCH_CODE_WORDS.tooFar],
    ['a plan the site does not sell', {percentOff: 10, plan: 'no-such-plan'}, LAUNCH_CODE_WORDS.unknownPlan],
    ['a field of its own', {percentOff: 10, customer: 'cus_1'}, 'The body takes only'],
  ])('refuses %s with a 400 that says why, and makes nothing at Stripe', async (_, fields, words) => {
    const before = seller.stack.stripe.promotionCodes.size;
    const response = await create({code: freshCode(), ...fields});
    expect(response.status).toBe(400);
    expect(((await response.json()) as {error: string}).error).toContain(words);
    expect(seller.stack.stripe.promotionCodes.size).toBe(before);
  });

  test.each(['has space', 'ab', 'emoji-✓', 'x'.repeat(41)])(
    'refuses the code %p: letters, digits and dashes',
    async (code) => {
      const response = await create({code, percentOff: 10});
      expect(response.status).toBe(400);
      expect(((await response.json()) as {error: string}).error).toContain('code is 3 to 40 letters, digits or dashes');
    },
  );

  test('refuses a code already active, whatever its case (409); once it ends, the code may be made again', async () => {
    const code = freshCode('twin');
    const first = await createOk({code, percentOff: 10});
    const again = await create({code: code.toLowerCase(), percentOff: 30});
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({error: LAUNCH_CODE_WORDS.codeTaken(code), code: 'CONFLICT'});
    expect((await end(first.id)).status).toBe(200);
    const second = await createOk({code: code.toLowerCase(), percentOff: 30});
    expect(second.state).toBe('active');
  });
});

describe('an upgrade code (past buyers only)', () => {
  test('is made with nothing at Stripe: an id of the worker’s, listed for upgrades, active, with no use yet, and audited', async () => {
    const [coupons, promotions] = [seller.stack.stripe.coupons.size, seller.stack.stripe.promotionCodes.size];
    const code = freshCode('UP');
    const shown = await createOk({code, percentOff: 20, maxUses: 3, forUpgrades: true, plan: ADVANCED.id});
    expect(shown).toMatchObject({
      code,
      percentOff: 20,
      currency: PLAN_CURRENCY,
      maxUses: 3,
      firstTimeOnly: false,
      forUpgrades: true,
      plan: ADVANCED.id,
      state: 'active',
      uses: 0,
      revenue: 0,
    });
    expect(shown.id).toMatch(UPGRADE_CODE_ID_PATTERN);
    expect([seller.stack.stripe.coupons.size, seller.stack.stripe.promotionCodes.size]).toEqual([coupons, promotions]);
    expect(await listed(shown.id)).toEqual(shown);
    expect(await lastAudit()).toMatchObject({
      action: 'create_code',
      outcome: 'done',
      detail: `${code}: ${launchCodeTerms(shown)}.`,
    });
  });

  test('a launch code is listed not for upgrades', async () => {
    expect(await createOk({code: freshCode(), percentOff: 5})).toMatchObject({forUpgrades: false});
  });

  test('shares its text with no active code of either kind, whatever the case: a buyer types the text', async () => {
    const launch = await createOk({code: freshCode('both'), percentOff: 10});
    const refused = await create({code: launch.code.toLowerCase(), percentOff: 10, forUpgrades: true});
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({error: LAUNCH_CODE_WORDS.codeTaken(launch.code), code: 'CONFLICT'});
    const upgrade = await createOk({code: freshCode('both'), percentOff: 10, forUpgrades: true});
    const again = await create({code: upgrade.code.toLowerCase(), percentOff: 10});
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({error: LAUNCH_CODE_WORDS.codeTaken(upgrade.code), code: 'CONFLICT'});
  });

  test('is refused for a plan no plan moves up to: it could never apply (400)', async () => {
    const bottom = [...appConfig.plans].sort((a, b) => a.price - b.price)[0]!;
    const response = await create({code: freshCode(), percentOff: 10, forUpgrades: true, plan: bottom.id});
    expect(response.status).toBe(400);
    expect(((await response.json()) as {error: string}).error).toBe(LAUNCH_CODE_WORDS.noUpgradeTo(bottom.name));
  });

  test('is refused for first-time buyers only: it is for past buyers (400)', async () => {
    const response = await create({code: freshCode(), percentOff: 10, forUpgrades: true, firstTimeOnly: true});
    expect(response.status).toBe(400);
    expect(((await response.json()) as {error: string}).error).toBe(LAUNCH_CODE_WORDS.upgradeFirstTime);
  });

  test('ended, it reads ended without a call to Stripe, and the admin log says so', async () => {
    const shown = await createOk({code: freshCode('UP'), amountOff: 500, forUpgrades: true});
    // Stripe never heard of the id: asked to switch it off, it would answer 404, and the end fail.
    expect(seller.stack.stripe.promotionCodes.has(shown.id)).toBe(false);
    expect((await end(shown.id)).status).toBe(200);
    expect(await listed(shown.id)).toMatchObject({state: 'ended', endedAt: expect.any(Number)});
    expect(await lastAudit()).toMatchObject({
      action: 'end_code',
      outcome: 'done',
      detail: `${shown.code} ended: no upgrade is priced with it.`,
    });
    expect((await end(shown.id)).status).toBe(409);
  });
});

describe('a code used at checkout', () => {
  test('the purchase records the code; the console counts its use and what was paid, less a refund', async () => {
    const shown = await createOk({code: freshCode(), percentOff: 25});
    const sessionId = await paidWithCode(shown.code);
    const paid = Math.round(planAmount(ADVANCED) * 0.75);
    expect(seller.stack.stripe.sessions.get(sessionId)!.amount_total).toBe(paid);
    const [row] = await seller.stack.worker.db.all<{promotion_code_id: string}>(
      'SELECT promotion_code_id FROM purchases WHERE session_id = ?1',
      sessionId,
    );
    expect(row!.promotion_code_id).toBe(shown.id);
    // The purchase's page names the code it was paid with.
    const detail = await seller.stack.call(adminPath(ADMIN_PATHS.purchase, {sessionId}), {token: seller.admin.idToken});
    expect(await detail.json()).toMatchObject({launchCode: shown.code, referredBy: null});
    // Delivered twice, still one use.
    expect((await seller.stack.deliver(completedEvent(seller.stack, sessionId))).status).toBe(200);
    expect(await listed(shown.id)).toMatchObject({uses: 1, revenue: paid, state: 'active'});

    const refund = await seller.stack.call(adminPath(ADMIN_PATHS.refund, {sessionId}), {
      method: 'POST',
      token: seller.admin.idToken,
      body: {amount: 500, reason: 'requested_by_customer', refundedBefore: 0},
    });
    expect(refund.status).toBe(200);
    const intent = seller.stack.stripe.sessions.get(sessionId)!.payment_intent as string;
    expect((await seller.stack.deliver(seller.stack.stripe.refundedEvent(intent))).status).toBe(200);
    expect(await listed(shown.id)).toMatchObject({uses: 1, revenue: paid - 500});
  });

  test('a purchase lost to a dispute still used the code, and adds nothing to its revenue', async () => {
    const shown = await createOk({code: freshCode(), percentOff: 10});
    const sessionId = await paidWithCode(shown.code);
    expect((await listed(shown.id))!.revenue).toBeGreaterThan(0);
    await seller.stack.deliver(disputeEvent(seller.stack, sessionId, 'charge.dispute.created', 'needs_response'));
    await seller.stack.deliver(disputeEvent(seller.stack, sessionId, 'charge.dispute.closed', 'lost'));
    expect(await listed(shown.id)).toMatchObject({uses: 1, revenue: 0});
  });

  test('a purchase without a code counts for none', async () => {
    const shown = await createOk({code: freshCode(), percentOff: 5});
    const id = await seller.stack.paidCheckout({email: uniqueEmail('plain')});
    expect((await seller.stack.deliver(completedEvent(seller.stack, id))).status).toBe(200);
    expect(await listed(shown.id)).toMatchObject({uses: 0, revenue: 0});
    const detail = await seller.stack.call(adminPath(ADMIN_PATHS.purchase, {sessionId: id}), {
      token: seller.admin.idToken,
    });
    expect(await detail.json()).toMatchObject({launchCode: null});
  });

  test('used as many times as it allows, it reads used up, and Stripe takes it no more', async () => {
    const shown = await createOk({code: freshCode(), percentOff: 10, maxUses: 1});
    await paidWithCode(shown.code);
    expect(await listed(shown.id)).toMatchObject({uses: 1, state: 'used up'});
    await expect(paidWithCode(shown.code)).rejects.toThrow('redeemed the maximum number of times');
  });

  test('a plan-only code is refused at checkout for another plan', async () => {
    const shown = await createOk({code: freshCode(), percentOff: 10, plan: ADVANCED.id});
    await expect(paidWithCode(shown.code, PRICE_STARTER)).rejects.toThrow('not valid for the items in this purchase');
    await paidWithCode(shown.code, PRICE_ADVANCED);
    expect(await listed(shown.id)).toMatchObject({uses: 1});
  });
});

describe('ending a code', () => {
  test('Stripe takes it no more, the console shows it ended, and the admin log says so; a second end is a 409', async () => {
    const shown = await createOk({code: freshCode(), percentOff: 15});
    const response = await end(shown.id);
    expect(response.status).toBe(200);
    expect(seller.stack.stripe.promotionCodes.get(shown.id)!.active).toBe(false);
    expect(await listed(shown.id)).toMatchObject({state: 'ended', endedAt: expect.any(Number)});
    expect(await lastAudit()).toMatchObject({action: 'end_code', outcome: 'done'});
    await expect(paidWithCode(shown.code)).rejects.toThrow('This code is invalid.');
    const again = await end(shown.id);
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({error: LAUNCH_CODE_WORDS.alreadyEnded, code: 'CONFLICT'});
  });

  test('ends only a code the console made: another at Stripe is a 404, and stays active', async () => {
    const stripe: Stripe = stripeClient('sk_test_worker_suite', seller.stack.stripe.url);
    const coupon = await stripe.coupons.create({percent_off: 50, duration: 'once'});
    const theirs = await stripe.promotionCodes.create({
      promotion: {type: 'coupon', coupon: coupon.id},
      code: freshCode('hand'),
    });
    const response = await end(theirs.id);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({error: LAUNCH_CODE_WORDS.notOurs, code: 'NOT_FOUND'});
    expect(seller.stack.stripe.promotionCodes.get(theirs.id)!.active).toBe(true);
    expect(await listed(theirs.id)).toBeUndefined();
  });

  test('refuses an id that is no promotion code’s (400)', async () => {
    const response = await end('cs_test_not_a_code');
    expect(response.status).toBe(400);
  });
});
