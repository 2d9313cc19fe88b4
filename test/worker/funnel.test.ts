/**
 * The funnel on the console's first screen (issue 43), in workerd with a real D1: checkouts started
 * and paid, refunds, invitations accepted, downloads and the median time from payment to access,
 * each beside the period before; visitors from Plausible's Stats API (a stand-in: there is no
 * offline Plausible) when the worker has a key, else why not; and what needs a look now.
 */
import {appConfig, FUNNEL_WORDS} from '../../src/config';
import {ADMIN_PATHS, type AdminFunnel} from '../../src/config/api';
import {DAY_MS} from '../../src/config/dates';
import {INVITEE} from '../../scripts/local/githubApi';
import {
  PLAUSIBLE_KEY_REFUSED,
  type PlausibleStandIn,
  startPlausibleStandIn,
} from '../../scripts/local/plausibleStatsApi';
import {ageKitReading, insertKitGrant} from './grantRows';
import {startSeededStack} from './seededStack';
import {
  completedEvent,
  PRICE_STARTER,
  refundEvent,
  type SignedInUser,
  type Stack,
  startStack,
  uniqueEmail,
} from './stack';

const PLAUSIBLE_KEY = 'plausible-stats-key-for-the-funnel-suite';
let plausible: PlausibleStandIn;
let stack: Stack;
let admin: SignedInUser;
beforeAll(async () => {
  plausible = await startPlausibleStandIn({key: PLAUSIBLE_KEY, siteId: appConfig.domainName});
  const email = uniqueEmail('seller');
  stack = await startStack({ADMIN_EMAILS: email, PLAUSIBLE_API_KEY: PLAUSIBLE_KEY, PLAUSIBLE_HOST: plausible.url});
  admin = await stack.signUp({email, verified: true});
});
afterAll(async () => {
  await stack?.stop();
  await plausible?.close();
});

async function funnel(period = '7d', on = stack): Promise<AdminFunnel> {
  const response = await on.call(`${ADMIN_PATHS.funnel}?period=${period}`, {token: admin.idToken});
  expect(response.status).toBe(200);
  return (await response.json()) as AdminFunnel;
}

const day = (at: number) => new Date(at).toISOString().slice(0, 10);
const HOUR_MS = 3600_000;

/** A buyer who paid through the worker's own checkout, the webhook delivered. */
async function paidBuyer() {
  const user = await stack.signUp();
  const sessionId = await stack.paidCheckout({email: user.email, user, priceId: PRICE_STARTER});
  expect((await stack.deliver(completedEvent(stack, sessionId))).status).toBe(200);
  return {user, sessionId};
}

test("the period's checkouts started and paid, its refunds, the invitations accepted and the time to access, each beside the week before", async () => {
  // Recorded since three weeks ago: the week before has figures of its own.
  await stack.worker.db.run(
    'INSERT INTO checkout_starts (session_id, created_at) VALUES (?, ?)',
    'cs_test_funnel_first_recorded',
    Date.now() - 21 * DAY_MS,
  );
  const start = await funnel();
  // The week before: 4 checkouts, 1 paid, its code reached 2 hours after payment (rows as D1 keeps them).
  const lastWeek = Date.now() - 10 * DAY_MS;
  for (let i = 0; i < 4; i++)
    await stack.worker.db.run(
      'INSERT INTO checkout_starts (session_id, created_at) VALUES (?, ?)',
      `cs_test_funnel_before_${i}`,
      lastWeek,
    );
  await stack.worker.db.run(
    `INSERT INTO purchases (session_id, email, plan, status, created_at, updated_at, paid_at, amount_total, currency)
     VALUES ('cs_test_funnel_before_0', 'before@example.com', ?, 'paid', ?, ?, ?, 6900, 'usd')`,
    appConfig.plans[0]!.id,
    lastWeek,
    lastWeek,
    lastWeek,
  );
  await insertKitGrant(stack.worker.db, {
    session_id: 'cs_test_funnel_before_0',
    status: 'active',
    github_username: 'before-buyer',
    github_user_id: 90_000_001,
    updated_at: lastWeek + 2 * HOUR_MS,
    activated_at: lastWeek + 2 * HOUR_MS,
  });

  // This week, through the worker: 4 checkouts opened, 2 paid, 1 of those refunded, 1 left, and 1
  // left then paid through its reminder's recovery link (a session Stripe made, `recovered_from` it).
  await stack.openCheckout({email: uniqueEmail('left'), priceId: PRICE_STARTER});
  const wonBack = await stack.openCheckout({email: uniqueEmail('won-back'), priceId: PRICE_STARTER});
  await stack.worker.db.run(
    `INSERT INTO purchases (session_id, email, plan, status, created_at, updated_at, paid_at, recovered_from)
     VALUES ('cs_test_funnel_recovered', 'won-back@example.com', ?, 'paid', ?, ?, ?, ?)`,
    appConfig.plans[0]!.id,
    Date.now(),
    Date.now(),
    Date.now(),
    wonBack,
  );
  const kept = await paidBuyer();
  const refunded = await paidBuyer();
  expect((await stack.deliver(refundEvent(stack, refunded.sessionId))).status).toBe(200);
  // The kept buyer asks for the code and accepts the invitation on GitHub.
  const asked = await stack.call('/addUserToRepo', {
    token: kept.user.idToken,
    body: {username: INVITEE, userId: kept.user.uid},
  });
  expect(asked.status).toBe(200);
  stack.github.accept([...stack.github.invitations.values()].at(-1)!.id);
  await ageKitReading(stack.worker.db, kept.sessionId, 60_000);
  await stack.call('/accessStatus', {token: kept.user.idToken});

  const now = await funnel();
  expect(now.checkoutsStarted).toEqual({
    now: start.checkoutsStarted.now + 4,
    before: start.checkoutsStarted.before! + 4,
  });
  expect(now.checkoutsPaid).toEqual({now: start.checkoutsPaid.now + 3, before: start.checkoutsPaid.before! + 1});
  expect(now.payments.now).toBe(start.payments.now + 3);
  expect(now.refunds.now).toBe(start.refunds.now + 1);
  expect(now.invitationsAccepted).toEqual({
    now: start.invitationsAccepted.now + 1,
    before: start.invitationsAccepted.before! + 1,
  });
  // Access came within the minute this week, two hours after payment the week before.
  expect(now.medianToAccess.now).toBeLessThan(60_000);
  expect(now.medianToAccess.before).toBe(2 * HOUR_MS);
  // All time has no period before it.
  const all = await funnel('all');
  expect(all.checkoutsStarted.before).toBeNull();
  expect(all.medianToAccess.before).toBeNull();
  expect(all.checkoutsStarted.now).toBeGreaterThanOrEqual(7);
});

test("visitors come from Plausible's Stats API for the site the script counts, the period and the one before", async () => {
  const today = Date.now();
  plausible.visitorsOn.set(day(today), 120);
  plausible.visitorsOn.set(day(today - 29 * DAY_MS), 30);
  plausible.visitorsOn.set(day(today - 30 * DAY_MS), 75);
  plausible.visitorsOn.set(day(today - 60 * DAY_MS), 1000);
  plausible.queries.length = 0;
  expect((await funnel('30d')).visitors).toEqual({source: 'plausible', now: 150, before: 75});
  // Moments in UTC, as every other figure (bare days Plausible would read in the site's own zone);
  // the period before as far into it as this one is.
  expect(plausible.queries).toEqual(
    expect.arrayContaining([
      {
        site_id: appConfig.domainName,
        metrics: ['visitors'],
        date_range: [`${day(today - 29 * DAY_MS)}T00:00:00Z`, expect.stringMatching(`^${day(today)}T`)],
      },
      {
        site_id: appConfig.domainName,
        metrics: ['visitors'],
        date_range: [`${day(today - 59 * DAY_MS)}T00:00:00Z`, expect.stringMatching(`^${day(today - 30 * DAY_MS)}T`)],
      },
    ]),
  );
  expect((await funnel('all')).visitors).toEqual({source: 'plausible', now: 1225, before: null});
});

test('without a key, or with one Plausible refuses, the funnel starts at checkout and says why', async () => {
  plausible.failNext(401, PLAUSIBLE_KEY_REFUSED);
  expect((await funnel()).visitors).toEqual({
    source: 'none',
    why: FUNNEL_WORDS.keyRefused(401),
  });
  const bare = await startStack({ADMIN_EMAILS: admin.email});
  try {
    const answer = await funnel('7d', bare);
    expect(answer.visitors).toEqual({
      source: 'none',
      why: FUNNEL_WORDS.noKey,
    });
  } finally {
    await bare.stop();
  }
});

test('needs a look: invitations unaccepted after 3 days, failed grants, the queue and since when, card-country flags', async () => {
  const before = (await funnel()).needsLook;
  const now = Date.now();
  /** A paid buyer whose seat's grant is in the state given. */
  const buyerWithGrant = async (grant: Record<string, unknown>) => {
    const buyer = await paidBuyer();
    await insertKitGrant(stack.worker.db, {session_id: buyer.sessionId, ...grant});
    return buyer;
  };
  const slow = {github_username: 'slow-to-accept', github_user_id: 90_000_002, invitation_id: 91_000_002};
  await buyerWithGrant({...slow, status: 'pending', invited_at: now - 4 * DAY_MS, updated_at: now - 4 * DAY_MS});
  const waiting = {github_username: 'waiting-in-line', github_user_id: 90_000_003};
  await buyerWithGrant({...waiting, status: 'queued', waiting_at: now - 5 * HOUR_MS, updated_at: now - 5 * HOUR_MS});
  const third = await buyerWithGrant({
    status: 'failed',
    github_username: 'refused-by-github',
    github_user_id: 90_000_004,
    updated_at: now,
  });
  await stack.worker.db.run("UPDATE purchases SET country_review = 'flagged' WHERE session_id = ?", third.sessionId);
  const look = (await funnel()).needsLook;
  expect(look).toEqual({
    unaccepted: before.unaccepted + 1,
    failedGrants: before.failedGrants + 1,
    queued: before.queued + 1,
    queuedSince: before.queuedSince === null ? now - 5 * HOUR_MS : Math.min(before.queuedSince, now - 5 * HOUR_MS),
    cardCountryFlags: before.cardCountryFlags + 1,
  });
});

test("`npm run seed:local`'s store fills every figure: checkouts started and left, paid, refunded, accepted, and the time to access", async () => {
  const {stack: seeded, admin: seller} = await startSeededStack({purchases: 200});
  try {
    const response = await seeded.call(`${ADMIN_PATHS.funnel}?period=all`, {token: seller.idToken});
    const all = (await response.json()) as AdminFunnel;
    const [paid] = await seeded.worker.db.all<{count: number}>(
      "SELECT COUNT(*) AS count FROM purchases WHERE status IN ('paid', 'revoked')",
    );
    // Each purchase's checkout, and one and a half left for each.
    expect(all.checkoutsStarted.now).toBe(500);
    expect(all.checkoutsPaid.now).toBe(paid!.count);
    expect(all.refunds.now).toBeGreaterThan(0);
    expect(all.invitationsAccepted.now).toBeGreaterThan(0);
    // The seed's grants were active an hour after payment: the code reached the buyer then.
    expect(all.medianToAccess.now).toBe(HOUR_MS);
    const month = (await (
      await seeded.call(`${ADMIN_PATHS.funnel}?period=30d`, {token: seller.idToken})
    ).json()) as AdminFunnel;
    expect(month.checkoutsStarted.now).toBeGreaterThan(0);
    expect(month.checkoutsStarted.before).toBeGreaterThan(0);
  } finally {
    await seeded.stop();
  }
});
