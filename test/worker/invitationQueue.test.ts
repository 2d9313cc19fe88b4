/**
 * GitHub's cap on invitations, in workerd with a real D1 against the GitHub stand-in, which refuses
 * the invitation past its cap as GitHub does: the worker counts what it sent in the last 24 hours,
 * never sends past the cap, queues the rest first in, first out with an honest place and time,
 * sends them as the window frees (the cron, in bounded batches), puts a GitHub refusal for the cap
 * back in the queue rather than failing it, and shows the seller the figures.
 * Time passes by moving the sent invitations back 24 hours, in D1 and on the stand-in alike.
 */
import {appConfig} from '../../src/config';
import {ADMIN_PATHS, type AccessStatus, type RepositoryAudit} from '../../src/config/api';
import {FIXTURE_REPO} from '../../scripts/local/githubApi';
import {completedEvent, disputeEvent, refundEvent, type SignedInUser, useSellerStack} from './stack';
import {kitGrant, setKitGrant} from './grantRows';

const DAY_MS = 24 * 3600_000;
const {invitationsPerDay: CAP, queueBatch} = appConfig.repository;
const seller = useSellerStack();
beforeEach(async () => {
  // Each test starts on a fresh day: nothing sent, nothing queued.
  seller.stack.github.invitations.clear();
  seller.stack.github.requests.length = 0;
  await seller.stack.newDay();
});

let accounts = 0;
const githubAccount = () => seller.stack.github.addUser(`queued-${Date.now().toString(36)}-${accounts++}`).login;

async function paidBuyer(): Promise<{user: SignedInUser; sessionId: string; login: string}> {
  const user = await seller.stack.signUp();
  const sessionId = await seller.stack.paidCheckout({email: user.email, user});
  expect((await seller.stack.deliver(completedEvent(seller.stack, sessionId))).status).toBe(200);
  return {user, sessionId, login: githubAccount()};
}

const requestAccess = (buyer: {user: SignedInUser; login: string}) =>
  seller.stack.call('/addUserToRepo', {
    token: buyer.user.idToken,
    body: {username: buyer.login, userId: buyer.user.uid},
  });
const accessStatus = async (user: SignedInUser) =>
  (await (await seller.stack.call('/accessStatus', {token: user.idToken})).json()) as AccessStatus;
const grantStatus = async (sessionId: string) =>
  (await kitGrant<{status: string}>(seller.stack.worker.db, sessionId, 'status'))?.status;
const invitedLogins = () =>
  [...seller.stack.github.invitations.values()]
    .sort((a, b) => a.id - b.id)
    .map((invitation) => invitation.invitee.login);

/** `count` invitations the worker sent `agoMs` ago, as D1 and GitHub both count them. */
async function alreadySent(count: number, agoMs = 3600_000): Promise<number> {
  const at = Date.now() - agoMs;
  for (let i = 0; i < count; i++) {
    await seller.stack.worker.db.run(
      'INSERT INTO invitations_sent (repository, session_id, sent_at) VALUES (?, ?, ?)',
      FIXTURE_REPO,
      `cs_test_earlier_${i}`,
      at + i,
    );
    seller.stack.github.invitationTimes.push(at + i);
  }
  return at;
}

/** The oldest `count` invitations leave the 24-hour window, on both sides. */
async function oldestLeaveTheWindow(count: number) {
  await seller.stack.worker.db.run(
    'UPDATE invitations_sent SET sent_at = sent_at - ? WHERE id IN (SELECT id FROM invitations_sent ORDER BY sent_at LIMIT ?)',
    DAY_MS,
    count,
  );
  const times = seller.stack.github.invitationTimes;
  for (let i = 0; i < Math.min(count, times.length); i++) times[i]! -= DAY_MS;
  seller.stack.github.invitationTimes.sort((a, b) => a - b);
}

describe('the cap', () => {
  test('the invitation past the cap waits in the queue (202 queued): GitHub is not asked, and the dashboard says where and until when', async () => {
    const sentAt = await alreadySent(CAP - 1);
    const fiftieth = await paidBuyer();
    expect((await requestAccess(fiftieth)).status).toBe(200);
    expect(invitedLogins()).toEqual([fiftieth.login]);

    const fiftyFirst = await paidBuyer();
    const response = await requestAccess(fiftyFirst);
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({status: 'queued'});
    expect(invitedLogins()).toEqual([fiftieth.login]); // never sent past the cap
    expect(
      seller.stack.github.requests.filter(
        (request) => request.startsWith('PUT ') && request.endsWith(fiftyFirst.login),
      ),
    ).toEqual([]);

    const status = await accessStatus(fiftyFirst.user);
    expect(status).toMatchObject({status: 'queued', username: fiftyFirst.login, queue: {position: 1}});
    // Its slot frees when the oldest invitation of the window is 24 hours old.
    expect(status.queue!.expectedAt).toBe(sentAt + DAY_MS);
    expect(await grantStatus(fiftyFirst.sessionId)).toBe('queued');
  });

  test('first in, first out: the queue goes out in the order it came as the window frees, and each buyer is e-mailed when theirs is sent', async () => {
    await alreadySent(CAP);
    const [first, second, third] = [await paidBuyer(), await paidBuyer(), await paidBuyer()];
    for (const buyer of [first, second, third]) expect((await requestAccess(buyer)).status).toBe(202);
    expect((await accessStatus(first.user)).queue?.position).toBe(1);
    expect((await accessStatus(third.user)).queue?.position).toBe(3);
    const expected = (await accessStatus(third.user)).queue!.expectedAt;
    expect(expected).toBeGreaterThan((await accessStatus(second.user)).queue!.expectedAt);

    await seller.stack.worker.scheduled(); // the window is still full: nothing goes
    expect(invitedLogins()).toEqual([]);

    await oldestLeaveTheWindow(2);
    await seller.stack.worker.scheduled();
    expect(invitedLogins()).toEqual([first!.login, second!.login]);
    expect(await accessStatus(first.user)).toMatchObject({status: 'pending', username: first.login});
    expect((await accessStatus(first.user)).queue).toBeUndefined();
    expect(await accessStatus(third.user)).toMatchObject({status: 'queued', queue: {position: 1}});

    const sentNews = (buyer: {user: SignedInUser}) =>
      seller.stack.mailgun.sent.filter(
        (mail) => mail.fields.to === buyer.user.email && /waited in line/.test(mail.fields.text ?? ''),
      );
    expect(sentNews(first)).toHaveLength(1);
    expect(sentNews(first)[0]!.fields.text).toContain(`@${first.login}`);
    expect(sentNews(third)).toHaveLength(0);

    // A buyer who arrives now queues behind the third, though a slot is free for neither yet.
    const late = await paidBuyer();
    expect((await requestAccess(late)).status).toBe(202);
    expect((await accessStatus(late.user)).queue?.position).toBe(2);
  });

  test('a request while others wait does not jump the queue, even when a slot has just freed', async () => {
    await alreadySent(CAP);
    const waiting = await paidBuyer();
    expect((await requestAccess(waiting)).status).toBe(202);
    await oldestLeaveTheWindow(1);
    const newcomer = await paidBuyer();
    expect((await requestAccess(newcomer)).status).toBe(202);
    expect(invitedLogins()).toEqual([]);
    await seller.stack.worker.scheduled();
    expect(invitedLogins()).toEqual([waiting.login]);
    expect(await accessStatus(newcomer.user)).toMatchObject({status: 'queued', queue: {position: 1}});
  });

  test('one sender at a time: while another request holds the send, a due read sends nothing; a claim left by a dead worker lapses', async () => {
    await alreadySent(CAP);
    const buyer = await paidBuyer();
    expect((await requestAccess(buyer)).status).toBe(202);
    await oldestLeaveTheWindow(1);
    const claim = (at: number) => setKitGrant(seller.stack.worker.db, buyer.sessionId, {sending_at: at});
    const slotsUsed = async () =>
      (
        await seller.stack.worker.db.all<{n: number}>(
          'SELECT COUNT(*) AS n FROM invitations_sent WHERE repository = ? AND sent_at > ?',
          FIXTURE_REPO,
          Date.now() - DAY_MS,
        )
      )[0]!.n;
    const before = await slotsUsed();

    // The cron (say) is sending it now: the dashboard's read and a second cron run leave it alone.
    await claim(Date.now());
    expect(await accessStatus(buyer.user)).toMatchObject({status: 'queued'});
    await seller.stack.worker.scheduled();
    expect(invitedLogins()).toEqual([]);
    expect(await slotsUsed()).toBe(before);

    // That sender died two minutes ago: the next read sends, once, with one slot.
    await claim(Date.now() - 121_000);
    expect(await accessStatus(buyer.user)).toMatchObject({status: 'pending', username: buyer.login});
    expect(invitedLogins()).toEqual([buyer.login]);
    expect(await slotsUsed()).toBe(before + 1);
    const row = await kitGrant<{sending_at: number | null}>(seller.stack.worker.db, buyer.sessionId, 'sending_at');
    expect(row!.sending_at).toBeNull();
  });

  test('the dashboard read of a buyer whose turn is due sends the invitation without waiting for the cron', async () => {
    await alreadySent(CAP);
    const buyer = await paidBuyer();
    expect((await requestAccess(buyer)).status).toBe(202);
    await oldestLeaveTheWindow(1);
    expect(await accessStatus(buyer.user)).toMatchObject({status: 'pending', username: buyer.login});
    expect(invitedLogins()).toEqual([buyer.login]);
  });

  test(`a cron run sends at most ${queueBatch} queued invitations, and the next run carries on`, async () => {
    await alreadySent(CAP);
    const buyers = [];
    for (let i = 0; i < queueBatch + 2; i++) buyers.push(await paidBuyer());
    for (const buyer of buyers) expect((await requestAccess(buyer)).status).toBe(202);
    await oldestLeaveTheWindow(CAP);
    await seller.stack.worker.scheduled();
    expect(invitedLogins()).toEqual(buyers.slice(0, queueBatch).map((buyer) => buyer.login));
    await seller.stack.worker.scheduled();
    expect(invitedLogins()).toEqual(buyers.map((buyer) => buyer.login));
  });
});

describe('a seat that moves', () => {
  test('a move on a day the cap is spent is refused 429 INVITATION_CAP, and the account the buyer has keeps the seat', async () => {
    const buyer = await paidBuyer();
    expect((await requestAccess(buyer)).status).toBe(200);
    await alreadySent(CAP - 1);
    const other = githubAccount();
    const response = await requestAccess({user: buyer.user, login: other});
    expect(response.status).toBe(429);
    // The oldest invitation of the window (an hour old) leaves it in 23 hours: the move can go then.
    const retryAfter = Number(response.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThan(23 * 3600 - 120);
    expect(retryAfter).toBeLessThanOrEqual(23 * 3600);
    expect(await response.json()).toEqual({
      error: `GitHub's daily limit of invitations to the repository is reached. @${buyer.login} keeps access. Try again in about 23 hours.`,
      code: 'INVITATION_CAP',
    });
    expect(invitedLogins()).toEqual([buyer.login]);
    expect(await accessStatus(buyer.user)).toMatchObject({
      status: 'pending',
      username: buyer.login,
      usernameChanges: 0,
    });
  });

  test("a move GitHub refuses for its own count (invitations sent by hand) is refused 429 with the worker's pause in Retry-After, and the seat stays", async () => {
    const buyer = await paidBuyer();
    expect((await requestAccess(buyer)).status).toBe(200);
    // GitHub counts a full day of invitations; the worker sent one of them.
    for (let i = 0; i < CAP; i++) seller.stack.github.invitationTimes.push(Date.now() - 3600_000 + i);
    const other = githubAccount();
    const response = await requestAccess({user: buyer.user, login: other});
    expect(response.status).toBe(429);
    // The worker takes GitHub's word for half an hour before it asks again.
    const retryAfter = Number(response.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThan(25 * 60);
    expect(retryAfter).toBeLessThanOrEqual(30 * 60);
    expect(await response.json()).toMatchObject({
      code: 'INVITATION_CAP',
      error: expect.stringContaining(`@${buyer.login} keeps access. Try again in 30 minutes.`),
    });
    // Asked again within the pause, the worker answers alone: GitHub is not asked to refuse twice.
    const puts = seller.stack.github.requests.filter((request) => request.startsWith('PUT ')).length;
    expect((await requestAccess({user: buyer.user, login: githubAccount()})).status).toBe(429);
    expect(seller.stack.github.requests.filter((request) => request.startsWith('PUT ')).length).toBe(puts);
    expect(invitedLogins()).toEqual([buyer.login]);
    expect(await accessStatus(buyer.user)).toMatchObject({
      status: 'pending',
      username: buyer.login,
      usernameChanges: 0,
    });
  });
});

describe("GitHub's own count", () => {
  test('a refusal that names the cap (invitations the seller sent by hand) puts the request back in the queue, never in failed', async () => {
    // GitHub counts 50 invitations today; the worker sent none of them.
    for (let i = 0; i < CAP; i++) seller.stack.github.invitationTimes.push(Date.now() - 3600_000 + i);
    const buyer = await paidBuyer();
    const response = await requestAccess(buyer);
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({status: 'queued'});
    expect(await grantStatus(buyer.sessionId)).toBe('queued');
    const status = await accessStatus(buyer.user);
    expect(status).toMatchObject({status: 'queued', queue: {position: 1}});
    expect(status.detail).toBeUndefined();
    // The worker takes GitHub's word for half an hour: no one asks GitHub again before then.
    expect(status.queue!.expectedAt).toBeGreaterThan(Date.now() + 25 * 60_000);
    const puts = seller.stack.github.requests.filter((request) => request.startsWith('PUT ')).length;
    await seller.stack.worker.scheduled();
    await accessStatus(buyer.user);
    expect(seller.stack.github.requests.filter((request) => request.startsWith('PUT ')).length).toBe(puts);

    // GitHub's window frees, and the half hour passes: the next cron run sends it.
    seller.stack.github.invitationTimes.length = 0;
    await oldestLeaveTheWindow(CAP);
    await seller.stack.worker.scheduled();
    expect(invitedLogins()).toEqual([buyer.login]);
    expect(await grantStatus(buyer.sessionId)).toBe('pending');
  });
});

describe('leaving the queue', () => {
  test('a refunded buyer leaves the queue at once: those behind move up, and the console counts one fewer', async () => {
    await alreadySent(CAP);
    const [refunded, behind] = [await paidBuyer(), await paidBuyer()];
    for (const buyer of [refunded, behind]) expect((await requestAccess(buyer)).status).toBe(202);
    expect((await accessStatus(behind.user)).queue?.position).toBe(2);

    expect((await seller.stack.deliver(refundEvent(seller.stack, refunded.sessionId))).status).toBe(200);
    expect(await grantStatus(refunded.sessionId)).toBe('revoked');
    expect((await accessStatus(behind.user)).queue?.position).toBe(1);
    const audit = (await (
      await seller.stack.call(ADMIN_PATHS.repositoryAudit, {token: seller.admin.idToken})
    ).json()) as RepositoryAudit;
    expect(audit.invitations.queued).toBe(1);
  });
});

describe('coming back', () => {
  test('a buyer whose dispute is won comes back at the end of the line, behind those who waited meanwhile', async () => {
    await alreadySent(CAP);
    const [disputed, behind] = [await paidBuyer(), await paidBuyer()];
    for (const buyer of [disputed, behind]) expect((await requestAccess(buyer)).status).toBe(202);
    const dispute = (type: 'charge.dispute.created' | 'charge.dispute.closed', status: 'needs_response' | 'won') =>
      seller.stack.deliver(disputeEvent(seller.stack, disputed.sessionId, type, status));
    expect((await dispute('charge.dispute.created', 'needs_response')).status).toBe(200);
    expect(await grantStatus(disputed.sessionId)).toBe('revoked');
    expect((await dispute('charge.dispute.closed', 'won')).status).toBe(200);
    expect(await grantStatus(disputed.sessionId)).toBe('queued');
    expect((await accessStatus(behind.user)).queue?.position).toBe(1);
    expect((await accessStatus(disputed.user)).queue?.position).toBe(2);
  });

  test("the seller's Invite on a buyer who waits keeps their place in the line", async () => {
    await alreadySent(CAP);
    const [first, second] = [await paidBuyer(), await paidBuyer()];
    for (const buyer of [first, second]) expect((await requestAccess(buyer)).status).toBe(202);
    const audit = (await (
      await seller.stack.call(ADMIN_PATHS.repositoryAudit, {token: seller.admin.idToken})
    ).json()) as RepositoryAudit;
    const missing = audit.differences.find((difference) => difference.sessionId === first.sessionId)!;
    expect(missing).toMatchObject({kind: 'paid_missing'});
    const fixed = await seller.stack.call(ADMIN_PATHS.repositoryFix, {
      token: seller.admin.idToken,
      body: {kind: missing.kind, githubUserId: missing.githubUserId},
    });
    expect(fixed.status).toBe(200);
    expect((await accessStatus(first.user)).queue?.position).toBe(1);
    expect((await accessStatus(second.user)).queue?.position).toBe(2);
  });
});

describe('who sees the queue', () => {
  test("a buyer reads only their own place: another buyer's status has none", async () => {
    await alreadySent(CAP);
    const waiting = await paidBuyer();
    expect((await requestAccess(waiting)).status).toBe(202);
    const other = await paidBuyer();
    const seen = await accessStatus(other.user);
    expect(seen.status).toBe('none');
    expect(seen.queue).toBeUndefined();
  });
});

describe("the seller's console", () => {
  test('the repository audit shows the cap, the invitations of the last 24 hours, the queue and when it drains; a buyer is refused', async () => {
    const sentAt = await alreadySent(CAP);
    const buyers = [await paidBuyer(), await paidBuyer()];
    for (const buyer of buyers) expect((await requestAccess(buyer)).status).toBe(202);
    const response = await seller.stack.call(ADMIN_PATHS.repositoryAudit, {token: seller.admin.idToken});
    expect(response.status).toBe(200);
    const {invitations} = (await response.json()) as RepositoryAudit;
    // The second waits for the second-oldest invitation of the window to turn 24 hours old.
    expect(invitations).toEqual({cap: CAP, usedLast24h: CAP, queued: 2, drainsBy: sentAt + 1 + DAY_MS});

    expect((await seller.stack.call(ADMIN_PATHS.repositoryAudit, {token: buyers[0]!.user.idToken})).status).toBe(403);
  });
});
