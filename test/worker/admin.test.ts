/**
 * The seller's console on the worker: who gets in, what it shows (sales, purchases and their
 * history, failures, the repository audit, leads, the admin log), and that each action changes D1
 * and GitHub (the recorded stand-in) as it says, and is written to the admin log.
 */
import {afterPurchase, appConfig, PLAN_CURRENCY, planAmount} from '../../src/config';
import {
  adminPath,
  ADMIN_PATHS,
  API_PATHS,
  type AdminAuditEntry,
  type AdminJob,
  type AdminPurchase,
  type AdminPurchaseDetail,
  type DownloadLink,
  type Page,
  type RepositoryAudit,
  type SalesSummary,
  SALES_PERIODS,
} from '../../src/config/api';
import {type Failure, FIXTURE_REPO, OWNER, VALIDATION_FAILED} from '../../scripts/local/githubApi';
import {ageKitReading, kitGrant} from './grantRows';
import {
  claimsOf,
  completedEvent,
  disputeEvent,
  refundEvent,
  type SignedInUser,
  startStack,
  type Stack,
  uniqueEmail,
} from './stack';

/** Unique: the worker test files share one Auth emulator. */
/** What a checkout of the stack pays: the Advanced plan (PRICE_ADVANCED), as the config prices it. */
const ADVANCED_CENTS = planAmount(appConfig.plans[1]!);
/** Cents as the console words them, without the dollar sign: 8400 is "84.00". */
const cents = (amount: number) => (amount / 100).toFixed(2);

const ADMIN_EMAIL = uniqueEmail('seller');
/** A second admin, for two admins acting at once. */
const CO_ADMIN_EMAIL = uniqueEmail('co-admin');
/** Listed in ADMIN_EMAILS too, and signed up unverified (the Auth emulator outlives one run: a new one each). */
const UNPROVED_ADMIN = `co-seller.${Date.now().toString(36)}@${appConfig.domainName}`;
let stack: Stack;
let admin: SignedInUser;

beforeAll(async () => {
  // The recording's owner account stands for the seller's own: exempt from the audit.
  stack = await startStack({
    ADMIN_EMAILS: `someone-else@${appConfig.domainName}, ${ADMIN_EMAIL.toUpperCase()},${UNPROVED_ADMIN},${CO_ADMIN_EMAIL}`,
    GITHUB_EXEMPT: OWNER,
  });
  admin = await stack.signUp({email: ADMIN_EMAIL, verified: true});
});
afterAll(() => stack.stop());

const get = async <T>(path: string, as = admin) => {
  const response = await stack.call(path, {token: as.idToken});
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
};
const post = (path: string, body: unknown = {}, as = admin) => stack.call(path, {token: as.idToken, body});
const purchasePath = (path: string, sessionId: string) => adminPath(path, {sessionId});

let accounts = 0;
const githubAccount = () => stack.github.addUser(`admin-test-${Date.now().toString(36)}-${accounts++}`).login;
const invitationOf = (login: string) =>
  [...stack.github.invitations.values()].find((invitation) => invitation.invitee.login === login);
const grantOf = (sessionId: string) => kitGrant(stack.worker.db, sessionId);
/** When the seller revoked the purchase's access (null: not revoked), as D1 records it. */
const revokedAt = async (sessionId: string) =>
  (
    await stack.worker.db.all<{revoked_by_seller_at: number | null}>(
      'SELECT revoked_by_seller_at FROM purchases WHERE session_id = ?',
      sessionId,
    )
  )[0]!.revoked_by_seller_at;
const detailOf = (sessionId: string) => get<AdminPurchaseDetail>(purchasePath(ADMIN_PATHS.purchase, sessionId));
const auditEntries = async () => (await get<Page<AdminAuditEntry>>(ADMIN_PATHS.auditLog)).items;

async function buyer(options: {seat?: boolean; accept?: boolean} = {}) {
  const user = await stack.signUp();
  const sessionId = await stack.paidCheckout({email: user.email, user});
  expect((await stack.deliver(completedEvent(stack, sessionId))).status).toBe(200);
  let login: string | undefined;
  if (options.seat) {
    login = githubAccount();
    expect(
      (await stack.call('/addUserToRepo', {token: user.idToken, body: {username: login, userId: user.uid}})).status,
    ).toBe(200);
    if (options.accept) stack.github.accept(invitationOf(login)!.id);
  }
  return {user, sessionId, login};
}

const refund = (sessionId: string) => stack.deliver(refundEvent(stack, sessionId));

describe('who gets in', () => {
  /** A request to each admin route. Keyed by ADMIN_PATHS: a route added there and not here fails typecheck. */
  const requests = {
    sales: {method: 'GET'},
    funnel: {method: 'GET'},
    purchases: {method: 'GET'},
    purchasesCsv: {method: 'GET'},
    purchase: {method: 'GET'},
    grant: {method: 'POST', body: {username: 'octocat'}},
    revoke: {method: 'POST', body: {}},
    resend: {method: 'POST', body: {}},
    resetUsernameChanges: {method: 'POST', body: {}},
    takeBackMember: {method: 'POST', body: {member: 1}},
    refund: {method: 'POST', body: {reason: 'requested_by_customer', refundedBefore: 0}},
    jobs: {method: 'GET'},
    retryJob: {method: 'POST', body: {}},
    repositoryAudit: {method: 'GET'},
    repositoryFix: {method: 'POST', body: {kind: 'paid_missing', githubUserId: 1}},
    repositoryFixAll: {method: 'POST', body: {kind: 'unpaid_on_repository'}},
    leads: {method: 'GET'},
    leadsCsv: {method: 'GET'},
    selfRefunds: {method: 'GET'},
    auditLog: {method: 'GET'},
    releases: {method: 'GET'},
    releaseResend: {method: 'POST', body: {}},
    acceptCardCountry: {method: 'POST', body: {}},
    launchCodes: {method: 'GET'},
    createLaunchCode: {method: 'POST', body: {code: 'LAUNCH', percentOff: 10}},
    endLaunchCode: {method: 'POST', body: {}},
    affiliates: {method: 'GET'},
    affiliatesCsv: {method: 'GET'},
    affiliatePayout: {method: 'POST', body: {amount: 100, reference: 'TR-1'}},
  } satisfies Record<keyof typeof ADMIN_PATHS, {method: 'GET' | 'POST'; body?: unknown}>;
  const refusal = {error: "Only the seller's admins may use the console", code: 'ADMIN_ONLY'};
  let buyer: SignedInUser;
  let unproved: SignedInUser;
  beforeAll(async () => {
    buyer = await stack.signUp({verified: true});
    // An address in ADMIN_EMAILS, signed up with a password and never proved: anybody can do that.
    unproved = await stack.signUp({email: UNPROVED_ADMIN});
    expect(claimsOf(unproved.idToken)).toMatchObject({email: UNPROVED_ADMIN, email_verified: false});
  });

  test.each(Object.entries(ADMIN_PATHS) as [keyof typeof ADMIN_PATHS, string][])(
    'ADMIN_PATHS.%s (%s) refuses a visitor (401), a buyer (403) and an admin e-mail not verified (403 ADMIN_ONLY)',
    async (name, template) => {
      const request: {method: string; body?: unknown} = requests[name];
      const send = (token?: string) =>
        stack.call(
          adminPath(template, {
            sessionId: 'cs_test_any',
            jobId: 1,
            releaseId: 1,
            codeId: 'promo_any',
            affiliateId: 'aff_00000000',
          }),
          {
            method: request.method,
            token,
            body: request.body,
          },
        );
      expect((await send()).status).toBe(401);
      for (const someone of [buyer, unproved]) {
        const refused = await send(someone.idToken);
        expect(refused.status).toBe(403);
        expect(await refused.json()).toEqual(refusal);
      }
      expect(await stack.worker.db.all('SELECT id FROM admin_audit WHERE admin_email != ?', ADMIN_EMAIL)).toEqual([]);
    },
  );

  test('GET /isAdmin answers the admin true, a buyer and an admin e-mail not verified false (200, no e-mail list), a visitor 401', async () => {
    const ask = (token?: string) => stack.call(API_PATHS.isAdmin, {token});
    expect((await ask()).status).toBe(401);
    const answers = [];
    for (const someone of [admin, buyer, unproved]) {
      const response = await ask(someone.idToken);
      answers.push([response.status, await response.json()]);
    }
    expect(answers).toEqual([
      [200, {admin: true}],
      [200, {admin: false}],
      [200, {admin: false}],
    ]);
  });

  test('the admin e-mail that was refused gets in once it is verified', async () => {
    const proved = await stack.verify(unproved);
    expect((await stack.call(ADMIN_PATHS.sales, {token: proved.idToken})).status).toBe(200);
  });

  test('with ADMIN_EMAILS unset, nobody gets in', async () => {
    const bare = await startStack({ADMIN_EMAILS: ''});
    try {
      const seller = await bare.signUp({verified: true});
      const response = await bare.call(ADMIN_PATHS.sales, {token: seller.idToken});
      expect(response.status).toBe(403);
      expect(await (await bare.call(API_PATHS.isAdmin, {token: seller.idToken})).json()).toEqual({admin: false});
    } finally {
      await bare.stop();
    }
  });
});

describe('what the console shows', () => {
  test('sales: revenue by day and plan over 30 days, refunds, disputes, buyers, totals; the purchases list says which is which', async () => {
    const before = await get<SalesSummary>(ADMIN_PATHS.sales);
    const {sessionId: refunded} = await buyer();
    const {sessionId: kept} = await buyer();
    const {sessionId: disputed} = await buyer();
    const {sessionId: lost} = await buyer();
    await refund(refunded);
    expect(
      (await stack.deliver(disputeEvent(stack, disputed, 'charge.dispute.created', 'needs_response'))).status,
    ).toBe(200);
    expect((await stack.deliver(disputeEvent(stack, lost, 'charge.dispute.created', 'needs_response'))).status).toBe(
      200,
    );
    expect((await stack.deliver(disputeEvent(stack, lost, 'charge.dispute.closed', 'lost'))).status).toBe(200);
    const after = await get<SalesSummary>(ADMIN_PATHS.sales);
    const advanced = appConfig.plans[1]!;
    expect(after.days).toHaveLength(30);
    expect(after.days.at(-1)!.day).toBe(new Date().toISOString().slice(0, 10));
    expect(after.currency).toBe(PLAN_CURRENCY);
    // Only the sale that stands counts: not the refund, not the disputes.
    expect(after.revenue - before.revenue).toBe(planAmount(advanced));
    expect(after.buyers - before.buyers).toBe(1);
    expect(after.refunds.count - before.refunds.count).toBe(1);
    expect(after.refunds.amount - before.refunds.amount).toBe(planAmount(advanced));
    // Every payment that went through is the rate's whole: the refunded and the disputed count, as the kept one does.
    expect(after.refunds.of - before.refunds.of).toBe(4);
    expect(after.disputes).toEqual({
      open: before.disputes.open + 1,
      won: before.disputes.won,
      lost: before.disputes.lost + 1,
    });
    const today = (summary: SalesSummary) => summary.days.at(-1)!.byPlan[advanced.name] ?? 0;
    expect(today(after) - today(before)).toBe(planAmount(advanced));

    const stateOf = async (sessionId: string) =>
      (await get<Page<AdminPurchase>>(`${ADMIN_PATHS.purchases}?q=${sessionId}`)).items.map((item) => item.state);
    expect(await stateOf(kept)).toEqual(['paid']);
    expect(await stateOf(refunded)).toEqual(['refunded']);
    expect(await stateOf(disputed)).toEqual(['disputed']);
    expect(await stateOf(lost)).toEqual(['disputed']);
  });

  test('sales over a period: 7 and 30 days by day, 12 months and all time by month; the cards count only the period', async () => {
    const DAY = 86_400_000;
    const now = Date.now();
    const plan = `Period ${now.toString(36)}`;
    const summaries = async () =>
      Object.fromEntries(
        await Promise.all(
          SALES_PERIODS.map(
            async (period) => [period, await get<SalesSummary>(`${ADMIN_PATHS.sales}?period=${period}`)] as const,
          ),
        ),
      );
    const before = await summaries();
    // Paid purchases 3, 20, 100 and 500 days ago, of a plan of their own.
    for (const [index, [ago, amount]] of [
      [3, 1000],
      [20, 2000],
      [100, 4000],
      [500, 8000],
    ].entries()) {
      await stack.worker.db.run(
        `INSERT INTO purchases (session_id, email, plan, status, created_at, updated_at, amount_total, currency)
         VALUES (?1, ?2, ?3, 'paid', ?4, ?4, ?5, '${PLAN_CURRENCY}')`,
        `cs_test_period${now.toString(36)}${index}`,
        `period-${index}-${now}@example.com`,
        plan,
        now - ago! * DAY,
        amount,
      );
    }
    const after = await summaries();
    const ofPlan = (summary: SalesSummary) => summary.days.reduce((sum, entry) => sum + (entry.byPlan[plan] ?? 0), 0);
    expect(
      Object.fromEntries(SALES_PERIODS.map((period) => [period, after[period]!.revenue - before[period]!.revenue])),
    ).toEqual({
      '7d': 1000,
      '30d': 3000,
      '12m': 7000,
      all: 15000,
    });
    expect(Object.fromEntries(SALES_PERIODS.map((period) => [period, ofPlan(after[period]!)]))).toEqual({
      '7d': 1000,
      '30d': 3000,
      '12m': 7000,
      all: 15000,
    });
    expect(after['7d']!.buyers - before['7d']!.buyers).toBe(1);
    expect(after.all!.buyers - before.all!.buyers).toBe(4);

    const today = new Date(now).toISOString().slice(0, 10);
    const month = (back: number) => {
      const date = new Date(now);
      return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - back, 1)).toISOString().slice(0, 10);
    };
    expect(after['7d']).toMatchObject({
      period: '7d',
      interval: 'day',
      since: Date.parse(`${after['7d']!.days[0]!.day}T00:00:00Z`),
    });
    expect(after['7d']!.days.map((entry) => entry.day).at(-1)).toBe(today);
    expect(after['7d']!.days).toHaveLength(7);
    expect(after['30d']!.days).toHaveLength(30);
    expect(after['12m']).toMatchObject({interval: 'month', since: Date.parse(`${month(11)}T00:00:00Z`)});
    expect(after['12m']!.days.map((entry) => entry.day)).toEqual(
      Array.from({length: 12}, (_, index) => month(11 - index)),
    );
    // All time starts with the month of the first sale.
    const first = new Date(now - 500 * DAY);
    expect(after.all).toMatchObject({period: 'all', interval: 'month', since: null});
    expect(after.all!.days[0]!.day).toBe(
      new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), 1)).toISOString().slice(0, 10),
    );
    expect(after.all!.days.at(-1)!.day).toBe(month(0));

    // Absent is 30 days; anything else is the caller's mistake, said so.
    expect((await get<SalesSummary>(ADMIN_PATHS.sales)).period).toBe('30d');
    for (const period of ['90d', '', 'ALL']) {
      const refused = await stack.call(`${ADMIN_PATHS.sales}?period=${period}`, {token: admin.idToken});
      expect({period, status: refused.status, body: await refused.json()}).toEqual({
        period,
        status: 400,
        body: {error: 'period must be one of 7d, 30d, 12m, all'},
      });
    }
  });

  test('purchases: newest first, a page at a time, searched by e-mail, GitHub username or session id', async () => {
    const {user, sessionId, login} = await buyer({seat: true});
    const first = await get<Page<AdminPurchase>>(ADMIN_PATHS.purchases);
    expect(first.items[0]).toMatchObject({
      sessionId,
      email: user.email,
      plan: appConfig.plans[1]!.name,
      amount: ADVANCED_CENTS,
      currency: PLAN_CURRENCY,
      state: 'paid',
      access: {status: 'pending', username: login, usernameChanges: 0},
    });
    expect(first.pageSize).toBe(25);
    const byEmail = await get<Page<AdminPurchase>>(
      `${ADMIN_PATHS.purchases}?q=${encodeURIComponent(user.email.slice(0, 12))}`,
    );
    expect(byEmail.items.map((item) => item.sessionId)).toContain(sessionId);
    const byLogin = await get<Page<AdminPurchase>>(`${ADMIN_PATHS.purchases}?q=${login!.toUpperCase()}`);
    expect(byLogin).toMatchObject({total: 1, items: [{sessionId}]});
    const bySession = await get<Page<AdminPurchase>>(`${ADMIN_PATHS.purchases}?q=${sessionId}`);
    expect(bySession).toMatchObject({total: 1, items: [{sessionId}]});
    const nothing = await get<Page<AdminPurchase>>(`${ADMIN_PATHS.purchases}?q=nobody-at-all@example.com`);
    expect(nothing).toEqual({items: [], page: 1, pageSize: 25, total: 0});
  });

  test('purchases: filtered by state and plan, sorted by date or amount, and exported as CSV with the same filters', async () => {
    const tag = `filter-${Date.now().toString(36)}`;
    const [starter, advanced] = appConfig.plans.map((plan) => plan.name) as [string, string];
    const [starterId, advancedId] = appConfig.plans.map((plan) => plan.id) as [string, string];
    const rows: [string, string, string, string | null, number, number][] = [
      // [id, plan, status, revoke_reason, amount, minutes ago]. Purchases record the plan's id; 'a'
      // was recorded before they did, by the plan's name, and must still read as that plan.
      ['a', starter, 'paid', null, 6900, 5],
      ['b', advancedId, 'paid', null, 9900, 4],
      ['c', advancedId, 'revoked', 'refunded', 9900, 3],
      ['d', advancedId, 'revoked', 'disputed', 9900, 2],
      ['e', starterId, 'open', null, 6900, 1],
    ];
    for (const [id, plan, status, reason, amount, ago] of rows) {
      await stack.worker.db.run(
        `INSERT INTO purchases (session_id, email, plan, status, revoke_reason, created_at, updated_at, amount_total, currency)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7, '${PLAN_CURRENCY}')`,
        `cs_test_${tag.replace('-', '')}${id}`,
        `${tag}-${id}@example.com`,
        plan,
        status,
        reason,
        Date.now() - ago * 60_000,
        amount,
      );
    }
    const list = async (query: string) =>
      (await get<Page<AdminPurchase>>(`${ADMIN_PATHS.purchases}?q=${tag}&${query}`)).items.map((item) =>
        item.email!.slice(tag.length + 1, tag.length + 2),
      );
    expect(await list('')).toEqual(['e', 'd', 'c', 'b', 'a']);
    const plansShown = (await get<Page<AdminPurchase>>(`${ADMIN_PATHS.purchases}?q=${tag}`)).items.map(
      (item) => item.plan,
    );
    expect(plansShown).toEqual([starter, advanced, advanced, advanced, starter]);
    expect(await list('state=paid')).toEqual(['b', 'a']);
    expect(await list('state=refunded')).toEqual(['c']);
    expect(await list('state=disputed')).toEqual(['d']);
    expect(await list('state=open')).toEqual(['e']);
    expect(await list(`plan=${starter}`)).toEqual(['e', 'a']);
    expect(await list(`plan=${advanced}&state=paid`)).toEqual(['b']);
    expect(await list('sort=oldest')).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(await list('sort=amount_low')).toEqual(['e', 'a', 'd', 'c', 'b']);
    expect(await list('sort=amount_high')).toEqual(['d', 'c', 'b', 'e', 'a']);
    // The count is the filter's, for the pager.
    expect((await get<Page<AdminPurchase>>(`${ADMIN_PATHS.purchases}?q=${tag}&state=paid`)).total).toBe(2);

    for (const [query, error] of [
      ['state=lost', 'state must be one of paid, refunded, disputed, open, failed'],
      ['plan=Enterprise', `plan must be one of ${starter}, ${advanced}`],
      ['sort=email', 'sort must be one of newest, oldest, amount_high, amount_low'],
    ]) {
      const refused = await stack.call(`${ADMIN_PATHS.purchases}?${query}`, {token: admin.idToken});
      expect({query, status: refused.status, body: await refused.json()}).toEqual({query, status: 400, body: {error}});
      expect((await stack.call(`${ADMIN_PATHS.purchasesCsv}?${query}`, {token: admin.idToken})).status).toBe(400);
    }

    const exported = await stack.call(`${ADMIN_PATHS.purchasesCsv}?q=${tag}&state=paid&sort=oldest`, {
      token: admin.idToken,
    });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(exported.headers.get('content-disposition')).toBe('attachment; filename="purchases.csv"');
    const lines = (await exported.text()).split('\r\n');
    expect(lines[0]).toBe(
      'created_at,session_id,email,plan,seats,amount,amount_refunded,currency,state,github_username,access,fair_price_country,card_country,country_review,upgrade_country_review',
    );
    expect(lines.slice(1, -1).map((line) => line.split(',').slice(2, 9))).toEqual([
      [`${tag}-a@example.com`, starter, '1', '6900', '0', PLAN_CURRENCY, 'paid'],
      [`${tag}-b@example.com`, advanced, '1', '9900', '0', PLAN_CURRENCY, 'paid'],
    ]);
    expect(lines.at(-1)).toBe('');
  });

  test('pagination covers every purchase once, purchases of the same millisecond too, across the page boundary', async () => {
    const sessionIds: string[] = [];
    for (let i = 0; i < 27; i++) sessionIds.push(await stack.paidCheckout({email: uniqueEmail('burst')}));
    // Stripe's ids are random, so D1 stores purchases in an order that is not their ids' order.
    for (const sessionId of [...sessionIds].reverse())
      expect((await stack.deliver(completedEvent(stack, sessionId))).status).toBe(200);
    // A burst of sales in one millisecond: the newest purchases, all with the same created_at.
    const [{newest}] = await stack.worker.db.all<{newest: number}>('SELECT MAX(created_at) AS newest FROM purchases');
    const burstAt = newest + 1;
    await stack.worker.db.run(
      `UPDATE purchases SET created_at = ? WHERE session_id IN (${sessionIds.map(() => '?').join(',')})`,
      burstAt,
      ...sessionIds,
    );

    const one = await get<Page<AdminPurchase>>(`${ADMIN_PATHS.purchases}?page=1`);
    const two = await get<Page<AdminPurchase>>(`${ADMIN_PATHS.purchases}?page=2`);
    expect(one.items).toHaveLength(25);
    expect(one.total).toBeGreaterThanOrEqual(27);
    const ids = [...one.items, ...two.items].map((item) => item.sessionId);
    expect(new Set(ids).size).toBe(ids.length);
    // One order every page agrees on: the burst by session id, newest page first, then older sales.
    expect(ids.slice(0, 27)).toEqual([...sessionIds].sort().reverse());
    expect(two.items[2]!.createdAt).toBeLessThan(burstAt);
  });

  test.each([ADMIN_PATHS.purchases, ADMIN_PATHS.leads, ADMIN_PATHS.auditLog])(
    '%s: a page that is not a page number is 400, said so',
    async (path) => {
      for (const page of ['two', '0', '-1', '1.5', '', '100001']) {
        const response = await stack.call(`${path}?page=${page}`, {token: admin.idToken});
        expect(response.status).toBe(400);
        expect(await response.json()).toMatchObject({error: 'page must be a whole number from 1 to 100000'});
      }
      expect((await get<Page<unknown>>(path)).page).toBe(1);
      expect((await get<Page<unknown>>(`${path}?page=2`)).page).toBe(2);
    },
  );

  test("a purchase's page: its webhook events, invitations, e-mails and admin actions", async () => {
    const {sessionId, login} = await buyer({seat: true});
    await post(purchasePath(ADMIN_PATHS.resetUsernameChanges, sessionId));
    const detail = await get<AdminPurchaseDetail>(purchasePath(ADMIN_PATHS.purchase, sessionId));
    const kinds = detail.history.map((event) => `${event.kind}: ${event.summary}`);
    expect(kinds).toEqual(
      expect.arrayContaining([
        'stripe: checkout.session.completed',
        'email: Welcome e-mail to the buyer',
        'email: New-sale e-mail to the seller',
        expect.stringMatching(new RegExp(`^invitation: @${login} \\(invitation \\d+\\): pending$`)),
        `admin: reset_username_changes by ${ADMIN_EMAIL}`,
      ]),
    );
    expect(detail).toMatchObject({
      sessionId,
      paymentIntentId: expect.stringMatching(/^pi_/),
      customerId: expect.stringMatching(/^cus_/),
    });
    expect(
      (await stack.call(purchasePath(ADMIN_PATHS.purchase, 'cs_test_nosuchpurchase'), {token: admin.idToken})).status,
    ).toBe(404);
  });

  test('leads: a page, and the whole list as CSV', async () => {
    const emails = [uniqueEmail('lead'), uniqueEmail('lead')];
    for (const email of emails)
      await stack.call('/api/leads', {body: {email}, headers: {'cf-connecting-ip': `127.7.0.${accounts++}`}});
    const page = await get<Page<{email: string}>>(ADMIN_PATHS.leads);
    expect(
      page.items
        .slice(0, 2)
        .map((lead) => lead.email)
        .sort(),
    ).toEqual(emails.map((email) => email.toLowerCase()).sort());
    const csv = await stack.call(ADMIN_PATHS.leadsCsv, {token: admin.idToken});
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="leads.csv"');
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toBe('email,created_at');
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(
      expect.arrayContaining(emails.map((email) => email.toLowerCase())),
    );
  });

  test('leads CSV: a cell a spreadsheet would run as a formula starts with an apostrophe, and stays quoted', async () => {
    const signedUp = [`+${uniqueEmail('sum')}`, `-${uniqueEmail('minus')}`];
    for (const email of signedUp) {
      const response = await stack.call('/api/leads', {
        body: {email},
        headers: {'cf-connecting-ip': `127.7.1.${accounts++}`},
      });
      expect(response.status).toBe(201);
    }
    // The form refuses these today; rows stored another way (by hand, an import) must be safe too.
    const stored = [
      '=HYPERLINK("https://evil.example","Win"),x@example.com',
      '@SUM(1+1)@example.com',
      '\t=1+1@example.com',
      '\r=1+1@example.com',
    ];
    for (const email of stored)
      await stack.worker.db.run(
        'INSERT INTO leads (id, email, created_at) VALUES (?, ?, ?)',
        crypto.randomUUID(),
        email,
        Date.now(),
      );

    const csv = await (await stack.call(ADMIN_PATHS.leadsCsv, {token: admin.idToken})).text();
    for (const email of signedUp) expect(csv).toContain(`\r\n'${email}`);
    expect(csv).toContain(`\r\n"'=HYPERLINK(""https://evil.example"",""Win""),x@example.com",`);
    expect(csv).toContain(`\r\n'@SUM(1+1)@example.com,`);
    expect(csv).toContain(`\r\n'\t=1+1@example.com,`);
    expect(csv).toContain(`\r\n"'\r=1+1@example.com",`);
  });

  test('a new sale is news: one e-mail to forwardRepliesTo with plan, amount and buyer, retried through the outbox when Mailgun fails', async () => {
    const seller = appConfig.mail.forwardRepliesTo;
    stack.mailgun.failNext(503, 1, seller);
    const {user, sessionId} = await buyer();
    const news = () =>
      stack.mailgun.sent.filter((mail) => mail.fields.to === seller && mail.fields.text?.includes(user.email));
    const welcomes = () => stack.mailgun.sent.filter((mail) => mail.fields.to === user.email);
    // The buyer's welcome went out; the news of the sale failed, and waits in the outbox under Failures.
    expect(welcomes()).toHaveLength(1);
    expect(news()).toHaveLength(0);
    const [saleJob] = await stack.worker.db.all<{id: number}>('SELECT id FROM jobs WHERE key = ?', `sale:${sessionId}`);
    expect((await get<AdminJob[]>(ADMIN_PATHS.jobs)).find((job) => job.id === saleJob!.id)).toMatchObject({
      kind: 'mail',
      state: 'retrying',
      attempts: 1,
      lastError: expect.stringContaining('503'),
    });

    // Its time comes: the cron sends it, once, and Stripe delivering the sale again sends nothing more.
    await stack.worker.db.run("UPDATE jobs SET run_after = 0 WHERE id = ? AND status = 'pending'", saleJob!.id);
    await stack.worker.scheduled();
    await stack.deliver(completedEvent(stack, sessionId));
    expect(news()).toHaveLength(1);
    expect(welcomes()).toHaveLength(1);
    expect((await get<AdminJob[]>(ADMIN_PATHS.jobs)).find((job) => job.id === saleJob!.id)).toBeUndefined();
    // The sale is the Advanced plan (PRICE_ADVANCED), named and priced as the config says.
    const advanced = appConfig.plans[1]!;
    const sale = `${appConfig.appName} ${advanced.name}`;
    const paid = `$${advanced.price.toFixed(2)}`;
    expect(news()[0]!.fields).toMatchObject({
      subject: `New sale: ${sale}, ${paid}`,
      text: expect.stringContaining(`${user.email} bought ${sale} for ${paid}.`),
    });
    expect(news()[0]!.fields.text).toContain(`/admin?q=${encodeURIComponent(user.email)}`);
  });
});

describe('access actions change D1 and GitHub, and are logged', () => {
  test('grant: invites the account for the purchase', async () => {
    const {sessionId} = await buyer();
    const login = githubAccount();
    const response = await post(purchasePath(ADMIN_PATHS.grant, sessionId), {username: login});
    expect(await response.json()).toEqual({status: 'invited', detail: `@${login}: invited`});
    expect(invitationOf(login)).toBeDefined();
    expect(await grantOf(sessionId)).toMatchObject({github_username: login, status: 'pending'});
    const invitation = invitationOf(login)!.id;
    expect((await auditEntries())[0]).toMatchObject({
      admin: ADMIN_EMAIL,
      action: 'grant',
      outcome: 'done',
      sessionId,
      detail: `@${login}: invited. Access: none → @${login} (pending, invitation ${invitation}).`,
    });
  });

  test('grant refuses an account already on the repository, and a purchase that is not paid; the log has both refusals', async () => {
    const {sessionId} = await buyer();
    const taken = await post(purchasePath(ADMIN_PATHS.grant, sessionId), {username: OWNER});
    expect(taken.status).toBe(409);
    expect(await taken.json()).toMatchObject({code: 'GITHUB_ACCOUNT_TAKEN'});
    await refund(sessionId);
    const refunded = await post(purchasePath(ADMIN_PATHS.grant, sessionId), {username: githubAccount()});
    expect(refunded.status).toBe(409);
    expect(
      await stack.worker.db.all(
        "SELECT outcome, detail FROM admin_audit WHERE session_id = ? AND action = 'grant' ORDER BY id",
        sessionId,
      ),
    ).toEqual([
      {
        outcome: 'failed',
        detail: `Failed: @${OWNER} is already a collaborator on the repository, so it needs no invitation from this purchase. Choose another GitHub account. Access unchanged: none.`,
      },
      {
        outcome: 'failed',
        detail: 'Failed: This purchase is not paid (refunded, disputed or unfinished). Access unchanged: none.',
      },
    ]);
  });

  test("a grant GitHub refuses (422) leaves the buyer's account as it was, and the log says what happened and that nothing changed", async () => {
    const {sessionId, login} = await buyer({seat: true, accept: true});
    const before = await grantOf(sessionId);
    const other = githubAccount();
    stack.github.failNext('PUT /repos/', {status: 422, body: VALIDATION_FAILED});
    const refused = await post(purchasePath(ADMIN_PATHS.grant, sessionId), {username: other});
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({
      error: `GitHub refused to invite @${other}. @${login} keeps access.`,
      code: 'GITHUB_REFUSED',
    });
    expect(await grantOf(sessionId)).toEqual(before);
    expect(stack.github.collaborators.has(login!.toLowerCase())).toBe(true);
    expect((await auditEntries())[0]).toMatchObject({
      action: 'grant',
      outcome: 'failed',
      sessionId,
      detail: `Failed: GitHub refused to invite @${other}. @${login} keeps access. Access unchanged: @${login} (${before!.status}, invitation ${before!.invitation_id}).`,
    });
  });

  test('revoke: removes the account it invited; grant again: invites it again', async () => {
    const {sessionId, login} = await buyer({seat: true, accept: true});
    expect((await post(purchasePath(ADMIN_PATHS.revoke, sessionId))).status).toBe(200);
    expect(stack.github.collaborators.has(login!.toLowerCase())).toBe(false);
    expect(await grantOf(sessionId)).toMatchObject({status: 'revoked'});
    expect((await post(purchasePath(ADMIN_PATHS.revoke, sessionId))).status).toBe(409);

    expect(await (await post(purchasePath(ADMIN_PATHS.grant, sessionId), {username: login})).json()).toEqual({
      status: 'invited',
      detail: `@${login}: invited`,
    });
    expect(invitationOf(login!)).toBeDefined();
    expect((await auditEntries()).slice(0, 2).map((entry) => entry.action)).toEqual(['grant', 'revoke']);
  });

  test('revoke lasts until the seller grants again: the buyer cannot ask for the seat back, download, or have it back by a dispute won', async () => {
    const {user, sessionId, login} = await buyer({seat: true, accept: true});
    const askForLink = () => stack.call(API_PATHS.downloadLink, {token: user.idToken, body: {}});
    const before = (await (await askForLink()).json()) as DownloadLink;
    expect((await post(purchasePath(ADMIN_PATHS.revoke, sessionId))).status).toBe(200);
    expect(await grantOf(sessionId)).toMatchObject({status: 'revoked'});
    expect(await revokedAt(sessionId)).toEqual(expect.any(Number));

    // The same account, or another: refused, nobody invited.
    const other = githubAccount();
    for (const username of [login!, other]) {
      const again = await stack.call('/addUserToRepo', {token: user.idToken, body: {username, userId: user.uid}});
      expect(again.status).toBe(403);
      expect(await again.json()).toEqual({
        error: `The seller revoked this purchase's access to the code. Write to ${appConfig.support.email} if you think this is a mistake.`,
        code: 'ACCESS_REVOKED',
      });
    }
    expect(invitationOf(login!)).toBeUndefined();
    expect(invitationOf(other)).toBeUndefined();
    // No download: a link made before is refused when followed, and no new one is made.
    const followed = await stack.call(before.path);
    expect(followed.status).toBe(403);
    expect(await followed.json()).toMatchObject({code: 'ACCESS_REVOKED'});
    expect((await askForLink()).status).toBe(403);
    // The dashboard reads why.
    expect(await (await stack.call('/accessStatus', {token: user.idToken})).json()).toMatchObject({
      hasPaid: true,
      status: 'revoked',
      revokedBySeller: true,
    });

    // A dispute opened and won gives back what the dispute took, not what the seller did.
    expect(
      (await stack.deliver(disputeEvent(stack, sessionId, 'charge.dispute.created', 'needs_response'))).status,
    ).toBe(200);
    expect((await stack.deliver(disputeEvent(stack, sessionId, 'charge.dispute.closed', 'won'))).status).toBe(200);
    expect(await grantOf(sessionId)).toMatchObject({status: 'revoked'});
    expect(await revokedAt(sessionId)).toEqual(expect.any(Number));
    expect(invitationOf(login!)).toBeUndefined();

    // The seller's Grant access lifts it.
    expect(await (await post(purchasePath(ADMIN_PATHS.grant, sessionId), {username: login})).json()).toEqual({
      status: 'invited',
      detail: `@${login}: invited`,
    });
    expect(await grantOf(sessionId)).toMatchObject({status: 'pending'});
    expect(await revokedAt(sessionId)).toBeNull();
    expect((await askForLink()).status).toBe(200);
    expect(
      (await stack.call('/accessStatus', {token: user.idToken}).then((response) => response.json())) as Record<
        string,
        unknown
      >,
    ).not.toHaveProperty('revokedBySeller');
  });

  test("a kit invitation GitHub creates while the seller's revocation lands is recorded for nobody: withdrawn, and the seat taken back; Grant access gives it back", async () => {
    // The revocation is recorded on the purchase while GitHub answers the buyer's request (the seat's
    // row left as it was): only the seller's own Grant access may invite a revoked purchase's seat.
    const {user, sessionId} = await buyer();
    const login = githubAccount();
    stack.github.beforeNext(`PUT /repos/${FIXTURE_REPO}/collaborators/${login}`, async () => {
      await stack.worker.db.run(
        'UPDATE purchases SET revoked_by_seller_at = ? WHERE session_id = ?',
        Date.now(),
        sessionId,
      );
    });
    await stack.call('/addUserToRepo', {token: user.idToken, body: {username: login, userId: user.uid}});
    expect(invitationOf(login)).toBeUndefined();
    expect(await grantOf(sessionId)).toMatchObject({status: 'revoked', detail: 'the seller revoked the purchase'});

    expect(await (await post(purchasePath(ADMIN_PATHS.grant, sessionId), {username: login})).json()).toEqual({
      status: 'invited',
      detail: `@${login}: invited`,
    });
    expect(invitationOf(login)).toBeDefined();
    expect(await grantOf(sessionId)).toMatchObject({status: 'pending'});
    expect(await revokedAt(sessionId)).toBeNull();
  });

  test('Grant access to another account on a revoked purchase sends one invitation, recorded, and lifts the revocation', async () => {
    const {sessionId, login} = await buyer({seat: true});
    expect((await post(purchasePath(ADMIN_PATHS.revoke, sessionId))).status).toBe(200);
    const other = githubAccount();
    const puts = () =>
      stack.github.requests.filter((request) =>
        request.startsWith(`PUT /repos/${FIXTURE_REPO}/collaborators/${other}`),
      );
    expect(await (await post(purchasePath(ADMIN_PATHS.grant, sessionId), {username: other})).json()).toEqual({
      status: 'invited',
      detail: `@${other}: invited`,
    });
    expect(puts()).toHaveLength(1);
    expect(invitationOf(other)).toBeDefined();
    expect(invitationOf(login!)).toBeUndefined();
    expect(await grantOf(sessionId)).toMatchObject({status: 'pending', github_username: other});
    expect(await revokedAt(sessionId)).toBeNull();
  });

  test('revoke ends a purchase that only downloads: the link made before is refused, no new link, Request Access refused; Grant access gives it back', async () => {
    // The attack: a buyer who never asked for an invitation, with a download link in hand.
    const {user, sessionId} = await buyer();
    const askForLink = () => stack.call(API_PATHS.downloadLink, {token: user.idToken, body: {}});
    const before = (await (await askForLink()).json()) as DownloadLink;
    const linksOf = async () =>
      (await stack.worker.db.all('SELECT token_hash FROM download_links WHERE session_id = ?', sessionId)).length;
    const served = stack.github.archives.served.length;

    const revoked = await post(purchasePath(ADMIN_PATHS.revoke, sessionId));
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toEqual({
      status: 'revoked',
      detail: 'access revoked (no GitHub account was invited); no download of the code until access is granted again',
    });
    expect(await grantOf(sessionId)).toBeUndefined();
    const refusal = {error: afterPurchase.revokedBySeller, code: 'ACCESS_REVOKED'};

    // The link made before is refused when followed, and GitHub serves nothing.
    const followed = await stack.call(before.path);
    expect(followed.status).toBe(403);
    expect(await followed.json()).toEqual(refusal);
    expect(stack.github.archives.served).toHaveLength(served);
    // No new link is made.
    const made = await linksOf();
    const asked = await askForLink();
    expect(asked.status).toBe(403);
    expect(await asked.json()).toEqual(refusal);
    expect(await linksOf()).toBe(made);
    // Request Access is refused, and nobody is invited.
    const login = githubAccount();
    const requested = await stack.call('/addUserToRepo', {
      token: user.idToken,
      body: {username: login, userId: user.uid},
    });
    expect(requested.status).toBe(403);
    expect(await requested.json()).toEqual(refusal);
    expect(invitationOf(login)).toBeUndefined();
    expect(await grantOf(sessionId)).toBeUndefined();
    // The dashboard says the seller revoked it; the console says so, and a second revoke is refused.
    expect(await (await stack.call('/accessStatus', {token: user.idToken})).json()).toMatchObject({
      hasPaid: true,
      status: 'revoked',
      revokedBySeller: true,
    });
    expect(await detailOf(sessionId)).toMatchObject({access: null, revokedBySellerAt: expect.any(Number)});
    const twice = await post(purchasePath(ADMIN_PATHS.revoke, sessionId));
    expect(twice.status).toBe(409);
    expect(await twice.json()).toEqual({
      error: "This purchase's access is already revoked. Grant access gives it back.",
      code: 'CONFLICT',
    });

    // Grant access with no account named gives back the right: downloads, and asking for an invitation.
    expect(await (await post(purchasePath(ADMIN_PATHS.grant, sessionId), {})).json()).toEqual({
      status: 'granted',
      detail: 'access given back: the buyer may download the code and ask for an invitation again',
    });
    expect((await askForLink()).status).toBe(200);
    const status = (await (await stack.call('/accessStatus', {token: user.idToken})).json()) as Record<string, unknown>;
    expect(status).toMatchObject({hasPaid: true, status: 'none'});
    expect(status).not.toHaveProperty('revokedBySeller');
    expect((await auditEntries()).slice(0, 3).map((entry) => [entry.action, entry.outcome])).toEqual([
      ['grant', 'done'],
      ['revoke', 'failed'],
      ['revoke', 'done'],
    ]);
    // A second Grant access with no account has nothing to give back.
    expect((await post(purchasePath(ADMIN_PATHS.grant, sessionId), {})).status).toBe(409);
  });

  describe("a buyer who holds two paid purchases (a lower plan with the seat, then a higher one): the revocation is each purchase's own", () => {
    const [lower, higher] = [...appConfig.plans].sort((a, b) => a.price - b.price) as [
      (typeof appConfig.plans)[number],
      (typeof appConfig.plans)[number],
    ];
    async function twoPurchases() {
      const user = await stack.signUp();
      const paid = async (priceId: string) => {
        const sessionId = await stack.paidCheckout({email: user.email, user, priceId});
        expect((await stack.deliver(completedEvent(stack, sessionId))).status).toBe(200);
        return sessionId;
      };
      const seated = await paid(lower.priceId.test);
      const login = githubAccount();
      expect(
        (await stack.call('/addUserToRepo', {token: user.idToken, body: {username: login, userId: user.uid}})).status,
      ).toBe(200);
      const other = await paid(higher.priceId.test);
      return {user, seated, other, login};
    }
    const statusOf = async (user: SignedInUser) =>
      (await (await stack.call(API_PATHS.accessStatus, {token: user.idToken})).json()) as Record<string, unknown>;
    const askForLink = (user: SignedInUser) => stack.call(API_PATHS.downloadLink, {token: user.idToken, body: {}});
    /** The purchase the last link was made for. */
    const linkPurchase = async (user: SignedInUser) =>
      (
        await stack.worker.db.all<{session_id: string}>(
          'SELECT session_id FROM download_links WHERE user_id = ? ORDER BY created_at DESC LIMIT 1',
          user.uid,
        )
      )[0]!.session_id;

    test('the console names the other purchase on each page, and its Revoke says the other keeps the code', async () => {
      const {seated, other} = await twoPurchases();
      const [seatedPage, otherPage] = [await detailOf(seated), await detailOf(other)];
      expect(seatedPage.otherPaidPurchases).toEqual([
        {sessionId: other, plan: higher.name, createdAt: otherPage.createdAt, revokedBySellerAt: null},
      ]);
      expect(otherPage.otherPaidPurchases).toEqual([
        {sessionId: seated, plan: lower.name, createdAt: seatedPage.createdAt, revokedBySellerAt: null},
      ]);
      expect((await post(purchasePath(ADMIN_PATHS.revoke, other))).status).toBe(200);
      expect((await detailOf(seated)).otherPaidPurchases).toEqual([
        expect.objectContaining({sessionId: other, revokedBySellerAt: expect.any(Number)}),
      ]);
    });

    test("the seat's purchase revoked: the dashboard, the download and Request Access all go by the other, which the seller left", async () => {
      const {user, seated, other, login} = await twoPurchases();
      expect((await post(purchasePath(ADMIN_PATHS.revoke, seated))).status).toBe(200);
      expect(invitationOf(login)).toBeUndefined();
      // Not "revoked" beside a download that works: the other purchase gives the code, and says so.
      const status = await statusOf(user);
      expect(status).toMatchObject({hasPaid: true, status: 'none', plan: {id: higher.id, name: higher.name}});
      expect(status).not.toHaveProperty('revokedBySeller');
      expect((await askForLink(user)).status).toBe(200);
      expect(await linkPurchase(user)).toBe(other);
      // The buyer may ask for an invitation through the other purchase.
      const asked = await stack.call('/addUserToRepo', {
        token: user.idToken,
        body: {username: githubAccount(), userId: user.uid},
      });
      expect(asked.status).toBe(200);
      expect(await grantOf(other)).toMatchObject({status: 'pending'});

      // Both revoked: the dashboard says so, and nothing is served or invited.
      expect((await post(purchasePath(ADMIN_PATHS.revoke, other))).status).toBe(200);
      expect(await statusOf(user)).toMatchObject({hasPaid: true, status: 'revoked', revokedBySeller: true});
      const refused = await askForLink(user);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({error: afterPurchase.revokedBySeller, code: 'ACCESS_REVOKED'});
      expect(
        (await stack.call('/addUserToRepo', {token: user.idToken, body: {username: githubAccount(), userId: user.uid}}))
          .status,
      ).toBe(403);
    });

    test("the other (higher) purchase revoked: the seat's purchase still gives the dashboard's access and the download, and its plan is the one shown", async () => {
      const {user, seated, other, login} = await twoPurchases();
      expect((await post(purchasePath(ADMIN_PATHS.revoke, other))).status).toBe(200);
      const status = await statusOf(user);
      expect(status).toMatchObject({
        hasPaid: true,
        status: 'pending',
        username: login,
        plan: {id: lower.id, name: lower.name},
      });
      expect(status).not.toHaveProperty('revokedBySeller');
      // Not "pending" beside a Download the worker refuses.
      const link = await askForLink(user);
      expect(link.status).toBe(200);
      expect(await linkPurchase(user)).toBe(seated);
      expect((await stack.call(((await link.json()) as DownloadLink).path)).status).toBe(200);
      expect(
        await (
          await stack.call(`${API_PATHS.userHasPaid}?userId=${encodeURIComponent(user.uid)}`, {token: user.idToken})
        ).json(),
      ).toEqual({hasPaid: true, plan: lower.name});

      expect((await post(purchasePath(ADMIN_PATHS.revoke, seated))).status).toBe(200);
      expect(await statusOf(user)).toMatchObject({status: 'revoked', revokedBySeller: true});
      expect((await askForLink(user)).status).toBe(403);
    });
  });

  test('Grant access with no account named, for a purchase that had a seat, asks for the account: the seat comes back by an invitation', async () => {
    const {sessionId, login} = await buyer({seat: true});
    expect((await post(purchasePath(ADMIN_PATHS.revoke, sessionId))).status).toBe(200);
    const bare = await post(purchasePath(ADMIN_PATHS.grant, sessionId), {});
    expect(bare.status).toBe(400);
    expect(await bare.json()).toEqual({error: `Name the GitHub account to invite: this purchase's was @${login}.`});
    expect(await detailOf(sessionId)).toMatchObject({
      revokedBySellerAt: expect.any(Number),
      access: {status: 'revoked'},
    });
  });

  test('resend: a fresh invitation, the expired one withdrawn', async () => {
    const {sessionId, login} = await buyer({seat: true});
    const old = invitationOf(login!)!.id;
    stack.github.expire(old);
    expect(await (await post(purchasePath(ADMIN_PATHS.resend, sessionId))).json()).toEqual({
      status: 'invited',
      detail: `@${login}: invited`,
    });
    expect(stack.github.invitations.has(old)).toBe(false);
    const fresh = invitationOf(login!)!.id;
    expect(fresh).not.toBe(old);
    expect(await grantOf(sessionId)).toMatchObject({
      status: 'pending',
      invitation_id: fresh,
      github_username: login,
      detail: null,
      invitation_expired: 0,
    });
    expect((await auditEntries())[0]).toMatchObject({action: 'resend', sessionId});
  });

  test("a purchase's page says whether GitHub still honours its pending invitation, as GitHub says it", async () => {
    // The seat is the first of the purchase's grants, shown as the dashboard shows every repository's.
    const detail = async (sessionId: string) => {
      const {access, grants} = await get<AdminPurchaseDetail>(purchasePath(ADMIN_PATHS.purchase, sessionId));
      return {access, seat: grants[0]};
    };
    const aMinuteOn = (sessionId: string) => ageKitReading(stack.worker.db, sessionId, 60_000);
    const waiting = await buyer({seat: true});
    const seat = (status: string, expired: boolean) => ({
      access: {status},
      seat: {key: 'kit', status, expired, repository: FIXTURE_REPO, username: expect.any(String)},
    });
    expect(await detail(waiting.sessionId)).toMatchObject(seat('pending', false));
    stack.github.expire(invitationOf(waiting.login!)!.id);
    // GitHub is read at most once a minute per grant: reloading the page within it asks nothing.
    const calls = stack.github.requests.length;
    expect(await detail(waiting.sessionId)).toMatchObject(seat('pending', false));
    expect(await detail(waiting.sessionId)).toMatchObject(seat('pending', false));
    expect(stack.github.requests.slice(calls)).toEqual([]);
    await aMinuteOn(waiting.sessionId);
    expect(await detail(waiting.sessionId)).toMatchObject(seat('pending', true));

    const accepted = await buyer({seat: true, accept: true});
    await aMinuteOn(accepted.sessionId);
    expect(await detail(accepted.sessionId)).toMatchObject(seat('active', false));
    expect(await grantOf(accepted.sessionId)).toMatchObject({status: 'active'});
  });

  test('resend refuses (409) an invitation that was accepted or has not expired, and changes nothing in D1 or on GitHub', async () => {
    const accepted = await buyer({seat: true, accept: true});
    // A minute on, the buyer's dashboard reads GitHub again and sees the acceptance: D1 has the seat as active.
    await ageKitReading(stack.worker.db, accepted.sessionId, 60_000);
    expect(await (await stack.call('/accessStatus', {token: accepted.user.idToken})).json()).toMatchObject({
      status: 'active',
    });
    const waiting = await buyer({seat: true});
    const logged = (await auditEntries()).length;

    for (const [{sessionId, login}, message] of [
      [accepted, 'This purchase has no pending invitation to send again. To invite an account, use Grant access.'],
      [waiting, 'The invitation has not expired: the buyer accepted it, or GitHub still honours it.'],
    ] as const) {
      const before = await grantOf(sessionId);
      const invitations = new Map(stack.github.invitations);
      const calls = stack.github.requests.length;
      const refused = await post(purchasePath(ADMIN_PATHS.resend, sessionId));
      expect(refused.status).toBe(409);
      expect(await refused.json()).toEqual({error: message, code: 'CONFLICT'});
      // Only the check of the invitation may have been recorded; the grant itself is as it was.
      expect(await grantOf(sessionId)).toEqual({...before, checked_at: expect.any(Number)});
      expect(stack.github.requests.slice(calls).filter((call) => !call.startsWith('GET '))).toEqual([]);
      expect(stack.github.invitations).toEqual(invitations);
      expect(stack.github.collaborators.has(login!.toLowerCase())).toBe(sessionId === accepted.sessionId);
    }
    // Both refusals are in the log, each saying that nothing changed.
    const entries = await auditEntries();
    expect(entries).toHaveLength(logged + 2);
    expect(
      entries
        .slice(0, 2)
        .map(({action, outcome, detail}) => ({action, outcome, unchanged: detail?.includes('Access unchanged: @')})),
    ).toEqual([
      {action: 'resend', outcome: 'failed', unchanged: true},
      {action: 'resend', outcome: 'failed', unchanged: true},
    ]);
  });

  test("reset: the purchase may move its seat again; the admin's own moves do not count", async () => {
    const {user, sessionId} = await buyer({seat: true});
    const max = appConfig.repository.maxUsernameChanges;
    for (let move = 0; move < max; move++) {
      await stack.call('/addUserToRepo', {token: user.idToken, body: {username: githubAccount(), userId: user.uid}});
    }
    expect(await grantOf(sessionId)).toMatchObject({username_changes: max});
    await post(purchasePath(ADMIN_PATHS.grant, sessionId), {username: githubAccount()});
    expect(await grantOf(sessionId)).toMatchObject({username_changes: max});
    expect((await post(purchasePath(ADMIN_PATHS.resetUsernameChanges, sessionId))).status).toBe(200);
    expect(await grantOf(sessionId)).toMatchObject({username_changes: 0});
    const again = await stack.call('/addUserToRepo', {
      token: user.idToken,
      body: {username: githubAccount(), userId: user.uid},
    });
    expect(again.status).toBe(200);
  });
});

describe('refunds go through Stripe; its webhook then decides access', () => {
  const refundPath = (sessionId: string) => purchasePath(ADMIN_PATHS.refund, sessionId);
  const paymentOf = (sessionId: string) => stack.stripe.sessions.get(sessionId)!.payment_intent as string;
  /** Stripe's `charge.refunded` for the payment as it now is, delivered as Stripe would. */
  const stripeConfirms = async (sessionId: string) =>
    expect((await stack.deliver(stack.stripe.refundedEvent(paymentOf(sessionId)))).status).toBe(200);

  test('a partial refund: Stripe refunds that much with the reason; the buyer keeps access; the log says how much and what is left', async () => {
    const {sessionId, login} = await buyer({seat: true, accept: true});
    const answer = await post(refundPath(sessionId), {
      amount: 1500,
      reason: 'requested_by_customer',
      refundedBefore: 0,
    });
    expect(answer.status).toBe(200);
    const {status, detail} = (await answer.json()) as {status: string; detail: string};
    expect(status).toBe('partly_refunded');
    expect(detail).toMatch(
      new RegExp(
        `^\\$15\\.00 refunded \\(requested by customer; Stripe re_\\w+\\); \\$${cents(ADVANCED_CENTS - 1500)} left, and the buyer keeps access$`,
      ),
    );
    expect(stack.stripe.refundsCreated.at(-1)).toEqual({
      payment_intent: paymentOf(sessionId),
      amount: '1500',
      reason: 'requested_by_customer',
      metadata: {
        session_id: sessionId,
        refunded_by: ADMIN_EMAIL,
        console_action: `console-refund:${paymentOf(sessionId)}:0:0`,
      },
    });
    expect(stack.stripe.payments.get(paymentOf(sessionId))!.charge).toMatchObject({
      amount_refunded: 1500,
      refunded: false,
    });

    await stripeConfirms(sessionId);
    const kept = await detailOf(sessionId);
    expect(kept).toMatchObject({state: 'paid', amount: ADVANCED_CENTS, amountRefunded: 1500});
    expect(kept.access!.status).not.toBe('revoked');
    expect(stack.github.collaborators.has(login!.toLowerCase())).toBe(true);
    const logged = (await auditEntries())[0]!;
    expect(logged).toMatchObject({action: 'refund', outcome: 'done', sessionId, admin: ADMIN_EMAIL});
    expect(logged.detail).toMatch(
      new RegExp(`^${detail.replace(/[$().]/g, '\\$&')}\\. Access unchanged: @${login} \\(`),
    );
  });

  test('refunding what is left is a full refund: Stripe confirms, access ends, the purchase reads Refunded; nothing is left to refund after', async () => {
    const {sessionId, login} = await buyer({seat: true, accept: true});
    expect((await post(refundPath(sessionId), {amount: 900, reason: 'duplicate', refundedBefore: 0})).status).toBe(200);
    const full = await post(refundPath(sessionId), {reason: 'duplicate', refundedBefore: 900});
    expect(full.status).toBe(200);
    expect(await full.json()).toMatchObject({
      status: 'refunded',
      detail: expect.stringMatching(new RegExp(`^\\$${cents(ADVANCED_CENTS - 900)} refunded in full \\(duplicate; `)),
    });
    expect(stack.stripe.refundsCreated.at(-1)).toMatchObject({amount: String(ADVANCED_CENTS - 900)});
    // Until Stripe's webhook says so, nothing changed here: the webhook is the one path to revoking.
    const before = await detailOf(sessionId);
    expect(before.state).toBe('paid');
    expect(before.access!.status).not.toBe('revoked');

    await stripeConfirms(sessionId);
    expect(await detailOf(sessionId)).toMatchObject({
      state: 'refunded',
      amountRefunded: ADVANCED_CENTS,
      access: {status: 'revoked'},
    });
    expect(stack.github.collaborators.has(login!.toLowerCase())).toBe(false);

    const again = await post(refundPath(sessionId), {reason: 'duplicate', refundedBefore: ADVANCED_CENTS});
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({error: 'This payment has already been refunded in full.', code: 'CONFLICT'});
    expect((await auditEntries())[0]).toMatchObject({
      action: 'refund',
      outcome: 'failed',
      detail: expect.stringMatching(/^Failed: This payment has already been refunded in full\./),
    });
  });

  describe('a refund that fails later (a closed card): Stripe lowers what it has refunded, and the console follows', () => {
    /** A partial refund of $15 from the console, confirmed by Stripe's webhook: its refund's id. */
    async function refundedThenFailed(sessionId: string): Promise<string> {
      expect(
        (await post(refundPath(sessionId), {amount: 1500, reason: 'requested_by_customer', refundedBefore: 0})).status,
      ).toBe(200);
      await stripeConfirms(sessionId);
      expect(await detailOf(sessionId)).toMatchObject({amountRefunded: 1500});
      return stack.stripe.payments.get(paymentOf(sessionId))!.charge.refunds!.data[0]!.id;
    }

    test("its webhook never came: the console's refund reads Stripe's figure, asks for the page again once, and the page read again refunds", async () => {
      const {sessionId} = await buyer({seat: true});
      stack.stripe.failRefund(await refundedThenFailed(sessionId));
      expect(stack.stripe.payments.get(paymentOf(sessionId))!.charge).toMatchObject({
        amount_refunded: 0,
        refunded: false,
      });
      // The page still shows $15 refunded: Stripe says $0 now, so this refund is not made...
      const stale = await post(refundPath(sessionId), {
        amount: 1000,
        reason: 'requested_by_customer',
        refundedBefore: 1500,
      });
      expect(stale.status).toBe(409);
      expect(await stale.json()).toEqual({
        error:
          'This payment changed since the page was read: Stripe has refunded $0.00 of it, not $15.00. Read the purchase again.',
        code: 'CONFLICT',
      });
      // ...and the page read again shows Stripe's figure, from which a refund goes through.
      expect(await detailOf(sessionId)).toMatchObject({state: 'paid', amountRefunded: 0});
      const again = await post(refundPath(sessionId), {
        amount: 1000,
        reason: 'requested_by_customer',
        refundedBefore: 0,
      });
      expect(again.status).toBe(200);
      expect(stack.stripe.payments.get(paymentOf(sessionId))!.charge).toMatchObject({amount_refunded: 1000});
    });

    test("its webhook (charge.refund.updated, status failed) records Stripe's figure as it stands; the buyer keeps access", async () => {
      const {sessionId} = await buyer({seat: true});
      const failed = stack.stripe.failRefund(await refundedThenFailed(sessionId));
      expect(failed).toMatchObject({
        type: 'charge.refund.updated',
        data: {object: {status: 'failed', failure_reason: 'expired_or_canceled_card'}},
      });
      expect((await stack.deliver(failed)).status).toBe(200);
      const page = await detailOf(sessionId);
      expect(page).toMatchObject({state: 'paid', amountRefunded: 0, access: {status: 'pending'}});
      expect(page.history.map((event) => event.summary)).toContain('charge.refund.updated');
      // The page the seller reads now matches Stripe: a refund from it goes through.
      expect((await post(refundPath(sessionId), {amount: 500, reason: 'duplicate', refundedBefore: 0})).status).toBe(
        200,
      );
      expect(await detailOf(sessionId)).toMatchObject({amountRefunded: 500});
    });
  });

  test('two refunds of the same $10 at once (a double click, two tabs) make one refund at Stripe, and both answer that refund; the console shows it at once', async () => {
    const {sessionId} = await buyer({seat: true, accept: true});
    const asked = stack.stripe.refundsCreated.length;
    const body = {amount: 1000, reason: 'requested_by_customer', refundedBefore: 0};
    const answers = await Promise.all([post(refundPath(sessionId), body), post(refundPath(sessionId), body)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    const [first, second] = (await Promise.all(answers.map((answer) => answer.json()))) as {
      status: string;
      detail: string;
    }[];
    expect(second).toEqual(first);
    expect(first).toMatchObject({
      status: 'partly_refunded',
      detail: expect.stringMatching(
        new RegExp(
          `^\\$10\\.00 refunded \\(requested by customer; Stripe re_\\w+\\); \\$${cents(ADVANCED_CENTS - 1000)} left`,
        ),
      ),
    });
    expect(stack.stripe.refundsCreated).toHaveLength(asked + 1);
    const charge = stack.stripe.payments.get(paymentOf(sessionId))!.charge;
    expect(charge).toMatchObject({amount_refunded: 1000});
    expect(charge.refunds!.data).toHaveLength(1);
    expect(first!.detail).toContain(charge.refunds!.data[0]!.id);
    // The console reads what Stripe refunded before Stripe's webhook arrives.
    expect(await detailOf(sessionId)).toMatchObject({state: 'paid', amountRefunded: 1000});

    // The same action once more, after the first has finished (a tab that was not read again): the same answer, no refund.
    const late = await post(refundPath(sessionId), body);
    expect(late.status).toBe(200);
    expect(await late.json()).toEqual(first);
    expect(stack.stripe.refundsCreated).toHaveLength(asked + 1);
    const logged = (await auditEntries()).slice(0, 3);
    expect(logged.map((entry) => [entry.action, entry.outcome])).toEqual([
      ['refund', 'done'],
      ['refund', 'done'],
      ['refund', 'done'],
    ]);

    // The next refund is decided on the page as it reads now, and is a refund of its own.
    const next = await post(refundPath(sessionId), {...body, refundedBefore: 1000});
    expect(next.status).toBe(200);
    expect(stack.stripe.refundsCreated).toHaveLength(asked + 2);
    expect(stack.stripe.payments.get(paymentOf(sessionId))!.charge.amount_refunded).toBe(2000);
  });

  test('a refund decided on a page out of date makes no refund: another amount or reason on the same view, or a view Stripe no longer matches, is 409', async () => {
    const {sessionId} = await buyer();
    expect((await post(refundPath(sessionId), {amount: 1000, reason: 'duplicate', refundedBefore: 0})).status).toBe(
      200,
    );
    const asked = stack.stripe.refundsCreated.length;
    for (const body of [
      {amount: 500, reason: 'duplicate', refundedBefore: 0},
      {amount: 1000, reason: 'requested_by_customer', refundedBefore: 0},
      {reason: 'duplicate', refundedBefore: 0},
    ]) {
      const raced = await post(refundPath(sessionId), body);
      expect({body, status: raced.status, answer: await raced.json()}).toEqual({
        body,
        status: 409,
        answer: {
          error: 'Another refund of this payment got there first: read the purchase again and refund what is left.',
          code: 'CONFLICT',
        },
      });
    }
    // A refund made in Stripe's dashboard meanwhile: the page's $5.00 is not Stripe's $10.00.
    const stale = await post(refundPath(sessionId), {amount: 1000, reason: 'duplicate', refundedBefore: 500});
    expect(stale.status).toBe(409);
    expect(await stale.json()).toEqual({
      error:
        'This payment changed since the page was read: Stripe has refunded $10.00 of it, not $5.00. Read the purchase again.',
      code: 'CONFLICT',
    });
    expect(stack.stripe.refundsCreated).toHaveLength(asked);
    expect(stack.stripe.payments.get(paymentOf(sessionId))!.charge.amount_refunded).toBe(1000);
  });

  test('two admins refunding the same purchase at once make one refund: the other hears the same refund, or that it got there first', async () => {
    const other = await stack.signUp({email: CO_ADMIN_EMAIL, verified: true});
    const {sessionId} = await buyer();
    const asked = stack.stripe.refundsCreated.length;
    const body = {reason: 'requested_by_customer', refundedBefore: 0};
    const [mine, theirs] = await Promise.all([
      post(refundPath(sessionId), body),
      post(refundPath(sessionId), body, other),
    ]);
    const answers = await Promise.all(
      [mine, theirs].map(async (answer) => ({
        status: answer.status,
        body: (await answer.json()) as Record<string, unknown>,
      })),
    );
    expect(stack.stripe.refundsCreated).toHaveLength(asked + 1);
    expect(stack.stripe.payments.get(paymentOf(sessionId))!.charge.amount_refunded).toBe(ADVANCED_CENTS);
    const made = answers.find((answer) => answer.status === 200)!;
    expect(made.body).toMatchObject({status: 'refunded'});
    for (const answer of answers) {
      expect([
        made,
        {
          status: 409,
          body: {
            error: 'Another refund of this payment got there first: read the purchase again and refund what is left.',
            code: 'CONFLICT',
          },
        },
      ]).toContainEqual(answer);
    }
  });

  test.each([
    [{amount: 0, reason: 'duplicate', refundedBefore: 0}, 'amount must be a whole number of cents, at least 1'],
    [{amount: -100, reason: 'duplicate', refundedBefore: 0}, 'amount must be a whole number of cents, at least 1'],
    [{amount: 10.5, reason: 'duplicate', refundedBefore: 0}, 'amount must be a whole number of cents, at least 1'],
    [{amount: '1000', reason: 'duplicate', refundedBefore: 0}, 'amount must be a whole number of cents, at least 1'],
    [{amount: 1000, refundedBefore: 0}, 'reason must be one of requested_by_customer, duplicate, fraudulent'],
    [
      {amount: 1000, reason: 'changed_mind', refundedBefore: 0},
      'reason must be one of requested_by_customer, duplicate, fraudulent',
    ],
    [
      {amount: 1000, reason: 'duplicate'},
      'refundedBefore must be the cents refunded so far as the page showed them, a whole number from 0',
    ],
    [
      {amount: 1000, reason: 'duplicate', refundedBefore: -1},
      'refundedBefore must be the cents refunded so far as the page showed them, a whole number from 0',
    ],
    [
      {amount: 1000, reason: 'duplicate', refundedBefore: 0, currency: 'eur'},
      'The body takes only amount or seats, members, reason and refundedBefore',
    ],
  ])('a refund the caller got wrong (%j) is a 400 that says why, and Stripe is never asked', async (body, message) => {
    const {sessionId} = await buyer();
    const asked = stack.stripe.refundsCreated.length;
    const refused = await post(refundPath(sessionId), body);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({error: message});
    expect(stack.stripe.refundsCreated).toHaveLength(asked);
  });

  test('more than is left is refused with how much is left, in words; Stripe is not asked and the log has the refusal', async () => {
    const {sessionId} = await buyer();
    // A checkout buys the Advanced plan; half of its price (rounded down to a dollar) goes back first.
    const price = appConfig.plans[1]!.price;
    const first = Math.floor(price / 2);
    const dollars = (amount: number) => `$${amount.toFixed(2)}`;
    expect(
      (await post(refundPath(sessionId), {amount: first * 100, reason: 'requested_by_customer', refundedBefore: 0}))
        .status,
    ).toBe(200);
    const asked = stack.stripe.refundsCreated.length;
    const refused = await post(refundPath(sessionId), {
      amount: (price - first) * 100 + 1,
      reason: 'requested_by_customer',
      refundedBefore: first * 100,
    });
    expect(refused.status).toBe(400);
    const message = `At most ${dollars(price - first)} is left to refund on this payment (${dollars(first)} of ${dollars(price)} refunded already).`;
    expect(await refused.json()).toEqual({error: message});
    expect(stack.stripe.refundsCreated).toHaveLength(asked);
    expect((await auditEntries())[0]).toMatchObject({
      action: 'refund',
      outcome: 'failed',
      sessionId,
      detail: `Failed: ${message} Access unchanged: none.`,
    });
  });

  test("Stripe's refusals in the seller's words: another refund first (409), a disputed payment (409), a key Stripe refuses (502), the same refund still running (409); each logged", async () => {
    const {sessionId} = await buyer();
    stack.stripe.failNext('POST /v1/refunds', 400, {
      type: 'invalid_request_error',
      code: 'amount_too_large',
      message: 'Refund amount ($99.00) is greater than unrefunded amount on charge ($10.00)',
    });
    const raced = await post(refundPath(sessionId), {reason: 'duplicate', refundedBefore: 0});
    expect(raced.status).toBe(409);
    expect((await raced.json()).error).toMatch(/^Another refund of this payment got there first/);

    stack.stripe.failNext('POST /v1/refunds', 400, {
      type: 'invalid_request_error',
      code: 'charge_disputed',
      message: 'Charge ch_x has been charged back.',
    });
    const disputed = await post(refundPath(sessionId), {reason: 'duplicate', refundedBefore: 0});
    expect(disputed.status).toBe(409);
    expect((await disputed.json()).error).toBe(
      'The buyer has disputed this payment: answer the dispute in Stripe instead of refunding.',
    );

    stack.stripe.failNext('POST /v1/refunds', 401, {
      type: 'invalid_request_error',
      message: 'Invalid API Key provided: sk_test_****',
    });
    const refused = await post(refundPath(sessionId), {reason: 'duplicate', refundedBefore: 0});
    expect(refused.status).toBe(502);
    expect(await refused.json()).toMatchObject({code: 'PAYMENT_PROVIDER'});

    // The same refund still running at Stripe, once and again when the client retries: it is on its way.
    const inUse = {
      type: 'invalid_request_error',
      code: 'idempotency_key_in_use',
      message: 'There is currently another in-progress request using this Idempotency Key.',
    };
    stack.stripe.failNext('POST /v1/refunds', 409, inUse);
    stack.stripe.failNext('POST /v1/refunds', 409, inUse);
    const running = await post(refundPath(sessionId), {reason: 'duplicate', refundedBefore: 0});
    expect(running.status).toBe(409);
    expect(await running.json()).toEqual({
      error: 'This refund is already on its way from another request: read the purchase again in a moment.',
      code: 'CONFLICT',
    });

    expect(stack.stripe.payments.get(paymentOf(sessionId))!.charge.amount_refunded).toBe(0);
    expect((await auditEntries()).slice(0, 4).map((entry) => entry.outcome)).toEqual([
      'failed',
      'failed',
      'failed',
      'failed',
    ]);
  });

  test('a payment that has not gone through (an async payment still clearing) has nothing to refund: 409', async () => {
    const user = await stack.signUp();
    const sessionId = await stack.paidCheckout({email: user.email, user, paid: false});
    expect((await stack.deliver(completedEvent(stack, sessionId))).status).toBe(200);
    const refused = await post(refundPath(sessionId), {reason: 'duplicate', refundedBefore: 0});
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      error: 'This payment has not gone through, so there is nothing to refund yet.',
      code: 'CONFLICT',
    });
    expect((await post(refundPath('cs_test_nobody'), {reason: 'duplicate', refundedBefore: 0})).status).toBe(404);
  });

  test("each purchase links to its payment in Stripe's test-mode dashboard (the worker's key is a test key)", async () => {
    const {sessionId, user} = await buyer();
    const url = `https://dashboard.stripe.com/test/payments/${paymentOf(sessionId)}`;
    expect((await detailOf(sessionId)).stripeUrl).toBe(url);
    const listed = await get<Page<AdminPurchase>>(`${ADMIN_PATHS.purchases}?q=${encodeURIComponent(user.email)}`);
    expect(listed.items.map((item) => item.stripeUrl)).toEqual([url]);
  });
});

describe('failures', () => {
  test('a removal that failed for good stands out, and Retry finishes it once GitHub answers', async () => {
    const {sessionId, login} = await buyer({seat: true, accept: true});
    stack.github.failNext('DELETE /repos/', {status: 503, body: {message: 'Unavailable'}}, 100);
    await refund(sessionId);
    for (let attempt = 0; attempt < 12; attempt++) {
      await stack.worker.db.run("UPDATE jobs SET run_after = 0 WHERE kind = 'github-remove' AND status = 'pending'");
      await stack.worker.scheduled();
    }
    const jobs = await get<AdminJob[]>(ADMIN_PATHS.jobs);
    const removal = jobs.find((job) => job.sessionId === sessionId && job.kind === 'github-remove')!;
    expect(removal).toMatchObject({
      state: 'failed',
      attempts: 12,
      removalFailed: true,
      lastError: expect.stringContaining('503'),
    });
    expect(await grantOf(sessionId)).toMatchObject({status: 'removal_failed'});

    stack.github.clearFailures();
    const retried = await post(adminPath(ADMIN_PATHS.retryJob, {jobId: removal.id}));
    expect(await retried.json()).toEqual({status: 'done', detail: `job ${removal.id} (github-remove): done`});
    expect(stack.github.collaborators.has(login!.toLowerCase())).toBe(false);
    expect(await grantOf(sessionId)).toMatchObject({status: 'revoked'});
    expect((await get<AdminJob[]>(ADMIN_PATHS.jobs)).find((job) => job.id === removal.id)).toBeUndefined();
    const invitation = (await grantOf(sessionId))!.invitation_id;
    expect((await auditEntries())[0]).toMatchObject({
      action: 'retry_job',
      outcome: 'done',
      sessionId,
      detail: `job ${removal.id} (github-remove): done. Access: @${login} (removal_failed, invitation ${invitation}) → @${login} (revoked, invitation ${invitation}).`,
    });
    expect((await post(adminPath(ADMIN_PATHS.retryJob, {jobId: removal.id}))).status).toBe(404);
    expect((await auditEntries())[0]).toMatchObject({
      action: 'retry_job',
      outcome: 'failed',
      detail: expect.stringMatching(/^Failed: There is no failed or waiting job with that id\./),
    });
  });
});

describe('repository audit', () => {
  test('a fix that stops half-way writes what it had done before it stopped', async () => {
    // Invited by hand, outside any purchase: an open invitation, then the account (none yet) to remove.
    const stranger = githubAccount();
    const invited = await fetch(`${stack.github.url}/repos/${FIXTURE_REPO}/collaborators/${stranger}`, {method: 'PUT'});
    expect(invited.status).toBe(201);
    const invitation = ((await invited.json()) as {id: number}).id;
    const difference = (await get<RepositoryAudit>(ADMIN_PATHS.repositoryAudit)).differences.find(
      (entry) => entry.login === stranger,
    )!;
    stack.github.failNext(`DELETE /repos/${FIXTURE_REPO}/collaborators/`, {
      status: 502,
      body: {message: 'Server Error'},
    });

    const failed = await post(ADMIN_PATHS.repositoryFix, {
      kind: difference.kind,
      githubUserId: difference.githubUserId,
    });
    expect(failed.status).toBe(503);
    expect(stack.github.invitations.has(invitation)).toBe(false);
    expect((await auditEntries())[0]).toMatchObject({
      action: 'repository_fix',
      outcome: 'failed',
      detail: `Failed: GitHub is not answering right now. Please try again in a few minutes. Done before it stopped: withdrew invitation ${invitation} of @${stranger}.`,
    });
  });

  test('lists who is there without paying, paid seats missing, revoked seats still there; each fix works', async () => {
    // Invited by hand, outside any purchase.
    const stranger = githubAccount();
    stack.github.collaborators.add(stranger.toLowerCase());
    // A paid seat whose collaborator was removed by hand.
    const missing = await buyer({seat: true, accept: true});
    stack.github.collaborators.delete(missing.login!.toLowerCase());
    // A refunded seat whose removal failed.
    const kept = await buyer({seat: true, accept: true});
    stack.github.failNext('DELETE /repos/', {status: 403, body: {message: 'Must have admin rights to Repository.'}});
    await refund(kept.sessionId);
    expect(await grantOf(kept.sessionId)).toMatchObject({status: 'removal_failed'});
    const keptRemoval = () =>
      get<AdminJob[]>(ADMIN_PATHS.jobs).then((jobs) => jobs.find((job) => job.sessionId === kept.sessionId));
    expect(await keptRemoval()).toMatchObject({kind: 'github-remove', state: 'failed', removalFailed: true});

    const audit = await get<RepositoryAudit>(ADMIN_PATHS.repositoryAudit);
    const differences = audit.differences.map(({kind, login, sessionId}) => ({kind, login, sessionId}));
    expect(differences).toEqual(
      expect.arrayContaining([
        {kind: 'unpaid_on_repository', login: stranger, sessionId: null},
        {kind: 'paid_missing', login: missing.login, sessionId: missing.sessionId},
        {kind: 'revoked_present', login: kept.login, sessionId: kept.sessionId},
      ]),
    );
    expect(audit.exempt).toEqual(expect.arrayContaining([OWNER.toLowerCase()]));
    expect(audit.differences.find((difference) => difference.login === OWNER)).toBeUndefined();

    for (const difference of audit.differences) {
      const fixed = await post(ADMIN_PATHS.repositoryFix, {
        kind: difference.kind,
        githubUserId: difference.githubUserId,
      });
      expect(fixed.status).toBe(200);
    }
    expect(stack.github.collaborators.has(stranger.toLowerCase())).toBe(false);
    expect(stack.github.collaborators.has(kept.login!.toLowerCase())).toBe(false);
    // Removed by the fix: the grant says so, and Failures no longer shows the removal that failed.
    expect(await grantOf(kept.sessionId)).toMatchObject({status: 'revoked'});
    expect(await keptRemoval()).toBeUndefined();
    expect(
      await stack.worker.db.all(
        "SELECT status FROM jobs WHERE session_id = ? AND kind = 'github-remove'",
        kept.sessionId,
      ),
    ).toEqual([{status: 'done'}]);
    expect(invitationOf(missing.login!)).toBeDefined();
    expect((await get<RepositoryAudit>(ADMIN_PATHS.repositoryAudit)).differences).toEqual([]);
    expect((await auditEntries()).filter((entry) => entry.action === 'repository_fix').length).toBeGreaterThanOrEqual(
      3,
    );

    const gone = await post(ADMIN_PATHS.repositoryFix, {kind: 'unpaid_on_repository', githubUserId: 1});
    expect(gone.status).toBe(409);
  });

  test('a fix never removes an account a live grant holds: a refund recorded on the purchase, its grant not revoked yet', async () => {
    const caught = await buyer({seat: true, accept: true});
    const grant = await grantOf(caught.sessionId);
    // The refund's batch has marked the purchase revoked; the grant's revocation has not run yet
    // (it follows in the same request, or in Stripe's retry if that request died).
    await stack.worker.db.run("UPDATE purchases SET status = 'revoked' WHERE session_id = ?", caught.sessionId);
    const difference = (await get<RepositoryAudit>(ADMIN_PATHS.repositoryAudit)).differences.find(
      (entry) => entry.login === caught.login,
    );
    expect(difference).toMatchObject({kind: 'revoked_present', sessionId: caught.sessionId});

    const refused = await post(ADMIN_PATHS.repositoryFix, {
      kind: difference!.kind,
      githubUserId: difference!.githubUserId,
    });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      error: `@${caught.login} holds a live grant to ${FIXTURE_REPO} of purchase ${caught.sessionId}: revoke that purchase's access from its page instead.`,
      code: 'CONFLICT',
    });
    expect(stack.github.collaborators.has(caught.login!.toLowerCase())).toBe(true);
    expect(
      stack.github.requests.filter((request) => request.startsWith('DELETE ') && request.includes(caught.login!)),
    ).toEqual([]);
    expect(await grantOf(caught.sessionId)).toEqual(grant);
  });

  test('a paying buyer whose invitation is queued, failed or has no GitHub id yet is no stranger on the repository; off it, they are missing', async () => {
    const unavailable = {status: 503, body: {message: 'Unavailable'}};
    /** A paid purchase asks for `username` while GitHub fails `failing` as given. */
    async function asked(username: string, failing: [string, Failure, number?], answer: number) {
      const paying = await buyer();
      stack.github.failNext(...failing);
      const response = await stack.call('/addUserToRepo', {
        token: paying.user.idToken,
        body: {username, userId: paying.user.uid},
      });
      expect(response.status).toBe(answer);
      return paying.sessionId;
    }
    const [queued, failed, unresolved, queuedAway, failedAway] = Array.from({length: 5}, githubAccount);
    const sessions = {
      // GitHub was busy when the invitation went out: the outbox will send it.
      queued: await asked(queued, ['PUT /repos/', unavailable], 202),
      failed: await asked(failed, ['PUT /repos/', {status: 422, body: VALIDATION_FAILED}], 422),
      // GitHub could not even say who this is; the buyer typed the login in capitals.
      unresolved: await asked(unresolved.toUpperCase(), ['GET /users/', unavailable, 2], 202),
      queuedAway: await asked(queuedAway, ['PUT /repos/', unavailable], 202),
      failedAway: await asked(failedAway, ['PUT /repos/', {status: 422, body: VALIDATION_FAILED}], 422),
    };
    expect(await grantOf(sessions.queued)).toMatchObject({status: 'queued', github_user_id: expect.any(Number)});
    expect(await grantOf(sessions.failed)).toMatchObject({status: 'failed'});
    expect(await grantOf(sessions.unresolved)).toMatchObject({status: 'queued', github_user_id: null});
    // The seller added three of them by hand meanwhile.
    for (const login of [queued, failed, unresolved]) stack.github.collaborators.add(login.toLowerCase());

    const {differences} = await get<RepositoryAudit>(ADMIN_PATHS.repositoryAudit);
    const about = (login: string) =>
      differences.filter((difference) => difference.login.toLowerCase() === login.toLowerCase());
    for (const login of [queued, failed, unresolved]) expect(about(login)).toEqual([]);
    expect(about(queuedAway)).toEqual([
      expect.objectContaining({kind: 'paid_missing', on: 'nowhere', sessionId: sessions.queuedAway}),
    ]);
    expect(about(failedAway)).toEqual([
      expect.objectContaining({kind: 'paid_missing', on: 'nowhere', sessionId: sessions.failedAway}),
    ]);
  });
});
