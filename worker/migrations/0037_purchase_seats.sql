-- How many seats a purchase bought (issue 41, team seats): 1 for every purchase there is, and for
-- every plan not sold for teams. Fulfilment records the quantity of the Checkout Session's line
-- item, so a seat count is always Stripe's, never the browser's. Seat 1 is the buyer's own; seats 2
-- and up are the team's, each a seat of `grants` (0035, 0036).
--
-- Only adds, so going back needs nothing: the worker before it reads no seats and sells one.
ALTER TABLE purchases ADD COLUMN seats INTEGER NOT NULL DEFAULT 1 CHECK (seats >= 1);
