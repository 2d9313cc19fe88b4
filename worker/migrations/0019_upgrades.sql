-- Upgrades: a paid purchase moved to a higher plan for the difference. Each row is one upgrade's
-- Checkout Session, tied to the purchase it upgrades, with what it adds (from plan, to plan) and
-- the amount the worker computed when it made the session. The purchase keeps the plan it was
-- bought for; its plan now is the highest paid upgrade's `to_plan` (purchases.ts `effectivePlan`).
CREATE TABLE upgrades (
  session_id TEXT PRIMARY KEY,                 -- the upgrade's Checkout Session (cs_...)
  purchase_session_id TEXT NOT NULL REFERENCES purchases (session_id),
  user_id TEXT NOT NULL,                       -- the signed-in buyer who asked for it
  email TEXT,                                  -- that account's verified e-mail then (for a guest purchase it owns by e-mail)
  from_plan TEXT NOT NULL,                     -- plan ids, as purchases record them
  to_plan TEXT NOT NULL,
  amount INTEGER NOT NULL,                     -- cents the worker computed: what Stripe must charge
  currency TEXT NOT NULL,
  coupon_id TEXT,                              -- the credit for the first purchase, on Stripe
  -- open: not paid yet; paid: applied; revoked: refunded or disputed since (the purchase is back to
  -- from_plan); refused: paid but not applied (`refused_reason`), refunded automatically when it
  -- duplicates an upgrade already paid or its purchase is no longer paid; failed: payment failed.
  status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'paid', 'revoked', 'refused', 'failed')),
  refused_reason TEXT,
  revoke_reason TEXT,
  payment_intent_id TEXT,
  amount_paid INTEGER,
  amount_refunded INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  paid_at INTEGER,
  updated_at INTEGER NOT NULL
);
CREATE INDEX upgrades_purchase ON upgrades (purchase_session_id);
CREATE INDEX upgrades_payment_intent_id ON upgrades (payment_intent_id);
-- One paid upgrade per purchase and plan, whatever the code does: a second payment is refused.
CREATE UNIQUE INDEX upgrades_paid_once ON upgrades (purchase_session_id, to_plan) WHERE status = 'paid';
