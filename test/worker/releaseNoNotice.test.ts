/**
 * The seller's other choice for the buyers of a plan without updates: `releases.noticeWithoutUpdates`
 * 'none', no e-mail at all (the committed config sends the short upgrade note, tested in
 * releases.test.ts). The worker reads the config when it is built, so this suite runs a bundle
 * built with that one choice changed, the rest of the config as committed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {appConfig, type Plan, type ReleaseNotice} from '../../src/config';
import {buildWorkerBundleWithConfig} from '../../scripts/support/workerRuntime';
import {deliverRelease, RELEASE_VARS, releaseEvent, seedBuyers} from './releaseDeliveries';
import {startStack, type Stack} from './stack';

const CHOICE: ReleaseNotice = 'none';
const plans: readonly Plan[] = appConfig.plans;
const withUpdates = plans.find((plan) => plan.includesUpdates)!;
const withoutUpdates = plans.find((plan) => !plan.includesUpdates)!;

let bundleDir: string;
let stack: Stack;
beforeAll(async () => {
  bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'worker-no-notice-'));
  const setting = (notice: ReleaseNotice) => `noticeWithoutUpdates: '${notice}'`;
  buildWorkerBundleWithConfig(bundleDir, [
    {file: 'app.ts', from: setting(appConfig.releases.noticeWithoutUpdates), to: setting(CHOICE)},
  ]);
  stack = await startStack({...RELEASE_VARS, SUBREQUEST_LIMIT: '10000'}, {bundleDir});
}, 180_000);
afterAll(async () => {
  await stack?.stop();
  fs.rmSync(bundleDir, {recursive: true, force: true});
});

test(`with '${CHOICE}', a buyer of ${withoutUpdates.name} gets no e-mail of a release, and a buyer of ${withUpdates.name} gets the release e-mail`, async () => {
  const [entitled] = await seedBuyers(stack, {plan: withUpdates, count: 1, label: 'quiet-updates'});
  const [leftOut] = await seedBuyers(stack, {plan: withoutUpdates, count: 1, label: 'quiet-without'});
  const event = releaseEvent('published', {name: 'Version Quiet', body: 'The **new** console'});
  const id = event.release.id;
  const answer = await deliverRelease(stack, event);
  expect(answer.status).toBe(200);
  // Only the buyer with updates counts, and only their audience is queued: no upgrade-note batch.
  expect(await answer.json()).toEqual({announced: true, recipients: 1});
  expect(await stack.worker.db.all(`SELECT key FROM jobs WHERE key LIKE ?`, `release:${id}:%`)).toEqual([
    {key: `release:${id}:updates:0`},
  ]);

  await stack.worker.db.run(`UPDATE jobs SET run_after = 0 WHERE kind = 'release-mail' AND status = 'pending'`);
  await stack.worker.scheduled();

  const copies = stack.mailgun.sent.flatMap((mail) => mail.copies);
  const mine = copies.filter((copy) => copy.recipient === entitled);
  expect(mine).toHaveLength(1);
  expect(mine[0]!.fields.subject).toContain('Version Quiet');
  expect(mine[0]!.fields.text).toContain('your plan includes it');
  expect(mine[0]!.fields.html).toContain('<strong>new</strong>');
  // Nothing at all to the buyer without updates: no note, no release, in no call.
  expect(stack.mailgun.sent.flatMap((mail) => mail.recipients)).not.toContain(leftOut);
  expect(await stack.worker.db.all('SELECT email, status FROM release_deliveries WHERE release_id = ?', id)).toEqual([
    {email: entitled, status: 'sent'},
  ]);
});
