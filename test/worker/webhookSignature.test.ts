/**
 * Nothing unsigned gets in: every refused delivery leaves no event id and no purchase behind,
 * and the same event, properly signed afterwards, is still processed.
 */
import {completedEvent, signPayload, startStack, type Stack, uniqueEmail} from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.stop());

const now = () => Math.floor(Date.now() / 1000);

async function expectNothingStored(eventId: string, sessionId: string) {
  expect(await stack.worker.db.all('SELECT id FROM stripe_events WHERE id = ?', eventId)).toEqual([]);
  expect(await stack.worker.db.all('SELECT session_id FROM purchases WHERE session_id = ?', sessionId)).toEqual([]);
}

const refusals: [string, (payload: string) => {signature?: string | null; payload?: string; timestamp?: number}][] = [
  ['missing', () => ({signature: null})],
  ['empty', () => ({signature: ''})],
  ['malformed', () => ({signature: 't=abc,v1=xyz'})],
  ['signed with another secret', (payload) => ({signature: signPayload(payload, now(), 'whsec_someone_else')})],
  ['a bad signature', () => ({signature: `t=${now()},v1=${'0'.repeat(64)}`})],
  ['a tampered body', (payload) => ({signature: signPayload(payload), payload: payload.replace('"paid"', '"unpaid"')})],
  ['stale (six minutes old)', (payload) => ({timestamp: now() - 360, signature: signPayload(payload, now() - 360)})],
  ['from the future (two minutes ahead)', (payload) => ({signature: signPayload(payload, now() + 120)})],
];

test.each(refusals)('a delivery %s is refused with 400 and stores nothing', async (_label, make) => {
  const sessionId = await stack.paidCheckout({email: uniqueEmail()});
  const event = completedEvent(stack, sessionId);
  const payload = JSON.stringify(event, null, 2);
  const response = await stack.deliver(event, {payload, ...make(payload)});
  expect(response.status).toBe(400);
  expect(await response.json()).toEqual({error: expect.any(String), code: 'BAD_SIGNATURE'});
  await expectNothingStored(event.id, sessionId);

  // The genuine delivery still goes through.
  expect((await stack.deliver(event)).status).toBe(200);
  expect(await stack.worker.db.all('SELECT status FROM purchases WHERE session_id = ?', sessionId)).toEqual([
    {status: 'paid'},
  ]);
});

test('with no webhook secret configured, every delivery is refused and nothing stored', async () => {
  const bare = await startStack({STRIPE_WEBHOOK_SECRET: ''});
  try {
    const sessionId = await bare.paidCheckout({email: uniqueEmail()});
    const event = completedEvent(bare, sessionId);
    const response = await bare.deliver(event);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(await response.json()).toMatchObject({code: 'NOT_CONFIGURED'});
    expect(await bare.worker.db.all('SELECT id FROM stripe_events')).toEqual([]);
    expect(await bare.worker.db.all('SELECT session_id FROM purchases')).toEqual([]);
  } finally {
    await bare.stop();
  }
});

test('the webhook secret never appears in the logs', async () => {
  const sessionId = await stack.paidCheckout({email: uniqueEmail()});
  await stack.deliver(completedEvent(stack, sessionId), {signature: 'garbage'});
  await stack.deliver(completedEvent(stack, sessionId));
  expect(stack.worker.logs.length).toBeGreaterThan(0);
  for (const line of stack.worker.logs) {
    expect(line).not.toContain('whsec_');
    expect(line).not.toContain('sk_test_');
  }
});
