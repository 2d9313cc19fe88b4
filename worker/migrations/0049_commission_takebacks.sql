-- Commission taken back (issue 43): a purchase refunded or disputed after its commission was paid.
-- The affiliate was paid for a sale that no longer stands, so the refunded share of what was paid
-- is taken off their next payout. Each row is one commission's share taken off one payout (what was
-- due back less what earlier payouts took), written in the payout's own batch; a payout undone (a
-- Stripe transfer refused) deletes its rows, and the commission is owed back again.
--
-- Only adds a table. Going back: the worker before it reads none of it; what it shows as payable is
-- then the commission payable without what is owed back, as before this migration.
CREATE TABLE commission_takebacks (
  payout_id TEXT NOT NULL,
  session_id TEXT NOT NULL,
  amount INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (payout_id, session_id)
);
-- What a commission's earlier payouts took back.
CREATE INDEX commission_takebacks_session ON commission_takebacks (session_id);
