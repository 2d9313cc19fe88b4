/**
 * The repository audit on the cron, in workerd with a real D1 against the GitHub stand-in: once a
 * day (its next run kept in D1), it invites again a paid buyer missing from the repository, within
 * the cap and a bounded batch a run, removes nobody, and e-mails the seller a digest of what it
 * found and did, or nothing when there is nothing to say.
 */
import {appConfig, PLAN_CURRENCY, planAmount} from '../../src/config';
import {FIXTURE_REPO} from '../../scripts/local/githubApi';
import {CRON_BATCHES} from '../../worker/src/cronBatches';
import {completedEvent, type SignedInUser, useSellerStack} from './stack';
import {insertActiveKitGrant, kitGrant, setEveryKitGrant, setKitGrant} from './grantRows';

const DAY_MS = 24 * 3600_000;
const seller = useSellerStack();
const AUDIT_FIXES = CRON_BATCHES.auditFixes;

beforeEach(async () => {
  seller.stack.github.clearFailures();
  // Each test starts from a repository that holds no one but its owner.
  seller.stack.github.invitations.clear();
  for (const login of [...seller.stack.github.collaborators])
    if (login !== FIXTURE_REPO.split('/')[0]) seller.stack.github.collaborators.delete(login);
  await setEveryKitGrant(seller.stack.worker.db, {status: 'revoked'});
  seller.stack.github.requests.length = 0;
  seller.stack.mailgun.sent.length = 0;
  await seller.stack.newDay();
});

/** The day's audit is due at the next cron run. */
const auditDue = () =>
  seller.stack.worker.db.run(
    `INSERT INTO scheduled_runs (name, next_run_at) VALUES ('repository-audit', 0)
     ON CONFLICT (name) DO UPDATE SET next_run_at = 0, continuing = 0`,
  );
const nextAuditAt = async () =>
  (
    await seller.stack.worker.db.all<{next_run_at: number}>(
      "SELECT next_run_at FROM scheduled_runs WHERE name = 'repository-audit'",
    )
  )[0]?.next_run_at;
const digests = () =>
  seller.stack.mailgun.sent.filter(
    (mail) => mail.fields.to === appConfig.mail.forwardRepliesTo && /repository audit/.test(mail.fields.subject ?? ''),
  );
/** Accounts taken off the repository (a re-invitation withdraws only the grant's own old invitation). */
const removals = () =>
  seller.stack.github.requests.filter((request) => request.startsWith(`DELETE /repos/${FIXTURE_REPO}/collaborators/`));
const invitedLogins = () => [...seller.stack.github.invitations.values()].map((invitation) => invitation.invitee.login);

let accounts = 0;
const newAccount = (label: string) => seller.stack.github.addUser(`${label}-${Date.now().toString(36)}-${accounts++}`);

/** A buyer who paid and asked for access: the invitation is sent. */
async function invitedBuyer(
  label: string,
): Promise<{user: SignedInUser; sessionId: string; login: string; invitationId: number}> {
  const user = await seller.stack.signUp();
  const sessionId = await seller.stack.paidCheckout({email: user.email, user});
  expect((await seller.stack.deliver(completedEvent(seller.stack, sessionId))).status).toBe(200);
  const {login} = newAccount(label);
  expect(
    (await seller.stack.call('/addUserToRepo', {token: user.idToken, body: {username: login, userId: user.uid}}))
      .status,
  ).toBe(200);
  const grant = await kitGrant<{invitation_id: number}>(seller.stack.worker.db, sessionId, 'invitation_id');
  return {user, sessionId, login, invitationId: grant!.invitation_id};
}

/** A buyer who paid, accepted the invitation, and was then taken off the repository by hand. */
async function removedBuyer(): Promise<{user: SignedInUser; sessionId: string; login: string}> {
  const {user, sessionId, login, invitationId} = await invitedBuyer('missing');
  seller.stack.github.accept(invitationId);
  await setKitGrant(seller.stack.worker.db, sessionId, {status: 'active'});
  seller.stack.github.collaborators.delete(login.toLowerCase());
  return {user, sessionId, login};
}

/** An account on the repository that nobody paid for (added by hand). */
function stranger(): string {
  const {login} = newAccount('stranger');
  seller.stack.github.collaborators.add(login.toLowerCase());
  return login;
}

/** Paid purchases with accepted seats, off the repository, written straight into D1. */
async function paidOffRepository(count: number): Promise<string[]> {
  const plan = appConfig.plans[0]!;
  const logins: string[] = [];
  for (let i = 0; i < count; i++) {
    const {login, id} = newAccount('gone');
    const sessionId = `cs_test_audit_${login}`;
    const now = Date.now();
    await seller.stack.worker.db.run(
      `INSERT INTO purchases (session_id, customer_id, user_id, email, price_id, plan, payment_intent_id, status, created_at, updated_at, amount_total, currency)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'paid', ?8, ?8, ?9, '${PLAN_CURRENCY}')`,
      sessionId,
      `cus_${login}`,
      `user-${login}`,
      `${login}@example.com`,
      plan.priceId.test,
      plan.id,
      `pi_${login}`,
      now,
      planAmount(plan),
    );
    await insertActiveKitGrant(seller.stack.worker.db, {sessionId, login, githubUserId: id, at: now});
    logins.push(login);
  }
  return logins;
}

describe('the scheduled repository audit', () => {
  test('a missing paid buyer is invited again by the cron, an unpaid collaborator is reported but not removed, and the seller gets a digest', async () => {
    const buyer = await removedBuyer();
    const unpaid = stranger();
    seller.stack.github.requests.length = 0;
    await auditDue();

    await seller.stack.worker.scheduled();

    expect(invitedLogins()).toEqual([buyer.login]);
    const grant = await kitGrant<{status: string}>(seller.stack.worker.db, buyer.sessionId, 'status');
    expect(grant!.status).toBe('pending');
    // Nobody removed: the stranger stays, for the seller to decide.
    expect(seller.stack.github.collaborators.has(unpaid.toLowerCase())).toBe(true);
    expect(removals()).toEqual([]);

    const [digest] = digests();
    expect(digests()).toHaveLength(1);
    expect(digest!.fields.subject).toContain(appConfig.appName);
    expect(digest!.fields.text).toMatch(
      new RegExp(`invited again:\\n  @${buyer.login} \\(${buyer.user.email.replace(/\./g, '\\.')}\\)`),
    );
    expect(digest!.fields.text).toMatch(new RegExp(`removes nobody on its own\\):\\n  @${unpaid} \\(collaborator\\)`));
    // The buyer is told too, as for every invitation.
    expect(
      seller.stack.mailgun.sent.some(
        (mail) => mail.fields.to === buyer.user.email && mail.fields.text?.includes(`@${buyer.login}`),
      ),
    ).toBe(true);

    const log = await seller.stack.worker.db.all<{admin_email: string; outcome: string; session_id: string}>(
      "SELECT admin_email, outcome, session_id FROM admin_audit WHERE action = 'repository_fix' ORDER BY id DESC LIMIT 1",
    );
    expect(log).toEqual([{admin_email: 'scheduled audit', outcome: 'done', session_id: buyer.sessionId}]);

    // Done for the day: the next cron runs do not audit again.
    expect(await nextAuditAt()).toBeGreaterThan(Date.now() + DAY_MS - 60_000);
    seller.stack.github.collaborators.delete(buyer.login.toLowerCase());
    seller.stack.github.invitations.clear();
    await seller.stack.worker.scheduled();
    expect(invitedLogins()).toEqual([]);
    expect(digests()).toHaveLength(1);
  });

  test('a refunded account still on the repository is reported, not removed', async () => {
    const buyer = await removedBuyer();
    seller.stack.github.collaborators.add(buyer.login.toLowerCase()); // back on the repository
    await seller.stack.worker.db.run("UPDATE purchases SET status = 'revoked' WHERE session_id = ?", buyer.sessionId);
    await setKitGrant(seller.stack.worker.db, buyer.sessionId, {status: 'revoked'});
    seller.stack.github.requests.length = 0;
    await auditDue();

    await seller.stack.worker.scheduled();
    expect(seller.stack.github.collaborators.has(buyer.login.toLowerCase())).toBe(true);
    expect(removals()).toEqual([]);
    expect(digests()[0]!.fields.text).toMatch(
      new RegExp(`still on the repository \\(left there\\):\\n  @${buyer.login}`),
    );
  });

  test('an invitation that expired after the last re-send is in the digest, and is not invited again', async () => {
    const {sessionId, login, invitationId} = await invitedBuyer('never-accepts');
    const expiredAgo = 7.5 * DAY_MS;
    await setKitGrant(seller.stack.worker.db, sessionId, {
      invited_at: Date.now() - expiredAgo,
      expiry_resends: appConfig.repository.resendsAfterExpiry,
    });
    seller.stack.github.ageInvitation(invitationId, expiredAgo);
    seller.stack.github.requests.length = 0;
    await auditDue();

    await seller.stack.worker.scheduled();
    expect(seller.stack.github.requests.filter((request) => request.startsWith('PUT '))).toEqual([]);
    expect(digests()[0]!.fields.text).toMatch(
      new RegExp(
        `Invitations that expired, not accepted after ${appConfig.repository.resendsAfterExpiry} re-sends[^\\n]*:\\n  @${login}`,
      ),
    );
  });

  test('nothing to say: no digest', async () => {
    await auditDue();
    await seller.stack.worker.scheduled();
    expect(await nextAuditAt()).toBeGreaterThan(Date.now() + DAY_MS - 60_000);
    expect(digests()).toEqual([]);
  });

  test(`a bounded batch a run (${AUDIT_FIXES}): the next cron run carries on without a second digest`, async () => {
    const missing = await paidOffRepository(AUDIT_FIXES + 2);
    await auditDue();

    await seller.stack.worker.scheduled();
    expect(invitedLogins()).toHaveLength(AUDIT_FIXES);
    expect(digests()).toHaveLength(1);
    expect(digests()[0]!.fields.text).toContain('2 more missing buyers are invited again in the next runs');

    await seller.stack.worker.scheduled(); // due again at once: it carries on
    expect(new Set(invitedLogins())).toEqual(new Set(missing));
    expect(digests()).toHaveLength(1);
    expect(await nextAuditAt()).toBeGreaterThan(Date.now() + DAY_MS - 60_000);
  });

  test('the cap holds: with the window full, nobody is invited, and the digest says who waits', async () => {
    const [login] = await paidOffRepository(1);
    const at = Date.now() - 3600_000;
    for (let i = 0; i < appConfig.repository.invitationsPerDay; i++) {
      await seller.stack.worker.db.run(
        'INSERT INTO invitations_sent (repository, session_id, sent_at) VALUES (?, ?, ?)',
        FIXTURE_REPO,
        `cs_test_full_${i}`,
        at,
      );
    }
    seller.stack.github.requests.length = 0;
    await auditDue();

    await seller.stack.worker.scheduled();
    expect(seller.stack.github.requests.filter((request) => request.startsWith('PUT '))).toEqual([]);
    expect(invitedLogins()).not.toContain(login);
    expect(digests()[0]!.fields.text).toContain('1 more missing buyers are invited again in the next runs');
    // Looked at again within the hour, not at every run.
    expect(await nextAuditAt()).toBeGreaterThan(Date.now() + 30 * 60_000);
  });

  test("a renamed buyer is invited by the account's numeric id, never whoever took the old login; a deleted account, nobody", async () => {
    const buyer = await removedBuyer();
    const renamed = `${buyer.login}-renamed`;
    seller.stack.github.rename(buyer.login, renamed);
    const squatter = seller.stack.github.addUser(buyer.login); // takes the free login
    const gone = await removedBuyer();
    seller.stack.github.deleteAccount(gone.login);
    seller.stack.github.addUser(gone.login);
    await auditDue();

    await seller.stack.worker.scheduled();
    expect(invitedLogins()).toEqual([renamed]);
    const [invitation] = [...seller.stack.github.invitations.values()];
    expect(invitation!.invitee.id).not.toBe(squatter.id);
    expect(await grantState(buyer.sessionId)).toMatchObject({status: 'pending', github_username: renamed});
    // The deleted account's seat is left as it was, and the seller is told why nobody was invited.
    expect(await grantState(gone.sessionId)).toMatchObject({status: 'active', github_username: gone.login});
    expect(digests()[0]!.fields.text).toContain(
      `@${gone.login}: The GitHub account @${gone.login} no longer exists: nobody was invited.`,
    );
    const log = await seller.stack.worker.db.all<{outcome: string; detail: string}>(
      "SELECT outcome, detail FROM admin_audit WHERE action = 'repository_fix' AND session_id = ?",
      buyer.sessionId,
    );
    expect(log).toEqual([{outcome: 'done', detail: `invited @${renamed} again: invited`}]);
  });

  test('an invitation the buyer declined (or the seller withdrew) is not sent again by the audit, day after day; the digest names it', async () => {
    const {sessionId, login, invitationId} = await invitedBuyer('declines');
    seller.stack.github.invitations.delete(invitationId); // declined: GitHub lists it no more
    for (let day = 0; day < 2; day++) {
      seller.stack.github.requests.length = 0;
      seller.stack.mailgun.sent.length = 0;
      await auditDue();
      await seller.stack.worker.scheduled();
      expect(seller.stack.github.requests.filter((request) => request.startsWith('PUT '))).toEqual([]);
      expect(await grantState(sessionId)).toMatchObject({status: 'pending', invitation_id: invitationId});
      expect(digests()[0]!.fields.text).toMatch(new RegExp(`invitation declined or withdrawn[^\\n]*:\\n  @${login}`));
    }
  });

  test('an accepted buyer removed by hand is invited again as the grant was: who chose the account, and the re-sends after expiry, unchanged', async () => {
    const buyer = await removedBuyer();
    // Chosen by whoever held the purchase, not its verified owner, and sent again twice after expiry.
    await setKitGrant(seller.stack.worker.db, buyer.sessionId, {chosen_by_owner: 0, expiry_resends: 2});
    await auditDue();

    await seller.stack.worker.scheduled();
    expect(invitedLogins()).toEqual([buyer.login]);
    expect(await grantState(buyer.sessionId)).toMatchObject({status: 'pending', chosen_by_owner: 0, expiry_resends: 2});
  });

  test('GitHub not answering mid re-invitation leaves the grant as it was (active), not failed, and the digest says it could not go', async () => {
    const buyer = await removedBuyer();
    // The check that the account is not on the repository already, asked just before inviting.
    seller.stack.github.failNext(
      `GET /repos/${FIXTURE_REPO}/collaborators/`,
      {status: 502, body: {message: 'Server Error'}},
      10,
    );
    await auditDue();

    await seller.stack.worker.scheduled();
    expect(invitedLogins()).toEqual([]);
    expect(await grantState(buyer.sessionId)).toMatchObject({status: 'active', detail: null});
    expect(digests()[0]!.fields.text).toMatch(new RegExp(`could not go:\\n  @${buyer.login}: `));
  });

  test('the buyer moves the seat while the audit looks the account up: the audit stops, and never moves the seat back', async () => {
    const buyer = await removedBuyer();
    const {login: other, id: otherId} = newAccount('moved-to');
    seller.stack.github.beforeNext('GET /user/', async () => {
      const moved = await seller.stack.call('/addUserToRepo', {
        token: buyer.user.idToken,
        body: {username: other, userId: buyer.user.uid},
      });
      expect(moved.status).toBe(200);
    });
    await auditDue();

    await seller.stack.worker.scheduled();
    expect(invitedLogins()).toEqual([other]);
    expect(await grantState(buyer.sessionId)).toMatchObject({
      status: 'pending',
      github_username: other,
      github_user_id: otherId,
    });
  });
});

interface GrantState {
  status: string;
  detail: string | null;
  github_username: string;
  github_user_id: number;
  invitation_id: number | null;
  chosen_by_owner: number;
  expiry_resends: number;
}
const grantState = async (sessionId: string) => (await kitGrant<GrantState>(seller.stack.worker.db, sessionId))!;
