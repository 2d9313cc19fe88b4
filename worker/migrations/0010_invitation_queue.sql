-- GitHub accepts a limited number of repository invitations per repository in 24 hours
-- (appConfig.repository.invitationsPerDay). The worker counts what it sent, and never sends past it.
-- A row is written just before the invitation goes to GitHub, and removed if GitHub did not take it.
CREATE TABLE invitations_sent (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  repository TEXT NOT NULL,
  session_id TEXT NOT NULL,
  sent_at INTEGER NOT NULL
);
CREATE INDEX invitations_sent_window ON invitations_sent (repository, sent_at);

-- Invitations that wait for the window to free: first in, first out by id. One row per purchase,
-- for the grant version that is to be invited; a later request of that purchase keeps its place.
CREATE TABLE invitation_queue (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  session_id TEXT NOT NULL UNIQUE,
  version INTEGER NOT NULL,
  repository TEXT NOT NULL,
  queued_at INTEGER NOT NULL
);
CREATE INDEX invitation_queue_order ON invitation_queue (repository, id);
