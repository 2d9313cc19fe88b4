-- The EU consumer's right of withdrawal (payments/selfRefund.ts, issue 42).
-- A purchase keeps the buyer's request for immediate delivery made at checkout (Stripe Checkout's
-- terms box, `checkout.requireTermsAcceptance`): which words they accepted (src/config
-- checkoutTerms.ts `immediateDeliveryVersion`) and when. Null: no such request, and the right lasts
-- its whole period. A buyer's own refunds say which right they used: the guarantee (one a buyer) or
-- a withdrawal (a right the law gives, never refused for an earlier refund).
-- Going back needs nothing: the worker before this migration reads none of these columns, and a
-- withdrawal row reads to it as a guarantee's refund, which it was in effect.
ALTER TABLE purchases ADD COLUMN delivery_consent_version TEXT;
ALTER TABLE purchases ADD COLUMN delivery_consent_at INTEGER;
ALTER TABLE self_refunds ADD COLUMN kind TEXT NOT NULL DEFAULT 'guarantee' CHECK (kind IN ('guarantee', 'withdrawal'));
