-- Moves data: access_grants is copied, row for row, into the table that replaces it.
-- Repository seats that touch only the account this worker invited, checkout sign-ins that work
-- once, disputes that can be won, and tables the cron can prune. Times are Unix milliseconds.

-- access_grants is rebuilt (SQLite cannot change a CHECK): `removal_failed` is a grant whose
-- GitHub account could not be removed for good, so it must not look removed; the counters and the
-- cached GitHub reading are new.
CREATE TABLE access_grants_next (
  session_id TEXT PRIMARY KEY REFERENCES purchases (session_id),
  user_id TEXT NOT NULL,
  github_username TEXT NOT NULL,
  github_user_id INTEGER,              -- GitHub's numeric id (null until GitHub answered the lookup)
  invitation_id INTEGER,               -- the invitation this worker created; the only one it withdraws
  status TEXT NOT NULL CHECK (status IN ('queued', 'pending', 'active', 'revoked', 'removal_failed', 'failed')),
  detail TEXT,                         -- why it failed or was revoked, in our words
  version INTEGER NOT NULL DEFAULT 1,  -- bumped on every change of account or status decision
  username_changes INTEGER NOT NULL DEFAULT 0, -- moves of the seat to another invited account
  checked_at INTEGER,                  -- when GitHub was last asked about a pending invitation
  invitation_expired INTEGER NOT NULL DEFAULT 0, -- what GitHub said then
  updated_at INTEGER NOT NULL
);
INSERT INTO access_grants_next (session_id, user_id, github_username, github_user_id, invitation_id, status, detail, version, updated_at)
  SELECT session_id, user_id, github_username, github_user_id, invitation_id, status, detail, version, updated_at FROM access_grants;
DROP TABLE access_grants;
ALTER TABLE access_grants_next RENAME TO access_grants;
CREATE INDEX access_grants_user_id ON access_grants (user_id);
-- One live seat per GitHub account across all purchases.
CREATE UNIQUE INDEX access_grants_live_github_user ON access_grants (github_user_id)
  WHERE github_user_id IS NOT NULL AND status IN ('queued', 'pending', 'active');

-- A checkout sign-in is exchanged once (`consumed_at`); `verified_at` is when the e-mail's owner
-- first signed in with a verified method, which ends every checkout session of the account.
ALTER TABLE checkout_accounts ADD COLUMN consumed_at INTEGER;
ALTER TABLE checkout_accounts ADD COLUMN verified_at INTEGER;
CREATE INDEX checkout_accounts_user_id ON checkout_accounts (user_id);

-- Disputes by id, so that a dispute closed as won is not reopened by a late `created` event.
CREATE TABLE disputes (
  id TEXT PRIMARY KEY,                 -- Stripe dispute id (dp_...)
  payment_intent_id TEXT NOT NULL,
  status TEXT NOT NULL,                -- Stripe's status: needs_response, won, lost, ...
  updated_at INTEGER NOT NULL
);
CREATE INDEX disputes_payment_intent_id ON disputes (payment_intent_id);

-- The cron prunes by age.
CREATE INDEX stripe_events_processed_at ON stripe_events (processed_at);
CREATE INDEX mailgun_tokens_used_at ON mailgun_tokens (used_at);
