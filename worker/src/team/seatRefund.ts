import {findStoredPlan, seatRefundAmount, seatsKept, seatsKeptWords} from '../../../src/config';
import type {AdminRefundRequest, SeatRefundOffer} from '../../../src/config/api';
import {formatMoney} from '../../../src/config/money';
import {type Context, contextOf} from '../context';
import {enqueue} from '../jobs';
import {log} from '../log';
import {registerJob} from '../outbox';
import {HttpError} from '../errors';
import {refundPayment, syncSeatRefunds} from '../payments/refunds';
import {effectiveSeats} from '../purchases';
import {heldMember, seatsHeld, seatsPast} from './members';
import {endSeatsPast, removeMember} from './removeMember';

/**
 * Some of a team's seats refunded from the console (issue 41): the seller gives back seats of the
 * purchase's own payment, at what it paid for each, and the team's count drops by as many at once
 * (migration 0040). The members on seats the team no longer has lose theirs through the owner's own
 * removal path, each e-mailed why: those the seller picks (the ones the owner named), then the
 * newest. Seats added later are the seat upgrade's own payment: refunded whole from its row. A
 * seat's price is the purchase's amount over the seats it bought (an earlier refund of an amount,
 * a goodwill gesture, does not change it; Stripe holds the refunds to what is left).
 */

interface TeamPayment {
  session_id: string;
  email: string | null;
  status: string;
  payment_intent_id: string | null;
  amount_total: number | null;
  /** The plan it was bought for (a team that moved up is not refunded by the seat). */
  plan: string | null;
  /** Seats it was bought with, and those refunded of them since. */
  bought: number;
  refunded: number;
  /** 1 when a paid move to a higher plan paid for its seats too: a seat's price is then in two payments. */
  moved: number;
}

async function teamPaymentOf(db: D1Database, sessionId: string): Promise<TeamPayment | null> {
  return db
    .prepare(
      `SELECT session_id, email, status, payment_intent_id, amount_total, plan, seats AS bought,
         COALESCE((SELECT SUM(seats) FROM seat_refunds r WHERE r.session_id = p.session_id), 0) AS refunded,
         EXISTS (SELECT 1 FROM upgrades u WHERE u.purchase_session_id = p.session_id AND u.status = 'paid'
           AND u.seats_added = 0) AS moved
       FROM purchases p WHERE session_id = ?1`,
    )
    .bind(sessionId)
    .first<TeamPayment>();
}

/** What the console may refund of a purchase's seats: null for one bought alone, or not paid. */
function offerOf(payment: TeamPayment): Omit<SeatRefundOffer, 'held'> | null {
  if (payment.bought <= 1 || payment.status !== 'paid' || payment.amount_total === null) return null;
  // Moved up, each seat was paid for twice (the purchase and the move): refunding the purchase's
  // share alone would give back less than the seat cost. The move is refunded from its row first.
  if (payment.moved) return null;
  // The owner's own seat stays, a team bought at a team's price stays a team, and a team tier
  // stays whole: a refund of the whole purchase is the refund of everything.
  const keeps = seatsKept(findStoredPlan(payment.plan), payment.bought);
  return {
    most: Math.max(0, payment.bought - keeps - payment.refunded),
    keeps,
    refunded: payment.refunded,
    paid: payment.amount_total,
    bought: payment.bought,
  };
}

/** The purchase's page's offer (admin/purchases.ts). */
export async function seatRefundOffer(db: D1Database, sessionId: string): Promise<SeatRefundOffer | null> {
  const payment = await teamPaymentOf(db, sessionId);
  const offer = payment && offerOf(payment);
  return offer && {...offer, held: await seatsHeld(db, sessionId)};
}

const seatsWord = (count: number) => (count === 1 ? '1 seat' : `${count} seats`);

/** The console's refund of `request.seats` of the purchase's seats: the admin action's answer. */
export async function refundSeats(
  env: Env,
  sessionId: string,
  request: AdminRefundRequest & {seats: number},
  by: string,
): Promise<{status: string; detail: string}> {
  const first = await teamPaymentOf(env.DB, sessionId);
  if (!first) {
    throw new HttpError(
      409,
      'Seats are refunded from the team’s purchase. An upgrade that added seats is refunded whole from its row.',
      'CONFLICT',
    );
  }
  if (first.moved)
    throw new HttpError(
      409,
      'This team moved up to a higher plan, so each seat was paid in two payments: refund the move from its row first, or refund the whole purchase.',
      'CONFLICT',
    );
  if (!offerOf(first) || !first.payment_intent_id)
    throw new HttpError(409, 'This purchase is not a paid team purchase: it has no seats to refund.', 'CONFLICT');
  // What Stripe has refunded of seats first, should D1 have missed one (or one failed since): the
  // seats offered are never those refunded already. Then the members past the count go, should an
  // earlier seat refund have stopped before it ended them.
  const context = contextOf(env);
  await syncSeatRefunds(context, {paymentIntentId: first.payment_intent_id, sessionId});
  await endSeatsPast(context, sessionId);
  const payment = (await teamPaymentOf(env.DB, sessionId))!;
  const offer = offerOf(payment);
  // Disputed or refunded meanwhile: nothing to refund by the seat.
  if (!offer) throw new HttpError(409, 'This purchase is no longer paid: read the purchase again.', 'CONFLICT');
  if (request.seats > offer.most) {
    throw new HttpError(
      409,
      offer.most === 0
        ? `No seat of this purchase can be refunded by itself (${seatsKeptWords(offer.keeps, findStoredPlan(payment.plan))}). Refund the whole purchase to end it.`
        : `At most ${seatsWord(offer.most)} of this purchase can be refunded (${seatsKeptWords(offer.keeps, findStoredPlan(payment.plan))}): ${request.seats} were asked.`,
      'CONFLICT',
    );
  }
  // The members named must hold seats of this team now (by their own record: a seat's number may
  // have changed hands since the page was read), and be no more than the refund ends.
  for (const id of request.members ?? []) {
    const member = await heldMember(env.DB, sessionId, id);
    if (!member)
      throw new HttpError(
        409,
        'A member picked no longer holds a seat of this team: read the purchase again.',
        'CONFLICT',
      );
  }
  const mustGo = await seatsPast(env.DB, sessionId, request.seats);
  if ((request.members ?? []).length > mustGo) {
    throw new HttpError(
      409,
      mustGo === 0
        ? 'The team has enough free seats: no member loses theirs with this refund, so pick none.'
        : `Only ${mustGo === 1 ? '1 member loses a seat' : `${mustGo} members lose theirs`} with this refund: pick no more.`,
      'CONFLICT',
    );
  }
  const amount = seatRefundAmount(payment.amount_total!, payment.bought, request.seats);
  if (amount < 1)
    throw new HttpError(409, 'These seats cost nothing when bought: there is nothing to refund for them.', 'CONFLICT');
  // Queued first, due once this request is long over: should it stop between Stripe's refund and
  // the members' removal, the cron settles the seats as Stripe has them (settleSeats).
  await settleLater(env.DB, sessionId, request.members ?? []);
  const refund = await refundPayment(
    env,
    {paymentIntentId: first.payment_intent_id, sessionId, by, seats: request.seats},
    {amount, reason: request.reason},
    {refundedBefore: request.refundedBefore},
  );
  // The seats are off the count (refundPayment recorded them): the members past it go.
  const ended = await endMembersPast(context, {session_id: sessionId, email: payment.email}, request.members ?? []);
  const now = await env.DB.prepare(`SELECT ${effectiveSeats('p')} AS seats FROM purchases p WHERE session_id = ?1`)
    .bind(sessionId)
    .first<{seats: number}>();
  const lost =
    ended === 0
      ? 'no member lost a seat'
      : `${ended === 1 ? '1 member' : `${ended} members`} lost theirs, each told why by e-mail`;
  return {
    status: 'seats_refunded',
    detail: `${formatMoney(refund.refunded, refund.currency)} refunded for ${seatsWord(request.seats)} (${request.reason.replaceAll('_', ' ')}; Stripe ${refund.refundId}); the team has ${seatsWord(now?.seats ?? 1)} now, and ${lost}`,
  };
}

/**
 * How long after a refund of seats its settling job runs: longer than any request of the console
 * takes, so that it never ends members while the refund's own request is still ending those the
 * seller picked.
 */
export const SETTLE_AFTER_MS = 15 * 60_000;

/**
 * A refund of seats settled after its request: D1's seats refunded brought in step with Stripe's
 * refunds, then the members past the count end, as the request would have ended them (those the
 * seller picked first, then the newest; gone already unless the request stopped first). Nothing to do when
 * the request ended as it should, or the purchase is no longer paid (its own revocation took every seat).
 */
async function settleSeats(context: Context, {sessionId, members = []}: SettlePayload): Promise<void> {
  const payment = await teamPaymentOf(context.db, sessionId);
  if (!payment?.payment_intent_id || payment.status !== 'paid') return;
  await syncSeatRefunds(context, {paymentIntentId: payment.payment_intent_id, sessionId});
  const ended = await endMembersPast(context, {session_id: sessionId, email: payment.email}, members);
  if (ended > 0) log.warn('team.seats_settled', {sessionId, ended});
}

/** A refund's settling job: the purchase, and the members its seller picked (their records' ids). */
interface SettlePayload {
  sessionId: string;
  members?: number[];
}

/**
 * Queues a refund's settling job, due once its request is long over. A job of an earlier refund
 * still waiting is put back as far: it never runs while this refund's request ends its members.
 * Each refund has a job of its own (the same seats asked again after a refusal too).
 */
async function settleLater(db: D1Database, sessionId: string, members: number[]): Promise<void> {
  const due = Date.now() + SETTLE_AFTER_MS;
  await db
    .prepare(
      `UPDATE jobs SET run_after = MAX(run_after, ?2) WHERE kind = 'team-seats' AND session_id = ?1 AND status = 'pending'`,
    )
    .bind(sessionId, due)
    .run();
  await enqueue(db, {
    key: `team-seats:${sessionId}:${crypto.randomUUID()}`,
    kind: 'team-seats',
    sessionId,
    payload: {sessionId, members} satisfies SettlePayload,
    runAfter: due,
  });
}

/**
 * The members past the team's seats end, each told why: first those the seller picked (by their
 * record, while they still hold a seat and the team is still past its count), then the newest, as
 * many as are still past. Never more than the count is past: a settling job that ran meanwhile
 * leaves the picked their seats. Answers how many ended.
 */
async function endMembersPast(
  context: Context,
  owner: {session_id: string; email: string | null},
  picked: number[],
): Promise<number> {
  let ended = 0;
  for (const id of picked) {
    if ((await seatsPast(context.db, owner.session_id)) === 0) break;
    const member = await heldMember(context.db, owner.session_id, id);
    if (member && (await removeMember(context, owner, member.seat, 'seats_refunded', member.id))) ended += 1;
  }
  return ended + (await endSeatsPast(context, owner.session_id));
}

registerJob<SettlePayload>('team-seats', {
  run: settleSeats,
  gaveUp: async (_context, {sessionId}, error) => log.error('team.seats_settle_gave_up', {sessionId, error}),
});
