/**
 * Migrations 0037 (a purchase's seats) and 0038 (a team's members, the member of a grant and of a
 * download link) only add. On a D1 filled as the worker before them left it (migrated up to 0036:
 * purchases paid and refunded, grants of the kit and of the prompts, a download link not yet used),
 * every row comes through as it was, with one seat and no member; each buyer reads the same access;
 * the console lists the same purchases; and the link made before still downloads.
 *
 * Then 0039 (seats added, and why a seat ended) and 0040 (seats refunded) on a D1 as the worker of
 * 0038 left it: a team of 3 with a member joined and one invited, and a one-seat purchase moved up
 * to a higher plan. Every row comes through, the team reads the same seats and members, and the
 * move still gives the higher plan.
 *
 * Then 0041 (team_members built again, so that the seller may end a seat) on a D1 as the worker of
 * 0040 left it, with members who left (removed by the owner, one whose seat was refunded, an
 * invitation withdrawn): every row comes through, ids kept; the team and the console read the same;
 * and the indexes still hold one member a seat and one seat an address. 0042 (an upgrade's line item)
 * only adds, with no line and no credit on the upgrades there are. 0047 (upgrade codes) only adds:
 * a launch code made at 0046 lists the same in the console, a code for purchases with its use.
 * 0048 (payouts through Stripe) only adds: a payout marked at 0047 lists the same in the console,
 * marked and made. 0049 (commission taken back) only adds a table: the commission that payout paid
 * reads paid as before, nothing owed back.
 */
import {createHash} from 'node:crypto';
import {
  ADMIN_PATHS,
  adminPath,
  API_PATHS,
  type AdminAffiliates,
  type AdminPurchase,
  type AdminPurchaseDetail,
  type BuyerPlan,
  type Page,
  type Team,
} from '../../src/config/api';
import {EXTRA_FIXTURE_REPO} from '../../scripts/local/githubApi';
import {PLAN_CURRENCY} from '../../src/config';
import {migrationFiles, migrationStatements} from '../../scripts/support/migrations';
import {type SignedInUser, startStack, type Stack, uniqueEmail} from './stack';

const MIGRATION = '0037_purchase_seats.sql';
const SEATS_ADDED = '0039_seats_added.sql';
const SELLER_ENDS = '0041_seller_takes_back_member.sql';
const UPGRADE_CODES = '0047_upgrade_codes.sql';
const STRIPE_PAYOUTS = '0048_affiliate_stripe_payouts.sql';
const HOUR_MS = 3_600_000;
const TOKEN = 'a'.repeat(43);

let stack: Stack;
let admin: SignedInUser;
beforeAll(async () => {
  const email = uniqueEmail('seller');
  stack = await startStack(
    {GITHUB_EXTRA_REPOS: `prompts=${EXTRA_FIXTURE_REPO}`, ADMIN_EMAILS: email},
    {migrateBefore: MIGRATION},
  );
  admin = await stack.signUp({email, verified: true});
});
afterAll(() => stack.stop());

const rowsOf = (table: string) => stack.worker.db.all<Record<string, unknown>>(`SELECT * FROM ${table} ORDER BY rowid`);
/** The table's indexes, as SQLite keeps their statements. */
const indexesOf = (table: string) =>
  stack.worker.db.all(
    `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ?1 ORDER BY name`,
    table,
  );
/** The launch codes as the console lists them. */
const consoleCodes = async () => {
  const answer = await stack.call(ADMIN_PATHS.launchCodes, {token: admin.idToken});
  expect(answer.status).toBe(200);
  return ((await answer.json()) as {items: Record<string, unknown>[]}).items;
};
/** A team's members as the console lists them. */
const consoleTeam = async (sessionId: string) => {
  const answer = await stack.call(adminPath(ADMIN_PATHS.purchase, {sessionId}), {token: admin.idToken});
  expect(answer.status).toBe(200);
  return ((await answer.json()) as AdminPurchaseDetail).members;
};

/** A purchase of the plan with the prompts, as the worker of 0036 recorded it, its kit and prompts in `status`. */
async function purchase(user: SignedInUser, status: 'active' | 'revoked', githubId: number) {
  const sessionId = `cs_test_team_migration_${user.uid}`;
  const now = Date.now();
  const grant = (key: string) => ({
    sql: `INSERT INTO grants (session_id, repository_key, repository, user_id, github_username, github_user_id,
            invitation_id, status, version, updated_at)
          VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 2, ?9)`,
    params: [
      sessionId,
      key,
      key === 'kit' ? null : EXTRA_FIXTURE_REPO,
      user.uid,
      `before-${githubId}`,
      githubId,
      githubId + 1,
      status,
      now - HOUR_MS,
    ],
  });
  await stack.worker.db.batch([
    {
      sql: `INSERT INTO purchases (session_id, user_id, email, plan, payment_intent_id, status, created_at, updated_at, amount_total, currency, paid_at)
            VALUES (?1, ?2, ?3, 'advanced', ?4, ?5, ?6, ?6, 9900, 'usd', ?6)`,
      params: [
        sessionId,
        user.uid,
        user.email,
        `pi_${sessionId}`,
        status === 'active' ? 'paid' : 'revoked',
        now - 2 * HOUR_MS,
      ],
    },
    grant('kit'),
    grant('prompts'),
  ]);
  return sessionId;
}

/** Applies the migrations whose file names `which` picks, in order, as wrangler does. */
async function migrate(which: (name: string) => boolean) {
  for (const file of migrationFiles().filter(which))
    for (const sql of migrationStatements(file)) await stack.worker.db.batch([{sql}]);
}

/**
 * As the worker of 0038 left them: a team of 3 whose owner gave seat 2 to a member who joined and
 * asked for access, and seat 3 by e-mail to one not joined yet; and a one-seat purchase of the lower
 * plan moved up to the higher one.
 */
async function teamAt0038() {
  const [owner, member, mover] = [
    await stack.signUp({verified: true}),
    await stack.signUp({verified: true}),
    await stack.signUp({verified: true}),
  ];
  const teamSession = `cs_test_team0038${owner.uid}`;
  const moverSession = `cs_test_move_0038_${mover.uid}`;
  const upgradeSession = `cs_test_upgrade_0038_${mover.uid}`;
  const now = Date.now();
  const invited = uniqueEmail('invited');
  const paid = (sessionId: string, user: SignedInUser, plan: string, seats: number, amount: number) => ({
    sql: `INSERT INTO purchases (session_id, user_id, email, plan, payment_intent_id, status, created_at, updated_at, amount_total, currency, paid_at, seats)
          VALUES (?1, ?2, ?3, ?4, ?5, 'paid', ?6, ?6, ?7, 'usd', ?6, ?8)`,
    params: [sessionId, user.uid, user.email, plan, `pi_${sessionId}`, now - 3 * HOUR_MS, amount, seats],
  });
  await stack.worker.db.batch([
    paid(teamSession, owner, 'advanced', 3, 29_700),
    {
      sql: `INSERT INTO team_members (id, session_id, seat, state, email, user_id, created_at, updated_at)
            VALUES (900001, ?1, 2, 'joined', ?2, ?3, ?4, ?4)`,
      params: [teamSession, member.email, member.uid, now - 2 * HOUR_MS],
    },
    {
      sql: `INSERT INTO team_members (id, session_id, seat, state, email, link_hash, link_expires_at, created_at, updated_at)
            VALUES (900002, ?1, 3, 'invited', ?2, ?3, ?4, ?5, ?5)`,
      params: [teamSession, invited, 'b'.repeat(64), now + 6 * 24 * HOUR_MS, now - HOUR_MS],
    },
    {
      sql: `INSERT INTO grants (session_id, seat, member_id, repository_key, repository, user_id, github_username, github_user_id,
              invitation_id, status, version, updated_at)
            VALUES (?1, 2, 900001, 'kit', NULL, ?2, 'member-0038', 7_700_001, 7_700_002, 'active', 2, ?3)`,
      params: [teamSession, member.uid, now - HOUR_MS],
    },
    paid(moverSession, mover, 'starter', 1, 6_900),
    {
      sql: `INSERT INTO upgrades (session_id, purchase_session_id, user_id, email, from_plan, to_plan, amount, currency, status,
              payment_intent_id, amount_paid, created_at, paid_at, updated_at)
            VALUES (?1, ?2, ?3, ?4, 'starter', 'advanced', 3_000, 'usd', 'paid', ?5, 3_000, ?6, ?6, ?6)`,
      params: [upgradeSession, moverSession, mover.uid, mover.email, `pi_${upgradeSession}`, now - HOUR_MS],
    },
  ]);
  return {owner, member, mover, invited, teamSession, moverSession};
}

const accessStatus = async (user: SignedInUser) => {
  const {status, hasPaid, username, extraRepositories, seats, team} = (await (
    await stack.call(API_PATHS.accessStatus, {token: user.idToken})
  ).json()) as Record<string, unknown> & {extraRepositories?: {key: string; status: string}[]};
  return {
    status,
    hasPaid,
    username,
    seats,
    team,
    extras: extraRepositories?.map((extra) => `${extra.key}: ${extra.status}`),
  };
};

test('0037 and 0038 keep every purchase, grant and download link as it was, one seat each and no member; 0039 and 0040 keep a team and a move as they were; 0041 keeps every member', async () => {
  const [paid, refunded] = [await stack.signUp({verified: true}), await stack.signUp({verified: true})];
  const paidSession = await purchase(paid, 'active', 7_600_001);
  await purchase(refunded, 'revoked', 7_600_011);
  const now = Date.now();
  await stack.worker.db.run(
    `INSERT INTO download_links (token_hash, session_id, user_id, ref, created_at, expires_at, repository_key)
     VALUES (?1, ?2, ?3, 'main', ?4, ?5, NULL)`,
    createHash('sha256').update(TOKEN).digest('hex'),
    paidSession,
    paid.uid,
    now,
    now + 4 * 60_000,
  );
  const before = {
    purchases: await rowsOf('purchases'),
    grants: await rowsOf('grants'),
    links: await rowsOf('download_links'),
  };

  await migrate((name) => name >= MIGRATION && name < SEATS_ADDED);
  const team = await teamAt0038();
  const teamBefore = {
    members: await rowsOf('team_members'),
    upgrades: await rowsOf('upgrades'),
  };
  await migrate((name) => name >= SEATS_ADDED && name < SELLER_ENDS);
  // As the worker of 0040 leaves them: members who left, each why (the owner, a refund of seats).
  const left = (id: number, seat: number, state: string, reason: string | null) => ({
    sql: `INSERT INTO team_members (id, session_id, seat, state, email, user_id, created_at, updated_at, end_reason)
          VALUES (?1, ?2, ?3, ?4, ?5, NULL, ?6, ?6, ?7)`,
    params: [id, team.teamSession, seat, state, uniqueEmail(`left-${id}`), now - 4 * HOUR_MS, reason],
  });
  await stack.worker.db.batch([
    left(900003, 2, 'removed', null),
    left(900004, 3, 'removed', 'seats_refunded'),
    left(900005, 3, 'withdrawn', null),
  ]);
  // The console is read after the last migration only: today's worker reads tables of later
  // migrations (a purchase's launch code and affiliate), so it is compared with what 0040 meant.
  const at0040 = {members: await rowsOf('team_members')};
  const indexesBefore = await indexesOf('team_members');
  await migrate((name) => name >= SELLER_ENDS && name < UPGRADE_CODES);
  // As the worker of 0046 left them: a launch code the console made, and the purchase paid with it.
  await stack.worker.db.batch([
    {
      sql: `INSERT INTO launch_codes (id, code, coupon_id, percent_off, currency, max_uses, first_time_only, created_at, created_by)
            VALUES ('promo_migration0046', 'BEFORE-0047', 'coupon_migration0046', 20, ?1, 5, 0, ?2, ?3)`,
      params: [PLAN_CURRENCY, now - HOUR_MS, admin.email],
    },
    {
      sql: `UPDATE purchases SET promotion_code_id = 'promo_migration0046' WHERE session_id = ?1`,
      params: [paidSession],
    },
  ]);
  const [paidRow] = await stack.worker.db.all<{amount_total: number | null; amount_refunded: number}>(
    'SELECT amount_total, amount_refunded FROM purchases WHERE session_id = ?1',
    paidSession,
  );
  await migrate((name) => name >= UPGRADE_CODES && name < STRIPE_PAYOUTS);
  // 0047: the console lists the code as it was made, a code for purchases (none held), with its
  // use and what the purchase paid.
  expect(await consoleCodes()).toEqual([
    expect.objectContaining({
      id: 'promo_migration0046',
      code: 'BEFORE-0047',
      percentOff: 20,
      maxUses: 5,
      firstTimeOnly: false,
      forUpgrades: false,
      state: 'active',
      uses: 1,
      held: 0,
      revenue: (paidRow!.amount_total ?? 0) - paidRow!.amount_refunded,
    }),
  ]);

  // As the worker of 0047 left them: an affiliate, the commission on the paid purchase (credited on
  // what was paid, its refunds taken off), and the payout the seller marked that paid it.
  const stillPaid = (paidRow!.amount_total ?? 0) - paidRow!.amount_refunded;
  await stack.worker.db.batch([
    {
      sql: `INSERT INTO commissions (session_id, affiliate_id, base, currency, rate_percent, commission, paid_at,
              payable_at, payout_id, paid_amount, created_at)
            VALUES (?1, 'aff_migration0047', ?2, ?3, 100, ?4, ?5, ?5, 'po_migration0047', ?2, ?5)`,
      params: [paidSession, stillPaid, PLAN_CURRENCY, paidRow!.amount_total ?? 0, now - HOUR_MS],
    },
    {
      sql: `INSERT INTO affiliates (id, user_id, email, code, clicks, created_at)
            VALUES ('aff_migration0047', 'uid-migration0047', 'aff-0047@example.com', 'before-0048', 3, ?1)`,
      params: [now - HOUR_MS],
    },
    {
      sql: `INSERT INTO affiliate_payouts (id, affiliate_id, amount, currency, reference, created_at, created_by)
            VALUES ('po_migration0047', 'aff_migration0047', 1234, ?1, 'TR-0047', ?2, ?3)`,
      params: [PLAN_CURRENCY, now - HOUR_MS / 2, admin.email],
    },
  ]);
  await migrate((name) => name >= STRIPE_PAYOUTS);
  // 0048: the payout lists as it was marked, and made; nobody is set up with Stripe (Connect is off).
  const affiliates = await stack.call(ADMIN_PATHS.affiliates, {token: admin.idToken});
  expect(affiliates.status).toBe(200);
  const {items, stripeConnect} = (await affiliates.json()) as AdminAffiliates;
  expect(stripeConnect).toBe(false);
  expect(items.find((item) => item.id === 'aff_migration0047')).toMatchObject({
    code: 'before-0048',
    clicks: 3,
    stripe: null,
    lastPayout: {amount: 1234, reference: 'TR-0047', at: now - HOUR_MS / 2, method: 'marked', state: 'made'},
  });
  // 0049: the commission reads paid as before, with nothing owed back and nothing payable.
  expect(items.find((item) => item.id === 'aff_migration0047')).toMatchObject({
    sales: 1,
    totals: {pending: 0, payable: 0, paid: stillPaid, owedBack: 0},
  });

  // The rows of 0036 (the team's, added at 0038, are checked below).
  const of0036 = async (table: string) =>
    (await rowsOf(table)).filter((row) => String(row.session_id).startsWith('cs_test_team_migration_'));
  // 0043 adds the promotion code Stripe applied, 0044 the checkout a purchase was recovered from, 0046 the
  // card's fingerprint (read for a referred sale only): none before them.
  expect(await of0036('purchases')).toEqual(
    before.purchases.map((row) => ({
      ...row,
      seats: 1,
      // The paid one was given a launch code as the worker of 0046 records it (above).
      promotion_code_id: row.session_id === paidSession ? 'promo_migration0046' : null,
      recovered_from: null,
      card_fingerprint: null,
    })),
  );
  // 0045 adds when a grant was first accepted: not known for one accepted before it.
  expect(await of0036('grants')).toEqual(before.grants.map((row) => ({...row, member_id: null, activated_at: null})));
  expect(await rowsOf('download_links')).toEqual(before.links.map((row) => ({...row, seat: 1, member_id: null})));
  expect(await of0036('team_members')).toEqual([]);

  // Each buyer reads their access as recorded: no team, no seats to manage.
  expect(await accessStatus(paid)).toEqual({
    status: 'active',
    hasPaid: true,
    username: 'before-7600001',
    seats: undefined,
    team: undefined,
    extras: ['prompts: active'],
  });
  expect(await accessStatus(refunded)).toMatchObject({status: 'revoked', hasPaid: false, seats: undefined});
  // The console lists both purchases, as before.
  const listed = (await (
    await stack.call(ADMIN_PATHS.purchases, {token: admin.idToken})
  ).json()) as Page<AdminPurchase>;
  expect(listed.items.map((item) => item.sessionId).sort()).toEqual(
    [paidSession, `cs_test_team_migration_${refunded.uid}`, team.teamSession, team.moverSession].sort(),
  );
  // The link made before the migrations still downloads: it was the buyer's own seat.
  const download = await stack.call(`${API_PATHS.download}/${TOKEN}`);
  expect(download.status).toBe(200);
  expect(download.headers.get('content-type')).toBe('application/zip');

  // 0039 and 0040: the team's rows and the move come through, with no seat added and none refunded.
  expect(at0040.members.slice(0, teamBefore.members.length)).toEqual(
    teamBefore.members.map((row) => ({...row, end_reason: null})),
  );
  // 0041: every row as it was at 0040, ids kept; the console reads those members; the same indexes.
  expect(await rowsOf('team_members')).toEqual(at0040.members);
  const detail = await consoleTeam(team.teamSession);
  expect(detail.map((member) => member.id).sort()).toEqual(at0040.members.map((row) => row.id).sort());
  expect(detail.map((member) => `${member.seat} ${member.state} ${member.endReason}`)).toEqual([
    '3 invited null',
    '2 joined null',
    '3 withdrawn removed',
    '3 removed seats_refunded',
    '2 removed removed',
  ]);
  expect(await indexesOf('team_members')).toEqual(indexesBefore);
  // The seller's reason is taken now, and the rebuilt indexes still keep one member to a seat, one seat to an address.
  await stack.worker.db.run(`UPDATE team_members SET end_reason = 'seller' WHERE id = 900005`);
  const live = (seat: number, email: string) =>
    stack.worker.db.run(
      `INSERT INTO team_members (session_id, seat, state, email, created_at, updated_at) VALUES (?1, ?2, 'invited', ?3, 1, 1)`,
      team.teamSession,
      seat,
      email,
    );
  await expect(live(4, team.invited)).rejects.toThrow(
    /UNIQUE constraint failed: team_members\.session_id, team_members\.email/,
  );
  await expect(live(2, uniqueEmail('same-seat'))).rejects.toThrow(
    /UNIQUE constraint failed: team_members\.session_id, team_members\.seat/,
  );
  // 0042 records no line and no credit on an upgrade made before it: fulfilment matches such a row
  // against the config. 0047 records no upgrade code on it: none was typed before there were any.
  expect(await rowsOf('upgrades')).toEqual(
    teamBefore.upgrades.map((row) => ({
      ...row,
      seats_added: 0,
      from_seats: 1,
      price_id: null,
      quantity: null,
      credit: null,
      launch_code_id: null,
    })),
  );
  expect(await rowsOf('seat_refunds')).toEqual([]);
  // The owner's team reads its 3 seats, the member joined on seat 2 and the one invited on seat 3.
  const ownTeam = (await (await stack.call(API_PATHS.team, {token: team.owner.idToken})).json()) as Team;
  expect(ownTeam).toMatchObject({sessionId: team.teamSession, seats: 3, free: 0});
  expect(ownTeam.members).toEqual([
    expect.objectContaining({
      seat: 2,
      state: 'joined',
      email: team.member.email,
      username: 'member-0038',
      access: 'active',
    }),
    expect.objectContaining({seat: 3, state: 'invited', email: team.invited, access: 'none'}),
  ]);
  // The member still reads their access as the team's; the move still gives the higher plan.
  expect(await accessStatus(team.member)).toMatchObject({status: 'active', hasPaid: true, username: 'member-0038'});
  const moved = (await (await stack.call(API_PATHS.upgrades, {token: team.mover.idToken})).json()) as BuyerPlan;
  expect(moved.plan).toEqual({id: 'advanced', name: 'Advanced'});
  // The console lists the team with its seats, and the moved purchase at the higher plan.
  const after = (await (
    await stack.call(`${ADMIN_PATHS.purchases}?q=cs_test_`, {token: admin.idToken})
  ).json()) as Page<AdminPurchase>;
  const row = (sessionId: string) => after.items.find((item) => item.sessionId === sessionId);
  expect(row(team.teamSession)).toMatchObject({seats: 3, plan: 'Advanced'});
  expect(row(team.moverSession)).toMatchObject({seats: 1, plan: 'Advanced'});
});
