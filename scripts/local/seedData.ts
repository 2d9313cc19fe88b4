/**
 * Realistic rows for the local D1, to try the seller's console with many purchases: purchases over
 * the last 90 days (mostly paid, some refunded, disputed or unfinished), the GitHub access of most
 * paid ones, disputes, a waitlist, and a few affiliates with the commission of one purchase in
 * seven (while the config runs the programme). The same count always gives the same rows (a seeded
 * generator), and `INSERT OR IGNORE` makes running it twice harmless.
 *
 * The local GitHub stand-in starts from these same rows (`localRepository.ts` reads the grants
 * back from the local D1), so the repository audit shows only the differences seeded on purpose,
 * each as Purchases shows it: a few paid invitations that failed (paid, not on the repository), a
 * few refunds whose removal failed (revoked, still there), and `SEED_HAND_INVITED`. A plan's extra
 * repositories (Advanced: the prompts, local mode's `LOCAL_EXTRA_REPOS`) follow the kit's seat, as
 * the worker grants them: invited or accepted while the seat is, taken back on a refund; their
 * audits show no difference.
 */
import {appConfig, commissionPayableAt, extraRepositoryKeys, PLAN_CURRENCY, planAmount} from '../../src/config';
import {LOCAL_EXTRA_REPOS} from './githubApi';

const DAY_MS = 24 * 3600_000;

/** Every seeded purchase's session id starts so. */
export const SEED_SESSION_PREFIX = 'cs_test_seed';

/**
 * Accounts the seller invited by hand, outside any purchase: on the seeded repository, and in no
 * purchase (the audit's "on the repository without a paid purchase").
 */
export const SEED_HAND_INVITED: readonly {login: string; id: number}[] = [
  {login: 'contractor-by-hand', id: 49_000_001},
  {login: 'old-teammate', id: 49_000_002},
];

/** Of the paid grants, the share whose invitation GitHub refused; of refunds, whose removal failed. */
const FAILED_INVITATIONS = 0.02;
const FAILED_REMOVALS = 0.15;
const ROWS_PER_STATEMENT = 200;

/** A small deterministic generator (mulberry32), so a seed is the same on every machine. */
function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const quote = (value: string | number | null) =>
  value === null ? 'NULL' : typeof value === 'number' ? String(value) : `'${value.replace(/'/g, "''")}'`;

function inserts(table: string, columns: string[], rows: (string | number | null)[][]): string[] {
  const statements: string[] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const values = rows.slice(start, start + ROWS_PER_STATEMENT).map((row) => `(${row.map(quote).join(', ')})`);
    statements.push(`INSERT OR IGNORE INTO ${table} (${columns.join(', ')}) VALUES\n${values.join(',\n')};`);
  }
  return statements;
}

export function seedSql(count: number, now = Date.now()): string {
  return seedStatements(count, now).join('\n');
}

/**
 * Where the seed writes each purchase's grants: `grants` (migration 0028 on), or the two tables of
 * before it, access_grants (the kit) and extra_grants, for the test that 0028 moves them all.
 */
export type GrantTables = 'grants' | 'before 0028';
export const GRANTS_MIGRATION = '0028_one_grants_table.sql';

/** The seed's INSERT statements, one by one. */
export function seedStatements(count: number, now = Date.now(), grantTables: GrantTables = 'grants'): string[] {
  const random = generator(count);
  const plans = appConfig.plans;
  const purchases: (string | number | null)[][] = [];
  const grants: (string | number | null)[][] = [];
  const extraGrants: (string | number | null)[][] = [];
  const disputes: (string | number | null)[][] = [];
  const jobs: (string | number | null)[][] = [];
  const starts: (string | number | null)[][] = [];
  const commissions: (string | number | null)[][] = [];
  for (let i = 0; i < count; i++) {
    const id = String(i).padStart(6, '0');
    const sessionId = `${SEED_SESSION_PREFIX}${id}`;
    const paymentIntent = `pi_seed${id}`;
    const plan = random() < 0.6 ? plans[plans.length - 1]! : plans[0]!;
    const created = now - Math.floor(random() * 90 * DAY_MS);
    const roll = random();
    const [status, reason] =
      roll < 0.9
        ? ['paid', null]
        : roll < 0.95
          ? ['revoked', 'refunded']
          : roll < 0.97
            ? ['revoked', 'disputed']
            : ['open', null];
    const guest = random() < 0.3;
    // The checkout the purchase was paid through, opened a few minutes before (the funnel's starts).
    starts.push([sessionId, created - ((i * 104_729) % 15) * 60_000]);
    purchases.push([
      sessionId,
      `cus_seed${id}`,
      guest ? null : `seed-user-${id}`,
      `buyer${id}@example.com`,
      plan.priceId.test,
      plan.id,
      paymentIntent,
      status,
      reason,
      created,
      created,
      planAmount(plan),
      PLAN_CURRENCY,
    ]);
    // One purchase in seven a seeded affiliate referred (none drawn from `random`, so the rest of
    // the seed stays what it was): a refund or a dispute cancels its commission, as the worker reads it.
    if (status !== 'open' && i % 7 === 3) commissions.push(seededCommission(sessionId, i, planAmount(plan), created));
    if (reason === 'disputed') disputes.push([`dp_seed${id}`, paymentIntent, 'needs_response', created + DAY_MS]);
    // Most paid purchases have asked for access; most refunded or disputed ones had, before.
    if (status !== 'open' && random() < 0.7) {
      const at = created + 3600_000;
      const grant = (state: string, invitation: number | null) => {
        grants.push([
          sessionId,
          'kit',
          guest ? '' : `seed-user-${id}`,
          `buyer-${id}`,
          50_000_000 + i,
          invitation,
          state,
          1,
          at,
          // Accepted within a day or so of the invitation (the funnel's time to access). Not drawn
          // from `random`: what it draws stays what the seed drew before the funnel.
          state === 'active' ? Math.min(now, at + ((i * 7919) % 30) * 3600_000) : null,
        ]);
        // The same account on each extra repository the plan grants, once the seat has one: one in
        // five of the accepted kits has its prompts still waiting to be accepted; a refund took the
        // prompts back (even where the kit's removal failed).
        if (state === 'failed') return;
        extraRepositoryKeys(plan).forEach((key, k) => {
          const repository = LOCAL_EXTRA_REPOS[key];
          if (!repository) return;
          const extraState =
            state === 'revoked' || state === 'removal_failed'
              ? 'revoked'
              : state === 'active' && i % 5 === 0
                ? 'pending'
                : state;
          extraGrants.push([
            sessionId,
            key,
            repository,
            50_000_000 + i,
            `buyer-${id}`,
            80_000_000 + k * 1_000_000 + i,
            extraState,
            at,
            at,
          ]);
        });
      };
      const fate = random();
      if (status === 'paid') {
        if (fate < FAILED_INVITATIONS) grant('failed', null);
        else grant(fate < 0.8 ? 'active' : 'pending', 70_000_000 + i);
      } else if (fate < FAILED_REMOVALS) {
        // The removal gave up: the grant says so, and Failures lists the job.
        grant('removal_failed', 70_000_000 + i);
        // Before 0028 the worker wrote the job as before 0031: no repository key.
        const kit = grantTables === 'grants' ? {repositoryKey: 'kit', repository: null} : {};
        const payload = JSON.stringify({
          sessionId,
          ...kit,
          version: 1,
          invitationId: 70_000_000 + i,
          githubUserId: 50_000_000 + i,
        });
        jobs.push([
          `remove:${sessionId}:${grantTables === 'grants' ? 'kit:' : ''}1:${70_000_000 + i}`,
          'github-remove',
          payload,
          'failed',
          12,
          at,
          'GitHub answered 403: Must have admin rights to Repository.',
          at,
          at,
          sessionId,
        ]);
      } else {
        grant('revoked', 70_000_000 + i);
      }
    }
  }
  // Checkouts opened and left: about 1.5 for each purchase, spread evenly over the same 90 days.
  const left = Math.ceil(count * 1.5);
  for (let i = 0; i < left; i++)
    starts.push([
      `${SEED_SESSION_PREFIX}left${String(i).padStart(6, '0')}`,
      now - Math.floor((i / left) * 90 * DAY_MS),
    ]);
  const leads = Array.from({length: Math.ceil(count / 10)}, (_, i) => [
    `seed-lead-${i}`,
    `lead${String(i).padStart(6, '0')}@example.com`,
    now - Math.floor(random() * 90 * DAY_MS),
  ]);
  return [
    ...inserts(
      'purchases',
      [
        'session_id',
        'customer_id',
        'user_id',
        'email',
        'price_id',
        'plan',
        'payment_intent_id',
        'status',
        'revoke_reason',
        'created_at',
        'updated_at',
        'amount_total',
        'currency',
      ],
      purchases,
    ),
    ...inserts(
      grantTables === 'grants' ? 'grants' : 'access_grants',
      [
        'session_id',
        'repository_key',
        'user_id',
        'github_username',
        'github_user_id',
        'invitation_id',
        'status',
        'version',
        'updated_at',
        'activated_at',
      ].filter((column) => grantTables === 'grants' || (column !== 'repository_key' && column !== 'activated_at')),
      grantTables === 'grants' ? grants : grants.map(([sessionId, , ...rest]) => [sessionId!, ...rest.slice(0, -1)]),
    ),
    ...inserts(
      grantTables === 'grants' ? 'grants' : 'extra_grants',
      [
        'session_id',
        'repository_key',
        'repository',
        'github_user_id',
        'github_username',
        'invitation_id',
        'status',
        'queued_at',
        'updated_at',
      ],
      extraGrants,
    ),
    ...inserts('disputes', ['id', 'payment_intent_id', 'status', 'updated_at'], disputes),
    ...inserts(
      'jobs',
      [
        'key',
        'kind',
        'payload',
        'status',
        'attempts',
        'run_after',
        'last_error',
        'created_at',
        'updated_at',
        'session_id',
      ],
      jobs,
    ),
    ...inserts('leads', ['id', 'email', 'created_at'], leads),
    ...(grantTables === 'grants' ? inserts('checkout_starts', ['session_id', 'created_at'], starts) : []),
    ...(grantTables === 'grants' && appConfig.affiliates ? affiliateInserts(commissions, now) : []),
  ];
}

/** The affiliates the seed makes, each with a code of their own (affiliates.ts's rule). */
const SEED_AFFILIATES = 3;
const seedAffiliateId = (n: number) => `aff_seed${String(n).padStart(8, '0')}`;

/** A commission on a seeded purchase, credited as fulfilment credits one (affiliates/credit.ts). */
function seededCommission(sessionId: string, i: number, base: number, paidAt: number) {
  const percent = appConfig.affiliates?.commissionPercent ?? 0;
  return [
    sessionId,
    seedAffiliateId(i % SEED_AFFILIATES),
    null,
    base,
    PLAN_CURRENCY,
    percent,
    Math.round((base * percent) / 100),
    paidAt,
    commissionPayableAt(paidAt),
    paidAt,
  ];
}

/** The seeded affiliates (joined before the purchases), with their clicks, and the commissions. */
function affiliateInserts(commissions: (string | number | null)[][], now: number): string[] {
  const affiliates = Array.from({length: SEED_AFFILIATES}, (_, n) => [
    seedAffiliateId(n),
    `seed-affiliate-${n}`,
    `affiliate${n}@example.com`,
    `seed-partner-${n}`,
    40 + n * 25,
    now - 120 * DAY_MS,
  ]);
  return [
    ...inserts('affiliates', ['id', 'user_id', 'email', 'code', 'clicks', 'created_at'], affiliates),
    ...inserts(
      'commissions',
      [
        'session_id',
        'affiliate_id',
        'visit_id',
        'base',
        'currency',
        'rate_percent',
        'commission',
        'paid_at',
        'payable_at',
        'created_at',
      ],
      commissions,
    ),
  ];
}
