/**
 * Paying affiliates through Stripe Connect (the programme's `stripeConnect`, on in a bundle built
 * so), on the worker with the real local D1 and the Stripe stand-in: an affiliate's Express
 * account is made once and their link is into it alone; where it stands reads unconnected, then
 * onboarding, then ready, on their page and in the console; the console's Pay through Stripe sends
 * exactly what is payable to the account D1 holds, once, and marks it paid with the transfer's id;
 * a refusal pays nothing, and a transfer Stripe did not answer is settled by the outbox, once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {AFFILIATE_WORDS, PLAN_CURRENCY, ROUTES} from '../../src/config';
import {
  adminPath,
  ADMIN_PATHS,
  API_PATHS,
  type AdminAffiliates,
  type AffiliateAnswer,
  type AffiliateConnectAnswer,
  type AffiliateVisit,
} from '../../src/config/api';
import {buildWorkerBundleWithConfig} from '../../scripts/support/workerRuntime';
import {completedEvent, refundAtStripe, SITE_ORIGIN, type SignedInUser, uniqueEmail, useSellerStack} from './stack';

const PROGRAMME = 'affiliates: {commissionPercent: 30, referralDays: 60, disputeDays: 60},';
const bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'worker-stripe-connect-'));
beforeAll(() => {
  buildWorkerBundleWithConfig(bundleDir, [
    {
      file: 'app.ts',
      from: PROGRAMME,
      to: PROGRAMME.replace('disputeDays: 60}', 'disputeDays: 60, stripeConnect: true}'),
    },
  ]);
}, 180_000);
const seller = useSellerStack({}, {bundleDir});
afterAll(() => fs.rmSync(bundleDir, {recursive: true, force: true}));

let made = 0;
let visitors = 0;

/** A verified user who joined with a fresh code: their account, code and affiliate id. */
async function newAffiliate(label: string) {
  const user = await seller.stack.signUp({email: uniqueEmail(label), verified: true});
  const code = `${label}-${Date.now().toString(36)}${made++}`;
  const joined = await seller.stack.call(API_PATHS.joinAffiliates, {token: user.idToken, body: {code}});
  expect(joined.status).toBe(201);
  expect(((await joined.json()) as AffiliateAnswer).affiliate!.stripe).toBe('unconnected');
  const [row] = await seller.stack.worker.db.all<{id: string}>('SELECT id FROM affiliates WHERE code = ?', code);
  return {user, code, id: row!.id};
}

function connect(user: SignedInUser) {
  return seller.stack.call(API_PATHS.affiliateConnect, {token: user.idToken, method: 'POST'});
}

async function connected(user: SignedInUser): Promise<AffiliateConnectAnswer> {
  const response = await connect(user);
  expect(response.status).toBe(200);
  return (await response.json()) as AffiliateConnectAnswer;
}

async function accountOf(affiliateId: string): Promise<string | null> {
  const [row] = await seller.stack.worker.db.all<{stripe_account_id: string | null}>(
    'SELECT stripe_account_id FROM affiliates WHERE id = ?',
    affiliateId,
  );
  return row!.stripe_account_id;
}

async function ownStripe(user: SignedInUser) {
  const response = await seller.stack.call(API_PATHS.affiliate, {token: user.idToken});
  expect(response.status).toBe(200);
  return ((await response.json()) as AffiliateAnswer).affiliate!.stripe;
}

async function listed(id: string) {
  const response = await seller.stack.call(ADMIN_PATHS.affiliates, {token: seller.admin.idToken});
  expect(response.status).toBe(200);
  const answer = (await response.json()) as AdminAffiliates;
  return {answer, affiliate: answer.items.find((each) => each.id === id)!};
}

/** The affiliate finishes Stripe's onboarding on the link's page; the page sends them back to the site. */
async function onboard(user: SignedInUser) {
  const link = await connected(user);
  expect(link.kind).toBe('onboarding');
  const finished = await fetch(link.url, {
    method: 'POST',
    body: new URLSearchParams({finish: 'yes'}),
    redirect: 'manual',
  });
  expect(finished.status).toBe(303);
  expect(finished.headers.get('location')).toBe(`${SITE_ORIGIN}${ROUTES.affiliates}`);
}

/** An affiliate ready at Stripe (seen ready by their page), with `sales` referred purchases payable. */
async function readyAffiliate(label: string, sales = 1) {
  const affiliate = await newAffiliate(label);
  await onboard(affiliate.user);
  expect(await ownStripe(affiliate.user)).toBe('ready');
  for (let i = 0; i < sales; i++) await payableSale(affiliate.code);
  const payable = (await listed(affiliate.id)).affiliate.totals.payable;
  expect(payable).toBeGreaterThan(0);
  return {...affiliate, account: (await accountOf(affiliate.id))!, payable};
}

/** A guest pays through the affiliate's link, and the commission's hold is over: the purchase's session id. */
async function payableSale(code: string) {
  const ip = `127.88.${Math.floor(visitors / 250) % 250}.${visitors++ % 250}`;
  const visit = await seller.stack.call(API_PATHS.affiliateVisit, {
    body: {code},
    headers: {'user-agent': 'Firefox', 'cf-connecting-ip': ip},
  });
  const {referral} = (await visit.json()) as AffiliateVisit;
  const email = uniqueEmail('referred');
  const id = await seller.stack.openCheckout({email, referral});
  seller.stack.stripe.complete(id, {email, paid: true});
  expect((await seller.stack.deliver(completedEvent(seller.stack, id))).status).toBe(200);
  await seller.stack.worker.db.run('UPDATE commissions SET payable_at = ? WHERE session_id = ?', Date.now() - 1, id);
  return id;
}

function payThroughStripe(affiliateId: string, amount: number, extra: Record<string, unknown> = {}) {
  return seller.stack.call(adminPath(ADMIN_PATHS.affiliatePayout, {affiliateId}), {
    token: seller.admin.idToken,
    body: {amount, method: 'stripe', ...extra},
  });
}

/** The transfers Stripe made for the affiliate's account. */
const transfersTo = (account: string) =>
  seller.stack.stripe.connect.transfers.filter((transfer) => transfer.destination === account);

async function payoutsOf(affiliateId: string) {
  return seller.stack.worker.db.all<{
    id: string;
    amount: number;
    method: string;
    state: string;
    reference: string;
    transfer_id: string | null;
  }>(
    'SELECT id, amount, method, state, reference, transfer_id FROM affiliate_payouts WHERE affiliate_id = ?',
    affiliateId,
  );
}

beforeEach(() => seller.stack.stripe.connect.setBalance(10_000_000));

describe('setting up payouts', () => {
  test("the affiliate's Express account is made once, however often they ask, and each link is into their own", async () => {
    const [mine, theirs] = [await newAffiliate('mine'), await newAffiliate('theirs')];
    const links = await Promise.all([connected(mine.user), connected(mine.user)]);
    await connected(mine.user);
    const made = [...seller.stack.stripe.connect.accounts.values()].filter(
      (account) => account.metadata?.affiliate_id === mine.id,
    );
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({type: 'express', email: mine.user.email, capabilities: {transfers: 'inactive'}});
    expect(await accountOf(mine.id)).toBe(made[0]!.id);
    const other = await connected(theirs.user);
    const otherAccount = (await accountOf(theirs.id))!;
    expect(otherAccount).not.toBe(made[0]!.id);
    for (const link of links) {
      expect(link.kind).toBe('onboarding');
      const page = await (await fetch(link.url)).text();
      expect(page).toContain(made[0]!.id);
      expect(page).not.toContain(otherAccount);
    }
    expect(await (await fetch(other.url)).text()).toContain(otherAccount);
  });

  test('a user who has not joined is 404 NOT_FOUND, and no account is made', async () => {
    const user = await seller.stack.signUp({email: uniqueEmail('outsider'), verified: true});
    const before = seller.stack.stripe.connect.accounts.size;
    const refused = await connect(user);
    expect(refused.status).toBe(404);
    expect(await refused.json()).toEqual({code: 'NOT_FOUND', error: AFFILIATE_WORDS.notJoined});
    expect(seller.stack.stripe.connect.accounts.size).toBe(before);
  });

  test('past 10 a minute, a link is 429', async () => {
    const affiliate = await newAffiliate('limited');
    const minute = 60_000;
    const start = Date.now() - (Date.now() % minute);
    for (const window of [start, start + minute])
      await seller.stack.worker.db.run(
        'INSERT INTO rate_limits (key, window_start, count) VALUES (?, ?, 10)',
        `affiliate-connect:${affiliate.user.uid}`,
        window,
      );
    expect((await connect(affiliate.user)).status).toBe(429);
  });

  test('a Stripe that refuses the account is 502 PAYMENT_PROVIDER', async () => {
    const affiliate = await newAffiliate('refusedaccount');
    seller.stack.stripe.failNext('POST /v1/accounts', 400, {
      type: 'invalid_request_error',
      message: 'You can only create new accounts if you have signed up for Connect.',
    });
    const refused = await connect(affiliate.user);
    expect(refused.status).toBe(502);
    expect(await refused.json()).toMatchObject({code: 'PAYMENT_PROVIDER'});
    expect(await accountOf(affiliate.id)).toBeNull();
  });

  test('unconnected, then onboarding, then ready: on their page and in the console, and then a dashboard link', async () => {
    const affiliate = await newAffiliate('states');
    expect(await ownStripe(affiliate.user)).toBe('unconnected');
    const before = await listed(affiliate.id);
    expect(before.answer.stripeConnect).toBe(true);
    expect(before.affiliate.stripe).toBe('unconnected');

    const link = await connected(affiliate.user);
    expect(await ownStripe(affiliate.user)).toBe('onboarding');
    expect((await listed(affiliate.id)).affiliate.stripe).toBe('onboarding');

    // Stripe cannot be read (twice: the client retries once): the page still answers.
    for (const _ of [1, 2])
      seller.stack.stripe.failNext('GET /v1/accounts/', 500, {type: 'api_error', message: 'An unknown error occurred'});
    expect(await ownStripe(affiliate.user)).toBe('onboarding');

    const finished = await fetch(link.url, {
      method: 'POST',
      body: new URLSearchParams({finish: 'yes'}),
      redirect: 'manual',
    });
    expect(finished.headers.get('location')).toBe(`${SITE_ORIGIN}${ROUTES.affiliates}`);
    // The console reads D1 only: ready once the affiliate's page has seen it so.
    expect((await listed(affiliate.id)).affiliate.stripe).toBe('onboarding');
    expect(await ownStripe(affiliate.user)).toBe('ready');
    expect((await listed(affiliate.id)).affiliate.stripe).toBe('ready');

    const dashboard = await connected(affiliate.user);
    expect(dashboard.kind).toBe('dashboard');
    expect(await (await fetch(dashboard.url)).text()).toContain((await accountOf(affiliate.id))!);
  });
});

describe('paying through Stripe', () => {
  test('sends exactly what is payable to the account D1 holds, and marks it paid with the transfer', async () => {
    const affiliate = await readyAffiliate('paid', 2);
    const withReference = await payThroughStripe(affiliate.id, affiliate.payable, {reference: 'TR-1'});
    expect(withReference.status).toBe(400);

    const paid = await payThroughStripe(affiliate.id, affiliate.payable);
    expect(paid.status).toBe(200);
    const [transfer, ...more] = transfersTo(affiliate.account);
    expect(more).toHaveLength(0);
    expect(transfer).toMatchObject({
      amount: affiliate.payable,
      currency: PLAN_CURRENCY,
      destination: affiliate.account,
    });
    expect(await paid.json()).toEqual({
      status: 'paid',
      detail: AFFILIATE_WORDS.transferMade(affiliate.payable, PLAN_CURRENCY, transfer!.id),
    });
    const [payout] = await payoutsOf(affiliate.id);
    expect(payout).toMatchObject({method: 'stripe', state: 'made', transfer_id: transfer!.id, reference: transfer!.id});
    expect(transfer!.transfer_group).toBe(payout!.id);
    const shown = (await listed(affiliate.id)).affiliate;
    expect(shown.totals).toMatchObject({payable: 0, paid: affiliate.payable});
    expect(shown.lastPayout).toMatchObject({
      amount: affiliate.payable,
      reference: transfer!.id,
      method: 'stripe',
      state: 'made',
    });
    const csv = await (await seller.stack.call(ADMIN_PATHS.affiliatesCsv, {token: seller.admin.idToken})).text();
    expect(csv.split('\r\n')[0]).toMatch(/,payout reference,payout method,owed back$/);
    expect(csv).toContain(`,${transfer!.id},stripe,0`);
  });

  test('a balance too low is 409 and pays nothing; with funds added, paying again works', async () => {
    const affiliate = await readyAffiliate('lowbalance');
    seller.stack.stripe.connect.setBalance(affiliate.payable - 1);
    const refused = await payThroughStripe(affiliate.id, affiliate.payable);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      code: 'CONFLICT',
      error: AFFILIATE_WORDS.transferRefused(AFFILIATE_WORDS.balanceInsufficient),
    });
    expect(transfersTo(affiliate.account)).toHaveLength(0);
    expect(await payoutsOf(affiliate.id)).toEqual([]);
    expect((await listed(affiliate.id)).affiliate).toMatchObject({
      totals: {payable: affiliate.payable, paid: 0},
      lastPayout: null,
    });

    seller.stack.stripe.connect.setBalance(affiliate.payable);
    const paid = await payThroughStripe(affiliate.id, affiliate.payable);
    expect(paid.status).toBe(200);
    expect(transfersTo(affiliate.account)).toMatchObject([{amount: affiliate.payable}]);
    expect((await listed(affiliate.id)).affiliate.totals).toMatchObject({payable: 0, paid: affiliate.payable});
  });

  test('a transfer refused after a refund leaves what is owed back owed; the transfer made takes it off, once', async () => {
    const affiliate = await newAffiliate('owedback');
    await onboard(affiliate.user);
    const first = await payableSale(affiliate.code);
    const account = (await accountOf(affiliate.id))!;
    const commission = (await listed(affiliate.id)).affiliate.totals.payable;
    expect((await payThroughStripe(affiliate.id, commission)).status).toBe(200);
    await refundAtStripe(seller.stack, first);
    await payableSale(affiliate.code);
    await payableSale(affiliate.code);
    const net = (await listed(affiliate.id)).affiliate.totals.payable;
    expect(net).toBe(commission);

    seller.stack.stripe.connect.setBalance(net - 1);
    expect((await payThroughStripe(affiliate.id, net)).status).toBe(409);
    const takenBack = () =>
      seller.stack.worker.db.all('SELECT session_id, amount FROM commission_takebacks WHERE session_id = ?', first);
    expect(await takenBack()).toEqual([]);
    expect((await listed(affiliate.id)).affiliate.totals).toMatchObject({payable: net, owedBack: 0});

    seller.stack.stripe.connect.setBalance(net);
    expect((await payThroughStripe(affiliate.id, net)).status).toBe(200);
    expect(transfersTo(account).map((transfer) => transfer.amount)).toEqual([commission, net]);
    expect(await takenBack()).toEqual([{session_id: first, amount: commission}]);
    expect((await listed(affiliate.id)).affiliate.totals).toMatchObject({payable: 0, owedBack: 0});
  });

  test('an affiliate not set up with Stripe, or still onboarding, is 409, and nothing is sent or paid', async () => {
    const affiliate = await newAffiliate('notready');
    await payableSale(affiliate.code);
    const {payable} = (await listed(affiliate.id)).affiliate.totals;
    const unconnected = await payThroughStripe(affiliate.id, payable);
    expect(unconnected.status).toBe(409);
    expect(await unconnected.json()).toEqual({code: 'CONFLICT', error: AFFILIATE_WORDS.stripeNotReady});
    await connected(affiliate.user);
    const onboarding = await payThroughStripe(affiliate.id, payable);
    expect(onboarding.status).toBe(409);
    expect(await onboarding.json()).toEqual({code: 'CONFLICT', error: AFFILIATE_WORDS.stripeNotReady});
    expect(transfersTo((await accountOf(affiliate.id))!)).toHaveLength(0);
    expect(await payoutsOf(affiliate.id)).toEqual([]);
    // Finished at Stripe but not yet seen by the worker: the payout asks Stripe once, and pays.
    seller.stack.stripe.connect.finishOnboarding((await accountOf(affiliate.id))!);
    expect((await payThroughStripe(affiliate.id, payable)).status).toBe(200);
  });

  test('a transfer Stripe made but answered 500 is 202 sending; the outbox then finds it: one transfer, made', async () => {
    const affiliate = await readyAffiliate('unanswered');
    seller.stack.stripe.connect.failTransfers(1);
    const sending = await payThroughStripe(affiliate.id, affiliate.payable);
    expect(sending.status).toBe(202);
    expect(await sending.json()).toEqual({
      status: 'sending',
      detail: AFFILIATE_WORDS.transferSending(affiliate.payable, PLAN_CURRENCY),
    });
    // Made at Stripe; the worker does not know it yet.
    expect(transfersTo(affiliate.account)).toHaveLength(1);
    expect(await payoutsOf(affiliate.id)).toMatchObject([{method: 'stripe', state: 'sending', reference: ''}]);
    const shown = (await listed(affiliate.id)).affiliate;
    expect(shown.lastPayout).toMatchObject({method: 'stripe', state: 'sending', reference: ''});
    expect(shown.totals).toMatchObject({payable: 0});
    // The affiliate reads it as being sent, not as paid.
    const page = await seller.stack.call(API_PATHS.affiliate, {token: affiliate.user.idToken});
    expect(((await page.json()) as AffiliateAnswer).affiliate!.commissions.map((each) => each.state)).toEqual([
      'sending',
    ]);

    await runTransferJobs();
    const [transfer, ...more] = transfersTo(affiliate.account);
    expect(more).toHaveLength(0);
    expect(await payoutsOf(affiliate.id)).toMatchObject([{state: 'made', transfer_id: transfer!.id}]);
    expect((await listed(affiliate.id)).affiliate.lastPayout).toMatchObject({state: 'made', reference: transfer!.id});
  });

  test('a transfer that never reached Stripe is 202 sending; the outbox then makes it, once', async () => {
    const affiliate = await readyAffiliate('unreached');
    // Twice: the worker's Stripe client retries a 500 once itself.
    for (const _ of [1, 2])
      seller.stack.stripe.failNext('POST /v1/transfers', 500, {
        type: 'api_error',
        message: 'An unknown error occurred',
      });
    expect((await payThroughStripe(affiliate.id, affiliate.payable)).status).toBe(202);
    expect(transfersTo(affiliate.account)).toHaveLength(0);
    await runTransferJobs();
    await runTransferJobs();
    const [transfer, ...more] = transfersTo(affiliate.account);
    expect(more).toHaveLength(0);
    expect(transfer).toMatchObject({amount: affiliate.payable});
    expect(await payoutsOf(affiliate.id)).toMatchObject([{state: 'made', transfer_id: transfer!.id}]);
  });

  test("a transfer Stripe never made, with no answer by the outbox's last attempt, is undone: its commission payable again", async () => {
    const affiliate = await readyAffiliate('givenup');
    // The request's ask and the job's, each with the client's own retry: no answer, nothing made.
    for (const _ of [1, 2, 3, 4])
      seller.stack.stripe.failNext('POST /v1/transfers', 500, {
        type: 'api_error',
        message: 'An unknown error occurred',
      });
    expect((await payThroughStripe(affiliate.id, affiliate.payable)).status).toBe(202);
    // Its next run is past the outbox's last attempt (MAX_ATTEMPTS in worker/src/jobs.ts).
    await seller.stack.worker.db.run(
      "UPDATE jobs SET attempts = 99 WHERE kind = 'affiliate-transfer' AND status = 'pending'",
    );
    await runTransferJobs();
    expect(transfersTo(affiliate.account)).toHaveLength(0);
    expect(await payoutsOf(affiliate.id)).toEqual([]);
    expect((await listed(affiliate.id)).affiliate).toMatchObject({
      totals: {payable: affiliate.payable, paid: 0},
      lastPayout: null,
    });
  });

  test('GET /affiliate asks Stripe about an account being set up at most 6 times a minute, however often it is loaded', async () => {
    const affiliate = await newAffiliate('reloads');
    await connected(affiliate.user);
    const asked = () => seller.stack.stripe.connect.accountReads();
    const before = asked();
    for (let load = 0; load < 9; load++) expect(await ownStripe(affiliate.user)).toBe('onboarding');
    expect(asked() - before).toBe(6);
  });

  test('nothing is owed back on a commission whose transfer Stripe has not confirmed: it may yet be undone', async () => {
    const affiliate = await newAffiliate('unconfirmed');
    await onboard(affiliate.user);
    const first = await payableSale(affiliate.code);
    const commission = (await listed(affiliate.id)).affiliate.totals.payable;
    for (const _ of [1, 2])
      seller.stack.stripe.failNext('POST /v1/transfers', 500, {
        type: 'api_error',
        message: 'An unknown error occurred',
      });
    expect((await payThroughStripe(affiliate.id, commission)).status).toBe(202);
    await refundAtStripe(seller.stack, first);
    await payableSale(affiliate.code);
    expect((await listed(affiliate.id)).affiliate.totals).toMatchObject({payable: commission, owedBack: 0});
  });

  test('two payouts at once send one transfer', async () => {
    const affiliate = await readyAffiliate('racing');
    const answers = await Promise.all([
      payThroughStripe(affiliate.id, affiliate.payable),
      payThroughStripe(affiliate.id, affiliate.payable),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(transfersTo(affiliate.account)).toMatchObject([{amount: affiliate.payable}]);
    expect(await payoutsOf(affiliate.id)).toHaveLength(1);
  });
});

/** The outbox's transfer jobs, made due, run by the cron. */
async function runTransferJobs() {
  await seller.stack.worker.db.run(
    "UPDATE jobs SET run_after = 0 WHERE kind = 'affiliate-transfer' AND status = 'pending'",
  );
  await seller.stack.worker.scheduled();
}
