/**
 * What the worker answers about access, for every purchase of a seeded store of record, held to a
 * recording: the proof that issue 40's one access model loses nothing. Migration 0028 moves every
 * row of access_grants and extra_grants into one table, grants; this file fills the D1 at the
 * schema before it (the seed and `addEdges` write the old tables), applies it and every migration
 * after it, and must read the same answers as the worker before 0028 recorded here. A recording
 * and not two workers side by side: the worker before cannot read the new
 * table, and a buyer's copy of the kit may have no git history to build it from.
 *
 * The store: `npm run seed:local`'s purchases (paid, refunded, disputed, open; guests; grants
 * active, pending, failed, revoked, removal failed; the prompts repository's grants), the GitHub
 * stand-in started from them as `npm start` starts it, a few states the seed does not make
 * (`addEdges`), and each non-guest buyer signed in. The
 * answers, read in one order (a read may settle a grant, as a buyer's dashboard does): the buyer's
 * /accessStatus and download links (the kit's and the prompts'), the console's purchase detail,
 * and the repository audit of each repository. Times are kept as minutes from the seed's now (one a
 * read of the run wrote, as 'during the run'), accounts as the seed's own names.
 *
 * `RECORD_ACCESS_ANSWERS=1 npx jest --selectProjects worker --testPathPatterns accessAnswers`
 * records them again, for a change that means to change an answer (say so in its commit).
 */
import {existsSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {ADMIN_PATHS, adminPath, API_PATHS} from '../../src/config/api';
import {EXTRA_FIXTURE_REPO, FIXTURE_REPO} from '../../scripts/local/githubApi';
import {GRANTS_MIGRATION, SEED_SESSION_PREFIX} from '../../scripts/local/seedData';
import {startSeededStack} from './seededStack';
import {type SignedInUser, type Stack, uniqueEmail} from './stack';

const RECORDING = path.join(__dirname, 'fixtures', 'access-answers.json');
const PURCHASES = 60;
const MINUTE_MS = 60_000;

let stack: Stack;
let admin: SignedInUser;
const now = Date.now();

/** The emulator's accounts and addresses, as the seed named them: a recording must not hold either. */
const names = new Map<string, string>();
/** The login `addEdges` picked to be renamed on GitHub once the stand-in starts. */
let renamed = '';

beforeAll(async () => {
  ({stack, admin} = await startSeededStack({
    purchases: PURCHASES,
    now,
    beforeGitHub: addEdges,
    migrateBefore: GRANTS_MIGRATION,
  }));
  // A buyer renamed on GitHub since the seat was recorded: the worker finds the account by its id.
  stack.github.rename(renamed, `${renamed}-renamed`);
  names.set(admin.uid, 'admin');
  names.set(admin.email, 'admin@example.com');
}, 120_000);
afterAll(() => stack?.stop());

/**
 * States the seed does not make, each given to one buyer of the seed (one whose seat is accepted,
 * unless said), as the worker of today writes them: the seller's revocation, a seat moved twice by
 * its owner, an invitation sent again after it expired (and expired again; a pending one), a seat
 * waiting in the queue for GitHub's cap, a renamed account (a pending one), an Advanced buyer's
 * prompts still on the account its seat moved from (which another buyer now holds), a prompts
 * grant recorded while the key had no repository, a Starter buyer's prompts taken back when the
 * upgrade that added them was refunded, and a refunded buyer's prompts whose take-back failed (the
 * row still live, its job failed). Written before the GitHub stand-in starts from the rows, so that
 * GitHub agrees with them. Written at the schema before migration 0028, as the worker of then wrote
 * them: raw SQL on the old tables, on purpose.
 */
async function addEdges(seeded: Stack) {
  const seated = async (status: string, purchaseStatus = 'paid') =>
    await seeded.worker.db.all<{
      session_id: string;
      version: number;
      plan: string;
      github_user_id: number;
      github_username: string;
      user_id: string;
    }>(
      `SELECT g.session_id, g.version, p.plan, g.github_user_id, g.github_username, p.user_id FROM access_grants g
         JOIN purchases p ON p.session_id = g.session_id
         WHERE p.status = ? AND p.user_id IS NOT NULL AND g.status = ? ORDER BY g.session_id`,
      purchaseStatus,
      status,
    );
  const active = await seated('active');
  const [revoked, moved, queued] = active;
  const [expired, renamedSeat] = await seated('pending');
  renamed = renamedSeat!.github_username;
  const [movedAway, holder, notConfigured] = active.slice(3).filter((seat) => seat.plan === 'advanced');
  const upgraded = active.slice(3).find((seat) => seat.plan === 'starter');
  const [takeBackFailed] = (await seated('revoked', 'revoked')).filter((seat) => seat.plan === 'advanced');
  const day = 86_400_000;
  await seeded.worker.db.batch([
    {
      sql: 'UPDATE extra_grants SET github_user_id = ?, github_username = ?, invitation_id = NULL WHERE session_id = ?',
      params: [holder!.github_user_id, holder!.github_username, movedAway!.session_id],
    },
    {
      sql: 'UPDATE access_grants SET username_changes = 1, chosen_by_owner = 1 WHERE session_id = ?',
      params: [movedAway!.session_id],
    },
    {
      sql: "UPDATE extra_grants SET repository = NULL, invitation_id = NULL, status = 'failed', detail = ? WHERE session_id = ?",
      params: [
        'No repository is set for "prompts" (the worker\'s GITHUB_EXTRA_REPOS), so nothing was sent.',
        notConfigured!.session_id,
      ],
    },
    {
      sql: `INSERT INTO upgrades (session_id, purchase_session_id, user_id, email, from_plan, to_plan, amount, currency, status,
              revoke_reason, payment_intent_id, amount_paid, amount_refunded, created_at, paid_at, updated_at)
            SELECT ?, session_id, user_id, email, 'starter', 'advanced', 5000, 'usd', 'revoked', 'refunded', ?, 5000, 5000, ?, ?, ?
            FROM purchases WHERE session_id = ?`,
      params: [
        `cs_test_upgrade_edge`,
        'pi_upgrade_edge',
        now - 5 * day,
        now - 5 * day,
        now - 4 * day,
        upgraded!.session_id,
      ],
    },
    {
      sql: `INSERT INTO extra_grants (session_id, repository_key, repository, github_user_id, github_username, invitation_id, status, detail, queued_at, invited_at, updated_at)
            VALUES (?, 'prompts', ?, ?, ?, 88000001, 'revoked', 'no longer in the plan', ?, ?, ?)`,
      params: [
        upgraded!.session_id,
        EXTRA_FIXTURE_REPO,
        upgraded!.github_user_id,
        upgraded!.github_username,
        now - 5 * day,
        now - 5 * day,
        now - 4 * day,
      ],
    },
    {
      sql: "UPDATE extra_grants SET status = 'active' WHERE session_id = ?",
      params: [takeBackFailed!.session_id],
    },
    {
      sql: `INSERT INTO jobs (key, kind, payload, status, attempts, run_after, last_error, created_at, updated_at, session_id)
            VALUES (?, 'extra-grants', ?, 'failed', 12, ?, 'GitHub answered 403: Must have admin rights to Repository.', ?, ?, ?)`,
      params: [
        `extra:${takeBackFailed!.session_id}:refund`,
        JSON.stringify({sessionId: takeBackFailed!.session_id}),
        now - day,
        now - 2 * day,
        now - day,
        takeBackFailed!.session_id,
      ],
    },
    {
      sql: 'UPDATE purchases SET revoked_by_seller_at = ? WHERE session_id = ?',
      params: [now - 2 * day, revoked!.session_id],
    },
    {
      sql: "UPDATE access_grants SET status = 'revoked', detail = 'revoked by an admin', revoked_by_seller = 1, version = version + 1, updated_at = ? WHERE session_id = ?",
      params: [now - 2 * day, revoked!.session_id],
    },
    {sql: "UPDATE extra_grants SET status = 'revoked' WHERE session_id = ?", params: [revoked!.session_id]},
    {
      sql: 'UPDATE access_grants SET username_changes = 2, chosen_by_owner = 1 WHERE session_id = ?',
      params: [moved!.session_id],
    },
    {
      sql: 'UPDATE access_grants SET invited_at = ?, expiry_resends = 1, resent_after_expiry = 1, invitation_expired = 1, checked_at = ? WHERE session_id = ?',
      params: [now - 8 * day, now, expired!.session_id],
    },
    {
      sql: "UPDATE access_grants SET status = 'queued', invitation_id = NULL, invited_at = NULL WHERE session_id = ?",
      params: [queued!.session_id],
    },
    {
      sql: "UPDATE extra_grants SET status = 'queued', invitation_id = NULL WHERE session_id = ?",
      params: [queued!.session_id],
    },
    {
      sql: 'INSERT INTO invitation_queue (session_id, version, repository, queued_at) VALUES (?, ?, ?, ?)',
      params: [queued!.session_id, queued!.version, FIXTURE_REPO, now - 3600_000],
    },
    // GitHub's 50 invitations a day to the kit's repository are spent (by others, an hour ago and
    // before): the queued seat waits for the window, its place and the time it frees answered.
    ...Array.from({length: 50}, (_, i) => ({
      sql: 'INSERT INTO invitations_sent (repository, session_id, sent_at) VALUES (?, ?, ?)',
      params: [FIXTURE_REPO, `cs_test_elsewhere${i}`, now - (60 + i) * 60_000],
    })),
  ]);
}

interface Purchase {
  session_id: string;
  user_id: string | null;
  email: string;
}

/** Each seeded buyer with an account signs in as one of the emulator's, in the seed's place. */
async function signInBuyers(purchases: Purchase[]): Promise<Map<string, SignedInUser>> {
  const buyers = new Map<string, SignedInUser>();
  for (const purchase of purchases.filter((candidate) => candidate.user_id)) {
    const user = await stack.signUp({email: uniqueEmail('seeded'), verified: true});
    names.set(user.uid, purchase.user_id!);
    names.set(user.email, purchase.email);
    await stack.worker.db.batch([
      {
        sql: 'UPDATE purchases SET user_id = ?, email = ? WHERE session_id = ?',
        params: [user.uid, user.email, purchase.session_id],
      },
      {
        sql: "UPDATE grants SET user_id = ? WHERE session_id = ? AND repository_key = 'kit'",
        params: [user.uid, purchase.session_id],
      },
    ]);
    buyers.set(purchase.session_id, user);
  }
  return buyers;
}

const OFFERS = new Set(['refundableUntil', 'withdrawableUntil']);
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/**
 * An answer as the recording keeps it: times as whole minutes from the seed's now (`t+5`,
 * `t-1440`), the emulator's accounts and addresses as the seed's names, one-time links and
 * tokens as their kind only.
 */
function normalised(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => normalised(item, key));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([name]) => name !== 'checkedAt')
        .map(([name, item]) => [name, normalised(item, name)]),
    );
  // The buyer's own refunds end at the end of a UTC day: how far that is from the seed's now depends
  // on the hour of the run. Whether each is offered is the answer here (selfRefund.test.ts: until when).
  if (OFFERS.has(key) && typeof value === 'number') return 'offered';
  // Unix milliseconds of these years; no id, count or amount here comes near.
  if (typeof value === 'number' && value > 1e12 && value < 1e13) return minutes(value);
  if (typeof value === 'string') {
    if (ISO_TIME.test(value)) return minutes(Date.parse(value));
    if (/url$/i.test(key) && value.includes('/download/')) return '<one-time link>';
    // The stand-ins listen on a free port of each run.
    let text = value.replace(/http:\/\/127\.0\.0\.1:\d+/g, 'http://127.0.0.1:<port>');
    for (const [real, seeded] of names) text = text.split(real).join(seeded);
    return text;
  }
  return value;
}
const minutes = (time: number) => {
  // Written by a read of this run (a grant seen accepted): how long after the seed depends on the machine.
  if (time >= now && time <= Date.now()) return 'during the run';
  const offset = Math.round((time - now) / MINUTE_MS);
  return `t${offset < 0 ? '' : '+'}${offset}`;
};

async function answer(path: string, options: {token: string; body?: unknown}) {
  const response = await stack.call(path, options);
  const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  return {status: response.status, body};
}

test('every purchase reads as recorded: the buyer’s access and downloads, the console’s detail, each audit', async () => {
  const purchases = await stack.worker.db.all<Purchase>(
    `SELECT session_id, user_id, email FROM purchases WHERE session_id LIKE '${SEED_SESSION_PREFIX}%' ORDER BY session_id`,
  );
  expect(purchases).toHaveLength(PURCHASES);
  const buyers = await signInBuyers(purchases);

  const answers: Record<string, unknown> = {};
  for (const {session_id: sessionId} of purchases) {
    const buyer = buyers.get(sessionId);
    const download = async (repository?: string) => {
      const {status, body} = await answer(API_PATHS.downloadLink, {
        token: buyer!.idToken,
        body: repository ? {repository} : {},
      });
      // A link is the buyer's for minutes: whether one is given, and the refusal's code.
      return {status, code: body?.code ?? null};
    };
    answers[sessionId] = normalised({
      accessStatus: buyer ? await answer(API_PATHS.accessStatus, {token: buyer.idToken}) : 'a guest: no account',
      downloads: buyer ? {kit: await download(), prompts: await download('prompts')} : 'a guest: no account',
      console: await answer(adminPath(ADMIN_PATHS.purchase, {sessionId}), {token: admin.idToken}),
    });
  }
  for (const repository of ['kit', 'prompts']) {
    const audit = await answer(
      repository === 'kit' ? ADMIN_PATHS.repositoryAudit : `${ADMIN_PATHS.repositoryAudit}?repository=${repository}`,
      {token: admin.idToken},
    );
    answers[`audit of ${repository}`] = normalised(audit);
  }

  if (process.env.RECORD_ACCESS_ANSWERS === '1' || !existsSync(RECORDING)) {
    if (process.env.CI) throw new Error(`${RECORDING} is missing: record it with RECORD_ACCESS_ANSWERS=1.`);
    writeFileSync(RECORDING, `${JSON.stringify(answers, null, 1)}\n`);
  }
  expect(answers).toEqual(JSON.parse(readFileSync(RECORDING, 'utf8')));
});
