-- Payouts through Stripe Connect (issue 43, the programme's `stripeConnect`).
-- - `affiliates.stripe_account_id`: the Express account the worker made for the affiliate (once; a
--   payout's transfer goes to this account and no other). `stripe_ready_at`: when the worker first
--   saw Stripe take transfers to it (its `transfers` capability active); NULL until then.
-- - `affiliate_payouts.method`: 'marked' (the seller paid by their own means) or 'stripe' (a
--   transfer). `state`: 'made', or 'sending' while the worker has not heard back from Stripe about
--   its transfer (the outbox asks again with the payout's id as the idempotency key).
--   `transfer_id`: Stripe's transfer, once made.
--
-- Only adds, and every payout before it was marked and made, which the defaults say. Going back: the
-- worker before it reads none of these; a payout sent through Stripe reads as one marked paid, with
-- the transfer's id as its reference.
ALTER TABLE affiliates ADD COLUMN stripe_account_id TEXT;
ALTER TABLE affiliates ADD COLUMN stripe_ready_at INTEGER;
CREATE UNIQUE INDEX affiliates_stripe_account ON affiliates (stripe_account_id) WHERE stripe_account_id IS NOT NULL;

ALTER TABLE affiliate_payouts ADD COLUMN method TEXT NOT NULL DEFAULT 'marked' CHECK (method IN ('marked', 'stripe'));
ALTER TABLE affiliate_payouts ADD COLUMN state TEXT NOT NULL DEFAULT 'made' CHECK (state IN ('sending', 'made'));
ALTER TABLE affiliate_payouts ADD COLUMN transfer_id TEXT;
