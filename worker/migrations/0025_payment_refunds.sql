-- How much Stripe has refunded of a payment, by payment intent, as its last charge.refunded said
-- (the amount only grows). Kept apart from purchases, as payment_revocations is, because Stripe may
-- deliver a partial refund before the purchase's own completion: fulfilment records the purchase
-- with it, so the console, the CSV and an upgrade's credit see the refund whatever the order.
CREATE TABLE payment_refunds (
  payment_intent_id TEXT PRIMARY KEY,
  amount_refunded INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
