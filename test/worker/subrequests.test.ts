/**
 * Cloudflare's per-invocation limit on subrequests (50 on the Free plan), in workerd with a real
 * D1: the worker counts its own fetches to GitHub and Mailgun, stops a batch before an item that
 * might not fit, and leaves the rest for the next cron run, with nothing half done and no attempt
 * counted against a job that never ran. The limit here is 20, so that small batches cross it.
 */
import {appConfig} from '../../src/config';
import {ADMIN_PATHS, type RepositoryAudit, type RepositoryFixAllResult} from '../../src/config/api';
import {FIXTURE_REPO} from '../../scripts/local/githubApi';
import {completedEvent, type SignedInUser, useSellerStack} from './stack';

const LIMIT = 20;
const seller = useSellerStack({SUBREQUEST_LIMIT: String(LIMIT)});
const DAY_MS = 24 * 3600_000;

let accounts = 0;
const githubAccount = () => seller.stack.github.addUser(`budget-${Date.now().toString(36)}-${accounts++}`).login;

/** Requests that reached GitHub and Mailgun (each one a subrequest of the worker's) since `reset`. */
const subrequests = () => seller.stack.github.requests.length + seller.stack.mailgun.sent.length;
function reset() {
  seller.stack.github.requests.length = 0;
  seller.stack.mailgun.sent.length = 0;
}

async function queuedBuyer(): Promise<{user: SignedInUser; login: string}> {
  const user = await seller.stack.signUp();
  const sessionId = await seller.stack.paidCheckout({email: user.email, user});
  expect((await seller.stack.deliver(completedEvent(seller.stack, sessionId))).status).toBe(200);
  const login = githubAccount();
  const response = await seller.stack.call('/addUserToRepo', {
    token: user.idToken,
    body: {username: login, userId: user.uid},
  });
  expect(response.status).toBe(202); // the day's invitations are used up: it waits in the queue
  return {user, login};
}

/** The day's cap, used up an hour ago, on both sides. */
async function capUsed() {
  const at = Date.now() - 3600_000;
  for (let i = 0; i < appConfig.repository.invitationsPerDay; i++) {
    await seller.stack.worker.db.run(
      'INSERT INTO invitations_sent (repository, session_id, sent_at) VALUES (?, ?, ?)',
      FIXTURE_REPO,
      `cs_test_used_${i}`,
      at + i,
    );
    seller.stack.github.invitationTimes.push(at + i);
  }
}

async function dayPasses() {
  await seller.stack.worker.db.run('UPDATE invitations_sent SET sent_at = sent_at - ?', DAY_MS);
  seller.stack.github.invitationTimes.length = 0;
}

/** E-mails waiting in the outbox, due now, as a Mailgun outage would leave them. */
async function mailsWaiting(count: number) {
  for (let i = 0; i < count; i++) {
    const message = {
      from: `shop@${appConfig.domainName}`,
      to: `waiting-${i}@example.com`,
      subject: 'Waiting',
      text: 'Sent late.',
    };
    await seller.stack.worker.db.run(
      `INSERT INTO jobs (key, kind, payload, run_after, created_at, updated_at) VALUES (?, 'mail', ?, ?, ?, ?)`,
      `budget-mail:${Date.now()}:${i}`,
      JSON.stringify(message),
      Date.now() - 1000,
      Date.now(),
      Date.now(),
    );
  }
}

const jobs = () =>
  seller.stack.worker.db.all<{status: string; attempts: number; last_error: string | null}>(
    "SELECT status, attempts, last_error FROM jobs WHERE kind = 'mail' AND key LIKE 'budget-mail:%'",
  );

test("a cron run spends at most the plan's subrequests; the queue and the outbox carry on over the next runs, with nothing lost or counted as failed", async () => {
  await seller.stack.newDay();
  await capUsed();
  const buyers = [];
  for (let i = 0; i < 5; i++) buyers.push(await queuedBuyer());
  await mailsWaiting(12);
  await dayPasses();

  reset();
  await seller.stack.worker.scheduled();
  const first = subrequests();
  expect(first).toBeGreaterThan(0);
  expect(first).toBeLessThanOrEqual(LIMIT);
  // What did not fit waits, due, with no attempt spent and no error recorded.
  const waiting = (await jobs()).filter((job) => job.status === 'pending');
  expect(waiting.length).toBeGreaterThan(0);
  expect(waiting.every((job) => job.attempts === 0 && job.last_error === null)).toBe(true);

  for (
    let run = 0;
    run < 10 &&
    ((await jobs()).some((job) => job.status !== 'done') || seller.stack.github.invitations.size < buyers.length);
    run++
  ) {
    reset();
    await seller.stack.worker.scheduled();
    expect(subrequests()).toBeLessThanOrEqual(LIMIT);
  }
  const invited = new Set([...seller.stack.github.invitations.values()].map((invitation) => invitation.invitee.login));
  expect(buyers.filter(({login}) => !invited.has(login))).toEqual([]);
  expect((await jobs()).map((job) => job.status)).toEqual(Array(12).fill('done'));
  expect((await jobs()).every((job) => job.attempts === 1)).toBe(true);
});

test('the audit says how many one fix-all fixes within the subrequests, and the fix-all does that many and counts the rest', async () => {
  const strangers = Array.from({length: 6}, () => {
    const login = githubAccount();
    seller.stack.github.collaborators.add(login.toLowerCase());
    return login;
  });
  const token = seller.admin.idToken;
  const audit = (await (await seller.stack.call(ADMIN_PATHS.repositoryAudit, {token})).json()) as RepositoryAudit;
  const limit = audit.fixAllLimits.unpaid_on_repository;
  expect(limit).toBeGreaterThan(0);
  expect(limit).toBeLessThan(strangers.length);

  reset();
  const first = (await (
    await seller.stack.call(ADMIN_PATHS.repositoryFixAll, {token, body: {kind: 'unpaid_on_repository'}})
  ).json()) as RepositoryFixAllResult;
  expect(subrequests()).toBeLessThanOrEqual(LIMIT);
  expect(first).toMatchObject({status: 'partly_fixed', done: limit, failed: [], left: strangers.length - limit});
  const second = (await (
    await seller.stack.call(ADMIN_PATHS.repositoryFixAll, {token, body: {kind: 'unpaid_on_repository'}})
  ).json()) as RepositoryFixAllResult;
  expect(second).toMatchObject({status: 'fixed', done: strangers.length - limit, failed: [], left: 0});
  expect(strangers.filter((login) => seller.stack.github.collaborators.has(login.toLowerCase()))).toEqual([]);
});
