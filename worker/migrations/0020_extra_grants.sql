-- Extra repositories a plan grants besides the kit (src/config: Plan.extraRepositories; the
-- worker's GITHUB_EXTRA_REPOS maps each key to owner/name). One row per purchase and key, for the
-- GitHub account that holds the purchase's kit seat (access_grants): access/extraGrants.ts keeps
-- it in step with the purchase, its plan now (an upgrade's) and that seat.
CREATE TABLE extra_grants (
  session_id TEXT NOT NULL REFERENCES purchases (session_id),
  repository_key TEXT NOT NULL,
  repository TEXT,                     -- owner/name when invited; null while the key has none set
  github_user_id INTEGER,              -- the kit seat's account, by GitHub's numeric id
  github_username TEXT,
  invitation_id INTEGER,               -- the invitation this worker created; null: it created nothing
  -- queued: to be invited (waiting for GitHub's daily cap, or for the next run); pending: invited;
  -- active: accepted (or already a collaborator, with no invitation of ours); revoked: taken back;
  -- failed: not granted, `detail` says why (a key with no repository set, a refusal).
  status TEXT NOT NULL CHECK (status IN ('queued', 'pending', 'active', 'revoked', 'failed')),
  detail TEXT,
  sending_at INTEGER,                  -- a claim to send the invitation, so that two runs never both do
  checked_at INTEGER,                  -- when GitHub was last asked whether a pending invitation was accepted
  queued_at INTEGER,
  invited_at INTEGER,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (session_id, repository_key)
);
CREATE INDEX extra_grants_queued ON extra_grants (status, queued_at);
CREATE INDEX extra_grants_account ON extra_grants (repository, github_user_id);
