-- The members of a team purchase (issue 41): who holds each seat past the buyer's own (seat 1).
-- A member's access is the seat's grants (`grants`, keyed by seat since 0036); this table is who
-- the seat is for and how they came to it:
-- - the owner named the member's GitHub account: `state` 'joined', no `email`, no `user_id`;
-- - the owner invited an address: 'invited' with `email` and the link's hash until it is used
--   (then 'joined' with the member's `user_id`), withdrawn, or past `link_expires_at`.
-- A member removed, or an invitation withdrawn, stays as a row ('removed', 'withdrawn'): the seat
-- is free again, and the console keeps the history. At most one member holds a seat at a time.
--
-- Only adds, so going back needs nothing: the worker before it reads no members.
CREATE TABLE team_members (
  id INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL,
  seat INTEGER NOT NULL CHECK (seat >= 2),
  state TEXT NOT NULL CHECK (state IN ('invited', 'joined', 'withdrawn', 'removed')),
  email TEXT,
  link_hash TEXT,
  link_expires_at INTEGER,
  user_id TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX team_members_seat ON team_members (session_id, seat) WHERE state IN ('invited', 'joined');
CREATE UNIQUE INDEX team_members_link ON team_members (link_hash) WHERE link_hash IS NOT NULL;
CREATE INDEX team_members_user ON team_members (user_id) WHERE state = 'joined';
-- One seat per address invited: two invitations at once never take two seats.
CREATE UNIQUE INDEX team_members_email ON team_members (session_id, email) WHERE state IN ('invited', 'joined');

-- Which member a team seat's grant is for (null on the buyer's own seat, 1): a grant delivers only
-- while that member holds the seat, so one left by a member removed is never given back to their
-- account once the seat has a new member.
ALTER TABLE grants ADD COLUMN member_id INTEGER;

-- The seat a download link was made for, and for a team's seat the member: a member's link stops
-- once their seat ends. Every link there is was made for a buyer's own seat, 1.
ALTER TABLE download_links ADD COLUMN seat INTEGER NOT NULL DEFAULT 1;
ALTER TABLE download_links ADD COLUMN member_id INTEGER;
