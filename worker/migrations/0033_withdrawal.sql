-- The EU consumer's right of withdrawal (payments/selfRefund.ts, issue 42).
-- A purchase keeps the buyer's request for immediate delivery made at checkout (Stripe Checkout's
-- terms box, `checkout.requireTermsAcceptance`): which words they accepted (src/config
-- checkoutTerms.ts `immediateDeliveryVersion`) and when. Null: no such request, and the right lasts
-- its whole period. It keeps when it was paid (the buyer's own refunds run from that day) and when
-- its code was first delivered (an invitation accepted, a download served), set once by the
-- triggers below whichever code writes the grant or the link. A buyer's own refunds say which
-- right they used: the guarantee (one a buyer) or a withdrawal (never refused for an earlier one).
-- Moves data: fills the new purchases.paid_at and delivered_at from what is recorded (the checkout's
-- time of each paid purchase; its first download served or a grant active); no other column changes.
-- Going back needs nothing: the worker before this migration reads none of these columns, writes
-- nothing the triggers refuse, and reads a withdrawal's row as a guarantee's refund, which it was
-- in effect.
ALTER TABLE purchases ADD COLUMN delivery_consent_version TEXT;
ALTER TABLE purchases ADD COLUMN delivery_consent_at INTEGER;
ALTER TABLE purchases ADD COLUMN paid_at INTEGER;
ALTER TABLE purchases ADD COLUMN delivered_at INTEGER;
ALTER TABLE self_refunds ADD COLUMN kind TEXT NOT NULL DEFAULT 'guarantee' CHECK (kind IN ('guarantee', 'withdrawal'));

-- Purchases paid before: the checkout's time, the earliest they can have been paid (a window from
-- it ends no later than one from the payment would).
UPDATE purchases SET paid_at = created_at WHERE status IN ('paid', 'revoked') AND payment_intent_id IS NOT NULL;
-- Delivered before: the first download served, or a grant active now (since its last change).
UPDATE purchases SET delivered_at = (
  SELECT MIN(at) FROM (
    SELECT used_at AS at FROM download_links d WHERE d.session_id = purchases.session_id AND d.outcome = 'served'
    UNION ALL
    SELECT updated_at AS at FROM grants g WHERE g.session_id = purchases.session_id AND g.status = 'active'
  )
);

CREATE TRIGGER grants_delivered_on_update AFTER UPDATE OF status ON grants WHEN NEW.status = 'active'
BEGIN
  UPDATE purchases SET delivered_at = COALESCE(delivered_at, NEW.updated_at) WHERE session_id = NEW.session_id;
END;
CREATE TRIGGER grants_delivered_on_insert AFTER INSERT ON grants WHEN NEW.status = 'active'
BEGIN
  UPDATE purchases SET delivered_at = COALESCE(delivered_at, NEW.updated_at) WHERE session_id = NEW.session_id;
END;
CREATE TRIGGER downloads_delivered AFTER UPDATE OF outcome ON download_links WHEN NEW.outcome = 'served'
BEGIN
  UPDATE purchases SET delivered_at = COALESCE(delivered_at, NEW.used_at) WHERE session_id = NEW.session_id;
END;
