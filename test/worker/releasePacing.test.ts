/**
 * A release's e-mail is paced as the config says (docs: Sending limit in Mailgun, Release
 * e-mails): its batches are queued an hour / `releases.batchesPerHour` apart, and each goes out at
 * the first cron run at or after its time, never before. In workerd with a real D1 and the Mailgun
 * stand-in. The worker's clock cannot be moved, so each batch's `run_after` is: set, before a run,
 * to where it would stand that long after the release was queued.
 */
import path from 'node:path';
import {unstable_readConfig} from 'wrangler';
import {appConfig, type Plan} from '../../src/config';
import {MAX_RECIPIENTS, type SentMail} from '../../scripts/local/mailgunApi';
import {WORKER_DIR} from '../../scripts/wrangler';
import {FREE_PLAN_RELEASE_BATCH, FREE_PLAN_SUBREQUESTS} from '../../worker/src/freePlan';
import {deliverRelease, RELEASE_VARS, releaseEvent, seedBuyers} from './releaseDeliveries';
import {startStack, type Stack} from './stack';

const HOUR = 3_600_000;
/** How far apart the docs say a release's batches go: the hour shared evenly by the config's figure. */
const SPACING = HOUR / appConfig.releases.batchesPerHour;

/** How often Cloudflare runs the cron: the minutes of wrangler.jsonc's `*\/N * * * *` trigger. */
function cronEvery(): number {
  const crons = unstable_readConfig({config: path.join(WORKER_DIR, 'wrangler.jsonc')}).triggers.crons ?? [];
  const minutes = /^\*\/(\d+) \* \* \* \*$/.exec(crons[0] ?? '')?.[1];
  if (crons.length !== 1 || !minutes)
    throw new Error(`The pacing suite reads one "*/N * * * *" cron trigger, not ${JSON.stringify(crons)}`);
  return Number(minutes) * 60_000;
}
const CRON_EVERY = cronEvery();

const plans: readonly Plan[] = appConfig.plans;
const withUpdates = plans.find((plan) => plan.includesUpdates)!;
const withoutUpdates = plans.find((plan) => !plan.includesUpdates)!;

interface QueuedBatch {
  key: string;
  /** How long after the release was queued the batch is due: its `run_after` less its `created_at`. */
  offset: number;
  recipients: string[];
}

/** A release's batch jobs in the order queued; read before any run, which moves `run_after` as it claims. */
async function queuedBatches(stack: Stack, releaseId: number): Promise<QueuedBatch[]> {
  const rows = await stack.worker.db.all<{key: string; run_after: number; created_at: number; payload: string}>(
    `SELECT key, run_after, created_at, payload FROM jobs WHERE kind = 'release-mail' AND key LIKE ? ORDER BY id`,
    `release:${releaseId}:%`,
  );
  return rows.map((row) => ({
    key: row.key,
    offset: row.run_after - row.created_at,
    recipients: (JSON.parse(row.payload) as {recipients: string[]}).recipients,
  }));
}

/** The first is due at once, and each next one SPACING later (to the millisecond the worker rounds up to). */
function expectPaced(batches: QueuedBatch[]) {
  expect(batches[0]!.offset).toBe(0);
  for (const [index, batch] of batches.entries()) {
    if (index === 0) continue;
    const step = batch.offset - batches[index - 1]!.offset;
    expect(step).toBeGreaterThanOrEqual(SPACING);
    expect(step).toBeLessThan(SPACING + 1);
  }
}

/**
 * A cron run `elapsed` ms after the release was queued: each batch not yet sent is due by then
 * if its offset has come, and not otherwise, as the worker's own clock would have it. Answers the
 * keys of the batches this run sent, in the order Mailgun received them.
 */
async function cronAt(stack: Stack, releaseId: number, batches: QueuedBatch[], elapsed: number): Promise<string[]> {
  const now = Date.now();
  await stack.worker.db.batch(
    batches.map((batch) => ({
      sql: `UPDATE jobs SET run_after = ?2 WHERE key = ?1 AND status = 'pending'`,
      params: [batch.key, now + batch.offset - elapsed],
    })),
  );
  const before = stack.mailgun.sent.length;
  await stack.worker.scheduled();
  const keyOf = (call: SentMail) =>
    batches.find((batch) => batch.recipients[0] === call.recipients[0])?.key ?? `a call to ${call.recipients[0]}`;
  return stack.mailgun.sent
    .slice(before)
    .filter((call) => call.fields['v:release-id'] === String(releaseId))
    .map(keyOf);
}

/** Each batch job of the release as `status:attempts`, in the order queued. */
const jobStates = async (stack: Stack, releaseId: number) =>
  (
    await stack.worker.db.all<{status: string; attempts: number}>(
      `SELECT status, attempts FROM jobs WHERE key LIKE ? ORDER BY id`,
      `release:${releaseId}:%`,
    )
  ).map(({status, attempts}) => `${status}:${attempts}`);

/** Every address that received a copy of the release, once per copy. */
const recipientsOf = (stack: Stack, releaseId: number) =>
  stack.mailgun.sent
    .filter((call) => call.fields['v:release-id'] === String(releaseId))
    .flatMap((call) => call.copies.map((copy) => copy.recipient));

describe("on Cloudflare's Paid plan: batches of Mailgun's 1,000, as many a run as are due", () => {
  const UPDATE_BATCHES = 6;
  let paid: Stack;
  let buyers: string[];
  beforeAll(async () => {
    paid = await startStack({...RELEASE_VARS, SUBREQUEST_LIMIT: '10000'});
    // Six batches of buyers with updates (the last a half one), then one of the upgrade note.
    const updates = await seedBuyers(paid, {
      plan: withUpdates,
      count: MAX_RECIPIENTS * (UPDATE_BATCHES - 1) + MAX_RECIPIENTS / 2,
      label: 'paced',
    });
    const notes = await seedBuyers(paid, {plan: withoutUpdates, count: 3, label: 'paced-note'});
    buyers = [...updates, ...notes];
  }, 120_000);
  afterAll(() => paid.stop());

  async function announced(name: string) {
    const event = releaseEvent('published', {name});
    const answer = await deliverRelease(paid, event);
    expect(await answer.json()).toEqual({announced: true, recipients: buyers.length});
    const id = event.release.id;
    const batches = await queuedBatches(paid, id);
    // Batches of the buyers with updates first, the upgrade note's after them, on the same clock.
    expect(batches.map((batch) => batch.key)).toEqual([
      ...Array.from({length: UPDATE_BATCHES}, (_, index) => `release:${id}:updates:${index}`),
      `release:${id}:upgrade:0`,
    ]);
    expect(Math.max(...batches.map((batch) => batch.recipients.length))).toBe(MAX_RECIPIENTS);
    expectPaced(batches);
    return {id, batches};
  }

  test(`each batch is queued ${SPACING / 60_000} minute(s) after the one before, and goes out at its time, not half a step before`, async () => {
    const {id, batches} = await announced('Version Paced');
    for (const [index, batch] of batches.entries()) {
      if (index > 0) expect(await cronAt(paid, id, batches, batch.offset - SPACING / 2)).toEqual([]);
      expect(await cronAt(paid, id, batches, batch.offset)).toEqual([batch.key]);
      // The batches whose time has not come were not even claimed: no attempt spent on them.
      expect(await jobStates(paid, id)).toEqual(batches.map((_, other) => (other <= index ? 'done:1' : 'pending:0')));
    }
    const delivered = recipientsOf(paid, id);
    expect(delivered).toHaveLength(buyers.length);
    expect(new Set(delivered)).toEqual(new Set(buyers));
  }, 300_000);

  test(`a cron run every ${CRON_EVERY / 60_000} minutes sends the batches that came due since the run before, at most ${Math.ceil(CRON_EVERY / SPACING)}`, async () => {
    const {id, batches} = await announced('Version Cadence');
    const runs: string[][] = [];
    const expected: string[][] = [];
    for (
      let elapsed = 0;
      runs.flat().length < batches.length && elapsed <= batches.at(-1)!.offset + CRON_EVERY;
      elapsed += CRON_EVERY
    ) {
      expected.push(
        batches
          .filter((batch) => batch.offset <= elapsed && batch.offset > elapsed - CRON_EVERY)
          .map((batch) => batch.key),
      );
      runs.push(await cronAt(paid, id, batches, elapsed));
    }
    expect(runs).toEqual(expected);
    expect(Math.max(...runs.map((run) => run.length))).toBeLessThanOrEqual(Math.ceil(CRON_EVERY / SPACING));
    expect(runs.flat()).toEqual(batches.map((batch) => batch.key));
    expect(recipientsOf(paid, id)).toHaveLength(buyers.length);
  }, 300_000);
});

describe(`on Cloudflare's Free plan: batches of ${FREE_PLAN_RELEASE_BATCH}, one a cron run`, () => {
  let free: Stack;
  let buyers: string[];
  beforeAll(async () => {
    free = await startStack({...RELEASE_VARS, SUBREQUEST_LIMIT: String(FREE_PLAN_SUBREQUESTS)});
    buyers = await seedBuyers(free, {plan: withUpdates, count: FREE_PLAN_RELEASE_BATCH * 3 + 50, label: 'paced-free'});
  });
  afterAll(() => free.stop());

  test('a run sends at most one batch, the one due first, and none before its time', async () => {
    const event = releaseEvent('published', {name: 'Version Free Paced'});
    expect(await (await deliverRelease(free, event)).json()).toEqual({announced: true, recipients: buyers.length});
    const id = event.release.id;
    const batches = await queuedBatches(free, id);
    expect(batches.map((batch) => batch.recipients.length)).toEqual([
      FREE_PLAN_RELEASE_BATCH,
      FREE_PLAN_RELEASE_BATCH,
      FREE_PLAN_RELEASE_BATCH,
      50,
    ]);
    expectPaced(batches);

    expect(await cronAt(free, id, batches, 0)).toEqual([batches[0]!.key]);
    // Before the next batch's time: nothing, though this run has its one batch to spare.
    expect(await cronAt(free, id, batches, batches[1]!.offset - SPACING / 2)).toEqual([]);
    expect(await jobStates(free, id)).toEqual(['done:1', 'pending:0', 'pending:0', 'pending:0']);
    // The cron's runs after that: each sends the earliest batch whose time has come, that one only;
    // the others due already are put back as they were, for the runs after.
    const runs: string[][] = [];
    for (let elapsed = CRON_EVERY, sent = 1; sent < batches.length; elapsed += CRON_EVERY) {
      const next = batches[sent]!;
      const expected = next.offset <= elapsed ? [next.key] : [];
      runs.push(await cronAt(free, id, batches, elapsed));
      expect(runs.at(-1)).toEqual(expected);
      sent += expected.length;
    }
    expect(runs.flat()).toEqual(batches.slice(1).map((batch) => batch.key));
    expect(await jobStates(free, id)).toEqual(batches.map(() => 'done:1'));
    expect(new Set(recipientsOf(free, id))).toEqual(new Set(buyers));
  }, 120_000);
});
