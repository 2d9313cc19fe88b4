-- Launch codes (issue 43): the Stripe promotion codes the seller made in the console, and the code
-- a purchase was paid with.
-- - `launch_codes` holds what the worker made at Stripe: the console lists and ends only these.
--   Its limits are as the worker asked Stripe for them; Stripe enforces them at checkout.
-- - `purchases.promotion_code_id` is the promotion code Stripe applied to the session (its
--   `discounts`), as fulfilment read it: what the console counts as a code's uses and revenue.
--
-- Only adds. Going back: the worker before it reads neither; the codes stay at Stripe, and the
-- seller ends them in Stripe's dashboard.
CREATE TABLE launch_codes (
  id TEXT PRIMARY KEY,
  code TEXT NOT NULL,
  coupon_id TEXT NOT NULL,
  percent_off INTEGER CHECK (percent_off BETWEEN 1 AND 100),
  amount_off INTEGER CHECK (amount_off >= 1),
  currency TEXT NOT NULL,
  max_uses INTEGER CHECK (max_uses >= 1),
  ends_at INTEGER,
  first_time_only INTEGER NOT NULL DEFAULT 0 CHECK (first_time_only IN (0, 1)),
  plan TEXT,
  created_at INTEGER NOT NULL,
  created_by TEXT NOT NULL,
  ended_at INTEGER,
  CHECK ((percent_off IS NULL) <> (amount_off IS NULL))
);
-- The console's newest first; a code's active twin is found by its upper-cased text.
CREATE INDEX launch_codes_created_at ON launch_codes (created_at);
CREATE INDEX launch_codes_code ON launch_codes (upper(code));

ALTER TABLE purchases ADD COLUMN promotion_code_id TEXT;
CREATE INDEX purchases_promotion_code ON purchases (promotion_code_id) WHERE promotion_code_id IS NOT NULL;
