-- The funnel on the console's first screen (issue 43): what the worker did not record before.
-- - `checkout_starts`: each Checkout Session the worker made for a purchase, when it made it: the
--   checkouts started, and (joined to `purchases`) those paid.
-- - `grants.activated_at`: when the seat's account first took its access on that repository (an
--   invitation accepted, or a collaborator already): the invitations accepted in a period. (The time from payment to access is
--   `purchases.delivered_at`, kept since 0033.)
-- Neither is known for what came before: the funnel counts from this migration on, and the docs
-- say so.
--
-- Only adds. Going back: the worker before it reads neither.
CREATE TABLE checkout_starts (
  session_id TEXT PRIMARY KEY,
  created_at INTEGER NOT NULL
);
CREATE INDEX checkout_starts_created_at ON checkout_starts (created_at);

ALTER TABLE grants ADD COLUMN activated_at INTEGER;
CREATE INDEX grants_activated_at ON grants (activated_at) WHERE activated_at IS NOT NULL;
-- The downloads served in a period.
CREATE INDEX download_links_served ON download_links (used_at) WHERE outcome = 'served';
