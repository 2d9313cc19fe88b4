/**
 * Plans sold in fixed team tiers (issue 41, `team.tiers`), in workerd on a stack whose plans sell the
 * buyer alone and teams of 5, 10 and 20 only (TIERED_PLANS): a checkout charges a tier once for all its
 * seats, a team grows by moving to a larger tier credited what it paid, moves up tier for tier, and
 * its seats go back only together.
 */
import {
  appConfig,
  CREDITED_LATER_REFUSAL,
  PLAN_CURRENCY,
  planPrices,
  saleOf,
  seatsKeptWords,
  seatsRefusal,
  upgradeCreditName,
  UPGRADE_REFUSALS,
} from '../../src/config';
import {ADMIN_PATHS, adminPath, type AdminPurchaseDetail, API_PATHS, type BuyerPlan} from '../../src/config/api';
import {tieredPlanEdits} from '../../scripts/support/teamPlans';
import {TIERED_PLANS} from '../../scripts/support/tieredPlans';
import {
  disputeEvent,
  payUpgradeOf,
  PRICE_ADVANCED,
  PRICE_STARTER,
  refundAtStripe,
  SITE_ORIGIN,
  type SignedInUser,
  upgradeSessionOf,
} from './stack';
import {teamActs} from './teamActs';
import {TEAM_ADMIN, useTeamStack} from './teamStack';

const [STARTER, ADVANCED] = TIERED_PLANS as [(typeof TIERED_PLANS)[number], (typeof TIERED_PLANS)[number]];

const team = useTeamStack({edits: tieredPlanEdits(), plans: TIERED_PLANS});
const {call, joinedMember, teamOf, teamOwner} = teamActs(team);

const back = {successUrl: `${SITE_ORIGIN}/dashboard`, cancelUrl: `${SITE_ORIGIN}/dashboard`};
const offerOf = async (owner: SignedInUser) => (await (await call(owner, API_PATHS.upgrades)).json()) as BuyerPlan;
/** The seller, signed up once for the file. */
let sellerSignedUp: Promise<SignedInUser> | undefined;
const seller = () => (sellerSignedUp ??= team().signUp({email: TEAM_ADMIN, verified: true}));
/** A buyer alone who moved to the team of 5, then to the team of 10, both paid: each move's session. */
async function movedToFiveThenTen() {
  const {owner, sessionId} = await teamOwner(1, PRICE_ADVANCED);
  const toFive = await upgradeSessionOf(team(), owner, {...back, planId: ADVANCED.id, addSeats: 4});
  await payUpgradeOf(team(), owner, toFive);
  const toTen = await upgradeSessionOf(team(), owner, {...back, planId: ADVANCED.id, addSeats: 5});
  await payUpgradeOf(team(), owner, toTen);
  return {owner, sessionId, toFive, toTen};
}
/** The seats the purchase was bought with (seats added later are counted on top, in `teamOf`). */
const seatsOf = async (sessionId: string) =>
  (await team().worker.db.all<{seats: number}>('SELECT seats FROM purchases WHERE session_id = ?', sessionId))[0]
    ?.seats;

test('a team of 5 is its tier bought once: Stripe charges the tier’s price, and the purchase holds 5 seats', async () => {
  const five = saleOf(ADVANCED, 5);
  expect(five.quantity).toBe(1);
  const {owner, sessionId} = await teamOwner(5, PRICE_ADVANCED);
  expect(team().stripe.created.at(-1)!.line_items).toEqual([{price: five.price.priceId.test, quantity: '1'}]);
  expect(team().stripe.sessions.get(sessionId)!.amount_total).toBe(five.amount);
  expect(await seatsOf(sessionId)).toBe(5);
  expect(await teamOf(owner)).toMatchObject({seats: 5, free: 4});
});

test('a number of seats that is no tier is refused with the tiers named, and nothing is made at Stripe', async () => {
  const before = team().stripe.created.length;
  const response = await team().call(API_PATHS.createCheckoutSession, {
    headers: {'cf-connecting-ip': '127.43.0.1'},
    body: {priceId: PRICE_ADVANCED, seats: 3, successUrl: `${SITE_ORIGIN}/success`, cancelUrl: `${SITE_ORIGIN}/`},
  });
  expect(response.status).toBe(400);
  expect(((await response.json()) as {error: string}).error).toBe(seatsRefusal(ADVANCED, 3));
  expect(seatsRefusal(ADVANCED, 3)).toBe(`${ADVANCED.name} is sold for teams of 5, 10 or 20: choose one of those.`);
  expect(team().stripe.created.length).toBe(before);
});

describe('a team grows by moving to a larger tier', () => {
  test('a buyer alone pays the tier less what they paid; then the next tier, credited both payments', async () => {
    const {owner} = await teamOwner(1, PRICE_ADVANCED);
    const [one, five, ten, twenty] = [1, 5, 10, 20].map((seats) => saleOf(ADVANCED, seats));
    expect((await offerOf(owner)).seats).toEqual({
      seats: 1,
      most: 20,
      perSeat: null,
      tiers: [
        {seats: 5, amount: five!.amount - one!.amount},
        {seats: 10, amount: ten!.amount - one!.amount},
        {seats: 20, amount: twenty!.amount - one!.amount},
      ],
      currency: PLAN_CURRENCY,
    });
    const id = await upgradeSessionOf(team(), owner, {...back, planId: ADVANCED.id, addSeats: 4});
    // The tier once, less a credit of what was paid: never the seats' count of a price.
    expect(team().stripe.created.at(-1)!.line_items).toEqual([{price: five!.price.priceId.test, quantity: '1'}]);
    expect(team().stripe.sessions.get(id)!.amount_total).toBe(five!.amount - one!.amount);
    // The receipt names the credit for what was paid, as a move's does, not a seat's fair-price line.
    const coupon = team().stripe.created.at(-1)!.discounts as {coupon: string}[];
    expect(team().stripe.coupons.get(coupon[0]!.coupon)?.name).toBe(upgradeCreditName(ADVANCED));
    await payUpgradeOf(team(), owner, id);
    expect(await teamOf(owner)).toMatchObject({seats: 5, free: 4});

    // Credited all paid so far: each larger team costs what is left of its price.
    expect((await offerOf(owner)).seats?.tiers).toEqual([
      {seats: 10, amount: ten!.amount - five!.amount},
      {seats: 20, amount: twenty!.amount - five!.amount},
    ]);
    // A size that is no tier is refused, with the tiers named.
    const eight = await call(owner, API_PATHS.createUpgradeSession, {...back, planId: ADVANCED.id, addSeats: 3});
    expect(eight.status).toBe(409);
    expect(((await eight.json()) as {error: string}).error).toBe(seatsRefusal(ADVANCED, 8));
    const last = await upgradeSessionOf(team(), owner, {...back, planId: ADVANCED.id, addSeats: 5});
    expect(team().stripe.sessions.get(last)!.amount_total).toBe(ten!.amount - five!.amount);
    await payUpgradeOf(team(), owner, last);
    expect(await teamOf(owner)).toMatchObject({seats: 10, free: 9});
    expect((await offerOf(owner)).seats).toMatchObject({seats: 10, tiers: [{seats: 20}]});
  });

  test('two moves priced from the same team: the second one paid is stale, refunded, and the team stays a tier', async () => {
    // Each within the most seats, together 14: no tier, and the second's credit would be wrong.
    const {owner} = await teamOwner(1, PRICE_ADVANCED);
    const toFive = await upgradeSessionOf(team(), owner, {...back, planId: ADVANCED.id, addSeats: 4});
    const toTen = await upgradeSessionOf(team(), owner, {...back, planId: ADVANCED.id, addSeats: 9});
    await payUpgradeOf(team(), owner, toFive);
    const refundsBefore = team().stripe.refundsCreated.length;
    await payUpgradeOf(team(), owner, toTen);
    const [row] = await team().worker.db.all<{status: string; refused_reason: string | null}>(
      'SELECT status, refused_reason FROM upgrades WHERE session_id = ?',
      toTen,
    );
    expect(row).toEqual({status: 'refused', refused_reason: 'stale'});
    expect(team().stripe.refundsCreated.length).toBe(refundsBefore + 1);
    expect(await teamOf(owner)).toMatchObject({seats: 5});
  });
});

test('a move to a larger tier disputed, then won after the team moved to another tier, is refused and refunded: the team stays a tier', async () => {
  const {owner} = await teamOwner(1, PRICE_ADVANCED);
  const toFive = await upgradeSessionOf(team(), owner, {...back, planId: ADVANCED.id, addSeats: 4});
  await payUpgradeOf(team(), owner, toFive);
  expect((await team().deliver(disputeEvent(team(), toFive, 'charge.dispute.created', 'needs_response'))).status).toBe(
    200,
  );
  expect((await offerOf(owner)).seats).toMatchObject({seats: 1});
  // Meanwhile the owner buys the team of 10 from their one seat.
  const toTen = await upgradeSessionOf(team(), owner, {...back, planId: ADVANCED.id, addSeats: 9});
  await payUpgradeOf(team(), owner, toTen);
  const refundsBefore = team().stripe.refundsCreated.length;
  expect((await team().deliver(disputeEvent(team(), toFive, 'charge.dispute.closed', 'won'))).status).toBe(200);
  const [row] = await team().worker.db.all<{status: string; refused_reason: string | null}>(
    'SELECT status, refused_reason FROM upgrades WHERE session_id = ?',
    toFive,
  );
  expect(row).toEqual({status: 'refused', refused_reason: 'stale'});
  expect(team().stripe.refundsCreated.length).toBe(refundsBefore + 1);
  expect(await teamOf(owner)).toMatchObject({seats: 10});
});

test('an earlier move to a larger tier disputed while a later one stands: won, it stands again and the team is the larger tier', async () => {
  const {owner, toFive} = await movedToFiveThenTen();
  await team().deliver(disputeEvent(team(), toFive, 'charge.dispute.created', 'needs_response'));
  expect(await teamOf(owner)).toMatchObject({seats: 6});
  const refundsBefore = team().stripe.refundsCreated.length;
  expect((await team().deliver(disputeEvent(team(), toFive, 'charge.dispute.closed', 'won'))).status).toBe(200);
  const [row] = await team().worker.db.all<{status: string}>(
    'SELECT status FROM upgrades WHERE session_id = ?',
    toFive,
  );
  expect(row).toEqual({status: 'paid'});
  // The seller won: nothing is refunded.
  expect(team().stripe.refundsCreated.length).toBe(refundsBefore);
  expect(await teamOf(owner)).toMatchObject({seats: 10});
});

test('an earlier move to a larger tier lost to a dispute while a later one stands: the later one, credited it, is refused and refunded, and the team is the buyer alone', async () => {
  const {owner, sessionId, toFive, toTen} = await movedToFiveThenTen();
  const member = await joinedMember(owner);
  await team().deliver(disputeEvent(team(), toFive, 'charge.dispute.created', 'needs_response'));
  // Open, the dispute may yet be won: the later move stands meanwhile, nothing is refunded.
  const refundsBefore = team().stripe.refundsCreated.length;
  expect(await teamOf(owner)).toMatchObject({seats: 6});
  expect((await team().deliver(disputeEvent(team(), toFive, 'charge.dispute.closed', 'lost'))).status).toBe(200);
  const rows = await team().worker.db.all<{session_id: string; status: string; reason: string | null}>(
    'SELECT session_id, status, COALESCE(refused_reason, revoke_reason) AS reason FROM upgrades WHERE purchase_session_id = ? ORDER BY paid_at',
    sessionId,
  );
  expect(rows).toEqual([
    {session_id: toFive, status: 'revoked', reason: 'dispute lost'},
    {session_id: toTen, status: 'refused', reason: 'credited a payment taken back'},
  ]);
  // The later move's payment goes back whole; the bank took the earlier one's.
  expect(team().stripe.refundsCreated.slice(refundsBefore)).toEqual([
    expect.objectContaining({
      payment_intent: team().stripe.sessions.get(toTen)!.payment_intent,
      metadata: {upgradeSession: toTen, refusedBecause: 'credited a payment taken back'},
    }),
  ]);
  expect((await offerOf(owner)).seats).toMatchObject({seats: 1});
  // The owner is told why the later move went back, once.
  const told = team().mailgun.sent.filter(
    (mail) =>
      mail.fields.to === owner.email && mail.fields.text?.includes(UPGRADE_REFUSALS['credited a payment taken back']),
  );
  expect(told).toHaveLength(1);
  // The member's seat went with the seats, and they were told why.
  const ended = await team().worker.db.all<{state: string; end_reason: string | null}>(
    'SELECT state, end_reason FROM team_members WHERE session_id = ? AND seat = ?',
    sessionId,
    member.seat,
  );
  expect(ended).toEqual([{state: 'removed', end_reason: 'seats_refunded'}]);
  expect(team().mailgun.sent.filter((sent) => sent.fields.to === member.email).length).toBeGreaterThan(1);
  // Its own refund, when Stripe tells of it, leaves the refused move as it is.
  await team().deliver(team().stripe.refundedEvent(team().stripe.sessions.get(toTen)!.payment_intent as string));
  expect((await team().worker.db.all('SELECT status FROM upgrades WHERE session_id = ?', toTen))[0]).toEqual({
    status: 'refused',
  });
});

test('a move priced while an earlier one was disputed was not credited it: that dispute lost, the later move stands', async () => {
  const {owner} = await teamOwner(1, PRICE_ADVANCED);
  const toFive = await upgradeSessionOf(team(), owner, {...back, planId: ADVANCED.id, addSeats: 4});
  await payUpgradeOf(team(), owner, toFive);
  await team().deliver(disputeEvent(team(), toFive, 'charge.dispute.created', 'needs_response'));
  // Disputed, the move to 5 counts for nothing: the buyer alone moves to 10, credited their own payment.
  expect((await offerOf(owner)).seats?.tiers?.[1]).toEqual({
    seats: 10,
    amount: saleOf(ADVANCED, 10).amount - saleOf(ADVANCED, 1).amount,
  });
  const toTen = await upgradeSessionOf(team(), owner, {...back, planId: ADVANCED.id, addSeats: 9});
  await payUpgradeOf(team(), owner, toTen);
  const refundsBefore = team().stripe.refundsCreated.length;
  await team().deliver(disputeEvent(team(), toFive, 'charge.dispute.closed', 'lost'));
  expect(
    await team().worker.db.all(
      'SELECT status FROM upgrades WHERE session_id IN (?, ?) ORDER BY paid_at',
      toFive,
      toTen,
    ),
  ).toEqual([{status: 'revoked'}, {status: 'paid'}]);
  expect(team().stripe.refundsCreated.length).toBe(refundsBefore);
  expect(await teamOf(owner)).toMatchObject({seats: 10});
});

test('a move back from a dispute won stands only while the purchase keeps what its credit counted: a refund meanwhile refuses and refunds it', async () => {
  const {owner, sessionId} = await teamOwner(5, PRICE_ADVANCED);
  const toTen = await upgradeSessionOf(team(), owner, {...back, planId: ADVANCED.id, addSeats: 5});
  await payUpgradeOf(team(), owner, toTen);
  await team().deliver(disputeEvent(team(), toTen, 'charge.dispute.created', 'needs_response'));
  // The team's own payment partly refunded in Stripe's dashboard while the move is disputed.
  await refundAtStripe(team(), sessionId, 2000);
  const refundsBefore = team().stripe.refundsCreated.length;
  await team().deliver(disputeEvent(team(), toTen, 'charge.dispute.closed', 'won'));
  const [row] = await team().worker.db.all<{status: string; refused_reason: string | null}>(
    'SELECT status, refused_reason FROM upgrades WHERE session_id = ?',
    toTen,
  );
  expect(row).toEqual({status: 'refused', refused_reason: 'stale'});
  expect(team().stripe.refundsCreated.slice(refundsBefore)).toEqual([
    expect.objectContaining({payment_intent: team().stripe.sessions.get(toTen)!.payment_intent}),
  ]);
  expect(await teamOf(owner)).toMatchObject({seats: 5});
});

test('the console refunds a move to a larger tier only once no later move was priced on it: the later one first', async () => {
  const {owner, sessionId, toFive, toTen} = await movedToFiveThenTen();
  const admin = await seller();
  const refund = (id: string) =>
    call(admin, adminPath(ADMIN_PATHS.refund, {sessionId: id}), {reason: 'requested_by_customer', refundedBefore: 0});
  const refundsBefore = team().stripe.refundsCreated.length;
  const refused = await refund(toFive);
  expect(refused.status).toBe(409);
  expect(((await refused.json()) as {error: string}).error).toBe(CREDITED_LATER_REFUSAL);
  expect(team().stripe.refundsCreated.length).toBe(refundsBefore);
  // The later move first: the team is 5 again; then the earlier one: the buyer alone.
  expect((await refund(toTen)).status).toBe(200);
  await team().deliver(team().stripe.refundedEvent(team().stripe.sessions.get(toTen)!.payment_intent as string));
  expect(await teamOf(owner)).toMatchObject({seats: 5});
  expect((await refund(toFive)).status).toBe(200);
  await team().deliver(team().stripe.refundedEvent(team().stripe.sessions.get(toFive)!.payment_intent as string));
  expect((await offerOf(owner)).seats).toMatchObject({seats: 1});
  expect(await seatsOf(sessionId)).toBe(1);
});

test('a team moves up tier for tier: a Starter team of 5 moves to Advanced’s team of 5 for the difference, and grows from there credited both payments', async () => {
  const {owner} = await teamOwner(5, PRICE_STARTER);
  const [from, to] = [saleOf(STARTER, 5), saleOf(ADVANCED, 5)];
  expect((await offerOf(owner)).upgrades).toEqual([
    {
      planId: ADVANCED.id,
      name: ADVANCED.name,
      amount: to.amount - from.amount,
      currency: PLAN_CURRENCY,
      withoutCode: null,
    },
  ]);
  const id = await upgradeSessionOf(team(), owner, {...back, planId: ADVANCED.id});
  expect(team().stripe.created.at(-1)!.line_items).toEqual([{price: to.price.priceId.test, quantity: '1'}]);
  expect(team().stripe.sessions.get(id)!.amount_total).toBe(to.amount - from.amount);
  await payUpgradeOf(team(), owner, id);
  expect((await offerOf(owner)).plan).toEqual({id: ADVANCED.id, name: ADVANCED.name});
  expect(await teamOf(owner)).toMatchObject({seats: 5});
  // Growing after the move is credited both payments: the higher plan's team of 5 in all.
  expect((await offerOf(owner)).seats?.tiers?.[0]).toEqual({
    seats: 10,
    amount: saleOf(ADVANCED, 10).amount - to.amount,
  });
});

describe('a session made before the seller changed the plan’s prices is held to the line the worker recorded, not to the config now', () => {
  /**
   * An upgrade's session as a worker built with other prices made it: at Stripe, selling `price`
   * once; in D1, the row that worker wrote, with the line it sold (0042).
   */
  async function madeBeforeTheChange(
    owner: SignedInUser,
    purchase: string,
    sold: {price: string; seatsAdded: number; amount: number},
  ) {
    const session = team().stripe.add({
      client_reference_id: owner.uid,
      currency: PLAN_CURRENCY,
      amount_subtotal: sold.amount,
      amount_total: sold.amount,
      metadata: {
        kind: 'upgrade',
        upgradeOf: purchase,
        fromPlan: ADVANCED.id,
        toPlan: ADVANCED.id,
        amount: String(sold.amount),
        seatsAdded: String(sold.seatsAdded),
        // The stand-in's line item for a session it did not make.
        priceId: sold.price,
      },
    });
    await team().worker.db.run(
      `INSERT INTO upgrades (session_id, purchase_session_id, user_id, email, from_plan, to_plan, amount, currency,
         created_at, updated_at, seats_added, from_seats, price_id, quantity)
       VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6, ?7, ?8, ?8, ?9, 5, ?10, 1)`,
      session.id,
      purchase,
      owner.uid,
      owner.email,
      ADVANCED.id,
      sold.amount,
      PLAN_CURRENCY,
      Date.now(),
      sold.seatsAdded,
      sold.price,
    );
    return session.id;
  }
  const upgradeRow = async (id: string) =>
    (
      await team().worker.db.all<{status: string; refused_reason: string | null}>(
        'SELECT status, refused_reason FROM upgrades WHERE session_id = ?',
        id,
      )
    )[0];

  test('a move to a tier whose price id the seller has since replaced is applied at the price it was sold for', async () => {
    const {owner, sessionId} = await teamOwner(5, PRICE_ADVANCED);
    const [five, ten] = [saleOf(ADVANCED, 5), saleOf(ADVANCED, 10)];
    const id = await madeBeforeTheChange(owner, sessionId, {
      price: `${ten.price.priceId.test}Before`,
      seatsAdded: 5,
      amount: ten.amount - five.amount,
    });
    await payUpgradeOf(team(), owner, id);
    expect(await upgradeRow(id)).toEqual({status: 'paid', refused_reason: null});
    expect(await teamOf(owner)).toMatchObject({seats: 10});
  });

  test('a seat added by the seat, paid after the plan went to tiers, is refused and refunded: the team stays a tier', async () => {
    const {owner, sessionId} = await teamOwner(5, PRICE_ADVANCED);
    // The committed config sells Advanced's teams by the seat: a worker built with it priced this.
    const seatPrice = planPrices(appConfig.plans.find((plan) => plan.id === ADVANCED.id)!).find(
      (price) => price.at === 'team.seatPrice.',
    )!;
    const refundsBefore = team().stripe.refundsCreated.length;
    const id = await madeBeforeTheChange(owner, sessionId, {
      price: seatPrice.priceId.test,
      seatsAdded: 1,
      amount: seatPrice.amount,
    });
    await payUpgradeOf(team(), owner, id);
    expect(await upgradeRow(id)).toEqual({status: 'refused', refused_reason: 'seats not sold'});
    expect(team().stripe.refundsCreated.length).toBe(refundsBefore + 1);
    expect(await teamOf(owner)).toMatchObject({seats: 5});
  });

  test('a row from before the worker recorded the line is matched against the config, as before', async () => {
    const {owner} = await teamOwner(5, PRICE_ADVANCED);
    const id = await upgradeSessionOf(team(), owner, {...back, planId: ADVANCED.id, addSeats: 5});
    expect(await team().worker.db.all('SELECT price_id, quantity FROM upgrades WHERE session_id = ?', id)).toEqual([
      {price_id: saleOf(ADVANCED, 10).price.priceId.test, quantity: 1},
    ]);
    await team().worker.db.run('UPDATE upgrades SET price_id = NULL, quantity = NULL WHERE session_id = ?', id);
    await payUpgradeOf(team(), owner, id);
    expect(await teamOf(owner)).toMatchObject({seats: 10});
  });
});

test('a tier’s seats go back only together: the console offers no seat refund and says why, and the worker refuses one', async () => {
  const {sessionId} = await teamOwner(5, PRICE_ADVANCED);
  const admin = await seller();
  const detail = (await (
    await call(admin, adminPath(ADMIN_PATHS.purchase, {sessionId}))
  ).json()) as AdminPurchaseDetail;
  expect(detail.seatRefund).toEqual({
    most: 0,
    keeps: 5,
    refunded: 0,
    paid: saleOf(ADVANCED, 5).amount,
    bought: 5,
    held: 0,
  });
  const refundsBefore = team().stripe.refundsCreated.length;
  const refused = await call(admin, adminPath(ADMIN_PATHS.refund, {sessionId}), {
    reason: 'requested_by_customer',
    seats: 1,
    refundedBefore: 0,
  });
  expect(refused.status).toBe(409);
  expect(((await refused.json()) as {error: string}).error).toContain(seatsKeptWords(5, ADVANCED));
  expect(seatsKeptWords(5, ADVANCED)).toBe('a team of 5 is sold as one price, so its seats go back only together');
  expect(team().stripe.refundsCreated.length).toBe(refundsBefore);
  expect(await seatsOf(sessionId)).toBe(5);
});
