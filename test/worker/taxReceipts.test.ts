/**
 * Tax-ready receipts, in workerd against the Stripe stand-in: the config's checkout switches reach
 * Stripe with every Checkout Session the worker creates, and `GET /receipts` lists the caller's own
 * purchases with Stripe's invoice or receipt page, refunded ones included.
 */
import {appConfig, findPlanByPriceId} from '../../src/config';
import {API_PATHS, type BuyerReceipts} from '../../src/config/api';
import {
  completedEvent,
  PRICE_ADVANCED,
  refundAtStripe,
  type SignedInUser,
  SITE_ORIGIN,
  type Stack,
  startStack,
} from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.stop());

async function paidBuyer(): Promise<{user: SignedInUser; sessionId: string}> {
  const user = await stack.signUp();
  const sessionId = await stack.paidCheckout({email: user.email, user});
  expect((await stack.deliver(completedEvent(stack, sessionId))).status).toBe(200);
  return {user, sessionId};
}
async function receiptsOf(user: SignedInUser): Promise<BuyerReceipts> {
  const response = await stack.call(API_PATHS.receipts, {token: user.idToken});
  expect(response.status).toBe(200);
  return (await response.json()) as BuyerReceipts;
}
/** Stripe's page for the session: its invoice's when Checkout made one, else its charge's receipt. */
function stripePageOf(sessionId: string): string {
  const session = stack.stripe.sessions.get(sessionId)!;
  if (typeof session.invoice === 'string') return stack.stripe.invoices.get(session.invoice)!.hosted_invoice_url!;
  return stack.stripe.payments.get(session.payment_intent as string)!.charge.receipt_url!;
}

test("the config's tax, tax ID, invoice, terms and local currency switches reach Stripe with the Checkout Session, as configured", async () => {
  const before = stack.stripe.created.length;
  await paidBuyer();
  const sent = stack.stripe.created[before]!;
  const {calculateTax, collectTaxIds, invoiceEveryPurchase, requireTermsAcceptance} = appConfig.checkout;
  expect(sent.automatic_tax).toEqual(calculateTax ? {enabled: 'true'} : undefined);
  expect(sent.tax_id_collection).toEqual(collectTaxIds ? {enabled: 'true'} : undefined);
  expect(sent.invoice_creation).toEqual(invoiceEveryPurchase ? {enabled: 'true'} : undefined);
  expect(sent.consent_collection).toEqual(requireTermsAcceptance ? {terms_of_service: 'required'} : undefined);
  // Sent either way: a new account's dashboard has Adaptive Pricing on, and the config decides.
  expect(sent.adaptive_pricing).toEqual({enabled: String(appConfig.checkout.adaptivePricing)});
  if (requireTermsAcceptance) {
    expect(
      (sent.custom_text as {terms_of_service_acceptance: {message: string}}).terms_of_service_acceptance.message,
    ).toContain(`${SITE_ORIGIN}/tos`);
  }
});

test('a buyer reads their own receipt: the plan, the amount, and the page Stripe made for the purchase', async () => {
  const {user, sessionId} = await paidBuyer();
  const plan = findPlanByPriceId(PRICE_ADVANCED)!;
  const {receipts} = await receiptsOf(user);
  expect(receipts).toEqual([
    {
      plan: plan.name,
      paidAt: expect.any(Number),
      amount: stack.stripe.sessions.get(sessionId)!.amount_total,
      currency: stack.stripe.sessions.get(sessionId)!.currency,
      refunded: 0,
      url: stripePageOf(sessionId),
      kind: appConfig.checkout.invoiceEveryPurchase ? 'invoice' : 'receipt',
    },
  ]);
});

test("another buyer's receipts are never listed: each buyer reads only their own", async () => {
  const first = await paidBuyer();
  const second = await paidBuyer();
  const firstList = await receiptsOf(first.user);
  const secondList = await receiptsOf(second.user);
  expect(firstList.receipts.map((receipt) => receipt.url)).toEqual([stripePageOf(first.sessionId)]);
  expect(secondList.receipts.map((receipt) => receipt.url)).toEqual([stripePageOf(second.sessionId)]);
  // A signed-in account without a purchase has none, whatever purchases exist.
  const stranger = await stack.signUp({verified: true});
  expect(await receiptsOf(stranger)).toEqual({receipts: []});
});

test('a refunded purchase still lists its receipt, with what was refunded', async () => {
  const {user, sessionId} = await paidBuyer();
  await refundAtStripe(stack, sessionId);
  expect(await stack.worker.db.all('SELECT status FROM purchases WHERE session_id = ?', sessionId)).toEqual([
    {status: 'revoked'},
  ]);

  const {receipts} = await receiptsOf(user);
  expect(receipts).toEqual([
    expect.objectContaining({
      url: stripePageOf(sessionId),
      refunded: stack.stripe.sessions.get(sessionId)!.amount_total,
    }),
  ]);
});

test('signed out: 401', async () => {
  const response = await stack.call(API_PATHS.receipts);
  expect(response.status).toBe(401);
});

test('an unpaid checkout lists no receipt', async () => {
  const user = await stack.signUp();
  const sessionId = await stack.paidCheckout({email: user.email, user, paid: false});
  expect((await stack.deliver(completedEvent(stack, sessionId))).status).toBe(200);
  expect(await receiptsOf(user)).toEqual({receipts: []});
});
