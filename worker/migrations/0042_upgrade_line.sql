-- What an upgrade's Checkout Session sells, as the worker made it: the Stripe price and its
-- quantity (issue 41). Fulfilment holds a paid session to these, not to the config it reads when
-- Stripe tells it: a seller who changes a plan's prices (a new price id, or a team sold in tiers
-- rather than by the seat) while a session is open no longer leaves that payment ignored. A row
-- from before this migration has neither, and is matched against the config as before.
--
-- Only adds. Going back: the worker before it reads neither column.
ALTER TABLE upgrades ADD COLUMN price_id TEXT;
ALTER TABLE upgrades ADD COLUMN quantity INTEGER CHECK (quantity >= 1);
