-- Moves data: every row of access_grants (the kit's seat) and of extra_grants (a plan's extra repositories) into grants.
-- One access model (issue 40): each repository a purchase grants is one row of `grants`, keyed by the
-- purchase and the repository's key. The kit's repository is the key 'kit', the first of every plan;
-- an extra repository keeps its key of src/config (Plan.extraRepositories). The kit's row is also the
-- purchase's seat: who pointed it (user_id), its moves (username_changes) and whether the owner chose
-- it (chosen_by_owner) are its columns, and every extra row follows its account.
--
-- Nothing is lost: the copy carries every column each row had (access_grants.revoked_by_seller
-- aside, a copy of purchases.revoked_by_seller_at that nothing reads since 0027), and the migration
-- fails, and so changes nothing, unless grants holds as many rows as the two tables did.
-- The old tables are kept under new names, `*_before_0028`, so that the worker before this migration
-- fails closed ("no such table") rather than act on rows that stopped changing. Going back is a D1
-- Time Travel restore to before this migration together with that worker (docs: Deployment,
-- "Migrations, and going back"); a later migration drops the copies.
-- invitation_queue (the kit's place in line for GitHub's daily cap) still names the kit row by session.
CREATE TABLE grants (
  id INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES purchases (session_id),
  repository_key TEXT NOT NULL,        -- 'kit': the kit's repository (GITHUB_REPO); else a key of GITHUB_EXTRA_REPOS
  repository TEXT,                     -- an extra's owner/name when invited; null on the kit row and while a key has none set
  github_user_id INTEGER,              -- GitHub's numeric id (null until GitHub answered the lookup)
  github_username TEXT,
  invitation_id INTEGER,               -- the invitation this worker created; the only one it withdraws
  status TEXT NOT NULL CHECK (status IN ('queued', 'pending', 'active', 'revoked', 'removal_failed', 'failed')),
  detail TEXT,                         -- why it failed or was taken back, in our words
  version INTEGER NOT NULL DEFAULT 1,  -- the kit row: bumped on every change of account or status decision
  user_id TEXT,                        -- the kit row (the seat): who pointed it
  username_changes INTEGER NOT NULL DEFAULT 0, -- the kit row: moves of the seat to another invited account
  chosen_by_owner INTEGER NOT NULL DEFAULT 0,  -- the kit row: the verified owner (or the seller) chose the account
  queued_at INTEGER,                   -- an extra row: its place in line
  sending_at INTEGER,                  -- a claim to send the invitation, so that two runs never both do
  invite_attempted_at INTEGER,         -- set just before the invitation is sent, cleared once its answer is recorded
  invited_at INTEGER,
  checked_at INTEGER,                  -- when GitHub was last asked about a pending invitation
  invitation_expired INTEGER NOT NULL DEFAULT 0, -- the kit row: what GitHub said then
  expiry_resends INTEGER NOT NULL DEFAULT 0,
  resent_after_expiry INTEGER NOT NULL DEFAULT 0, -- the kit row: this version's invitation re-sends an expired one
  updated_at INTEGER NOT NULL,
  UNIQUE (session_id, repository_key)
);
CREATE INDEX grants_user_id ON grants (user_id);
-- One live kit seat per GitHub account, across purchases, as access_grants had it.
CREATE UNIQUE INDEX grants_live_seat ON grants (github_user_id)
  WHERE repository_key = 'kit' AND github_user_id IS NOT NULL AND status IN ('queued', 'pending', 'active');
CREATE INDEX grants_github_username ON grants (github_username COLLATE NOCASE);
CREATE INDEX grants_account ON grants (repository, github_user_id);
CREATE INDEX grants_github_user_id ON grants (github_user_id);
CREATE INDEX grants_queued ON grants (status, queued_at);
CREATE INDEX grants_invited_at ON grants (status, invited_at);

INSERT INTO grants (session_id, repository_key, repository, github_user_id, github_username, invitation_id, status,
  detail, version, user_id, username_changes, chosen_by_owner, queued_at, sending_at, invite_attempted_at, invited_at,
  checked_at, invitation_expired, expiry_resends, resent_after_expiry, updated_at)
SELECT session_id, 'kit', NULL, github_user_id, github_username, invitation_id, status,
  detail, version, user_id, username_changes, chosen_by_owner, NULL, sending_at, invite_attempted_at, invited_at,
  checked_at, invitation_expired, expiry_resends, resent_after_expiry, updated_at
FROM access_grants ORDER BY updated_at, session_id;

INSERT INTO grants (session_id, repository_key, repository, github_user_id, github_username, invitation_id, status,
  detail, queued_at, sending_at, invite_attempted_at, invited_at, checked_at, expiry_resends, updated_at)
SELECT session_id, repository_key, repository, github_user_id, github_username, invitation_id, status,
  detail, queued_at, sending_at, invite_attempted_at, invited_at, checked_at, expiry_resends, updated_at
FROM extra_grants ORDER BY queued_at, session_id, repository_key;

-- Every row moved, or the migration fails here and Wrangler applies none of it.
CREATE TABLE migration_0028_check (moved INTEGER NOT NULL CHECK (moved = 1));
INSERT INTO migration_0028_check (moved)
  SELECT (SELECT COUNT(*) FROM grants) = (SELECT COUNT(*) FROM access_grants) + (SELECT COUNT(*) FROM extra_grants);
DROP TABLE migration_0028_check;

ALTER TABLE access_grants RENAME TO access_grants_before_0028;
ALTER TABLE extra_grants RENAME TO extra_grants_before_0028;
