/**
 * Realistic rows for the local D1, to try the seller's console with many purchases: purchases over
 * the last 90 days (mostly paid, some refunded, disputed or unfinished), the GitHub access of most
 * paid ones, disputes, and a waitlist. The same count always gives the same rows (a seeded
 * generator), and `INSERT OR IGNORE` makes running it twice harmless.
 */
import {appConfig} from '../../src/config';

const DAY_MS = 24 * 3600_000;
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
  const random = generator(count);
  const plans = appConfig.stripe.plans;
  const purchases: (string | number | null)[][] = [];
  const grants: (string | number | null)[][] = [];
  const disputes: (string | number | null)[][] = [];
  for (let i = 0; i < count; i++) {
    const id = String(i).padStart(6, '0');
    const sessionId = `cs_test_seed${id}`;
    const paymentIntent = `pi_seed${id}`;
    const plan = random() < 0.6 ? plans[plans.length - 1]! : plans[0]!;
    const created = now - Math.floor(random() * 90 * DAY_MS);
    const roll = random();
    const [status, reason] = roll < 0.9 ? ['paid', null] : roll < 0.95 ? ['revoked', 'refunded'] : roll < 0.97 ? ['revoked', 'disputed'] : ['open', null];
    const guest = random() < 0.3;
    purchases.push([
      sessionId,
      `cus_seed${id}`,
      guest ? null : `seed-user-${id}`,
      `buyer${id}@example.com`,
      plan.priceId.test,
      plan.name,
      paymentIntent,
      status,
      reason,
      created,
      created,
      plan.price * 100,
      'usd',
    ]);
    if (reason === 'disputed') disputes.push([`dp_seed${id}`, paymentIntent, 'needs_response', created + DAY_MS]);
    if (status === 'paid' && random() < 0.7) {
      const accepted = random() < 0.8;
      grants.push([sessionId, guest ? '' : `seed-user-${id}`, `buyer-${id}`, 50_000_000 + i, 70_000_000 + i, accepted ? 'active' : 'pending', 1, created + 3600_000]);
    }
  }
  const leads = Array.from({length: Math.ceil(count / 10)}, (_, i) => [
    `seed-lead-${i}`,
    `lead${String(i).padStart(6, '0')}@example.com`,
    now - Math.floor(random() * 90 * DAY_MS),
  ]);
  return [
    ...inserts(
      'purchases',
      ['session_id', 'customer_id', 'user_id', 'email', 'price_id', 'plan', 'payment_intent_id', 'status', 'revoke_reason', 'created_at', 'updated_at', 'amount_total', 'currency'],
      purchases,
    ),
    ...inserts('access_grants', ['session_id', 'user_id', 'github_username', 'github_user_id', 'invitation_id', 'status', 'version', 'updated_at'], grants),
    ...inserts('disputes', ['id', 'payment_intent_id', 'status', 'updated_at'], disputes),
    ...inserts('leads', ['id', 'email', 'created_at'], leads),
  ].join('\n');
}
