-- Upgrade codes (issue 43): launch codes for past buyers only, typed on the dashboard's upgrade card.
-- - `launch_codes.for_upgrades`: 1 for an upgrade code. It is never a Stripe promotion code: its id
--   is the worker's (`upcode_` and 24 hex digits), its `coupon_id` is '' (the upgrade's session
--   carries one coupon, its credit, with the code's discount in it), and the worker keeps its
--   limits (uses, end date, plan) itself.
-- - `upgrades.launch_code_id`: the upgrade code an upgrade's session was priced with: what the
--   console counts as the code's uses and revenue, and what a second session within its limits
--   counts against them.
--
-- Only adds. Going back: the worker before it reads neither; an upgrade code it no longer knows is
-- simply refused (no buyer can type one there), and sessions already priced with one keep their price.
ALTER TABLE launch_codes ADD COLUMN for_upgrades INTEGER NOT NULL DEFAULT 0 CHECK (for_upgrades IN (0, 1));

ALTER TABLE upgrades ADD COLUMN launch_code_id TEXT;
CREATE INDEX upgrades_launch_code ON upgrades (launch_code_id) WHERE launch_code_id IS NOT NULL;
