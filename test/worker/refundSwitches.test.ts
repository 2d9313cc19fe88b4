/**
 * The seller's switches of the buyer's own refunds (issue 42), other than the committed config: the
 * money-back guarantee left to support (`guarantee.selfService` false), the EU's withdrawal turned
 * off (`withdrawal.enabled` false: a seller who sells to no consumer in the EU), and Checkout's
 * terms box on (`checkout.requireTermsAcceptance`). The worker reads the config when it is built,
 * so this suite runs a bundle built with those choices, the rest of the config as committed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {appConfig, immediateDeliveryRequest, immediateDeliveryVersion} from '../../src/config';
import {API_PATHS, type AccessStatus} from '../../src/config/api';
import {buildWorkerBundleWithConfig} from '../../scripts/support/workerRuntime';
import {completedEvent, startStack, type SignedInUser, type Stack} from './stack';

let bundleDir: string;
let stack: Stack;
beforeAll(async () => {
  bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'worker-refund-switches-'));
  buildWorkerBundleWithConfig(bundleDir, [
    {file: 'app.ts', from: 'selfService: true,', to: 'selfService: false,'},
    {file: 'app.ts', from: '  withdrawal: {\n    enabled: true,', to: '  withdrawal: {\n    enabled: false,'},
    {file: 'app.ts', from: 'requireTermsAcceptance: false,', to: 'requireTermsAcceptance: true,'},
  ]);
  stack = await startStack({}, {bundleDir});
  // Stripe refuses a session with the terms box until the seller sets the terms' URL: set, as the docs say.
  stack.stripe.dashboardSettings.termsOfServiceUrl = `https://${appConfig.domainName}/tos`;
}, 180_000);
afterAll(async () => {
  await stack?.stop();
  fs.rmSync(bundleDir, {recursive: true, force: true});
});

/** A verified buyer who paid through the worker's own Checkout Session, ticking its terms box. */
async function paidBuyer(): Promise<{user: SignedInUser; sessionId: string}> {
  const user = await stack.signUp({verified: true});
  const sessionId = await stack.paidCheckout({email: user.email, user});
  expect((await stack.deliver(completedEvent(stack, sessionId))).status).toBe(200);
  return {user, sessionId};
}

test('with both switched off, the dashboard offers neither refund, and the worker sends each ask to support, refunding nothing', async () => {
  const {user} = await paidBuyer();
  const status = (await (await stack.call(API_PATHS.accessStatus, {token: user.idToken})).json()) as AccessStatus;
  expect(status).toMatchObject({hasPaid: true});
  expect(status.refundableUntil).toBeUndefined();
  expect(status.withdrawableUntil).toBeUndefined();
  for (const kind of ['guarantee', 'withdrawal']) {
    const response = await stack.call(API_PATHS.refundPurchase, {token: user.idToken, body: {kind}});
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({
      code: 'REFUND_BY_SUPPORT',
      error: `Refunds are made by our support team. Write to ${appConfig.support.email} and we will sort it out with you.`,
    });
  }
  expect(stack.stripe.refundsCreated).toEqual([]);
});

test("with the terms box on, the worker's session asks for immediate delivery, the purchase keeps the consent, and the welcome e-mail confirms it without offering a withdrawal that is off", async () => {
  const {user, sessionId} = await paidBuyer();
  const made = stack.stripe.created.at(-1)!;
  expect(made).toMatchObject({
    consent_collection: {terms_of_service: 'required'},
    metadata: expect.objectContaining({delivery_consent_version: immediateDeliveryVersion}),
  });
  expect(JSON.stringify(made.custom_text)).toContain(immediateDeliveryRequest);

  const [stored] = await stack.worker.db.all<{delivery_consent_version: string; delivery_consent_at: number}>(
    'SELECT delivery_consent_version, delivery_consent_at FROM purchases WHERE session_id = ?',
    sessionId,
  );
  expect(stored).toEqual({delivery_consent_version: immediateDeliveryVersion, delivery_consent_at: expect.any(Number)});
  // Delivered again (Stripe retries): the first record stands.
  expect((await stack.deliver(completedEvent(stack, sessionId, `evt_again_${sessionId}`))).status).toBe(200);
  const [again] = await stack.worker.db.all(
    'SELECT delivery_consent_version, delivery_consent_at FROM purchases WHERE session_id = ?',
    sessionId,
  );
  expect(again).toEqual(stored);

  const welcome = stack.mailgun.sent.filter(
    (mail) => mail.fields.to === user.email && /get the code/.test(mail.fields.subject ?? ''),
  );
  expect(welcome).toHaveLength(1);
  const text = welcome[0]!.fields.text!;
  expect(text).toContain(`"${immediateDeliveryRequest}"`);
  expect(text).toContain(new Date(stored!.delivery_consent_at).toUTCString());
  expect(text).not.toContain('you may withdraw from your dashboard');
});
