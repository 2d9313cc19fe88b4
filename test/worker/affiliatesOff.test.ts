/**
 * A seller who runs no affiliate programme (`affiliates` left out of src/config/app.ts, a bundle
 * built so): the programme's endpoints answer 404, and a checkout ignores a referral, even one
 * naming a visit recorded before the seller turned the programme off.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {AFFILIATE_WORDS} from '../../src/config';
import {API_PATHS} from '../../src/config/api';
import {buildWorkerBundleWithConfig} from '../../scripts/support/workerRuntime';
import {completedEvent, uniqueEmail, useSellerStack} from './stack';

const bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'worker-no-affiliates-'));
beforeAll(() => {
  buildWorkerBundleWithConfig(bundleDir, [
    {file: 'app.ts', from: 'affiliates: {commissionPercent: 30, referralDays: 60, disputeDays: 60},', to: ''},
  ]);
}, 180_000);
const seller = useSellerStack({}, {bundleDir});
afterAll(() => fs.rmSync(bundleDir, {recursive: true, force: true}));

test('the three endpoints answer 404 NOT_FOUND: there is no programme', async () => {
  const user = await seller.stack.signUp({email: uniqueEmail('nobody'), verified: true});
  const answers = await Promise.all([
    seller.stack.call(API_PATHS.affiliateVisit, {body: {code: 'some-code'}}),
    seller.stack.call(API_PATHS.affiliate, {token: user.idToken}),
    seller.stack.call(API_PATHS.joinAffiliates, {token: user.idToken, body: {code: 'some-code'}}),
  ]);
  for (const answer of answers) {
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({code: 'NOT_FOUND', error: AFFILIATE_WORDS.noProgramme});
  }
  expect(await seller.stack.worker.db.all('SELECT 1 FROM affiliates')).toHaveLength(0);
});

test('a checkout ignores a referral, and a paid purchase credits nobody', async () => {
  const now = Date.now();
  await seller.stack.worker.db.run(
    "INSERT INTO affiliates (id, user_id, email, code, created_at) VALUES ('aff_off0000000001', 'uid-off', 'off@example.com', 'off-code', ?)",
    now,
  );
  await seller.stack.worker.db.run(
    "INSERT INTO affiliate_visits (id, affiliate_id, visitor, day, created_at) VALUES ('visit-before-the-programme-ended', 'aff_off0000000001', 'v', '2026-01-01', ?)",
    now,
  );
  const email = uniqueEmail('unreferred');
  const id = await seller.stack.openCheckout({email, referral: 'visit-before-the-programme-ended'});
  const session = seller.stack.stripe.sessions.get(id)!;
  expect(session.metadata).not.toHaveProperty('affiliate');
  // Not even a session that names the affiliate (one made while the programme ran).
  session.metadata = {...session.metadata, affiliate: 'aff_off0000000001'};
  seller.stack.stripe.complete(id, {email, paid: true});
  expect((await seller.stack.deliver(completedEvent(seller.stack, id))).status).toBe(200);
  expect(await seller.stack.worker.db.all('SELECT 1 FROM commissions')).toHaveLength(0);
});
