-- The seat in a grant's key (issue 40's model: one grant per repository per seat of a purchase).
-- A purchase has one seat today, seat 1, the buyer's own: every row there is gets it by the
-- column's default. Team seats (issue 41) add seats 2 and up, each holding every repository of the
-- plan, and each seat's 'kit' row carries that seat's account (user_id, username_changes,
-- chosen_by_owner), as the one seat's does now.
--
-- Only adds, so going back needs nothing: the worker before this migration upserts on the old
-- UNIQUE (session_id, repository_key), which stays until a later migration rebuilds the table
-- without it, once no worker you might go back to relies on it. The worker after this migration
-- upserts on the new key. Rows move nowhere.
ALTER TABLE grants ADD COLUMN seat INTEGER NOT NULL DEFAULT 1 CHECK (seat >= 1);
CREATE UNIQUE INDEX grants_seat_key ON grants (session_id, seat, repository_key);
