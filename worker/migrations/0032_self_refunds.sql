-- The refunds buyers make themselves from the dashboard under the money-back guarantee
-- (payments/selfRefund.ts): one a buyer, known by their account, the purchase's e-mail, its Stripe
-- customer and its card's fingerprint, each kept here. A row is written before Stripe is asked (the
-- claim that makes a second purchase's refund wait for support), and gets Stripe's refund once it
-- is made; a claim is never given back. `reason` is what the buyer wrote, kept for the seller.
-- Going back needs nothing: the worker before this migration does not know of the table.
CREATE TABLE self_refunds (
  session_id TEXT PRIMARY KEY,      -- the purchase refunded (Stripe Checkout Session id)
  user_id TEXT NOT NULL,            -- who asked: the signed-in owner of the purchase
  email TEXT,                       -- the purchase's e-mail, lower-cased
  customer_id TEXT,                 -- Stripe customer
  card_fingerprint TEXT,            -- Stripe's fingerprint of the card that paid (null for other methods)
  reason TEXT,
  refund_id TEXT,                   -- Stripe's refund, once made
  amount INTEGER,                   -- cents refunded, once made
  currency TEXT,
  created_at INTEGER NOT NULL
);
CREATE INDEX self_refunds_email ON self_refunds (email);
CREATE INDEX self_refunds_customer_id ON self_refunds (customer_id);
CREATE INDEX self_refunds_card_fingerprint ON self_refunds (card_fingerprint);
CREATE INDEX self_refunds_created_at ON self_refunds (created_at);
