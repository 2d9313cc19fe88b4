/**
 * GET /accessStatus says what became of the buyer's payment, and since when, so the dashboard can
 * tell a refunded buyer that, and never that they did not buy: refunds made at the Stripe stand-in
 * (`refundAtStripe`, then Stripe's own `charge.refunded`), disputes as Stripe sends them, and a
 * buyer who bought again after a refund. The receipts stay, the refund with them. A purchase's
 * upgrades are payments of their own: the standing tells each, and adds up what was paid and what
 * went back, whether the purchase was refunded at Stripe alone, with its upgrades from the console,
 * or an upgrade on its own. What the page says of GitHub is what the purchase's grant says (a
 * removal GitHub has not carried out is not told as done), and a dispute of a purchase whose access
 * the seller revoked first promises nothing back.
 */
import type Stripe from 'stripe';
import {
  adminPath,
  ADMIN_PATHS,
  API_PATHS,
  appConfig,
  type AccessStatus,
  type BuyerReceipts,
  endedPurchase,
  hasEnded,
  planAmount,
  standingNotes,
  upgradeAmount,
} from '../../src/config';
import {formatMoney} from '../../src/config/money';
import {
  completedEvent,
  disputeEvent,
  payUpgradeOf,
  PRICE_STARTER,
  refundAtStripe,
  type SignedInUser,
  SITE_ORIGIN,
  stripeEvent,
  upgradeSessionOf,
  useSellerStack,
} from './stack';

const seller = useSellerStack();
const stack = () => seller.stack;

const [starter, advanced] = appConfig.plans;

async function paidBuyer(user?: SignedInUser, priceId?: string): Promise<{user: SignedInUser; sessionId: string}> {
  const buyer = user ?? (await stack().signUp({verified: true}));
  const sessionId = await stack().paidCheckout({email: buyer.email, user: buyer, ...(priceId && {priceId})});
  expect((await stack().deliver(completedEvent(stack(), sessionId))).status).toBe(200);
  return {user: buyer, sessionId};
}

async function accessStatus(user: SignedInUser): Promise<AccessStatus> {
  const response = await stack().call(API_PATHS.accessStatus, {token: user.idToken});
  expect(response.status).toBe(200);
  return (await response.json()) as AccessStatus;
}

/** The words the dashboard shows for the purchase the answer says ended, with the answer's access record. */
function endedWords(answer: AccessStatus): string {
  expect(hasEnded(answer.payment)).toBe(true);
  return endedPurchase(answer.payment as Parameters<typeof endedPurchase>[0], answer).paragraphs.join(' ');
}

const boughtAt = async (sessionId: string) =>
  (
    await stack().worker.db.all<{created_at: number}>(
      'SELECT created_at FROM purchases WHERE session_id = ?',
      sessionId,
    )
  )[0]!.created_at;

test('a buyer refunded in full at Stripe reads "refunded", with when and how much; access is revoked; the receipt stays, the refund on it', async () => {
  const {user, sessionId} = await paidBuyer();
  const login = stack().github.addUser(`refunded-${Date.now().toString(36)}`).login;
  expect(
    (await stack().call(API_PATHS.addUserToRepo, {token: user.idToken, body: {username: login, userId: user.uid}}))
      .status,
  ).toBe(200);
  const paid = await accessStatus(user);
  expect(paid).toMatchObject({
    hasPaid: true,
    status: 'pending',
    payment: {state: 'paid', plan: {id: advanced.id, name: advanced.name}, refunded: 0},
    plan: {id: advanced.id},
  });
  expect(paid.payment).not.toHaveProperty('since');

  const before = Date.now();
  await refundAtStripe(stack(), sessionId);
  const after = Date.now();
  const answer = await accessStatus(user);
  expect(answer).toMatchObject({
    hasPaid: false,
    status: 'revoked',
    username: login,
    payment: {
      state: 'refunded',
      plan: {id: advanced.id, name: advanced.name},
      boughtAt: await boughtAt(sessionId),
      amount: advanced.price * 100,
      refunded: advanced.price * 100,
      currency: 'usd',
    },
  });
  expect(answer.payment!.since).toBeGreaterThanOrEqual(before);
  expect(answer.payment!.since).toBeLessThanOrEqual(after);
  // No paid purchase: no plan held, and nothing else ended beside it.
  expect(answer).not.toHaveProperty('plan');
  expect(answer).not.toHaveProperty('otherEnded');

  const receipts = (await (await stack().call(API_PATHS.receipts, {token: user.idToken})).json()) as BuyerReceipts;
  expect(receipts.receipts).toEqual([
    expect.objectContaining({plan: advanced.name, amount: advanced.price * 100, refunded: advanced.price * 100}),
  ]);
  expect(receipts.receipts[0]!.url).toMatch(/^https?:\/\//);
});

test('a partial refund keeps the purchase paid and its access, and says how much went back and when', async () => {
  const {user, sessionId} = await paidBuyer();
  const before = Date.now();
  await refundAtStripe(stack(), sessionId, 1500);
  const answer = await accessStatus(user);
  expect(answer).toMatchObject({
    hasPaid: true,
    payment: {state: 'partly_refunded', amount: advanced.price * 100, refunded: 1500},
    plan: {id: advanced.id},
  });
  expect(answer.payment!.since).toBeGreaterThanOrEqual(before);
});

test('a refund is dated when Stripe refunded it: a late copy of its event, or an older one out of order, does not move the date', async () => {
  const {user, sessionId} = await paidBuyer();
  await refundAtStripe(stack(), sessionId, 1500);
  const intent = stack().stripe.sessions.get(sessionId)!.payment_intent as string;
  // Refunded a month ago, as far as the worker knows.
  const monthAgo = Date.now() - 30 * 24 * 3600_000;
  await stack().worker.db.run(
    'UPDATE payment_refunds SET updated_at = ?1 WHERE payment_intent_id = ?2',
    monthAgo,
    intent,
  );
  const charge = stack().stripe.payments.get(intent)!.charge;
  // Stripe delivers the same charge.refunded again (a new event id), and an older one late.
  expect((await stack().deliver(stack().stripe.refundedEvent(intent))).status).toBe(200);
  expect(
    (await stack().deliver(stripeEvent('charge.refunded', {...charge, amount_refunded: 500} as Stripe.Charge))).status,
  ).toBe(200);
  expect(await accessStatus(user)).toMatchObject({
    payment: {state: 'partly_refunded', refunded: 1500, since: monthAgo},
  });

  // A refund of more is a new date.
  const before = Date.now();
  await refundAtStripe(stack(), sessionId, 1000);
  const answer = await accessStatus(user);
  expect(answer).toMatchObject({payment: {state: 'partly_refunded', refunded: 2500}});
  expect(answer.payment!.since).toBeGreaterThanOrEqual(before);
});

test('an open dispute reads "disputed" since it was opened; lost, "dispute_lost" since it closed; neither is "never bought"', async () => {
  const {user, sessionId} = await paidBuyer();
  const opened = Date.now();
  expect(
    (await stack().deliver(disputeEvent(stack(), sessionId, 'charge.dispute.created', 'needs_response'))).status,
  ).toBe(200);
  const open = await accessStatus(user);
  expect(open).toMatchObject({hasPaid: false, payment: {state: 'disputed', plan: {id: advanced.id}}});
  expect(open.payment!.since).toBeGreaterThanOrEqual(opened);

  const closed = Date.now();
  expect((await stack().deliver(disputeEvent(stack(), sessionId, 'charge.dispute.closed', 'lost'))).status).toBe(200);
  const lost = await accessStatus(user);
  expect(lost).toMatchObject({hasPaid: false, payment: {state: 'dispute_lost'}});
  expect(lost.payment!.since).toBeGreaterThanOrEqual(closed);
});

test('a dispute won makes the purchase paid again', async () => {
  const {user, sessionId} = await paidBuyer();
  await stack().deliver(disputeEvent(stack(), sessionId, 'charge.dispute.created', 'needs_response'));
  await stack().deliver(disputeEvent(stack(), sessionId, 'charge.dispute.closed', 'won'));
  expect(await accessStatus(user)).toMatchObject({hasPaid: true, payment: {state: 'paid'}});
});

test('a buyer who bought again after a refund holds the new purchase, and is told the other one was refunded', async () => {
  const {user, sessionId: first} = await paidBuyer();
  await refundAtStripe(stack(), first);
  const {sessionId: second} = await paidBuyer(user, PRICE_STARTER);
  const answer = await accessStatus(user);
  expect(answer).toMatchObject({
    hasPaid: true,
    payment: {state: 'paid', plan: {id: starter.id, name: starter.name}, boughtAt: await boughtAt(second)},
    otherEnded: {state: 'refunded', plan: {id: advanced.id}, boughtAt: await boughtAt(first)},
    plan: {id: starter.id, name: starter.name},
  });
  // Both receipts stand.
  const receipts = (await (await stack().call(API_PATHS.receipts, {token: user.idToken})).json()) as BuyerReceipts;
  expect(receipts.receipts.map((receipt) => receipt.plan).sort()).toEqual([starter.name, advanced.name].sort());
});

test('an account that never bought reads no payment at all', async () => {
  const user = await stack().signUp({verified: true});
  const answer = await accessStatus(user);
  expect(answer).toMatchObject({hasPaid: false, status: 'none'});
  expect(answer).not.toHaveProperty('payment');
});

test('a purchase revoked for a reason that is not about its payment is never called refunded or disputed', async () => {
  const {user, sessionId} = await paidBuyer();
  await stack().worker.db.run(
    "UPDATE purchases SET status = 'revoked', revoke_reason = 'another reason' WHERE session_id = ?",
    sessionId,
  );
  const answer = await accessStatus(user);
  expect(answer).toMatchObject({hasPaid: false});
  expect(answer).not.toHaveProperty('payment');
});

describe('a purchase with an upgrade: each payment told, and the whole added up', () => {
  const lower = planAmount(starter!);
  const difference = upgradeAmount(starter!, advanced!);
  const usd = (cents: number) => formatMoney(cents, 'usd');

  /** A buyer of Starter who upgraded to Advanced: the purchase's and the upgrade's sessions. */
  async function upgradedBuyer() {
    const {user, sessionId} = await paidBuyer(undefined, PRICE_STARTER);
    const upgrade = await upgradeSessionOf(stack(), user, {
      planId: advanced!.id,
      successUrl: `${SITE_ORIGIN}/dashboard`,
      cancelUrl: `${SITE_ORIGIN}/dashboard`,
    });
    await payUpgradeOf(stack(), user, upgrade);
    const [{paid_at: upgradedAt}] = await stack().worker.db.all<{paid_at: number}>(
      'SELECT paid_at FROM upgrades WHERE session_id = ?',
      upgrade,
    );
    return {user, sessionId, upgrade, upgradedAt: upgradedAt!};
  }

  test('paid: the plan bought is Starter, the plan it gives now Advanced, and the upgrade is a payment of its own', async () => {
    const {user, sessionId, upgradedAt} = await upgradedBuyer();
    expect(await accessStatus(user)).toMatchObject({
      hasPaid: true,
      payment: {
        state: 'paid',
        plan: {id: starter!.id, name: starter!.name},
        planNow: {id: advanced!.id, name: advanced!.name},
        boughtAt: await boughtAt(sessionId),
        amount: lower,
        refunded: 0,
        upgrades: [
          {
            state: 'paid',
            plan: {id: advanced!.id, name: advanced!.name},
            paidAt: upgradedAt,
            amount: difference,
            refunded: 0,
            currency: 'usd',
          },
        ],
        total: {amount: lower + difference, refunded: 0},
      },
      plan: {id: advanced!.id},
    });
  });

  test('the purchase refunded at Stripe, its upgrade not: the purchase bought Starter, and what went back is its $69 of the $99 paid; the upgrade reads still charged', async () => {
    const {user, sessionId} = await upgradedBuyer();
    await refundAtStripe(stack(), sessionId);
    const answer = await accessStatus(user);
    expect(answer).toMatchObject({
      hasPaid: false,
      payment: {
        state: 'refunded',
        plan: {id: starter!.id, name: starter!.name},
        amount: lower,
        refunded: lower,
        upgrades: [{state: 'paid', plan: {id: advanced!.id}, amount: difference, refunded: 0}],
        total: {amount: lower + difference, refunded: lower},
      },
    });
    // A purchase refunded gives no plan now.
    expect(answer.payment).not.toHaveProperty('planNow');
    const words = endedWords(answer);
    expect(words).toContain(`Your ${appConfig.appName} ${starter!.name} purchase of `);
    expect(words).toContain(`, but not its upgrade to ${advanced!.name} of `);
    expect(words).toContain(
      `: ${usd(lower)} of the ${usd(lower + difference)} you paid went back to the payment method you used, and the ${usd(difference)} you paid for the upgrade was not refunded. To ask for what was not refunded, write to ${appConfig.support.email}.`,
    );
    expect(words).not.toContain(`${appConfig.appName} ${advanced!.name} purchase`);
  });

  test("the console's full refund gives back the purchase and its upgrade: all that was paid went back, and the page says so", async () => {
    const {user, sessionId, upgrade} = await upgradedBuyer();
    const refunded = await stack().call(adminPath(ADMIN_PATHS.refund, {sessionId}), {
      method: 'POST',
      token: seller.admin.idToken,
      body: {reason: 'requested_by_customer', refundedBefore: 0},
    });
    expect(refunded.status).toBe(200);
    // Stripe's charge.refunded for each payment, as it sends them.
    for (const id of [sessionId, upgrade]) {
      expect(
        (await stack().deliver(stack().stripe.refundedEvent(stack().stripe.sessions.get(id)!.payment_intent as string)))
          .status,
      ).toBe(200);
    }
    const answer = await accessStatus(user);
    expect(answer).toMatchObject({
      hasPaid: false,
      payment: {
        state: 'refunded',
        plan: {id: starter!.id},
        upgrades: [{state: 'refunded', plan: {id: advanced!.id}, amount: difference, refunded: difference}],
        total: {amount: lower + difference, refunded: lower + difference},
      },
    });
    const words = endedWords(answer);
    expect(words).toContain(`, and so was its upgrade to ${advanced!.name} of `);
    expect(words).toContain(`: ${usd(lower + difference)}, all you paid, went back to the payment method you used.`);
    expect(words).not.toContain('not refunded');
  });

  test('the upgrade refunded on its own: the purchase stays paid, its plan drops back, and the note says the upgrade was refunded and when', async () => {
    const {user, upgrade} = await upgradedBuyer();
    const before = Date.now();
    await refundAtStripe(stack(), upgrade);
    const answer = await accessStatus(user);
    expect(answer).toMatchObject({
      hasPaid: true,
      payment: {
        state: 'paid',
        plan: {id: starter!.id},
        planNow: {id: starter!.id, name: starter!.name},
        upgrades: [{state: 'refunded', amount: difference, refunded: difference}],
        total: {amount: lower + difference, refunded: difference},
      },
      plan: {id: starter!.id},
    });
    expect(answer.payment!.upgrades[0]!.since).toBeGreaterThanOrEqual(before);
    const [note] = standingNotes(answer.payment, answer.otherEnded);
    expect(note).toContain(`The ${usd(difference)} you paid for the upgrade to ${advanced!.name} of `);
    expect(note).toContain(`was refunded in full on `);
    expect(note).toContain(`so what it added was taken back: your ${appConfig.appName} ${starter!.name} purchase of `);
    expect(note).toMatch(new RegExp(`gives the ${starter!.name} plan now\\.$`));
  });

  test('the upgrade disputed on its own: it reads disputed since the dispute opened, the purchase paid', async () => {
    const {user, upgrade} = await upgradedBuyer();
    const opened = Date.now();
    expect(
      (await stack().deliver(disputeEvent(stack(), upgrade, 'charge.dispute.created', 'needs_response'))).status,
    ).toBe(200);
    const answer = await accessStatus(user);
    expect(answer).toMatchObject({
      hasPaid: true,
      payment: {state: 'paid', planNow: {id: starter!.id}, upgrades: [{state: 'disputed'}]},
    });
    expect(answer.payment!.upgrades[0]!.since).toBeGreaterThanOrEqual(opened);
    expect(standingNotes(answer.payment, answer.otherEnded)[0]).toContain(
      'so what it added is suspended while the dispute is open',
    );
  });
});

describe('what the page says of the access is what is so', () => {
  afterEach(() => stack().github.clearFailures());

  /** A buyer whose GitHub account is invited to the repository. */
  async function invitedBuyer() {
    const {user, sessionId} = await paidBuyer();
    const login = stack().github.addUser(`standing-${Date.now().toString(36)}`).login;
    expect(
      (await stack().call(API_PATHS.addUserToRepo, {token: user.idToken, body: {username: login, userId: user.uid}}))
        .status,
    ).toBe(200);
    return {user, sessionId, login};
  }
  const invited = (login: string) =>
    [...stack().github.invitations.values()].some((invitation) => invitation.invitee.login === login);
  const runRemovals = async () => {
    await stack().worker.db.run("UPDATE jobs SET run_after = 0 WHERE kind = 'github-remove' AND status = 'pending'");
    await stack().worker.scheduled();
  };
  const withdrawn = (login: string) => `@${login}'s invitation to the private repository on GitHub is withdrawn`;

  test('a refund whose removal GitHub has not carried out yet says it is being withdrawn, and withdrawn only once it is', async () => {
    const {user, sessionId, login} = await invitedBuyer();
    stack().github.failNext('DELETE /repos/', {status: 503, body: {message: 'Unavailable'}});
    await refundAtStripe(stack(), sessionId);
    expect(invited(login)).toBe(true);
    const waiting = await accessStatus(user);
    expect(waiting).toMatchObject({hasPaid: false, status: 'revoked', removing: true, payment: {state: 'refunded'}});
    expect(endedWords(waiting)).toContain(
      `@${login}'s invitation to the private repository on GitHub is being withdrawn, or the account removed from it`,
    );
    expect(endedWords(waiting)).not.toContain(withdrawn(login));

    await runRemovals();
    expect(invited(login)).toBe(false);
    const done = await accessStatus(user);
    expect(done).toMatchObject({status: 'revoked'});
    expect(done).not.toHaveProperty('removing');
    expect(endedWords(done)).toContain(withdrawn(login));
  });

  test('a refund whose removal failed for good says so: the account may still be on the repository, never that it was removed', async () => {
    const {user, sessionId, login} = await invitedBuyer();
    stack().github.failNext('DELETE /repos/', {status: 503, body: {message: 'Unavailable'}}, 100);
    await refundAtStripe(stack(), sessionId);
    for (let attempt = 0; attempt < 12; attempt++) await runRemovals();
    expect(invited(login)).toBe(true);
    const answer = await accessStatus(user);
    expect(answer).toMatchObject({
      hasPaid: false,
      status: 'removal_failed',
      username: login,
      payment: {state: 'refunded'},
    });
    const words = endedWords(answer);
    expect(words).toContain(
      `Removing @${login} from the private repository on GitHub failed, though, so the account may still be on it until the seller removes it.`,
    );
    expect(words).not.toContain(withdrawn(login));
    expect(words).not.toContain('account removed');
  });

  test('a dispute of a purchase whose access the seller revoked first promises no access back, and a dispute won gives none', async () => {
    const {user, sessionId} = await invitedBuyer();
    expect(
      (
        await stack().call(adminPath(ADMIN_PATHS.revoke, {sessionId}), {
          method: 'POST',
          token: seller.admin.idToken,
          body: {},
        })
      ).status,
    ).toBe(200);
    expect(
      (await stack().deliver(disputeEvent(stack(), sessionId, 'charge.dispute.created', 'needs_response'))).status,
    ).toBe(200);
    const open = await accessStatus(user);
    expect(open).toMatchObject({
      hasPaid: false,
      status: 'revoked',
      payment: {state: 'disputed', revokedBySeller: true},
    });
    const words = endedWords(open);
    expect(words).toContain('The seller had revoked its access to the code before the dispute');
    expect(words).toContain(
      "If the dispute closes in the seller's favour, the purchase is paid again, but its access does not come back by itself",
    );
    expect(words).not.toContain('comes back by itself');

    // Won: the purchase is paid again, and its access is still the seller's to give back.
    expect((await stack().deliver(disputeEvent(stack(), sessionId, 'charge.dispute.closed', 'won'))).status).toBe(200);
    expect(await accessStatus(user)).toMatchObject({
      hasPaid: true,
      status: 'revoked',
      revokedBySeller: true,
      payment: {state: 'paid', revokedBySeller: true},
    });
  });

  test('a dispute of a purchase the seller never revoked says the access comes back by itself, and it does', async () => {
    const {user, sessionId, login} = await invitedBuyer();
    expect(
      (await stack().deliver(disputeEvent(stack(), sessionId, 'charge.dispute.created', 'needs_response'))).status,
    ).toBe(200);
    const open = await accessStatus(user);
    expect(open.payment).not.toHaveProperty('revokedBySeller');
    expect(endedWords(open)).toContain(
      "If the dispute closes in the seller's favour, the access comes back by itself, for the same GitHub account",
    );
    expect((await stack().deliver(disputeEvent(stack(), sessionId, 'charge.dispute.closed', 'won'))).status).toBe(200);
    expect(await accessStatus(user)).toMatchObject({
      hasPaid: true,
      username: login,
      status: expect.stringMatching(/^(queued|pending)$/),
    });
  });
});
