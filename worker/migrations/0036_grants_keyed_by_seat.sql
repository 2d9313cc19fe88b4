-- Moves data: every row of grants, id and all, into a table keyed by (session_id, seat, repository_key) alone.
-- Migration 0035 added the seat to a grant's key beside the old UNIQUE (session_id, repository_key),
-- which kept the worker before it running; that old key allows one seat a purchase. SQLite drops a
-- table's constraint only by building the table again: a copy of every row, ids kept (the queue's
-- order is (waiting_at, id)), then the indexes, and migration 0033's triggers on delivery.
--
-- Nothing is lost: the migration fails, and so changes nothing, unless the new table holds as many
-- rows as the old one did. Going back: the worker of 0035 (the release before this one) writes on
-- the new key and runs with this table as it is. A worker from before 0035 upserts on the old key,
-- which is gone: going back past 0035 then takes a D1 Time Travel restore to before this migration
-- together with that worker (docs: Deployment, "Migrations, and going back").
CREATE TABLE grants_keyed_by_seat (
  id INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES purchases (session_id),
  seat INTEGER NOT NULL DEFAULT 1 CHECK (seat >= 1), -- 1: the buyer's own; team seats count on from 2
  repository_key TEXT NOT NULL,        -- 'kit': the kit's repository (GITHUB_REPO); else a key of GITHUB_EXTRA_REPOS
  repository TEXT,                     -- an extra's owner/name when invited; null on the kit row and while a key has none set
  github_user_id INTEGER,              -- GitHub's numeric id (null until GitHub answered the lookup)
  github_username TEXT,
  invitation_id INTEGER,               -- the invitation this worker created; the only one it withdraws
  status TEXT NOT NULL CHECK (status IN ('queued', 'pending', 'active', 'revoked', 'removal_failed', 'failed')),
  detail TEXT,                         -- why it failed or was taken back, in our words
  version INTEGER NOT NULL DEFAULT 1,  -- bumped on every change of the kit row, and by a re-send, activation or take-back of any row
  user_id TEXT,                        -- the seat's kit row: who pointed it
  username_changes INTEGER NOT NULL DEFAULT 0, -- the seat's kit row: its moves to another invited account
  chosen_by_owner INTEGER NOT NULL DEFAULT 0,  -- the seat's kit row: the verified owner (or the seller) chose the account
  queued_at INTEGER,                   -- an extra row: when it was queued
  sending_at INTEGER,                  -- a claim to send the invitation, so that two runs never both do
  invite_attempted_at INTEGER,         -- set just before the invitation is sent, cleared once its answer is recorded
  invited_at INTEGER,
  checked_at INTEGER,                  -- when GitHub was last asked about a pending invitation
  invitation_expired INTEGER NOT NULL DEFAULT 0, -- what GitHub said then
  expiry_resends INTEGER NOT NULL DEFAULT 0,
  resent_after_expiry INTEGER NOT NULL DEFAULT 0, -- the kit row: this version's invitation re-sends an expired one
  updated_at INTEGER NOT NULL,
  waiting_at INTEGER,                  -- its place in line for the repository's window of invitations (0029)
  UNIQUE (session_id, seat, repository_key)
);

INSERT INTO grants_keyed_by_seat (id, session_id, seat, repository_key, repository, github_user_id, github_username,
  invitation_id, status, detail, version, user_id, username_changes, chosen_by_owner, queued_at, sending_at,
  invite_attempted_at, invited_at, checked_at, invitation_expired, expiry_resends, resent_after_expiry, updated_at, waiting_at)
SELECT id, session_id, seat, repository_key, repository, github_user_id, github_username,
  invitation_id, status, detail, version, user_id, username_changes, chosen_by_owner, queued_at, sending_at,
  invite_attempted_at, invited_at, checked_at, invitation_expired, expiry_resends, resent_after_expiry, updated_at, waiting_at
FROM grants ORDER BY id;

-- Every row moved, or the migration fails here and Wrangler applies none of it.
CREATE TABLE migration_0036_check (moved INTEGER NOT NULL CHECK (moved = 1));
INSERT INTO migration_0036_check (moved)
  SELECT (SELECT COUNT(*) FROM grants_keyed_by_seat) = (SELECT COUNT(*) FROM grants);
DROP TABLE migration_0036_check;

-- The old table goes with its indexes and triggers; the new one takes its name and gets them again.
DROP TABLE grants;
ALTER TABLE grants_keyed_by_seat RENAME TO grants;

CREATE INDEX grants_user_id ON grants (user_id);
-- One live kit seat per GitHub account, across purchases and their seats.
CREATE UNIQUE INDEX grants_live_seat ON grants (github_user_id)
  WHERE repository_key = 'kit' AND github_user_id IS NOT NULL AND status IN ('queued', 'pending', 'active');
CREATE INDEX grants_github_username ON grants (github_username COLLATE NOCASE);
CREATE INDEX grants_account ON grants (repository, github_user_id);
CREATE INDEX grants_github_user_id ON grants (github_user_id);
CREATE INDEX grants_queued ON grants (status, queued_at);
CREATE INDEX grants_invited_at ON grants (status, invited_at);
CREATE INDEX grants_waiting ON grants (waiting_at, id) WHERE status = 'queued' AND waiting_at IS NOT NULL;
CREATE INDEX grants_invitation_id ON grants (invitation_id);

CREATE TRIGGER grants_delivered_on_update AFTER UPDATE OF status ON grants WHEN NEW.status = 'active'
BEGIN
  UPDATE purchases SET delivered_at = COALESCE(delivered_at, NEW.updated_at) WHERE session_id = NEW.session_id;
END;
CREATE TRIGGER grants_delivered_on_insert AFTER INSERT ON grants WHEN NEW.status = 'active'
BEGIN
  UPDATE purchases SET delivered_at = COALESCE(delivered_at, NEW.updated_at) WHERE session_id = NEW.session_id;
END;
