/**
 * A team grows and moves up (issue 41), in workerd on the team stack: seats added later for the
 * price of the seats alone, a team moved to a higher plan for the difference times its seats, both
 * priced by the worker from its own records; and a refund of seats added takes those seats away
 * again, their members told why, the team's other seats untouched.
 */
import {
  CREDITED_LATER_REFUSAL,
  findPlanByPriceId,
  planAmount,
  seatPriceOf,
  PLAN_CURRENCY,
  seatEndedBecause,
  seatsKeptWords,
  TEAM_SEATS_REFUNDED_REASON,
  TEAM_SELLER_REASON,
  TEAM_WORDS,
  upgradeAmount,
  upgradeAmountFor,
} from '../../src/config';
import {
  ADMIN_PATHS,
  adminPath,
  type AdminPurchaseDetail,
  API_PATHS,
  type BuyerPlan,
  type BuyerReceipts,
} from '../../src/config/api';
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
import {TEAM_ADMIN, TEAM_MAX, useTeamStack} from './teamStack';

const ADVANCED = findPlanByPriceId(PRICE_ADVANCED)!;
const STARTER = findPlanByPriceId(PRICE_STARTER)!;

const team = useTeamStack();
const {
  accessStatus,
  call,
  githubAccount,
  joinedMember,
  kitInvitations,
  linkSentTo,
  requestAccess,
  seatGrants,
  teamOf,
  teamOwner,
} = teamActs(team);

const back = {successUrl: `${SITE_ORIGIN}/dashboard`, cancelUrl: `${SITE_ORIGIN}/dashboard`};
const offerOf = async (owner: SignedInUser) => (await (await call(owner, API_PATHS.upgrades)).json()) as BuyerPlan;
const ask = (owner: SignedInUser, body: Record<string, unknown>) =>
  call(owner, API_PATHS.createUpgradeSession, {...back, ...body});
/** The owner asks for, and pays, the worker's session for `body`: its id. */
async function paid(owner: SignedInUser, body: Record<string, unknown>): Promise<string> {
  const id = await upgradeSessionOf(team(), owner, {...back, ...body});
  await payUpgradeOf(team(), owner, id);
  return id;
}
/** The seller, signed up once for the file. */
let sellerSignedUp: Promise<SignedInUser> | undefined;
const seller = () => (sellerSignedUp ??= team().signUp({email: TEAM_ADMIN, verified: true}));
const upgradeRow = async (sessionId: string) =>
  (
    await team().worker.db.all<{status: string; refused_reason: string | null; seats_added: number}>(
      'SELECT status, refused_reason, seats_added FROM upgrades WHERE session_id = ?',
      sessionId,
    )
  )[0];

describe('seats added later', () => {
  test('cost the team’s price for each seat alone; once paid the team has them, the owner gives them, and receipts and the seller name them', async () => {
    const {owner} = await teamOwner(3);
    // The committed config sells Advanced's team seats at a price of their own.
    const perSeat = ADVANCED.team!.seatPrice!;
    expect((await offerOf(owner)).seats).toEqual({
      seats: 3,
      most: TEAM_MAX,
      perSeat: perSeat.price * 100,
      tiers: null,
      currency: PLAN_CURRENCY,
    });
    // An amount or a seat count for the whole team sent along is no part of the price.
    const id = await upgradeSessionOf(team(), owner, {
      ...back,
      planId: ADVANCED.id,
      addSeats: 2,
      amount: 1,
      seats: 50,
    });
    const made = team().stripe.created.at(-1)!;
    expect(made.line_items).toEqual([{price: perSeat.priceId.test, quantity: '2'}]);
    // At the list price nothing is taken off: no credit coupon in the seller's account.
    expect(made.discounts).toBeUndefined();
    expect(team().stripe.sessions.get(id)!.amount_total).toBe(perSeat.price * 100 * 2);
    await payUpgradeOf(team(), owner, id);

    expect(await teamOf(owner)).toMatchObject({seats: 5, free: 4});
    expect(await accessStatus(owner)).toMatchObject({seats: 5});
    const dev = githubAccount();
    expect(await (await call(owner, API_PATHS.addTeamMember, {username: dev.login})).json()).toMatchObject({seat: 2});
    // Added again (no limit of one per plan, as a move up has): 6 seats.
    await paid(owner, {planId: ADVANCED.id, addSeats: 1});
    expect(await teamOf(owner)).toMatchObject({seats: 6, free: 4});
    // The plan stays what it was: seats move no plan.
    expect((await offerOf(owner)).plan).toEqual({id: ADVANCED.id, name: ADVANCED.name});

    const thanks = team().mailgun.sent.find(
      (mail) => mail.fields.to === owner.email && /now has 5 seats/.test(mail.fields.subject ?? ''),
    );
    expect(thanks?.fields.text).toContain('Your team');
    const sale = team().mailgun.sent.find((mail) => mail.fields.text?.includes(`${owner.email} added seats`));
    expect(sale?.fields.subject).toContain(`2 more seats: ${ADVANCED.name}`);
    const {receipts} = (await (await call(owner, API_PATHS.receipts)).json()) as BuyerReceipts;
    expect(receipts.map((receipt) => receipt.plan)).toEqual(
      expect.arrayContaining([`2 more seats: ${ADVANCED.name}`, `1 more seat: ${ADVANCED.name}`]),
    );
  });

  test.each([
    ['more than the plan sells', {addSeats: TEAM_MAX - 2}, 409, TEAM_WORDS.seatsOverMost(ADVANCED.name, TEAM_MAX, 3)],
    ['no seat', {addSeats: 0}, 400, 'addSeats must be at least 1'],
    ['part of a seat', {addSeats: 1.5}, 400, 'addSeats must be a whole number'],
    [
      'seats of another plan than the one held',
      {planId: STARTER.id, addSeats: 1},
      409,
      `Your purchase is ${ADVANCED.name}: seats are added to the plan you hold.`,
    ],
  ])('%s is refused in words, and Stripe is never asked', async (_, body, status, words) => {
    const {owner} = await teamOwner(3);
    const before = team().stripe.created.length;
    const response = await ask(owner, {planId: ADVANCED.id, ...body});
    expect(response.status).toBe(status);
    expect(((await response.json()) as {error: string}).error).toContain(words);
    expect(team().stripe.created.length).toBe(before);
  });

  test('two tabs, each within the plan’s most, both paid: the first is applied, the second refused as too many seats and refunded at once', async () => {
    const {owner} = await teamOwner(3);
    const first = await upgradeSessionOf(team(), owner, {...back, planId: ADVANCED.id, addSeats: TEAM_MAX - 3});
    // The other tab asks for fewer: a session of its own.
    const second = await upgradeSessionOf(team(), owner, {...back, planId: ADVANCED.id, addSeats: 2});
    const refundsBefore = team().stripe.refundsCreated.length;
    await payUpgradeOf(team(), owner, first);
    await payUpgradeOf(team(), owner, second);
    expect(await upgradeRow(first)).toMatchObject({status: 'paid'});
    expect(await upgradeRow(second)).toMatchObject({status: 'refused', refused_reason: 'too many seats'});
    expect(team().stripe.refundsCreated.slice(refundsBefore)).toHaveLength(1);
    expect(await teamOf(owner)).toMatchObject({seats: TEAM_MAX});
  });

  test('a one-seat buyer of a plan sold for teams adds seats and becomes a team', async () => {
    const {owner} = await teamOwner(1);
    expect((await call(owner, API_PATHS.team)).status).toBe(404);
    await paid(owner, {planId: ADVANCED.id, addSeats: 2});
    expect(await teamOf(owner)).toMatchObject({seats: 3, free: 2});
  });
});

describe('a refund of seats added', () => {
  test('takes them away: the newest members lose their access and are told why; the team’s other seats keep theirs', async () => {
    const {owner, sessionId} = await teamOwner(2);
    const first = await joinedMember(owner);
    expect(first.seat).toBe(2);
    const firstAccount = githubAccount();
    expect(
      (await call(first.member, API_PATHS.addUserToRepo, {username: firstAccount.login, userId: first.member.uid}))
        .status,
    ).toBe(200);

    const added = await paid(owner, {planId: ADVANCED.id, addSeats: 2});
    const later = await joinedMember(owner);
    const laterAccount = githubAccount();
    expect(
      (await call(later.member, API_PATHS.addUserToRepo, {username: laterAccount.login, userId: later.member.uid}))
        .status,
    ).toBe(200);
    const named = githubAccount();
    await call(owner, API_PATHS.addTeamMember, {username: named.login});
    expect(kitInvitations(laterAccount.id)).toHaveLength(1);
    expect(kitInvitations(named.id)).toHaveLength(1);

    await refundAtStripe(team(), added);
    expect(await upgradeRow(added)).toMatchObject({status: 'revoked'});
    expect(await teamOf(owner)).toMatchObject({seats: 2, free: 0, members: [{seat: 2, email: first.email}]});
    // Seats 3 and 4 are taken back on GitHub, in the words their grants record.
    expect(kitInvitations(laterAccount.id)).toEqual([]);
    expect(kitInvitations(named.id)).toEqual([]);
    expect((await seatGrants(sessionId, 3))[0]).toMatchObject({status: 'revoked', detail: TEAM_SEATS_REFUNDED_REASON});
    expect((await seatGrants(sessionId, 4))[0]).toMatchObject({status: 'revoked', detail: TEAM_SEATS_REFUNDED_REASON});
    // Seat 2, bought with the team, keeps its access.
    expect(kitInvitations(firstAccount.id)).toHaveLength(1);
    expect((await seatGrants(sessionId, 2))[0]).toMatchObject({status: 'pending'});

    // The member who joined by e-mail is told why, and their dashboard says it in the same words.
    const told = team().mailgun.sent.filter(
      (mail) => mail.fields.to === later.email && /has ended/.test(mail.fields.subject ?? ''),
    );
    expect(told).toHaveLength(1);
    expect(told[0]!.fields.text).toContain(seatEndedBecause(owner.email, 'seats_refunded'));
    const status = await accessStatus(later.member);
    expect(status.teamEnded).toEqual({owner: owner.email, reason: 'seats_refunded'});
    // Stripe's event again: nothing more happens, no second e-mail.
    await team().deliver(team().stripe.refundedEvent(team().stripe.sessions.get(added)!.payment_intent as string));
    expect(
      team().mailgun.sent.filter(
        (mail) => mail.fields.to === later.email && /has ended/.test(mail.fields.subject ?? ''),
      ),
    ).toHaveLength(1);
  });

  test('only as many members as are past the count lose their seats, the newest: a seat the owner freed before counts', async () => {
    const {owner} = await teamOwner(3);
    const added = await paid(owner, {planId: ADVANCED.id, addSeats: 2});
    const accounts = [githubAccount(), githubAccount(), githubAccount(), githubAccount()];
    for (const account of accounts) await call(owner, API_PATHS.addTeamMember, {username: account.login});
    expect((await teamOf(owner)).members.map((member) => member.seat)).toEqual([2, 3, 4, 5]);
    expect((await call(owner, API_PATHS.removeTeamMember, {seat: 2})).status).toBe(200);

    await refundAtStripe(team(), added);
    // 3 seats: the owner's and two members'. Of the three members, the newest goes.
    const after = await teamOf(owner);
    expect(after).toMatchObject({seats: 3, free: 0});
    expect(after.members.map((member) => member.username)).toEqual([accounts[1]!.login, accounts[2]!.login]);
    expect(kitInvitations(accounts[3]!.id)).toEqual([]);
    expect(kitInvitations(accounts[1]!.id)).toHaveLength(1);
    // Full: a seat is given only once one is free, whatever its number.
    expect((await call(owner, API_PATHS.addTeamMember, {username: githubAccount().login})).status).toBe(409);
    await call(owner, API_PATHS.removeTeamMember, {seat: 3});
    expect(await (await call(owner, API_PATHS.addTeamMember, {username: githubAccount().login})).json()).toMatchObject({
      seat: 2,
    });
  });
});

describe('a refund of some of the team’s seats, from the console', () => {
  // Teams of Starter, sold for teams at the plan's price: the buyer keeps their own seat alone.
  const refund = (admin: SignedInUser, sessionId: string, body: Record<string, unknown>) =>
    call(admin, adminPath(ADMIN_PATHS.refund, {sessionId}), {reason: 'requested_by_customer', ...body});
  const detailOf = async (admin: SignedInUser, sessionId: string) =>
    (await (await call(admin, adminPath(ADMIN_PATHS.purchase, {sessionId}))).json()) as AdminPurchaseDetail;
  const endedMail = (email: string) =>
    team().mailgun.sent.filter((mail) => mail.fields.to === email && /has ended/.test(mail.fields.subject ?? ''));

  test('gives back what the team paid for each seat, priced by the worker; the member the seller picks and then the newest lose their seats, each told why, and the rest keep theirs', async () => {
    const {owner, sessionId} = await teamOwner(4, PRICE_STARTER);
    const picked = await joinedMember(owner);
    const kept = await joinedMember(owner);
    const newest = await joinedMember(owner);
    const admin = await seller();
    const perSeat = planAmount(STARTER);
    expect((await detailOf(admin, sessionId)).seatRefund).toEqual({
      most: 3,
      keeps: 1,
      refunded: 0,
      paid: 4 * perSeat,
      bought: 4,
      held: 3,
    });

    const refundsBefore = team().stripe.refundsCreated.length;
    // An amount sent along is refused: the worker prices seats itself.
    const priced = await refund(admin, sessionId, {seats: 2, amount: 1, refundedBefore: 0});
    expect(priced.status).toBe(400);
    expect(await priced.text()).toContain('the worker prices seats itself');
    // The member is named by their own record, as the console lists them.
    const pickedId = (await detailOf(admin, sessionId)).members.find((member) => member.seat === picked.seat)!.id;
    const answer = await refund(admin, sessionId, {seats: 2, members: [pickedId], refundedBefore: 0});
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({
      status: 'seats_refunded',
      detail: expect.stringMatching(
        /^\S+ refunded for 2 seats \(requested by customer; Stripe re_\w+\); the team has 2 seats now, and 2 members lost theirs, each told why by e-mail$/,
      ),
    });
    expect(team().stripe.refundsCreated.slice(refundsBefore)).toEqual([
      expect.objectContaining({amount: String(2 * perSeat), metadata: expect.objectContaining({seats_refunded: '2'})}),
    ]);

    // The team has 2 seats: the owner's and the one member's not picked and not the newest.
    expect(await teamOf(owner)).toMatchObject({seats: 2, free: 0, members: [{seat: kept.seat, email: kept.email}]});
    for (const gone of [picked, newest]) {
      expect(endedMail(gone.email)).toHaveLength(1);
      expect(endedMail(gone.email)[0]!.fields.text).toContain(seatEndedBecause(owner.email, 'seats_refunded'));
      expect((await accessStatus(gone.member)).teamEnded).toEqual({owner: owner.email, reason: 'seats_refunded'});
    }
    expect(endedMail(kept.email)).toEqual([]);
    // The purchase stays paid: the owner and the member kept have access, Stripe's event changes nothing.
    await team().deliver(team().stripe.refundedEvent(team().stripe.sessions.get(sessionId)!.payment_intent as string));
    expect((await accessStatus(owner)).hasPaid).toBe(true);
    const keptStatus = await accessStatus(kept.member);
    expect(keptStatus.hasPaid).toBe(true);
    expect(keptStatus.teamEnded).toBeUndefined();
    expect(await teamOf(owner)).toMatchObject({seats: 2});
    const after = await detailOf(admin, sessionId);
    expect(after).toMatchObject({state: 'paid', seats: 2, amountRefunded: 2 * perSeat});
    expect(after.seatRefund).toEqual({most: 1, keeps: 1, refunded: 2, paid: 4 * perSeat, bought: 4, held: 1});

    // The same refund asked again, on the page as it was: no second refund, the seats as they are.
    const again = await refund(admin, sessionId, {seats: 2, refundedBefore: 0});
    expect(again.status).toBe(409);
    expect(team().stripe.refundsCreated.length).toBe(refundsBefore + 1);
    expect(await teamOf(owner)).toMatchObject({seats: 2});
  });

  test.each([
    ['a member picked who holds no seat of the team', 1, 'unknown', 'no longer holds a seat of this team'],
    ['more members picked than lose their seats', 1, 'member', 'no member loses theirs'],
    ['more seats than the team may give back', 3, 'none', 'At most 2 seats'],
  ] as const)('%s is refused in words, and nothing is refunded', async (_, seats, pick, words) => {
    const {owner, sessionId} = await teamOwner(3, PRICE_STARTER);
    await joinedMember(owner);
    const admin = await seller();
    const memberId = (await detailOf(admin, sessionId)).members[0]!.id;
    const members = pick === 'unknown' ? [memberId + 100_000] : pick === 'member' ? [memberId] : undefined;
    const refundsBefore = team().stripe.refundsCreated.length;
    const answer = await refund(admin, sessionId, {seats, refundedBefore: 0, ...(members && {members})});
    expect(answer.status).toBe(409);
    expect(await answer.text()).toContain(words);
    expect(team().stripe.refundsCreated.length).toBe(refundsBefore);
    expect(await teamOf(owner)).toMatchObject({seats: 3, free: 1});
  });

  test('the offer counts a seat whose take-back has not reached GitHub as taken, as the refund does', async () => {
    const {owner, sessionId} = await teamOwner(4, PRICE_STARTER);
    const stuck = await joinedMember(owner);
    await joinedMember(owner);
    const account = githubAccount();
    expect((await requestAccess(stuck.member, account.login)).status).toBe(200);
    expect((await call(owner, API_PATHS.removeTeamMember, {seat: stuck.seat})).status).toBe(200);
    const admin = await seller();
    expect((await detailOf(admin, sessionId)).seatRefund).toMatchObject({held: 1});
    // GitHub did not take the account off: the seat stays taken until it does.
    await team().worker.db.run(
      `UPDATE grants SET status = 'removal_failed' WHERE session_id = ?1 AND seat = ?2`,
      sessionId,
      stuck.seat,
    );
    expect((await detailOf(admin, sessionId)).seatRefund).toMatchObject({held: 2});
    expect(await teamOf(owner)).toMatchObject({free: 1});
  });

  test('a member picked on a page read before their seat changed hands is refused, never the member now on that seat', async () => {
    const {owner, sessionId} = await teamOwner(3, PRICE_STARTER);
    const first = await joinedMember(owner);
    const admin = await seller();
    const read = (await detailOf(admin, sessionId)).members.find((member) => member.seat === first.seat)!;
    // The owner removes them, and gives the seat to someone else: the same seat number.
    expect((await call(owner, API_PATHS.removeTeamMember, {seat: first.seat})).status).toBe(200);
    const next = await joinedMember(owner);
    expect(next.seat).toBe(first.seat);
    const answer = await refund(admin, sessionId, {seats: 2, members: [read.id], refundedBefore: 0});
    expect(answer.status).toBe(409);
    expect(await answer.text()).toContain('no longer holds a seat of this team');
    expect(await teamOf(owner)).toMatchObject({seats: 3, members: [{seat: next.seat, email: next.email}]});
  });

  test('a seat refund D1 missed is found at Stripe before seats are offered again: never paid twice, and its members go', async () => {
    const {owner, sessionId} = await teamOwner(4, PRICE_STARTER);
    await joinedMember(owner);
    await joinedMember(owner);
    const newest = await joinedMember(owner);
    const admin = await seller();
    expect((await refund(admin, sessionId, {seats: 1, refundedBefore: 0})).status).toBe(200);
    // As if the worker had stopped between Stripe's answer and D1: the seats' row is gone, and the
    // newest member still holds the seat.
    await team().worker.db.run('DELETE FROM seat_refunds WHERE session_id = ?', sessionId);
    await team().worker.db.run(
      `UPDATE team_members SET state = 'joined', end_reason = NULL WHERE session_id = ? AND email = ?`,
      sessionId,
      newest.email,
    );
    const refundsBefore = team().stripe.refundsCreated.length;
    const perSeat = planAmount(STARTER);
    // The seller reads the page again (Stripe's figure) and asks for the 3 seats it would show.
    const again = await refund(admin, sessionId, {seats: 3, refundedBefore: perSeat});
    expect(again.status).toBe(409);
    expect(await again.text()).toContain('At most 2 seats');
    expect(team().stripe.refundsCreated.length).toBe(refundsBefore);
    expect((await detailOf(admin, sessionId)).seatRefund).toMatchObject({most: 2, refunded: 1});
    expect(await teamOf(owner)).toMatchObject({seats: 3, free: 0});
    expect((await accessStatus(newest.member)).teamEnded).toEqual({owner: owner.email, reason: 'seats_refunded'});
  });

  test('a seat refund whose request stopped after Stripe refunded is settled by the cron once the request is long over: the member picked goes, told why', async () => {
    const {owner, sessionId} = await teamOwner(3, PRICE_STARTER);
    const picked = await joinedMember(owner);
    const newest = await joinedMember(owner);
    const admin = await seller();
    const pickedId = (await detailOf(admin, sessionId)).members.find((member) => member.seat === picked.seat)!.id;
    expect((await refund(admin, sessionId, {seats: 1, members: [pickedId], refundedBefore: 0})).status).toBe(200);
    // As if the request had stopped between Stripe's answer and D1: no seats' row, the member picked
    // still on, and never told.
    await team().worker.db.run('DELETE FROM seat_refunds WHERE session_id = ?', sessionId);
    await team().worker.db.run("DELETE FROM jobs WHERE session_id = ? AND key LIKE '%team-removed:%'", sessionId);
    await team().worker.db.run(
      `UPDATE team_members SET state = 'joined', end_reason = NULL WHERE session_id = ? AND email = ?`,
      sessionId,
      picked.email,
    );
    const settle = async () =>
      (
        await team().worker.db.all<{run_after: number; status: string}>(
          "SELECT run_after, status FROM jobs WHERE kind = 'team-seats' AND session_id = ?",
          sessionId,
        )
      )[0]!;
    // Due a quarter of an hour on: the cron before then leaves the request's own work alone.
    expect((await settle()).run_after).toBeGreaterThan(Date.now() + 14 * 60_000);
    await team().worker.scheduled();
    expect(await teamOf(owner)).toMatchObject({seats: 3});
    expect((await detailOf(admin, sessionId)).history).toContainEqual(
      expect.objectContaining({
        kind: 'removal',
        summary: 'Seats settled after a refund of seats (its members past the count)',
        status: 'pending',
      }),
    );
    const toldBefore = endedMail(picked.email).length;

    await team().worker.db.run("UPDATE jobs SET run_after = 0 WHERE kind = 'team-seats' AND session_id = ?", sessionId);
    await team().worker.scheduled();
    expect(await settle()).toMatchObject({status: 'done'});
    // The member the seller picked goes, not the newest.
    expect(await teamOf(owner)).toMatchObject({seats: 2, free: 0, members: [{seat: newest.seat, email: newest.email}]});
    expect((await accessStatus(picked.member)).teamEnded).toEqual({owner: owner.email, reason: 'seats_refunded'});
    expect(endedMail(picked.email)).toHaveLength(toldBefore + 1);
    expect(endedMail(newest.email)).toEqual([]);
    expect((await detailOf(admin, sessionId)).seatRefund).toMatchObject({refunded: 1, held: 1});
  });

  test('a seat refund Stripe refused leaves its settling job nothing to do, and the same seats asked again get one of their own', async () => {
    const {owner, sessionId} = await teamOwner(3, PRICE_STARTER);
    await joinedMember(owner);
    await joinedMember(owner);
    const admin = await seller();
    team().stripe.failNext('POST /v1/refunds', 402, {type: 'card_error', message: 'Refund declined'});
    expect((await refund(admin, sessionId, {seats: 1, refundedBefore: 0})).status).toBeGreaterThanOrEqual(400);
    expect((await refund(admin, sessionId, {seats: 1, refundedBefore: 0})).status).toBe(200);
    const jobs = () =>
      team().worker.db.all<{status: string}>(
        "SELECT status FROM jobs WHERE kind = 'team-seats' AND session_id = ?",
        sessionId,
      );
    expect(await jobs()).toHaveLength(2);
    await team().worker.db.run("UPDATE jobs SET run_after = 0 WHERE kind = 'team-seats' AND session_id = ?", sessionId);
    await team().worker.scheduled();
    expect(await jobs()).toEqual([{status: 'done'}, {status: 'done'}]);
    // One seat refunded, one member off: the settling ended nobody more.
    expect(await teamOf(owner)).toMatchObject({seats: 2, free: 0, members: [expect.anything()]});
  });

  test('a seat refund Stripe did not pay out after all gives the seats back, empty', async () => {
    const {owner, sessionId} = await teamOwner(3, PRICE_STARTER);
    await joinedMember(owner);
    const admin = await seller();
    expect((await refund(admin, sessionId, {seats: 2, refundedBefore: 0})).status).toBe(200);
    // One seat, the buyer's own, is no team: its member is off.
    expect((await detailOf(admin, sessionId)).seats).toBe(1);
    const made = (
      await team().worker.db.all<{refund_id: string}>(
        'SELECT refund_id FROM seat_refunds WHERE session_id = ?',
        sessionId,
      )
    )[0]!;
    expect((await team().deliver(team().stripe.failRefund(made.refund_id))).status).toBe(200);
    expect(await teamOf(owner)).toMatchObject({seats: 3, free: 2, members: []});
    expect((await detailOf(admin, sessionId)).seatRefund).toMatchObject({most: 2, refunded: 0});
  });

  test('a team that moved up is refused a seat refund in words: each seat was paid in two payments', async () => {
    const {owner, sessionId} = await teamOwner(3, PRICE_STARTER);
    await paid(owner, {planId: ADVANCED.id});
    const admin = await seller();
    expect((await detailOf(admin, sessionId)).seatRefund).toBeNull();
    const refundsBefore = team().stripe.refundsCreated.length;
    const answer = await refund(admin, sessionId, {seats: 1, refundedBefore: 0});
    expect(answer.status).toBe(409);
    expect(await answer.text()).toContain('refund the move from its row first');
    expect(team().stripe.refundsCreated.length).toBe(refundsBefore);
  });

  test('a purchase of one seat, or an upgrade’s own session, has no seats to refund', async () => {
    const {owner, sessionId} = await teamOwner(1);
    const added = await paid(owner, {planId: ADVANCED.id, addSeats: 1});
    const admin = await seller();
    expect((await detailOf(admin, sessionId)).seatRefund).toBeNull();
    for (const session of [sessionId, added]) {
      const answer = await refund(admin, session, {seats: 1, refundedBefore: 0});
      expect(answer.status).toBe(409);
    }
    expect(await (await refund(admin, added, {seats: 1, refundedBefore: 0})).text()).toContain(
      'An upgrade that added seats is refunded whole from its row',
    );
  });

  test('a team bought at a team’s price keeps 2 seats: one seat left at that price would be the plan for less, so a seat refund stops there', async () => {
    const {sessionId} = await teamOwner(3);
    const admin = await seller();
    const perSeat = seatPriceOf(ADVANCED, 3).amount;
    expect(perSeat).toBeLessThan(planAmount(ADVANCED));
    const offer = {keeps: 2, paid: 3 * perSeat, bought: 3, held: 0};
    expect((await detailOf(admin, sessionId)).seatRefund).toEqual({...offer, most: 1, refunded: 0});
    const refundsBefore = team().stripe.refundsCreated.length;
    const tooMany = await refund(admin, sessionId, {seats: 2, refundedBefore: 0});
    expect(tooMany.status).toBe(409);
    expect(await tooMany.text()).toContain(
      `At most 1 seat of this purchase can be refunded (${seatsKeptWords(2, ADVANCED)})`,
    );
    expect(team().stripe.refundsCreated).toHaveLength(refundsBefore);
    expect((await refund(admin, sessionId, {seats: 1, refundedBefore: 0})).status).toBe(200);
    expect(team().stripe.refundsCreated.slice(refundsBefore)).toEqual([
      expect.objectContaining({amount: String(perSeat)}),
    ]);
    expect((await detailOf(admin, sessionId)).seatRefund).toEqual({...offer, most: 0, refunded: 1});
    const past = await refund(admin, sessionId, {seats: 1, refundedBefore: perSeat});
    expect(past.status).toBe(409);
    expect(await past.text()).toContain(
      `No seat of this purchase can be refunded by itself (${seatsKeptWords(2, ADVANCED)})`,
    );
  });
});

describe('a dispute of seats added', () => {
  const dispute = (
    sessionId: string,
    type: 'charge.dispute.created' | 'charge.dispute.closed',
    status: 'needs_response' | 'won',
  ) => team().deliver(disputeEvent(team(), sessionId, type, status));

  test('won with nothing changed since: the seats come back, empty for the owner to give', async () => {
    const {owner} = await teamOwner(3);
    const added = await paid(owner, {planId: ADVANCED.id, addSeats: 2});
    expect((await dispute(added, 'charge.dispute.created', 'needs_response')).status).toBe(200);
    expect(await teamOf(owner)).toMatchObject({seats: 3});
    expect((await dispute(added, 'charge.dispute.closed', 'won')).status).toBe(200);
    expect(await upgradeRow(added)).toMatchObject({status: 'paid'});
    expect(await teamOf(owner)).toMatchObject({seats: 5, free: 4});
  });

  test('won after other seats were added, within the plan’s most: it stands, and the team has every seat it paid for', async () => {
    const {owner} = await teamOwner(3);
    const first = await paid(owner, {planId: ADVANCED.id, addSeats: 2});
    const second = await paid(owner, {planId: ADVANCED.id, addSeats: 2});
    await dispute(first, 'charge.dispute.created', 'needs_response');
    expect(await teamOf(owner)).toMatchObject({seats: 5});
    await dispute(first, 'charge.dispute.closed', 'won');
    expect(await upgradeRow(first)).toMatchObject({status: 'paid'});
    expect(await upgradeRow(second)).toMatchObject({status: 'paid'});
    expect(await teamOf(owner)).toMatchObject({seats: 7});
  });

  test('won while the purchase itself is disputed: it waits, neither applied nor refunded, and stands once the purchase’s dispute is won', async () => {
    const {owner, sessionId} = await teamOwner(3, PRICE_STARTER);
    const move = await paid(owner, {planId: ADVANCED.id});
    const refundsBefore = team().stripe.refundsCreated.length;
    await dispute(sessionId, 'charge.dispute.created', 'needs_response');
    await dispute(move, 'charge.dispute.created', 'needs_response');
    await dispute(move, 'charge.dispute.closed', 'won');
    expect(await upgradeRow(move)).toMatchObject({status: 'revoked'});
    await dispute(sessionId, 'charge.dispute.closed', 'won');
    expect(await upgradeRow(move)).toMatchObject({status: 'paid'});
    expect(await offerOf(owner)).toMatchObject({plan: {id: ADVANCED.id}, seats: {seats: 3}});
    expect(team().stripe.refundsCreated.length).toBe(refundsBefore);
  });

  test('won after the team bought seats again, or moved up: it is refused and refunded, never seats past what was paid for', async () => {
    const {owner} = await teamOwner(3);
    const first = await paid(owner, {planId: ADVANCED.id, addSeats: TEAM_MAX - 3});
    await dispute(first, 'charge.dispute.created', 'needs_response');
    const again = await paid(owner, {planId: ADVANCED.id, addSeats: TEAM_MAX - 3});
    const refundsBefore = team().stripe.refundsCreated.length;
    expect((await dispute(first, 'charge.dispute.closed', 'won')).status).toBe(200);
    expect(await upgradeRow(first)).toMatchObject({status: 'refused', refused_reason: 'stale'});
    expect(team().stripe.refundsCreated.slice(refundsBefore)).toHaveLength(1);
    expect(await teamOf(owner)).toMatchObject({seats: TEAM_MAX});
    expect(await upgradeRow(again)).toMatchObject({status: 'paid'});

    // A Starter team: seats added and disputed, the team moved up meanwhile: the seats, priced at
    // Starter, do not come back on Advanced.
    const {owner: lead} = await teamOwner(3, PRICE_STARTER);
    const seats = await paid(lead, {planId: STARTER.id, addSeats: 2});
    await dispute(seats, 'charge.dispute.created', 'needs_response');
    await paid(lead, {planId: ADVANCED.id});
    await dispute(seats, 'charge.dispute.closed', 'won');
    expect(await upgradeRow(seats)).toMatchObject({status: 'refused', refused_reason: 'stale'});
    expect(await offerOf(lead)).toMatchObject({plan: {id: ADVANCED.id}, seats: {seats: 3}});
  });
});

describe('a team moved to a higher plan', () => {
  test('pays the difference for every seat, once, and every seat holds the higher plan', async () => {
    const {owner} = await teamOwner(3, PRICE_STARTER);
    // Each seat moves from Starter's price (sold for teams at the plan's) to Advanced's team price.
    const difference = upgradeAmount(STARTER, ADVANCED, 3);
    expect(difference).toBe((seatPriceOf(ADVANCED, 3).amount - planAmount(STARTER)) * 3);
    expect((await offerOf(owner)).upgrades).toEqual([
      {planId: ADVANCED.id, name: ADVANCED.name, amount: difference, currency: PLAN_CURRENCY, withoutCode: null},
    ]);
    const id = await upgradeSessionOf(team(), owner, {...back, planId: ADVANCED.id});
    const made = team().stripe.created.at(-1)!;
    expect(made.line_items).toEqual([{price: ADVANCED.team!.seatPrice!.priceId.test, quantity: '3'}]);
    expect(team().stripe.sessions.get(id)!.amount_total).toBe(difference);
    await payUpgradeOf(team(), owner, id);
    expect(await offerOf(owner)).toMatchObject({plan: {id: ADVANCED.id}, seats: {seats: 3, most: TEAM_MAX}});
    const sale = team().mailgun.sent.find((mail) => mail.fields.text?.includes(`${owner.email} upgraded`));
    expect(sale?.fields.subject).toContain(`Upgrade: ${STARTER.name} → ${ADVANCED.name}, 3 seats`);
  });

  test('a move priced for 3 seats, paid after a seat was added, is refused as stale and refunded: the whole team would not have been paid for', async () => {
    const {owner} = await teamOwner(3, PRICE_STARTER);
    const move = await upgradeSessionOf(team(), owner, {...back, planId: ADVANCED.id});
    await paid(owner, {planId: STARTER.id, addSeats: 1});
    const refundsBefore = team().stripe.refundsCreated.length;
    await payUpgradeOf(team(), owner, move);
    expect(await upgradeRow(move)).toMatchObject({status: 'refused', refused_reason: 'stale'});
    expect(team().stripe.refundsCreated.slice(refundsBefore)).toHaveLength(1);
    // Asked again, it is priced for the 4 seats.
    expect((await offerOf(owner)).upgrades[0]!.amount).toBe(upgradeAmount(STARTER, ADVANCED, 4));
  });

  test('a move credited seats added: the console refunds the move first; the seats refunded in Stripe’s dashboard instead refuse and refund the move too', async () => {
    const {owner, sessionId} = await teamOwner(3, PRICE_STARTER);
    const seats = await paid(owner, {planId: STARTER.id, addSeats: 2});
    // The move is credited both payments, the team's and its seats', for its 5 seats.
    const charged = (id: string) => team().stripe.sessions.get(id)!.amount_total!;
    expect((await offerOf(owner)).upgrades[0]!.amount).toBe(
      upgradeAmountFor(
        STARTER,
        ADVANCED,
        {paid: charged(sessionId) + charged(seats), refunded: 0, percentOff: null},
        5,
      ),
    );
    const move = await paid(owner, {planId: ADVANCED.id});
    const admin = await seller();
    const refused = await call(admin, adminPath(ADMIN_PATHS.refund, {sessionId: seats}), {
      reason: 'requested_by_customer',
      refundedBefore: 0,
    });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as {error: string}).error).toBe(CREDITED_LATER_REFUSAL);
    // Refunded where the console cannot stop it: the move was priced on those seats and their payment.
    const refundsBefore = team().stripe.refundsCreated.length;
    await refundAtStripe(team(), seats);
    expect(await upgradeRow(seats)).toMatchObject({status: 'revoked'});
    expect(await upgradeRow(move)).toMatchObject({status: 'refused', refused_reason: 'credited a payment taken back'});
    // The seller's own refund of the seats, then the worker's of the move.
    expect(team().stripe.refundsCreated.slice(refundsBefore)).toEqual([
      expect.objectContaining({payment_intent: team().stripe.sessions.get(seats)!.payment_intent}),
      expect.objectContaining({payment_intent: team().stripe.sessions.get(move)!.payment_intent}),
    ]);
    // The team is what its own payment bought, and may move up again, priced for it.
    expect(await offerOf(owner)).toMatchObject({plan: {id: STARTER.id}, seats: {seats: 3}});
    expect((await offerOf(owner)).upgrades[0]!.amount).toBe(upgradeAmount(STARTER, ADVANCED, 3));
    expect(await teamOf(owner)).toMatchObject({sessionId, seats: 3});
  });

  test('a team bigger than the higher plan sells is offered no move, and refused one in words', async () => {
    const {owner} = await teamOwner(TEAM_MAX + 1, PRICE_STARTER);
    // The lower plan sold it more seats than the higher one sells.
    expect(await teamOf(owner)).toMatchObject({seats: TEAM_MAX + 1});
    expect((await offerOf(owner)).upgrades).toEqual([]);
    const response = await ask(owner, {planId: ADVANCED.id});
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({
      code: 'CONFLICT',
      error: TEAM_WORDS.teamTooBig(ADVANCED.name, TEAM_MAX + 1),
    });
  });
});

test('the console resends a member’s expired invitation for their seat alone, and refuses a seat its member left', async () => {
  const {owner, sessionId} = await teamOwner(3);
  const account = githubAccount();
  expect((await call(owner, API_PATHS.addTeamMember, {username: account.login})).status).toBe(200);
  const [old] = kitInvitations(account.id);
  team().github.expire(old!.id);
  const admin = await seller();
  const resend = (seat: number) => call(admin, adminPath(ADMIN_PATHS.resend, {sessionId}), {key: 'kit', seat});
  const answer = await resend(2);
  expect(answer.status).toBe(200);
  expect(await answer.json()).toEqual({status: 'invited', detail: `@${account.login}: invited (seat 2)`});
  const [fresh] = kitInvitations(account.id);
  expect(fresh!.id).not.toBe(old!.id);
  // The owner's own seat was not touched: they named no account.
  expect(await seatGrants(sessionId, 1)).toEqual([]);
  // Removed, the member's seat is not the seller's to invite again.
  expect((await call(owner, API_PATHS.removeTeamMember, {seat: 2})).status).toBe(200);
  expect((await resend(2)).status).toBe(409);
  expect(kitInvitations(account.id)).toEqual([]);
});

test('the console shows a team: its seats, each member given and how their seat stands or ended, and the CSV and sales count seats', async () => {
  const admin = await seller();
  const sales = async () =>
    (await (await call(admin, `${ADMIN_PATHS.sales}?period=7d`)).json()) as {buyers: number; seats: number};
  const before = await sales();
  const {owner, sessionId} = await teamOwner(3);
  const added = await paid(owner, {planId: ADVANCED.id, addSeats: 1});
  const named = githubAccount();
  await call(owner, API_PATHS.addTeamMember, {username: named.login});
  const invited = await joinedMember(owner);
  const last = githubAccount();
  await call(owner, API_PATHS.addTeamMember, {username: last.login});
  // The refund ends the newest member's seat; then the owner removes the first.
  await refundAtStripe(team(), added);
  await call(owner, API_PATHS.removeTeamMember, {seat: 2});

  const detail = (await (
    await call(admin, adminPath(ADMIN_PATHS.purchase, {sessionId}))
  ).json()) as AdminPurchaseDetail;
  expect(detail.seats).toBe(3);
  // Sales: one more buyer, and the 3 seats their team holds now (the seat added and refunded not).
  const after = await sales();
  expect({buyers: after.buyers - before.buyers, seats: after.seats - before.seats}).toEqual({buyers: 1, seats: 3});
  expect(detail.members).toEqual([
    expect.objectContaining({
      seat: 4,
      state: 'removed',
      username: last.login,
      endReason: 'seats_refunded',
      access: 'revoked',
    }),
    expect.objectContaining({seat: 3, state: 'joined', email: invited.email, endReason: null, access: 'none'}),
    expect.objectContaining({
      seat: 2,
      state: 'removed',
      username: named.login,
      endReason: 'removed',
      access: 'revoked',
    }),
  ]);

  const exported = await call(admin, `${ADMIN_PATHS.purchasesCsv}?q=${encodeURIComponent(sessionId)}`);
  const [header, row] = (await exported.text()).split('\r\n');
  const seatsColumn = header!.split(',').indexOf('seats');
  expect(row!.split(',')[seatsColumn]).toBe('3');
});

describe('the console acts on one member', () => {
  const act = (admin: SignedInUser, path: string, sessionId: string, body: Record<string, unknown>) =>
    call(admin, adminPath(path, {sessionId}), body);
  const detailOf = async (admin: SignedInUser, sessionId: string) =>
    (await (await call(admin, adminPath(ADMIN_PATHS.purchase, {sessionId}))).json()) as AdminPurchaseDetail;
  const idOf = async (admin: SignedInUser, sessionId: string, seat: number) =>
    (await detailOf(admin, sessionId)).members.find(
      (member) => member.seat === seat && (member.state === 'joined' || member.state === 'invited'),
    )!.id;
  const lastAudit = async (sessionId: string) =>
    (
      await team().worker.db.all<{action: string; outcome: string; detail: string}>(
        'SELECT action, outcome, detail FROM admin_audit WHERE session_id = ? ORDER BY id DESC LIMIT 1',
        sessionId,
      )
    )[0]!;
  const mailTo = (email: string, subject: RegExp) =>
    team().mailgun.sent.filter((mail) => mail.fields.to === email && subject.test(mail.fields.subject ?? ''));

  /** A team of 3 whose member joined by e-mail and asked for `account`; the seller, and the member's record id. */
  async function memberWithAccess() {
    const {owner, sessionId} = await teamOwner(3);
    const joined = await joinedMember(owner);
    const account = githubAccount();
    expect((await requestAccess(joined.member, account.login)).status).toBe(200);
    const admin = await seller();
    return {owner, sessionId, joined, account, admin, id: await idOf(admin, sessionId, joined.seat)};
  }

  test('moves a member’s seat to another GitHub account: the old invitation withdrawn, the new one sent, the member told, their count of moves unspent', async () => {
    const {sessionId, joined, account: lost, admin, id} = await memberWithAccess();
    const next = githubAccount();

    const answer = await act(admin, ADMIN_PATHS.grant, sessionId, {username: next.login, member: id});
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({status: 'invited', detail: `@${next.login}: invited (seat ${joined.seat})`});
    expect(kitInvitations(lost.id)).toEqual([]);
    expect(kitInvitations(next.id)).toHaveLength(1);
    expect(await accessStatus(joined.member)).toMatchObject({status: 'pending', username: next.login});
    expect((await seatGrants(sessionId, joined.seat))[0]).toMatchObject({username_changes: 0});
    expect(mailTo(joined.email, new RegExp(`is with @${next.login}`))).toHaveLength(1);
    // The owner's own seat is untouched, and the console lists the member under the new account.
    expect(await seatGrants(sessionId, 1)).toEqual([]);
    expect((await detailOf(admin, sessionId)).members[0]).toMatchObject({id, username: next.login, state: 'joined'});
    expect((await lastAudit(sessionId)).detail).toContain(
      `Seat ${joined.seat}: Access: @${lost.login} (pending, invitation `,
    );
    expect((await lastAudit(sessionId)).detail).toContain(`→ @${next.login} (pending, invitation `);
  });

  test.each([
    ['a move to an account GitHub does not know', 'unknown-account', 404, 'was not found'],
    ['a move of another team’s member', 'other-team', 409, 'no longer holds a seat of this team'],
    ['a move of a member removed since the page was read', 'removed', 409, 'no longer holds a seat of this team'],
    ['a move of a member invited who has not taken the seat', 'invited', 409, 'has not taken the seat yet'],
    ['a move naming no account', 'no-username', 400, "Name the GitHub account to move the member's seat to"],
    ['a move of a seat the seller revoked', 'revoked', 409, 'grant it back before moving'],
  ] as const)('%s is refused in words, and the seat stays as it was', async (_, kind, status, words) => {
    const setup = await memberWithAccess();
    const {owner, sessionId, joined, account: held, admin} = setup;
    let id = setup.id;
    let onSession = sessionId;
    if (kind === 'other-team') onSession = (await teamOwner(3)).sessionId;
    if (kind === 'removed')
      expect((await call(owner, API_PATHS.removeTeamMember, {seat: joined.seat})).status).toBe(200);
    if (kind === 'revoked') expect((await act(admin, ADMIN_PATHS.revoke, sessionId, {})).status).toBe(200);
    if (kind === 'invited') {
      const invited = await call(owner, API_PATHS.addTeamMember, {email: `not-joined-${Date.now()}@example.com`});
      id = await idOf(admin, sessionId, ((await invited.json()) as {seat: number}).seat);
    }
    const next = githubAccount();
    const body =
      kind === 'no-username'
        ? {member: id}
        : {username: kind === 'unknown-account' ? 'nobody-here-at-all' : next.login, member: id};
    const answer = await act(admin, ADMIN_PATHS.grant, onSession, body);
    expect(answer.status).toBe(status);
    expect(await answer.text()).toContain(words);
    expect(kitInvitations(next.id)).toEqual([]);
    if (kind !== 'removed' && kind !== 'revoked') expect(kitInvitations(held.id)).toHaveLength(1);
  });

  test('a move read before the seat changed hands never takes it from whoever holds it now', async () => {
    const {sessionId, joined, account: held, admin, id} = await memberWithAccess();
    // As if another member's live grant were on the seat now (the owner gave it again meanwhile).
    await team().worker.db.run(
      'UPDATE grants SET member_id = ?1 WHERE session_id = ?2 AND seat = ?3',
      id + 100_000,
      sessionId,
      joined.seat,
    );
    const next = githubAccount();
    const answer = await act(admin, ADMIN_PATHS.grant, sessionId, {username: next.login, member: id});
    expect(answer.status).toBe(409);
    expect(await answer.text()).toContain('This seat changed hands meanwhile');
    expect(kitInvitations(next.id)).toEqual([]);
    expect(kitInvitations(held.id)).toHaveLength(1);
  });

  test('takes back a member’s seat: their access is taken back and they are told why, the owner is told, and the seat is free again', async () => {
    const {owner, sessionId, joined, account, admin, id} = await memberWithAccess();
    team().github.accept(kitInvitations(account.id)[0]!.id);
    expect(team().github.collaborators.has(account.login.toLowerCase())).toBe(true);
    expect(await teamOf(owner)).toMatchObject({free: 1});

    const answer = await act(admin, ADMIN_PATHS.takeBackMember, sessionId, {member: id});
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({
      status: 'removed',
      detail: `@${account.login}: seat ${joined.seat} taken back`,
    });
    expect((await seatGrants(sessionId, joined.seat))[0]).toMatchObject({
      status: 'revoked',
      detail: TEAM_SELLER_REASON,
    });
    expect(team().github.collaborators.has(account.login.toLowerCase())).toBe(false);
    expect((await accessStatus(joined.member)).teamEnded).toEqual({owner: owner.email, reason: 'seller'});
    const told = mailTo(joined.email, /has ended/);
    expect(told).toHaveLength(1);
    expect(told[0]!.fields.text).toContain(seatEndedBecause(owner.email, 'seller'));
    expect(mailTo(owner.email, /was taken back/)[0]!.fields.text).toContain(`@${account.login} held`);
    // The seat is the owner's to give again; the console says who ended it.
    expect(await teamOf(owner)).toMatchObject({free: 2, members: []});
    expect((await detailOf(admin, sessionId)).members[0]).toMatchObject({id, state: 'removed', endReason: 'seller'});
    // The admin log says what changed on the member's seat, not on the buyer's own.
    expect(await lastAudit(sessionId)).toEqual({
      action: 'take_back_member',
      outcome: 'done',
      detail: expect.stringMatching(
        new RegExp(
          `^@${account.login}: seat ${joined.seat} taken back\\. Seat ${joined.seat}: Access: @${account.login} \\(\\w+, invitation \\d+\\) → @${account.login} \\(revoked`,
        ),
      ),
    });
    // Asked again (a second tab): the member holds no seat now.
    expect((await act(admin, ADMIN_PATHS.takeBackMember, sessionId, {member: id})).status).toBe(409);
  });

  test('takes back an invitation not yet taken: its link no longer gives the seat, and the owner is told', async () => {
    const {owner, sessionId} = await teamOwner(3);
    const email = `invited-${Date.now()}@example.com`;
    const invited = await call(owner, API_PATHS.addTeamMember, {email});
    const {seat} = (await invited.json()) as {seat: number};
    const token = linkSentTo(email);
    const admin = await seller();
    const answer = await act(admin, ADMIN_PATHS.takeBackMember, sessionId, {
      member: await idOf(admin, sessionId, seat),
    });
    expect(await answer.json()).toEqual({status: 'withdrawn', detail: `${email}: seat ${seat} invitation withdrawn`});
    const member = await team().signUp({email, verified: true});
    const join = await call(member, API_PATHS.joinTeam, {token});
    expect(join.status).toBe(409);
    expect(await join.text()).toContain(TEAM_WORDS.linkWithdrawn);
    expect(mailTo(owner.email, /was taken back/)[0]!.fields.text).toContain(`that you sent ${email}`);
    // An invitation withdrawn is no seat ended: the address invited gets no e-mail of it.
    expect(mailTo(email, /has ended/)).toEqual([]);
  });

  test('a member of another team, or of a purchase no longer paid, is refused, and keeps their seat', async () => {
    const {owner, sessionId} = await teamOwner(3);
    const joined = await joinedMember(owner);
    const admin = await seller();
    const id = await idOf(admin, sessionId, joined.seat);
    const other = await teamOwner(3);
    const elsewhere = await act(admin, ADMIN_PATHS.takeBackMember, other.sessionId, {member: id});
    expect(elsewhere.status).toBe(409);
    expect(await elsewhere.text()).toContain('no longer holds a seat of this team');
    expect((await teamOf(owner)).members).toEqual([expect.objectContaining({seat: joined.seat, state: 'joined'})]);
    await refundAtStripe(team(), sessionId);
    const refunded = await act(admin, ADMIN_PATHS.takeBackMember, sessionId, {member: id});
    expect(refunded.status).toBe(409);
    expect(await refunded.text()).toContain('not paid');
    expect(await (await act(admin, ADMIN_PATHS.takeBackMember, sessionId, {member: 'one'})).text()).toContain(
      'member must be the id of a member',
    );
  });
});
