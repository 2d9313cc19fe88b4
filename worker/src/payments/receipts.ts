import {Hono} from 'hono';
import type Stripe from 'stripe';
import {storedPlanName} from '../../../src/config';
import {API_PATHS, type BuyerReceipts, type Receipt} from '../../../src/config/api';
import type {AppEnv} from '../app';
import {currentUser, requireUser} from '../auth/middleware';
import {log} from '../log';
import {receiptPurchasesOf} from '../purchases';
import {enforceLimit, limits} from '../rateLimit';
import {settingsOf} from '../settings';
import {stripeFor} from './stripe';
import {type PaidPayment, upgradePaymentsOf} from '../upgrades/receipts';

/** How many purchases the list reads from Stripe at most: one call each, within a request's subrequests. */
const MOST_RECEIPTS = 20;

/**
 * The buyer's receipts. The purchases are the verified account's own, found in D1 as every buyer
 * endpoint finds them; the browser names none. Each one's page is read from Stripe now, by the
 * session id the worker recorded: the invoice Checkout made, else the charge's receipt.
 */
export const receiptRoutes = new Hono<AppEnv>().get(API_PATHS.receipts, requireUser, async (c) => {
  const user = currentUser(c);
  await enforceLimit(c.env.DB, `receipts:${user.uid}`, limits.receipts);
  const purchases: PaidPayment[] = (await receiptPurchasesOf(c.env.DB, user, MOST_RECEIPTS)).map((purchase) => ({
    sessionId: purchase.session_id,
    plan: storedPlanName(purchase.plan) ?? 'Purchase',
    paidAt: purchase.created_at,
    amount: purchase.amount_total,
    currency: purchase.currency,
  }));
  // An upgrade is its own payment, with its own receipt.
  const payments = [...purchases, ...(await upgradePaymentsOf(c.env.DB, user.uid, MOST_RECEIPTS))]
    .sort((a, b) => b.paidAt - a.paidAt)
    .slice(0, MOST_RECEIPTS);
  const stripe = stripeFor(settingsOf(c.env));
  const receipts = await Promise.all(
    payments.map(async (payment): Promise<Receipt> => {
      const page = await stripePage(stripe, payment.sessionId);
      return {
        plan: payment.plan,
        paidAt: payment.paidAt,
        amount: payment.amount,
        currency: payment.currency,
        refunded: page?.refunded ?? 0,
        url: page?.url ?? null,
        kind: page?.kind ?? null,
      };
    }),
  );
  return c.json({receipts} satisfies BuyerReceipts);
});

/** The session's invoice page, else its charge's receipt, in one call; null when Stripe cannot say now. */
async function stripePage(
  stripe: Stripe,
  sessionId: string,
): Promise<{url: string | null; kind: Receipt['kind']; refunded: number} | null> {
  try {
    const session = await stripe.checkout.sessions.retrieve(sessionId, {
      expand: ['invoice', 'payment_intent.latest_charge'],
    });
    const intent = typeof session.payment_intent === 'object' ? session.payment_intent : null;
    const charge = intent && typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
    const invoice = typeof session.invoice === 'object' ? session.invoice : null;
    const refunded = charge?.amount_refunded ?? 0;
    if (invoice?.hosted_invoice_url) return {url: invoice.hosted_invoice_url, kind: 'invoice', refunded};
    if (charge?.receipt_url) return {url: charge.receipt_url, kind: 'receipt', refunded};
    return {url: null, kind: null, refunded};
  } catch (error) {
    log.warn('receipts.unreadable', {sessionId, error: error instanceof Error ? error.message : String(error)});
    return null;
  }
}
