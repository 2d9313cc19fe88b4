-- How much of a purchase Stripe has refunded, in the currency's smallest unit, as its last
-- `charge.refunded` webhook said: the console shows partial refunds, which keep access.
ALTER TABLE purchases ADD COLUMN amount_refunded INTEGER NOT NULL DEFAULT 0;
