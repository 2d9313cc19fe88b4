/**
 * A plan sold for teams (issue 41): the buyer picks the seats, the worker holds the number to the
 * plan's `maxSeats` and has Stripe charge each seat's price (the team's own, where the plan has one)
 * times the seats, and fulfilment records the seats Stripe sold, on the team stack (teamStack.ts).
 */
import {appConfig, fairPrice, findPlanByPriceId, planAmount, seatPriceOf, TEAM_WORDS} from '../../src/config';
import {API_PATHS} from '../../src/config/api';
import {completedEvent, PRICE_ADVANCED, PRICE_STARTER, SITE_ORIGIN, uniqueEmail} from './stack';
import {STARTER_TEAM_MAX, TEAM_MAX, useTeamStack} from './teamStack';

const ADVANCED = findPlanByPriceId(PRICE_ADVANCED)!;
const STARTER = findPlanByPriceId(PRICE_STARTER)!;
/** A country in a tier of the config. */
const DISCOUNTED = appConfig.fairPrices.tiers.find((tier) => tier.countries.length > 0)!.countries[0]!;

const team = useTeamStack();

let addresses = 0;
/** A guest's checkout, each from its own address: the answer, and the session Stripe was asked for. */
async function checkout(body: Record<string, unknown>, country?: string) {
  const before = team().stripe.created.length;
  const response = await team().call(API_PATHS.createCheckoutSession, {
    ...(country && {cf: {country}}),
    headers: {'cf-connecting-ip': `127.41.${Math.floor(addresses / 250) % 250}.${addresses++ % 250}`},
    body: {priceId: PRICE_ADVANCED, successUrl: `${SITE_ORIGIN}/success`, cancelUrl: `${SITE_ORIGIN}/`, ...body},
  });
  return {response, made: team().stripe.created.slice(before)};
}

const seatsOf = async (sessionId: string) =>
  (await team().worker.db.all<{seats: number}>('SELECT seats FROM purchases WHERE session_id = ?', sessionId))[0]
    ?.seats;

/** The committed config's price for each seat of an Advanced team: a price of its own, under the plan's. */
const TEAM_SEAT = ADVANCED.team!.seatPrice!;

test('a team of 5 is one session of the team’s price for each seat times 5; once paid, the purchase holds 5 seats and the seller reads a team’s sale', async () => {
  expect(TEAM_SEAT.price).toBeLessThan(ADVANCED.price);
  const email = uniqueEmail('team-lead');
  const sessionId = await team().paidCheckout({email, seats: 5});
  const made = team().stripe.created.at(-1)!;
  expect(made.line_items).toEqual([{price: TEAM_SEAT.priceId.test, quantity: '5'}]);
  expect(team().stripe.sessions.get(sessionId)!.amount_total).toBe(TEAM_SEAT.price * 100 * 5);

  expect((await team().deliver(completedEvent(team(), sessionId))).status).toBe(200);
  expect(await seatsOf(sessionId)).toBe(5);
  const [stored] = await team().worker.db.all<{amount_total: number}>(
    'SELECT amount_total FROM purchases WHERE session_id = ?',
    sessionId,
  );
  expect(stored!.amount_total).toBe(TEAM_SEAT.price * 100 * 5);
  const sale = team().mailgun.sent.find((mail) => mail.fields.text?.includes(email));
  expect(sale?.fields.subject).toContain(`${ADVANCED.name} for a team of 5`);

  // Delivered again (Stripe retries): still 5 seats, one sale e-mail.
  expect((await team().deliver(completedEvent(team(), sessionId, `evt_again_${sessionId}`))).status).toBe(200);
  expect(await seatsOf(sessionId)).toBe(5);
  expect(team().mailgun.sent.filter((mail) => mail.fields.text?.includes(email))).toHaveLength(1);
});

test('one seat is the purchase it always was: a body with no seats buys one, and the purchase holds one', async () => {
  const sessionId = await team().paidCheckout({email: uniqueEmail('solo')});
  expect(team().stripe.created.at(-1)!.line_items).toEqual([{price: ADVANCED.priceId.test, quantity: '1'}]);
  expect((await team().deliver(completedEvent(team(), sessionId))).status).toBe(200);
  expect(await seatsOf(sessionId)).toBe(1);
});

test('the worker picks the price for the seats: the team’s price named for one seat charges the plan’s, and the plan’s named for a team charges the team’s', async () => {
  // A body may name the plan by either of its prices; the seats decide which one Stripe charges.
  const alone = await checkout({priceId: TEAM_SEAT.priceId.production});
  expect(alone.response.status).toBe(200);
  expect(alone.made[0]!.line_items).toEqual([{price: ADVANCED.priceId.test, quantity: '1'}]);
  const sessionId = await team().paidCheckout({
    email: uniqueEmail('team-price-alone'),
    priceId: TEAM_SEAT.priceId.test,
  });
  expect(team().stripe.sessions.get(sessionId)!.amount_total).toBe(planAmount(ADVANCED));
  expect((await team().deliver(completedEvent(team(), sessionId))).status).toBe(200);
  expect(await seatsOf(sessionId)).toBe(1);
  const pair = await checkout({seats: 2});
  expect(pair.made[0]!.line_items).toEqual([{price: TEAM_SEAT.priceId.test, quantity: '2'}]);
});

test('a plan sold for teams at its own price charges that price times the seats', async () => {
  // The team stack sells Starter for teams with no price of their own (teamPlans.ts).
  const {made} = await checkout({priceId: PRICE_STARTER, seats: 3});
  expect(made[0]!.line_items).toEqual([{price: STARTER.priceId.test, quantity: '3'}]);
  const sessionId = await team().paidCheckout({email: uniqueEmail('starter-team'), priceId: PRICE_STARTER, seats: 3});
  expect(team().stripe.sessions.get(sessionId)!.amount_total).toBe(planAmount(STARTER) * 3);
  expect((await team().deliver(completedEvent(team(), sessionId))).status).toBe(200);
  expect(await seatsOf(sessionId)).toBe(3);
});

test('a country’s fair price takes its percent off the whole team, as one coupon on the session', async () => {
  const {response, made} = await checkout({seats: 4}, DISCOUNTED);
  expect(response.status).toBe(200);
  const {url} = (await response.json()) as {url: string};
  const session = team().stripe.sessions.get(/cs_test_\w+/.exec(url)![0])!;
  const {percentOff} = fairPrice(ADVANCED, DISCOUNTED);
  expect(percentOff).toBeGreaterThan(0);
  expect(made[0]!.discounts).toHaveLength(1);
  const whole = seatPriceOf(ADVANCED, 4).amount * 4;
  expect(session.amount_subtotal).toBe(whole);
  expect(session.amount_total).toBe(whole - Math.round((whole * percentOff) / 100));
});

test.each([
  [`more seats than the plan sells (${TEAM_MAX + 1})`, {seats: TEAM_MAX + 1}, `choose ${TEAM_MAX} or fewer`],
  [
    `more seats than the other plan sells (${STARTER_TEAM_MAX + 1})`,
    {priceId: PRICE_STARTER, seats: STARTER_TEAM_MAX + 1},
    `${STARTER.name} is sold for teams of up to ${STARTER_TEAM_MAX} seats`,
  ],
  ['no seat at all', {seats: 0}, 'Seats must be at least 1'],
  ['part of a seat', {seats: 2.5}, 'Seats must be a whole number'],
  ['seats as text', {seats: '5'}, 'Seats must be a whole number'],
])('%s is refused with a 400 that says why, and Stripe is never asked', async (_, body, words) => {
  const {response, made} = await checkout(body);
  expect(response.status).toBe(400);
  expect(((await response.json()) as {error: string}).error).toContain(words);
  expect(made).toEqual([]);
});

test('a signed-in team owner asking for a second team is told to grow the one they have, and nothing is made at Stripe; one seat for themselves is sold', async () => {
  const owner = await team().signUp({verified: true});
  const sessionId = await team().paidCheckout({email: owner.email, user: owner, seats: 3});
  expect((await team().deliver(completedEvent(team(), sessionId))).status).toBe(200);
  const ask = async (seats: number) => {
    const before = team().stripe.created.length;
    const response = await team().call(API_PATHS.createCheckoutSession, {
      token: owner.idToken,
      headers: {'cf-connecting-ip': '127.42.0.1'},
      body: {priceId: PRICE_STARTER, seats, successUrl: `${SITE_ORIGIN}/success`, cancelUrl: `${SITE_ORIGIN}/`},
    });
    return {response, made: team().stripe.created.length - before};
  };
  const second = await ask(4);
  expect(second.response.status).toBe(409);
  expect(await second.response.json()).toEqual({error: TEAM_WORDS.secondTeam, code: 'CONFLICT'});
  expect(second.made).toBe(0);
  const alone = await ask(1);
  expect(alone.response.status).toBe(200);
  expect(alone.made).toBe(1);
});

test('the seats recorded are the ones Stripe sold, whatever the session’s metadata says', async () => {
  const email = uniqueEmail('metadata');
  const sessionId = await team().paidCheckout({email, seats: 3});
  const session = team().stripe.sessions.get(sessionId)!;
  session.metadata = {...session.metadata, seats: '10', quantity: '10'};
  expect((await team().deliver(completedEvent(team(), sessionId))).status).toBe(200);
  expect(await seatsOf(sessionId)).toBe(3);
});
