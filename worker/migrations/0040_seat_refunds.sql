-- Some of a team's seats refunded from the console (issue 41): one row per Stripe refund that gave
-- seats back, keyed by the refund's id, so the same refund asked again (a double click, a second
-- tab) or recorded again is one row. A purchase's seats now are its own, plus those of its paid seat
-- upgrades, less these (purchases.ts `effectiveSeats`); the members past the count lose their seats
-- (team/removeMember.ts `endSeatsPast`). The worker writes a row only for a refund it made itself,
-- of a team purchase's own payment, at the price it paid for each seat.
--
-- Only adds. Going back: the worker before it reads no such table, so it counts the seats refunded
-- as held; their members are off already, and it offers the team those seats again until you deploy
-- forward.
CREATE TABLE seat_refunds (
  refund_id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL,
  seats INTEGER NOT NULL CHECK (seats >= 1),
  amount INTEGER NOT NULL CHECK (amount >= 0),
  currency TEXT NOT NULL,
  refunded_by TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX seat_refunds_session ON seat_refunds (session_id);
