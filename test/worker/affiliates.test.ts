/**
 * The affiliate programme (issue 43) on the worker, with the real local D1 and the Stripe stand-in:
 * a visit through an affiliate's link is counted once per visitor and day and answers a referral;
 * a checkout that sends it carries the affiliate in its session's metadata; the purchase, once
 * paid, credits the affiliate a commission on what was paid after discounts and before tax, held,
 * cancelled by a full refund or a dispute, lowered by a partial one; never on the affiliate's own
 * purchase. The console lists affiliates, exports commissions as CSV, and marks payouts, once.
 */
import {AFFILIATE_WORDS, appConfig, commissionHoldDays, PLAN_CURRENCY} from '../../src/config';
import {
  adminPath,
  ADMIN_PATHS,
  API_PATHS,
  type AdminAffiliates,
  type AdminAuditEntry,
  type AffiliateAnswer,
  type AffiliateVisit,
  type Page,
} from '../../src/config/api';
import {baseOf} from '../../worker/src/affiliates/base';
import {
  completedEvent,
  disputeEvent,
  refundAtStripe,
  SITE_ORIGIN,
  type SignedInUser,
  uniqueEmail,
  useSellerStack,
} from './stack';

const seller = useSellerStack();
const programme = appConfig.affiliates!;
const DAY_MS = 24 * 3600_000;

let made = 0;
/** A code no other test of the file took. */
const freshCode = (label = 'aff') => `${label}-${Date.now().toString(36)}${made++}`;
/** A visitor of their own: an address and a browser. */
let visitors = 0;
const newVisitor = () => ({'cf-connecting-ip': `127.77.${Math.floor(visitors / 250) % 250}.${visitors++ % 250}`});

async function join(user: SignedInUser, code: string) {
  return seller.stack.call(API_PATHS.joinAffiliates, {token: user.idToken, body: {code}});
}

/** A verified user who joined with a fresh code: their account, code and affiliate id. */
async function newAffiliate(label = 'aff') {
  const user = await seller.stack.signUp({email: uniqueEmail(label), verified: true});
  const code = freshCode(label);
  const joined = await join(user, code);
  expect(joined.status).toBe(201);
  const [row] = await seller.stack.worker.db.all<{id: string}>('SELECT id FROM affiliates WHERE code = ?', code);
  return {user, code, id: row!.id};
}

function visit(code: string, headers: Record<string, string> = newVisitor()) {
  return seller.stack.call(API_PATHS.affiliateVisit, {body: {code}, headers: {'user-agent': 'Firefox', ...headers}});
}

async function referralOf(code: string, headers?: Record<string, string>): Promise<string> {
  const response = await visit(code, headers);
  expect(response.status).toBe(200);
  return ((await response.json()) as AffiliateVisit).referral;
}

/** A guest pays with the referral; the webhook follows. The session's id. */
async function referredPurchase(
  referral: string | undefined,
  options: {email?: string; cardFingerprint?: string; tax?: number; promotionCode?: string} = {},
) {
  const {email = uniqueEmail('referred'), cardFingerprint, tax, promotionCode} = options;
  const id = await seller.stack.openCheckout({email, referral});
  seller.stack.stripe.complete(id, {email, paid: true, cardFingerprint, promotionCode});
  if (tax) {
    // Stripe Tax added on top of the price: the total includes it, total_details says how much.
    const session = seller.stack.stripe.sessions.get(id)!;
    session.amount_total = session.amount_total! + tax;
    session.total_details = {...session.total_details!, amount_tax: tax};
  }
  expect((await seller.stack.deliver(completedEvent(seller.stack, id))).status).toBe(200);
  return id;
}

async function commissionOf(sessionId: string) {
  const [row] = await seller.stack.worker.db.all<{
    affiliate_id: string;
    base: number;
    commission: number;
    currency: string;
    payable_at: number;
    paid_at: number;
  }>('SELECT * FROM commissions WHERE session_id = ?', sessionId);
  return row;
}

async function ownFigures(user: SignedInUser): Promise<AffiliateAnswer> {
  const response = await seller.stack.call(API_PATHS.affiliate, {token: user.idToken});
  expect(response.status).toBe(200);
  return (await response.json()) as AffiliateAnswer;
}

async function listed(id: string) {
  const response = await seller.stack.call(ADMIN_PATHS.affiliates, {token: seller.admin.idToken});
  expect(response.status).toBe(200);
  const answer = (await response.json()) as AdminAffiliates;
  return {answer, affiliate: answer.items.find((each) => each.id === id)!};
}

/** The hold is over for the session's commission: it is payable from now. */
const holdOver = (sessionId: string) =>
  seller.stack.worker.db.run('UPDATE commissions SET payable_at = ? WHERE session_id = ?', Date.now() - 1, sessionId);

function payout(affiliateId: string, amount: number, reference = 'TR-1', asOf?: number) {
  return seller.stack.call(adminPath(ADMIN_PATHS.affiliatePayout, {affiliateId}), {
    token: seller.admin.idToken,
    body: {amount, reference, ...(asOf !== undefined && {asOf})},
  });
}

describe('joining', () => {
  test('a verified user joins with a code and reads the terms, their link and nothing earned yet', async () => {
    const user = await seller.stack.signUp({email: uniqueEmail('joiner'), verified: true});
    const before = await ownFigures(user);
    expect(before).toEqual({
      terms: {
        commissionPercent: programme.commissionPercent,
        referralDays: programme.referralDays,
        holdDays: commissionHoldDays(),
      },
      affiliate: null,
    });
    const code = freshCode('Joiner').toUpperCase();
    const joined = await join(user, code);
    expect(joined.status).toBe(201);
    const answer = (await joined.json()) as AffiliateAnswer;
    expect(answer.affiliate).toMatchObject({
      code: code.toLowerCase(),
      link: `${SITE_ORIGIN}/?via=${code.toLowerCase()}`,
      clicks: 0,
      sales: 0,
      totals: {currency: PLAN_CURRENCY, pending: 0, payable: 0, paid: 0},
      commissions: [],
    });
    expect(await ownFigures(user)).toEqual(answer);
  });

  test('an unverified e-mail is refused 403 EMAIL_NOT_VERIFIED, and nothing is recorded', async () => {
    const user = await seller.stack.signUp({email: uniqueEmail('unverified')});
    const code = freshCode('unverified');
    const refused = await join(user, code);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({code: 'EMAIL_NOT_VERIFIED', error: AFFILIATE_WORDS.emailNotVerified});
    expect(await seller.stack.worker.db.all('SELECT 1 FROM affiliates WHERE code = ?', code)).toHaveLength(0);
  });

  test('a code taken, or a second joining, is 409 CONFLICT', async () => {
    const first = await newAffiliate('first');
    const other = await seller.stack.signUp({email: uniqueEmail('other'), verified: true});
    const taken = await join(other, first.code);
    expect(taken.status).toBe(409);
    expect(await taken.json()).toMatchObject({code: 'CONFLICT', error: AFFILIATE_WORDS.codeTaken});
    const again = await join(first.user, freshCode('again'));
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({code: 'CONFLICT', error: AFFILIATE_WORDS.alreadyJoined});
  });

  test('a code that breaks the rule is 400', async () => {
    const user = await seller.stack.signUp({email: uniqueEmail('badcode'), verified: true});
    expect((await join(user, '-no')).status).toBe(400);
  });
});

describe('visits', () => {
  test('a visit is counted once per visitor and day, and a repeat answers the same referral', async () => {
    const affiliate = await newAffiliate('counted');
    const visitor = newVisitor();
    const first = await visit(affiliate.code, visitor);
    expect(first.status).toBe(200);
    const answer = (await first.json()) as AffiliateVisit;
    expect(answer.referral).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    const [row] = await seller.stack.worker.db.all<{created_at: number; visitor: string}>(
      'SELECT created_at, visitor FROM affiliate_visits WHERE id = ?',
      answer.referral,
    );
    expect(answer.expiresAt).toBe(row!.created_at + programme.referralDays * DAY_MS);
    // The visitor is a hash, not their address.
    expect(row!.visitor).not.toContain('127.77');
    expect(await (await visit(affiliate.code, visitor)).json()).toEqual(answer);
    // Another browser at the same address is another visitor.
    await referralOf(affiliate.code, {...visitor, 'user-agent': 'Safari'});
    expect((await ownFigures(affiliate.user)).affiliate!.clicks).toBe(2);
  });

  test('an unknown code is 404 NOT_FOUND', async () => {
    const response = await visit('nobody-has-this');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({code: 'NOT_FOUND', error: AFFILIATE_WORDS.unknownCode});
  });

  test('past 30 a minute from one address, a visit is 429', async () => {
    const affiliate = await newAffiliate('limited');
    const visitor = newVisitor();
    const key = `affiliate-visit:${visitor['cf-connecting-ip']}`;
    // This minute and the next are used up already, whenever the call falls.
    const minute = 60_000;
    const start = Date.now() - (Date.now() % minute);
    for (const window of [start, start + minute])
      await seller.stack.worker.db.run(
        'INSERT INTO rate_limits (key, window_start, count) VALUES (?, ?, 30)',
        key,
        window,
      );
    const refused = await visit(affiliate.code, visitor);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).not.toBeNull();
  });
});

describe('keeping visits', () => {
  test("the cron purges visits past the referral period and salts past their day; the affiliate's clicks stay", async () => {
    const affiliate = await newAffiliate('purged');
    const [old, recent] = [await referralOf(affiliate.code), await referralOf(affiliate.code)];
    await seller.stack.worker.db.run(
      'UPDATE affiliate_visits SET created_at = ? WHERE id = ?',
      Date.now() - programme.referralDays * DAY_MS - 1000,
      old,
    );
    await seller.stack.worker.db.run(
      "INSERT INTO affiliate_salts (day, salt, created_at) VALUES ('2000-01-01', 'old-salt', 0) ON CONFLICT DO NOTHING",
    );
    await seller.stack.worker.scheduled();
    const kept = await seller.stack.worker.db.all<{id: string}>(
      'SELECT id FROM affiliate_visits WHERE id IN (?, ?)',
      old,
      recent,
    );
    expect(kept).toEqual([{id: recent}]);
    const salts = await seller.stack.worker.db.all<{day: string}>('SELECT day FROM affiliate_salts');
    expect(salts).toEqual([{day: new Date().toISOString().slice(0, 10)}]);
    expect((await ownFigures(affiliate.user)).affiliate!.clicks).toBe(2);
  });
});

describe('attribution', () => {
  test("the base is in the seller's currency under Adaptive Pricing, its tax converted back", () => {
    const session = {
      amount_total: 11_000,
      currency: 'eur',
      total_details: {amount_discount: 0, amount_shipping: 0, amount_tax: 1_000},
      currency_conversion: {amount_subtotal: 10_000, amount_total: 10_000, fx_rate: '1.1', source_currency: 'USD'},
    } as unknown as Parameters<typeof baseOf>[0];
    // The tax is the same share of the total in either currency: 1,000 of 11,000.
    expect(baseOf(session)).toEqual({base: 10_000 - Math.round((1_000 * 10_000) / 11_000), currency: 'usd'});
  });

  test('a referred purchase carries the affiliate in its metadata and credits a commission on what was paid after the discount, before tax', async () => {
    const affiliate = await newAffiliate('credited');
    const referral = await referralOf(affiliate.code);
    const code = `AFF${Date.now().toString(36).toUpperCase()}`;
    const made = await seller.stack.call(ADMIN_PATHS.createLaunchCode, {
      token: seller.admin.idToken,
      body: {code, percentOff: 20},
    });
    expect(made.status).toBe(201);
    const tax = 1234;
    const id = await referredPurchase(referral, {promotionCode: code, tax});
    const session = seller.stack.stripe.sessions.get(id)!;
    expect(session.metadata).toMatchObject({affiliate: affiliate.id, affiliate_visit: referral});
    expect(session.total_details!.amount_discount).toBeGreaterThan(0);
    const base = session.amount_total! - tax;
    const commission = await commissionOf(id);
    expect(commission).toMatchObject({
      affiliate_id: affiliate.id,
      base,
      commission: Math.round((base * programme.commissionPercent) / 100),
      currency: PLAN_CURRENCY,
    });
    expect(commission!.payable_at).toBe(commission!.paid_at + commissionHoldDays() * DAY_MS);
    // The same event again, and the success path, credit nothing more.
    expect((await seller.stack.deliver(completedEvent(seller.stack, id))).status).toBe(200);
    expect(await seller.stack.worker.db.all('SELECT 1 FROM commissions WHERE session_id = ?', id)).toHaveLength(1);
    const figures = (await ownFigures(affiliate.user)).affiliate!;
    expect(figures).toMatchObject({
      clicks: 1,
      sales: 1,
      totals: {pending: commission!.commission, payable: 0, paid: 0},
    });
    expect(figures.commissions).toEqual([
      {
        paidAt: commission!.paid_at,
        amount: base,
        commission: commission!.commission,
        currency: PLAN_CURRENCY,
        state: 'pending',
        payableAt: commission!.payable_at,
      },
    ]);
    // The console's page of the purchase names the affiliate credited, and the code it was paid with.
    const detail = await seller.stack.call(adminPath(ADMIN_PATHS.purchase, {sessionId: id}), {
      token: seller.admin.idToken,
    });
    expect(await detail.json()).toMatchObject({referredBy: affiliate.code, launchCode: code});
  });

  test('two deliveries of the payment at once credit one commission', async () => {
    const affiliate = await newAffiliate('racing');
    const email = uniqueEmail('racing');
    const id = await seller.stack.openCheckout({email, referral: await referralOf(affiliate.code)});
    seller.stack.stripe.complete(id, {email, paid: true});
    const answers = await Promise.all(
      [1, 2, 3].map((n) => seller.stack.deliver(completedEvent(seller.stack, id, `evt_race_${id}_${n}`))),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(await seller.stack.worker.db.all('SELECT 1 FROM commissions WHERE session_id = ?', id)).toHaveLength(1);
  });

  test('an unknown or expired referral is ignored: the checkout goes on, and nobody is credited', async () => {
    const affiliate = await newAffiliate('expired');
    const referral = await referralOf(affiliate.code);
    await seller.stack.worker.db.run(
      'UPDATE affiliate_visits SET created_at = ? WHERE id = ?',
      Date.now() - programme.referralDays * DAY_MS - 1000,
      referral,
    );
    const expired = await referredPurchase(referral);
    expect(seller.stack.stripe.sessions.get(expired)!.metadata).not.toHaveProperty('affiliate');
    expect(await commissionOf(expired)).toBeUndefined();
    const unknown = await referredPurchase('this-visit-was-never-recorded');
    expect(seller.stack.stripe.sessions.get(unknown)!.metadata).not.toHaveProperty('affiliate');
    expect(await commissionOf(unknown)).toBeUndefined();
  });

  test('the last link followed wins: the referral the browser kept last is credited', async () => {
    const [first, last] = [await newAffiliate('firstlink'), await newAffiliate('lastlink')];
    const visitor = newVisitor();
    await referralOf(first.code, visitor);
    const kept = await referralOf(last.code, visitor);
    const id = await referredPurchase(kept);
    expect((await commissionOf(id))!.affiliate_id).toBe(last.id);
  });

  test('metadata naming an affiliate the worker does not know credits nobody', async () => {
    const id = await seller.stack.openCheckout({email: uniqueEmail('forged')});
    const session = seller.stack.stripe.sessions.get(id)!;
    session.metadata = {...session.metadata, affiliate: 'aff_000000000000000000000000'};
    seller.stack.stripe.complete(id, {email: uniqueEmail('forged'), paid: true});
    expect((await seller.stack.deliver(completedEvent(seller.stack, id))).status).toBe(200);
    expect(await commissionOf(id)).toBeUndefined();
  });
});

describe('no self-referral', () => {
  test("the affiliate's own purchase through their link earns nothing", async () => {
    const affiliate = await newAffiliate('selfbuyer');
    const id = await referredPurchase(await referralOf(affiliate.code), {email: affiliate.user.email});
    expect(seller.stack.stripe.sessions.get(id)!.metadata).toMatchObject({affiliate: affiliate.id});
    expect(await commissionOf(id)).toBeUndefined();
  });

  test("a purchase from another address by the affiliate's own Stripe customer earns nothing", async () => {
    const affiliate = await newAffiliate('samecustomer');
    const own = await referredPurchase(undefined, {email: affiliate.user.email});
    const customer = seller.stack.stripe.sessions.get(own)!.customer as string;
    const email = uniqueEmail('othername');
    const id = await seller.stack.openCheckout({email, referral: await referralOf(affiliate.code)});
    // Checkout knew the buyer (a returning customer): the session pays as that customer.
    seller.stack.stripe.sessions.get(id)!.customer = customer;
    seller.stack.stripe.complete(id, {email, paid: true});
    expect((await seller.stack.deliver(completedEvent(seller.stack, id))).status).toBe(200);
    expect(await commissionOf(id)).toBeUndefined();
  });

  test('a Stripe that cannot be read for the card leaves the purchase as it is, and the cron credits the commission later', async () => {
    const affiliate = await newAffiliate('unread');
    const referral = await referralOf(affiliate.code);
    const email = uniqueEmail('referred');
    const id = await seller.stack.openCheckout({email, referral});
    seller.stack.stripe.complete(id, {email, paid: true, cardFingerprint: `fp_unread_${affiliate.code}`});
    // Twice: the worker's Stripe client retries a 500 once itself.
    [1, 2].forEach(() =>
      seller.stack.stripe.failNext('GET /v1/payment_intents/', 500, {
        type: 'api_error',
        message: 'An unknown error occurred',
      }),
    );
    expect((await seller.stack.deliver(completedEvent(seller.stack, id))).status).toBe(200);
    expect(await commissionOf(id)).toBeUndefined();
    await seller.stack.worker.db.run(
      "UPDATE jobs SET run_after = 0 WHERE kind = 'affiliate-credit' AND session_id = ?1 AND status = 'pending'",
      id,
    );
    await seller.stack.worker.scheduled();
    expect(await commissionOf(id)).toMatchObject({affiliate_id: affiliate.id});
  });

  test('a purchase from another address, paid with a card the affiliate paid with before, earns nothing', async () => {
    const affiliate = await newAffiliate('samecard');
    const card = `fp_${affiliate.code}`;
    await referredPurchase(undefined, {email: affiliate.user.email, cardFingerprint: card});
    const id = await referredPurchase(await referralOf(affiliate.code), {
      email: uniqueEmail('alias'),
      cardFingerprint: card,
    });
    expect(await commissionOf(id)).toBeUndefined();
    // Another card from another address is a real referral.
    const real = await referredPurchase(await referralOf(affiliate.code), {cardFingerprint: `fp_other_${card}`});
    expect((await commissionOf(real))!.affiliate_id).toBe(affiliate.id);
  });
});

describe('where a commission stands', () => {
  test('a refund in full cancels it, and so does a dispute', async () => {
    const affiliate = await newAffiliate('cancelled');
    const refunded = await referredPurchase(await referralOf(affiliate.code));
    const disputed = await referredPurchase(await referralOf(affiliate.code));
    await refundAtStripe(seller.stack, refunded);
    expect(
      (await seller.stack.deliver(disputeEvent(seller.stack, disputed, 'charge.dispute.created', 'needs_response')))
        .status,
    ).toBe(200);
    const figures = (await ownFigures(affiliate.user)).affiliate!;
    expect(figures.commissions.map((each) => each.state)).toEqual(['cancelled', 'cancelled']);
    expect(figures).toMatchObject({sales: 0, totals: {pending: 0, payable: 0, paid: 0}});
  });

  test('a partial refund lowers it in proportion', async () => {
    const affiliate = await newAffiliate('partial');
    const id = await referredPurchase(await referralOf(affiliate.code));
    const total = seller.stack.stripe.sessions.get(id)!.amount_total!;
    const credited = (await commissionOf(id))!;
    await refundAtStripe(seller.stack, id, Math.round(total / 4));
    const [shown] = (await ownFigures(affiliate.user)).affiliate!.commissions;
    const left = total - Math.round(total / 4);
    expect(shown).toMatchObject({
      state: 'pending',
      commission: Math.round((credited.commission * left) / total),
      amount: Math.round((credited.base * left) / total),
    });
  });

  test('held, then payable once the hold is over', async () => {
    const affiliate = await newAffiliate('held');
    const id = await referredPurchase(await referralOf(affiliate.code));
    expect((await ownFigures(affiliate.user)).affiliate!.commissions[0]!.state).toBe('pending');
    await holdOver(id);
    const figures = (await ownFigures(affiliate.user)).affiliate!;
    expect(figures.commissions[0]!.state).toBe('payable');
    expect(figures.totals).toMatchObject({pending: 0, payable: (await commissionOf(id))!.commission});
  });

  test('an affiliate sees only their own figures, and never a buyer', async () => {
    const [mine, theirs] = [await newAffiliate('mine'), await newAffiliate('theirs')];
    const buyer = uniqueEmail('private');
    const id = await referredPurchase(await referralOf(theirs.code), {email: buyer});
    const own = await ownFigures(mine.user);
    expect(own.affiliate).toMatchObject({sales: 0, commissions: []});
    const response = await seller.stack.call(API_PATHS.affiliate, {token: theirs.user.idToken});
    const text = await response.text();
    expect(JSON.parse(text).affiliate.sales).toBe(1);
    expect(text).not.toContain(buyer);
    expect(text).not.toContain(id);
  });
});

describe('the console', () => {
  test('lists affiliates with their clicks, sales, totals and last payout, and pays what is payable once', async () => {
    const affiliate = await newAffiliate('paid');
    const [a, b, held] = [
      await referredPurchase(await referralOf(affiliate.code)),
      await referredPurchase(await referralOf(affiliate.code)),
      await referredPurchase(await referralOf(affiliate.code)),
    ];
    await holdOver(a);
    await holdOver(b);
    const payable = (await commissionOf(a))!.commission + (await commissionOf(b))!.commission;
    const {affiliate: shown, answer} = await listed(affiliate.id);
    expect(shown).toMatchObject({
      code: affiliate.code,
      email: affiliate.user.email,
      clicks: 3,
      sales: 3,
      totals: {pending: (await commissionOf(held))!.commission, payable, paid: 0},
      lastPayout: null,
    });
    expect(answer.totals.payable).toBeGreaterThanOrEqual(payable);

    const wrong = await payout(affiliate.id, payable - 1);
    expect(wrong.status).toBe(409);
    expect(await wrong.json()).toMatchObject({
      code: 'CONFLICT',
      error: AFFILIATE_WORDS.payoutChanged(payable, PLAN_CURRENCY),
    });

    // Twice at once (a double click): one pays, the other finds nothing left.
    const [first, second] = await Promise.all([payout(affiliate.id, payable), payout(affiliate.id, payable)]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    const done = first.status === 200 ? first : second;
    expect(await done.json()).toEqual({
      status: 'paid',
      detail: AFFILIATE_WORDS.payoutMade(payable, PLAN_CURRENCY, 'TR-1'),
    });
    const refused = first.status === 200 ? second : first;
    expect(await refused.json()).toMatchObject({error: AFFILIATE_WORDS.payoutNothing});
    expect(
      await seller.stack.worker.db.all('SELECT amount FROM affiliate_payouts WHERE affiliate_id = ?', affiliate.id),
    ).toEqual([{amount: payable}]);

    const after = (await listed(affiliate.id)).affiliate;
    expect(after.totals).toMatchObject({payable: 0, paid: payable});
    expect(after.lastPayout).toMatchObject({amount: payable, reference: 'TR-1', method: 'marked', state: 'made'});
    const states = (await ownFigures(affiliate.user)).affiliate!.commissions.map((each) => each.state).sort();
    expect(states).toEqual(['paid', 'paid', 'pending']);

    const audit = await seller.stack.call(ADMIN_PATHS.auditLog, {token: seller.admin.idToken});
    const entries = ((await audit.json()) as Page<AdminAuditEntry>).items.filter(
      (entry) => entry.action === 'affiliate_payout',
    );
    expect(entries.map((entry) => entry.outcome).sort()).toEqual(['done', 'failed', 'failed']);
    expect(entries.find((entry) => entry.outcome === 'done')!.detail).toContain(affiliate.code);
  });

  test('a payout pays what was payable when the seller looked, not a commission that became payable since', async () => {
    const affiliate = await newAffiliate('as-of');
    const [seen, later] = [
      await referredPurchase(await referralOf(affiliate.code)),
      await referredPurchase(await referralOf(affiliate.code)),
    ];
    await holdOver(seen);
    const {answer, affiliate: shown} = await listed(affiliate.id);
    const payable = (await commissionOf(seen))!.commission;
    expect(shown.totals.payable).toBe(payable);
    // Between the look and the click, the other commission's hold ends: it was not in what was paid.
    await seller.stack.worker.db.run(
      'UPDATE commissions SET payable_at = ? WHERE session_id = ?',
      answer.asOf + 1,
      later,
    );
    const made = await payout(affiliate.id, payable, 'TR-AS-OF', answer.asOf);
    expect(made.status).toBe(200);
    expect(
      await seller.stack.worker.db.all(
        'SELECT session_id, payout_id IS NOT NULL AS paid FROM commissions WHERE affiliate_id = ? ORDER BY session_id',
        affiliate.id,
      ),
    ).toEqual(
      [
        {session_id: seen, paid: 1},
        {session_id: later, paid: 0},
      ].sort((x, y) => x.session_id.localeCompare(y.session_id)),
    );
    expect((await listed(affiliate.id)).affiliate.totals).toMatchObject({
      payable: (await commissionOf(later))!.commission,
      paid: payable,
    });
  });

  test('a refund after the payout is owed back and taken off the next payout, once', async () => {
    const affiliate = await newAffiliate('taken-back');
    const [early, b, c] = [
      await referredPurchase(await referralOf(affiliate.code)),
      await referredPurchase(await referralOf(affiliate.code)),
      await referredPurchase(await referralOf(affiliate.code)),
    ];
    const commission = async (id: string) => (await commissionOf(id))!.commission;
    await holdOver(early);
    expect((await payout(affiliate.id, await commission(early), 'TR-EARLY')).status).toBe(200);

    // The buyer is refunded in full after the affiliate was paid for the sale.
    await refundAtStripe(seller.stack, early);
    const owedNow = await ownFigures(affiliate.user);
    expect(owedNow.affiliate!.commissions.map((each) => [each.state, each.commission]).sort()).toEqual(
      [
        ['pending', await commission(b)],
        ['pending', await commission(c)],
        ['refundedAfterPayout', 0],
      ].sort(),
    );
    // The CSV says what is owed back on the refunded sale, beside its payout.
    const csv = await (await seller.stack.call(ADMIN_PATHS.affiliatesCsv, {token: seller.admin.idToken})).text();
    expect(csv.split('\r\n').find((line) => line.includes(early))).toMatch(
      new RegExp(`,refundedAfterPayout,[^,]+,TR-EARLY,marked,${await commission(early)}$`),
    );
    expect(owedNow.affiliate).toMatchObject({
      sales: 2,
      totals: {paid: 0, payable: 0, owedBack: await commission(early)},
    });

    // The next payout pays what is payable less what is owed back, and the debt is settled by it.
    await holdOver(b);
    await holdOver(c);
    const gross = (await commission(b)) + (await commission(c));
    const net = gross - (await commission(early));
    expect((await listed(affiliate.id)).affiliate.totals).toMatchObject({payable: net, owedBack: 0});
    const unaware = await payout(affiliate.id, gross, 'TR-GROSS');
    expect(unaware.status).toBe(409);
    expect(await unaware.json()).toMatchObject({error: AFFILIATE_WORDS.payoutChanged(net, PLAN_CURRENCY)});
    expect((await payout(affiliate.id, net, 'TR-NET')).status).toBe(200);

    const after = (await listed(affiliate.id)).affiliate;
    expect(after.totals).toMatchObject({payable: 0, owedBack: 0, paid: gross});
    expect(after.lastPayout).toMatchObject({amount: net, reference: 'TR-NET'});
    // What the affiliate received in all is what their sales that stand earned.
    const payouts = await seller.stack.worker.db.all<{amount: number}>(
      'SELECT amount FROM affiliate_payouts WHERE affiliate_id = ?',
      affiliate.id,
    );
    expect(payouts.reduce((sum, each) => sum + each.amount, 0)).toBe(gross);
    // Taken back once: nothing more is owed, and a later sale is paid in full.
    const later = await referredPurchase(await referralOf(affiliate.code));
    await holdOver(later);
    expect((await listed(affiliate.id)).affiliate.totals).toMatchObject({
      payable: await commission(later),
      owedBack: 0,
    });
  });

  test('a partial refund after the payout owes back its share; owed beyond what is payable waits for later payouts', async () => {
    const affiliate = await newAffiliate('owed-share');
    const [first, second, third] = [
      await referredPurchase(await referralOf(affiliate.code)),
      await referredPurchase(await referralOf(affiliate.code)),
      await referredPurchase(await referralOf(affiliate.code)),
    ];
    await holdOver(first);
    await holdOver(second);
    const paid = (await commissionOf(first))!.commission + (await commissionOf(second))!.commission;
    expect((await payout(affiliate.id, paid)).status).toBe(200);

    const total = seller.stack.stripe.sessions.get(first)!.amount_total!;
    await refundAtStripe(seller.stack, first, Math.round(total / 4));
    const credited = (await commissionOf(first))!.commission;
    const worth = Math.round((credited * (total - Math.round(total / 4))) / total);
    expect((await listed(affiliate.id)).affiliate.totals).toMatchObject({
      payable: 0,
      owedBack: credited - worth,
      paid: paid - (credited - worth),
    });

    // The other is refunded in full: owed back beyond the third sale's commission, nothing is payable.
    await refundAtStripe(seller.stack, second);
    await holdOver(third);
    const owed = credited - worth + (await commissionOf(second))!.commission;
    const payableGross = (await commissionOf(third))!.commission;
    expect((await listed(affiliate.id)).affiliate.totals).toMatchObject({
      payable: Math.max(0, payableGross - owed),
      owedBack: Math.max(0, owed - payableGross),
    });
    const refused = await payout(affiliate.id, payableGross);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({error: AFFILIATE_WORDS.payoutNothing});
  });

  test('a dispute won after a payout took its commission off owes it to the affiliate again, and a payout of that alone is made', async () => {
    const affiliate = await newAffiliate('won-back');
    const [disputed, b, c] = [
      await referredPurchase(await referralOf(affiliate.code)),
      await referredPurchase(await referralOf(affiliate.code)),
      await referredPurchase(await referralOf(affiliate.code)),
    ];
    const commission = (await commissionOf(disputed))!.commission;
    await holdOver(disputed);
    expect((await payout(affiliate.id, commission, 'TR-FIRST')).status).toBe(200);
    const dispute = (type: 'charge.dispute.created' | 'charge.dispute.closed', status: string) =>
      seller.stack.deliver(disputeEvent(seller.stack, disputed, type, status));
    expect((await dispute('charge.dispute.created', 'needs_response')).status).toBe(200);
    await holdOver(b);
    await holdOver(c);
    const net = (await commissionOf(b))!.commission + (await commissionOf(c))!.commission - commission;
    expect((await payout(affiliate.id, net, 'TR-NET')).status).toBe(200);

    // The seller wins: the sale stands again, and what the last payout took off is owed to the affiliate.
    expect((await dispute('charge.dispute.closed', 'won')).status).toBe(200);
    expect((await listed(affiliate.id)).affiliate.totals).toMatchObject({payable: commission, owedBack: 0});
    const made = await payout(affiliate.id, commission, 'TR-WON');
    expect(made.status).toBe(200);
    expect(await made.json()).toEqual({
      status: 'paid',
      detail: AFFILIATE_WORDS.payoutMade(commission, PLAN_CURRENCY, 'TR-WON'),
    });
    const after = (await listed(affiliate.id)).affiliate;
    expect(after.totals).toMatchObject({payable: 0, owedBack: 0});
    const payouts = await seller.stack.worker.db.all<{amount: number}>(
      'SELECT amount FROM affiliate_payouts WHERE affiliate_id = ?',
      affiliate.id,
    );
    expect(payouts.reduce((sum, each) => sum + each.amount, 0)).toBe(after.totals.paid);
  });

  test('a payout to an unknown affiliate is 404', async () => {
    const response = await payout('aff_000000000000000000000000', 100);
    expect(response.status).toBe(404);
  });

  test('the CSV has one row per commission, with the affiliate, the purchase and where it stands', async () => {
    const affiliate = await newAffiliate('csv');
    const id = await referredPurchase(await referralOf(affiliate.code));
    const credited = (await commissionOf(id))!;
    const response = await seller.stack.call(ADMIN_PATHS.affiliatesCsv, {token: seller.admin.idToken});
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/csv');
    const lines = (await response.text()).trim().split('\r\n');
    expect(lines[0]).toBe(
      'affiliate code,affiliate e-mail,purchase session id,paid at,base,commission,currency,state,payable at,payout reference,payout method,owed back',
    );
    expect(lines).toContain(
      [
        affiliate.code,
        affiliate.user.email,
        id,
        new Date(credited.paid_at).toISOString(),
        credited.base,
        credited.commission,
        PLAN_CURRENCY,
        'pending',
        new Date(credited.payable_at).toISOString(),
        '',
        '',
        0,
      ].join(','),
    );
  });

  test("with Connect off (the kit's config), a payout through Stripe is 409, the affiliate's Stripe link 404, and nobody has a Stripe state", async () => {
    const affiliate = await newAffiliate('connectoff');
    const id = await referredPurchase(await referralOf(affiliate.code));
    await holdOver(id);
    const payable = (await commissionOf(id))!.commission;
    const sent = await seller.stack.call(adminPath(ADMIN_PATHS.affiliatePayout, {affiliateId: affiliate.id}), {
      token: seller.admin.idToken,
      body: {amount: payable, method: 'stripe'},
    });
    expect(sent.status).toBe(409);
    expect(await sent.json()).toEqual({code: 'CONFLICT', error: AFFILIATE_WORDS.connectOff});
    const link = await seller.stack.call(API_PATHS.affiliateConnect, {token: affiliate.user.idToken, method: 'POST'});
    expect(link.status).toBe(404);
    expect(await link.json()).toEqual({code: 'NOT_FOUND', error: AFFILIATE_WORDS.connectOff});
    expect(seller.stack.stripe.connect.accounts.size).toBe(0);
    expect(seller.stack.stripe.connect.transfers).toHaveLength(0);
    expect((await ownFigures(affiliate.user)).affiliate!.stripe).toBeNull();
    const {answer, affiliate: shown} = await listed(affiliate.id);
    expect(answer.stripeConnect).toBe(false);
    expect(shown).toMatchObject({stripe: null, totals: {payable, paid: 0}, lastPayout: null});
  });
});
