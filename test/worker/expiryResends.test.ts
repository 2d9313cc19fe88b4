/**
 * Invitations that heal themselves, in workerd with a real D1 against the GitHub stand-in: the
 * cron sends again an invitation about to expire (GitHub expires them after 7 days) or expired,
 * to the grant's own numeric account, within the cap, at most `resendsAfterExpiry` times, and
 * e-mails the buyer each time. Time passes by moving the invitation back, in D1 and on the
 * stand-in alike.
 */
import {appConfig} from '../../src/config';
import type {AccessStatus} from '../../src/config/api';
import {FIXTURE_REPO, VALIDATION_FAILED} from '../../scripts/local/githubApi';
import {completedEvent, refundEvent, type SignedInUser, useSellerStack} from './stack';
import {kitGrant, setKitGrant} from './grantRows';

const DAY_MS = 24 * 3600_000;
const {invitationsPerDay: CAP, resendsAfterExpiry: MAX} = appConfig.repository;
const seller = useSellerStack();
beforeEach(async () => {
  seller.stack.github.clearFailures();
  seller.stack.github.requests.length = 0;
  await seller.stack.newDay();
});

let accounts = 0;
interface Buyer {
  user: SignedInUser;
  sessionId: string;
  login: string;
}

/** A paid buyer whose invitation went out, as the dashboard's Request Access sends it. */
async function invitedBuyer(): Promise<Buyer> {
  const user = await seller.stack.signUp();
  const sessionId = await seller.stack.paidCheckout({email: user.email, user});
  expect((await seller.stack.deliver(completedEvent(seller.stack, sessionId))).status).toBe(200);
  const login = seller.stack.github.addUser(`expiring-${Date.now().toString(36)}-${accounts++}`).login;
  const response = await seller.stack.call('/addUserToRepo', {
    token: user.idToken,
    body: {username: login, userId: user.uid},
  });
  expect(response.status).toBe(200);
  return {user, sessionId, login};
}

interface GrantRow {
  status: string;
  github_username: string;
  github_user_id: number;
  invitation_id: number;
  expiry_resends: number;
}
const grantOf = async (buyer: Buyer) => (await kitGrant<GrantRow>(seller.stack.worker.db, buyer.sessionId))!;

/** The buyer's invitation was sent `ageMs` ago, as D1 and GitHub both say. */
async function invitationAged(buyer: Buyer, ageMs: number) {
  const grant = await grantOf(buyer);
  await setKitGrant(seller.stack.worker.db, buyer.sessionId, {invited_at: Date.now() - ageMs, checked_at: null});
  seller.stack.github.ageInvitation(grant.invitation_id, ageMs);
}

const invitationsOf = (login: string) =>
  [...seller.stack.github.invitations.values()]
    .filter((invitation) => invitation.invitee.login === login)
    .map((invitation) => invitation.id);
const resentMails = (buyer: Buyer) =>
  seller.stack.mailgun.sent.filter(
    (mail) => mail.fields.to === buyer.user.email && /sent again/.test(mail.fields.subject ?? ''),
  );
/** What the buyer's dashboard says of their access now. */
const dashboardOf = async (buyer: Buyer) =>
  (await (await seller.stack.call('/accessStatus', {token: buyer.user.idToken})).json()) as AccessStatus;
const puts = () => seller.stack.github.requests.filter((request) => request.startsWith('PUT '));

describe('expiry re-sends', () => {
  test('an invitation 6.9 days old is sent again by the cron: the old one withdrawn, a new one for the same account, the buyer e-mailed', async () => {
    const buyer = await invitedBuyer();
    const fresh = await invitedBuyer();
    const before = await grantOf(buyer);
    await invitationAged(buyer, 6.9 * DAY_MS);
    await invitationAged(fresh, 5 * DAY_MS); // two days left: not yet

    await seller.stack.worker.scheduled();

    const after = await grantOf(buyer);
    expect(after).toMatchObject({status: 'pending', github_user_id: before.github_user_id, expiry_resends: 1});
    expect(after.invitation_id).not.toBe(before.invitation_id);
    expect(invitationsOf(buyer.login)).toEqual([after.invitation_id]); // the old one is withdrawn
    expect(seller.stack.github.requests).toContain(`DELETE /repos/${FIXTURE_REPO}/invitations/${before.invitation_id}`);

    const mails = resentMails(buyer);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.fields.subject).toContain(appConfig.appName);
    expect(mails[0]!.fields.text).toContain(`@${buyer.login}`);
    expect(mails[0]!.fields.text).toContain(`https://github.com/${FIXTURE_REPO}/invitations`);
    expect(mails[0]!.fields.text).toContain(`1 of ${MAX}`);

    expect((await grantOf(fresh)).expiry_resends).toBe(0);
    expect(resentMails(fresh)).toHaveLength(0);
    // Sent again, it is fresh: the next run leaves it.
    await seller.stack.worker.scheduled();
    expect((await grantOf(buyer)).expiry_resends).toBe(1);
  });

  test(`at most ${MAX} times a grant: then the invitation is left to expire, and the dashboard says it expired`, async () => {
    const buyer = await invitedBuyer();
    for (let round = 1; round <= MAX + 1; round++) {
      await invitationAged(buyer, 7.5 * DAY_MS); // expired, not accepted
      await seller.stack.worker.scheduled();
      expect((await grantOf(buyer)).expiry_resends).toBe(Math.min(round, MAX));
    }
    expect(resentMails(buyer)).toHaveLength(MAX);
    expect(resentMails(buyer).at(-1)!.fields.text).toContain(`${MAX} of ${MAX}`);
    expect(invitationsOf(buyer.login)).toHaveLength(1);

    expect(await dashboardOf(buyer)).toMatchObject({status: 'pending', username: buyer.login, expired: true});
  });

  test('the cap is never passed: with the window full the expiring invitation is left as it is, and goes once a slot frees', async () => {
    const buyer = await invitedBuyer();
    const before = await grantOf(buyer);
    await invitationAged(buyer, 6.9 * DAY_MS);
    // The rest of the day's invitations went to others.
    const at = Date.now() - 3600_000;
    for (let i = 0; i < CAP - 1; i++) {
      await seller.stack.worker.db.run(
        'INSERT INTO invitations_sent (repository, session_id, sent_at) VALUES (?, ?, ?)',
        FIXTURE_REPO,
        `cs_test_other_${i}`,
        at,
      );
      seller.stack.github.invitationTimes.push(at);
    }
    seller.stack.github.requests.length = 0;

    await seller.stack.worker.scheduled();
    expect(puts()).toEqual([]);
    expect(seller.stack.github.requests.filter((request) => request.startsWith('DELETE '))).toEqual([]);
    expect(await grantOf(buyer)).toMatchObject({
      status: 'pending',
      invitation_id: before.invitation_id,
      expiry_resends: 0,
    });
    expect(resentMails(buyer)).toHaveLength(0);

    await seller.stack.newDay();
    await seller.stack.worker.scheduled();
    expect(await grantOf(buyer)).toMatchObject({status: 'pending', expiry_resends: 1});
    expect(puts()).toHaveLength(1);
  });

  test('an invitation accepted meanwhile is not sent again: the grant becomes active', async () => {
    const buyer = await invitedBuyer();
    const {invitation_id: invitationId} = await grantOf(buyer);
    await invitationAged(buyer, 6.9 * DAY_MS);
    seller.stack.github.accept(invitationId);
    seller.stack.github.requests.length = 0;

    await seller.stack.worker.scheduled();
    expect(await grantOf(buyer)).toMatchObject({status: 'active', expiry_resends: 0});
    expect(puts()).toEqual([]);
    expect(resentMails(buyer)).toHaveLength(0);
  });

  test('an invitation the buyer declined is never sent again by the cron: a choice, not an expiry; the dashboard says it is no longer open', async () => {
    const buyer = await invitedBuyer();
    const {invitation_id: invitationId} = await grantOf(buyer);
    await invitationAged(buyer, 6.9 * DAY_MS);
    seller.stack.github.decline(invitationId);
    seller.stack.github.requests.length = 0;

    for (let run = 0; run < 2; run++) await seller.stack.worker.scheduled();
    expect(await grantOf(buyer)).toMatchObject({status: 'pending', invitation_id: invitationId, expiry_resends: MAX});
    expect(puts()).toEqual([]);
    expect(resentMails(buyer)).toHaveLength(0);
    // The buyer who changes their mind asks again on the dashboard, as after any expiry.
    expect(await dashboardOf(buyer)).toMatchObject({status: 'pending', username: buyer.login, expired: true});
  });

  test('an account the seller added by hand while the invitation waited: the invitation is withdrawn, not sent again, the seat active, and a refund leaves the account', async () => {
    const buyer = await invitedBuyer();
    const before = await grantOf(buyer);
    await invitationAged(buyer, 6.9 * DAY_MS);
    seller.stack.github.collaborators.add(buyer.login.toLowerCase());
    seller.stack.github.requests.length = 0;

    await seller.stack.worker.scheduled();
    expect(puts()).toEqual([]);
    expect(invitationsOf(buyer.login)).toEqual([]);
    expect(seller.stack.github.requests).toContain(`DELETE /repos/${FIXTURE_REPO}/invitations/${before.invitation_id}`);
    expect(await grantOf(buyer)).toMatchObject({status: 'active', invitation_id: null, expiry_resends: 0});
    expect(resentMails(buyer)).toHaveLength(0);
    expect(await dashboardOf(buyer)).toMatchObject({status: 'active', username: buyer.login});

    expect((await seller.stack.deliver(refundEvent(seller.stack, buyer.sessionId))).status).toBe(200);
    expect(seller.stack.github.collaborators.has(buyer.login.toLowerCase())).toBe(true);
    expect(await grantOf(buyer)).toMatchObject({status: 'revoked'});
  });

  test('an invitation left to expire (its re-sends spent) whose account the seller then adds by hand: the dashboard reads the seat active, not expired, and a refund leaves the account', async () => {
    const buyer = await invitedBuyer();
    const before = await grantOf(buyer);
    await setKitGrant(seller.stack.worker.db, buyer.sessionId, {expiry_resends: MAX});
    await invitationAged(buyer, 7.5 * DAY_MS);
    expect(await dashboardOf(buyer)).toMatchObject({status: 'pending', expired: true});
    // GitHub still lists the worker's invitation, expired: the account cannot have accepted it.
    seller.stack.github.collaborators.add(buyer.login.toLowerCase());
    await setKitGrant(seller.stack.worker.db, buyer.sessionId, {checked_at: null});

    expect(await dashboardOf(buyer)).toMatchObject({status: 'active', username: buyer.login, expired: false});
    expect(await grantOf(buyer)).toMatchObject({status: 'active', invitation_id: null});
    expect(invitationsOf(buyer.login)).toEqual([before.invitation_id]);
    expect((await seller.stack.deliver(refundEvent(seller.stack, buyer.sessionId))).status).toBe(200);
    expect(seller.stack.github.collaborators.has(buyer.login.toLowerCase())).toBe(true);
    expect(await grantOf(buyer)).toMatchObject({status: 'revoked'});
  });

  test('a seat move that read the grant before the cron found the account added by hand changes nothing: that account is never removed', async () => {
    const buyer = await invitedBuyer();
    await invitationAged(buyer, 6.9 * DAY_MS);
    seller.stack.github.collaborators.add(buyer.login.toLowerCase());
    const other = seller.stack.github.addUser(`${buyer.login}-other`).login;
    // The move's invitation waits on GitHub while the cron runs, as a request alongside it would.
    seller.stack.github.beforeNext(`PUT /repos/${FIXTURE_REPO}/collaborators/${other}`, () =>
      seller.stack.worker.scheduled(),
    );

    const moved = await seller.stack.call('/addUserToRepo', {
      token: buyer.user.idToken,
      body: {username: other, userId: buyer.user.uid},
    });
    expect(moved.status).toBe(200);
    expect(seller.stack.github.collaborators.has(buyer.login.toLowerCase())).toBe(true);
    expect(
      seller.stack.github.requests.filter(
        (request) => request.includes('/collaborators/') && request.startsWith('DELETE '),
      ),
    ).toEqual([]);
    expect(await grantOf(buyer)).toMatchObject({status: 'active', github_username: buyer.login, invitation_id: null});
    expect(invitationsOf(other)).toEqual([]); // the move's invitation, stale, is withdrawn
  });

  test('a purchase the seller revoked is never sent again, even if its grant is still pending', async () => {
    const buyer = await invitedBuyer();
    const before = await grantOf(buyer);
    await invitationAged(buyer, 6.9 * DAY_MS);
    // The revocation recorded on the purchase, its grant not yet taken back (the second of its two steps).
    await seller.stack.worker.db.run(
      'UPDATE purchases SET revoked_by_seller_at = ?1 WHERE session_id = ?2',
      Date.now(),
      buyer.sessionId,
    );
    seller.stack.github.requests.length = 0;

    await seller.stack.worker.scheduled();
    expect(puts()).toEqual([]);
    expect(await grantOf(buyer)).toMatchObject({
      status: 'pending',
      invitation_id: before.invitation_id,
      expiry_resends: 0,
    });
    expect(resentMails(buyer)).toHaveLength(0);
  });

  test("sent again only to the grant's own numeric account: after a rename, never to whoever took the old login", async () => {
    const buyer = await invitedBuyer();
    const before = await grantOf(buyer);
    await invitationAged(buyer, 6.9 * DAY_MS);
    const renamed = `${buyer.login}-renamed`;
    seller.stack.github.rename(buyer.login, renamed);
    const squatter = seller.stack.github.addUser(buyer.login); // takes the free login

    await seller.stack.worker.scheduled();
    const after = await grantOf(buyer);
    expect(after).toMatchObject({
      status: 'pending',
      github_user_id: before.github_user_id,
      github_username: renamed,
      expiry_resends: 1,
    });
    const invitation = seller.stack.github.invitations.get(after.invitation_id)!;
    expect(invitation.invitee.id).toBe(before.github_user_id);
    expect(invitationsOf(squatter.login)).toEqual([]);
    expect(resentMails(buyer)[0]!.fields.text).toContain(`@${renamed}`);
  });

  test("GitHub's answer to the re-sent invitation lost after the old one was withdrawn: the retry adopts the new invitation, pending, and the buyer is e-mailed once", async () => {
    const buyer = await invitedBuyer();
    const before = await grantOf(buyer);
    await invitationAged(buyer, 6.9 * DAY_MS);
    seller.stack.github.requests.length = 0;
    seller.stack.github.failNext('PUT /repos/', {status: 502, body: {message: 'Server Error'}, afterActing: true});

    await seller.stack.worker.scheduled();
    const [created] = invitationsOf(buyer.login);
    expect(created).toBeDefined();
    expect(created).not.toBe(before.invitation_id);
    expect(await grantOf(buyer)).toMatchObject({status: 'queued', invitation_id: null});

    await seller.stack.worker.db.run(
      "UPDATE jobs SET run_after = 0 WHERE kind = 'github-invite' AND status = 'pending'",
    );
    await seller.stack.worker.scheduled();
    expect(await grantOf(buyer)).toMatchObject({
      status: 'pending',
      invitation_id: created,
      github_user_id: before.github_user_id,
      expiry_resends: 1,
    });
    expect(invitationsOf(buyer.login)).toEqual([created]);
    expect(puts()).toHaveLength(1); // the re-send's: the adoption asks GitHub for nothing more
    expect(resentMails(buyer)).toHaveLength(1);
  });

  test('GitHub refusing one re-send leaves that grant failed for the seller, and the rest of the batch is still sent again', async () => {
    const refused = await invitedBuyer();
    const next = await invitedBuyer();
    await invitationAged(refused, 6.95 * DAY_MS); // the oldest: tried first
    await invitationAged(next, 6.9 * DAY_MS);
    seller.stack.github.failNext('PUT /repos/', {status: 422, body: VALIDATION_FAILED});

    await seller.stack.worker.scheduled();
    expect(await grantOf(refused)).toMatchObject({status: 'failed'});
    expect(resentMails(refused)).toHaveLength(0);
    expect(await grantOf(next)).toMatchObject({status: 'pending', expiry_resends: 1});
    expect(resentMails(next)).toHaveLength(1);
    expect(seller.stack.worker.logs.some((line) => line.includes('cron.step_failed'))).toBe(false);
  });
});
