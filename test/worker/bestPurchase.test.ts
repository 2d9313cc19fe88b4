/**
 * One notion of the buyer's plan: a buyer who holds several paid purchases is the best of them
 * everywhere a single one is chosen (GET /userHasPaid, the upgrade offer, the billing portal): the
 * highest plan now, of equal plans the oldest. The dashboard's access and the download go by the
 * purchase that holds the seat, else the same best one. Of purchases the seller revoked, see
 * admin.test.ts. In workerd with a real D1, against the stand-ins.
 */
import {appConfig, type Plan, upgradesFrom} from '../../src/config';
import {API_PATHS, type AccessStatus, type BuyerPlan, type DownloadLink, type PaidResponse} from '../../src/config/api';
import {completedEvent, SITE_ORIGIN, type SignedInUser, startStack, type Stack} from './stack';
import {kitGrantsOfUser} from './grantRows';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.stop());

/** The cheapest plan, and the one above it: names and prices come from the config. */
const lower = [...appConfig.plans].sort((a, b) => a.price - b.price)[0]!;
const higher = upgradesFrom(lower)[0]!;

let accounts = 0;
/** A GitHub account no other test has used (a seat is one account across all purchases). */
const githubAccount = () => stack.github.addUser(`best-${Date.now().toString(36)}-${accounts++}`).login;

/** A paid purchase of `plan` by the signed-in user, recorded by Stripe's webhook. */
async function buy(user: SignedInUser, plan: Plan): Promise<string> {
  const sessionId = await stack.paidCheckout({email: user.email, user, priceId: plan.priceId.test});
  expect((await stack.deliver(completedEvent(stack, sessionId))).status).toBe(200);
  return sessionId;
}

const getJson = async <T>(path: string, user: SignedInUser) =>
  (await (await stack.call(path, {token: user.idToken})).json()) as T;
const hasPaid = (user: SignedInUser) =>
  getJson<PaidResponse>(`${API_PATHS.userHasPaid}?userId=${encodeURIComponent(user.uid)}`, user);
const buyerPlan = (user: SignedInUser) => getJson<BuyerPlan>(API_PATHS.upgrades, user);
const accessStatus = (user: SignedInUser) => getJson<AccessStatus>(API_PATHS.accessStatus, user);
const requestAccess = (user: SignedInUser, username: string) =>
  stack.call(API_PATHS.addUserToRepo, {token: user.idToken, body: {username, userId: user.uid}});
/** The purchase a download link was made for. */
async function downloadPurchase(user: SignedInUser): Promise<string> {
  const response = await stack.call(API_PATHS.downloadLink, {token: user.idToken, body: {}});
  expect(response.status).toBe(200);
  await ((await response.json()) as Promise<DownloadLink>);
  const [row] = await stack.worker.db.all<{session_id: string}>(
    'SELECT session_id FROM download_links WHERE user_id = ? ORDER BY created_at DESC LIMIT 1',
    user.uid,
  );
  return row!.session_id;
}
const grantsOf = (user: SignedInUser) =>
  kitGrantsOfUser<{session_id: string; github_username: string}>(
    stack.worker.db,
    user.uid,
    'session_id, github_username',
  );

test('a buyer of the lower plan who later buys the higher one reads the higher plan in userHasPaid, the upgrade offer and the dashboard; the seat stays on the first purchase', async () => {
  const user = await stack.signUp();
  const first = await buy(user, lower);
  const login = githubAccount();
  expect((await requestAccess(user, login)).status).toBe(200);
  await buy(user, higher);

  expect(await hasPaid(user)).toEqual({hasPaid: true, plan: higher.name});
  expect((await buyerPlan(user)).plan).toEqual({id: higher.id, name: higher.name});
  // The dashboard's access panel still shows the seat the first purchase holds, not "none".
  expect(await accessStatus(user)).toMatchObject({hasPaid: true, status: 'pending', username: login});
  // Asking again for the same account is the same seat, not a second one on the new purchase.
  expect(await (await requestAccess(user, login)).json()).toEqual({status: 'invited'});
  expect(await grantsOf(user)).toEqual([{session_id: first, github_username: login}]);
  // The download is made for the purchase whose access the dashboard shows: the seat's.
  expect(await downloadPurchase(user)).toBe(first);
});

test('bought the other way round (the higher plan first), the higher plan still holds: the best, not the newest', async () => {
  const user = await stack.signUp();
  const first = await buy(user, higher);
  await buy(user, lower);
  expect(await hasPaid(user)).toEqual({hasPaid: true, plan: higher.name});
  expect((await buyerPlan(user)).plan).toEqual({id: higher.id, name: higher.name});
  expect(await downloadPurchase(user)).toBe(first);
});

test('of two purchases of the same plan, the oldest is the one chosen', async () => {
  const user = await stack.signUp();
  const first = await buy(user, lower);
  await buy(user, lower);
  expect(await hasPaid(user)).toEqual({hasPaid: true, plan: lower.name});
  expect(await downloadPurchase(user)).toBe(first);
});

test('an access request with no seat yet goes to the best purchase', async () => {
  const user = await stack.signUp();
  await buy(user, lower);
  const best = await buy(user, higher);
  const login = githubAccount();
  expect((await requestAccess(user, login)).status).toBe(200);
  expect(await grantsOf(user)).toEqual([{session_id: best, github_username: login}]);
});

test("the billing portal opens on the best purchase's Stripe customer, where its upgrades' receipts are too", async () => {
  const user = await stack.signUp();
  const first = await buy(user, lower);
  const best = await buy(user, higher);
  // Each checkout makes a customer of its own (customer_creation: always).
  const customerOf = async (sessionId: string) =>
    (
      await stack.worker.db.all<{customer_id: string}>(
        'SELECT customer_id FROM purchases WHERE session_id = ?',
        sessionId,
      )
    )[0]!.customer_id;
  expect(await customerOf(first)).not.toBe(await customerOf(best));
  const response = await stack.call(API_PATHS.createBillingPortal, {
    token: user.idToken,
    body: {returnUrl: `${SITE_ORIGIN}/dashboard`},
  });
  expect(response.status).toBe(200);
  expect(stack.stripe.portals.at(-1)).toMatchObject({customer: await customerOf(best)});
});
