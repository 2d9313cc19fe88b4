-- One-time links to download the code (POST /downloadLink, GET /download/:token). The token is
-- stored only as its SHA-256: a copy of this table lets nobody download. `used_at` is set when the
-- link is followed, so each row is also the log of one download (or of a link never used).
-- 0011: 0009 and 0010 are taken by the plan stable id and the invitation queue.
CREATE TABLE download_links (
  token_hash TEXT PRIMARY KEY,         -- hex SHA-256 of the token in the link
  session_id TEXT NOT NULL REFERENCES purchases (session_id),
  user_id TEXT NOT NULL,               -- the signed-in buyer who asked for it
  ref TEXT NOT NULL,                   -- what it downloads: a release tag or the default branch
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER,
  outcome TEXT CHECK (outcome IN ('served', 'refused', 'failed')),
  detail TEXT                          -- why it was refused or failed
);
CREATE INDEX download_links_session ON download_links (session_id, created_at);
