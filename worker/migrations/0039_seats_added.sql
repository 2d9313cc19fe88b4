-- Seats added to a team later, and a team's upgrade priced for its seats (issue 41). Both are
-- upgrades: one Checkout Session each, priced by the worker, tied to the purchase it grows.
-- - `seats_added`: how many seats the upgrade adds (0 for a move to a higher plan). A purchase's
--   seats now are its own plus those of its paid seat upgrades (purchases.ts `effectiveSeats`), so a
--   seat upgrade refunded or lost to a dispute takes its seats away again.
-- - `from_seats`: the seats the purchase had when the worker priced the upgrade. A move to a higher
--   plan is priced for every seat, so one paid after the seats changed is refused as stale.
-- - `team_members.end_reason`: why a member's seat ended, for the words they read: null when the
--   owner removed them, 'seats_refunded' when their seat was one the refund took away.
-- The index that lets one paid upgrade to a plan per purchase now counts moves alone: a team may
-- add seats as often as it likes, on the plan it holds.
--
-- Only adds (the index is rebuilt on the same rows: every row before it adds no seat). Going back:
-- the worker before it reads none of these columns; run the old index's statement from
-- 0019_upgrades.sql only after every paid seat upgrade is refunded (it would refuse two rows).
ALTER TABLE upgrades ADD COLUMN seats_added INTEGER NOT NULL DEFAULT 0 CHECK (seats_added >= 0);
ALTER TABLE upgrades ADD COLUMN from_seats INTEGER NOT NULL DEFAULT 1 CHECK (from_seats >= 1);
ALTER TABLE team_members ADD COLUMN end_reason TEXT CHECK (end_reason IN ('seats_refunded'));
DROP INDEX upgrades_paid_once;
CREATE UNIQUE INDEX upgrades_paid_once ON upgrades (purchase_session_id, to_plan) WHERE status = 'paid' AND seats_added = 0;
