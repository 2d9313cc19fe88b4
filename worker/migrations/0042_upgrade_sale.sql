-- What an upgrade's Checkout Session sells, as the worker made it (issue 41): the Stripe price and
-- its quantity, and the credit it gave for what the purchase had paid and kept (null for seats
-- added by the seat, which no credit prices). Fulfilment holds a paid session to these, not to
-- the config or the records as they are when Stripe tells it:
-- - a seller who changes a plan's prices (a new price id, or a team sold in tiers rather than by
--   the seat) while a session is open no longer leaves that payment ignored;
-- - a refund of the purchase (or of an upgrade it holds) landing while a session is open makes
--   its credit too large, and the payment is refused and refunded.
-- A row from before this migration has none of them, and is matched against the config as before.
--
-- Only adds. Going back: the worker before it reads none of these columns.
ALTER TABLE upgrades ADD COLUMN price_id TEXT;
ALTER TABLE upgrades ADD COLUMN quantity INTEGER CHECK (quantity >= 1);
ALTER TABLE upgrades ADD COLUMN credit INTEGER CHECK (credit >= 0);
