-- The console pages purchases by (created_at DESC, session_id DESC): two purchases in the same
-- millisecond need an order every page agrees on, or one shows on two pages and another on none.
-- An index on both columns serves that order without a sort; the one on created_at alone is now
-- redundant (its prefix).
CREATE INDEX purchases_created_at_session_id ON purchases (created_at, session_id);
DROP INDEX purchases_created_at;
