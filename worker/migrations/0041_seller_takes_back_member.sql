-- Moves data: every row of team_members, id and all, into a table whose end reason may also be the seller's.
-- `end_reason` may now be 'seller': the seller took the member's seat back from the console. SQLite changes a
-- column's CHECK only by building the table again: a copy of every row, ids kept (a grant's and a
-- download link's `member_id` name them), then the indexes of 0038.
--
-- Nothing is lost: the migration fails, and so changes nothing, unless the new table holds as many
-- rows as the old one did. Going back: the worker of 0040 reads and writes this table as it is (it
-- writes no 'seller', and names a seat the seller ended as one its owner did). Its indexes are the same.
CREATE TABLE team_members_0041 (
  id INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL,
  seat INTEGER NOT NULL CHECK (seat >= 2),
  state TEXT NOT NULL CHECK (state IN ('invited', 'joined', 'withdrawn', 'removed')),
  email TEXT,
  link_hash TEXT,
  link_expires_at INTEGER,
  user_id TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  -- Why the seat ended: null when the owner removed the member (or withdrew the invitation),
  -- 'seats_refunded' when a refund of seats took it, 'seller' when the seller took it back.
  end_reason TEXT CHECK (end_reason IN ('seats_refunded', 'seller'))
);

INSERT INTO team_members_0041 (id, session_id, seat, state, email, link_hash, link_expires_at, user_id, created_at,
  updated_at, end_reason)
SELECT id, session_id, seat, state, email, link_hash, link_expires_at, user_id, created_at, updated_at, end_reason
FROM team_members ORDER BY id;

-- Every row moved, or the migration fails here and Wrangler applies none of it.
CREATE TABLE migration_0041_check (moved INTEGER NOT NULL CHECK (moved = 1));
INSERT INTO migration_0041_check (moved)
  SELECT (SELECT COUNT(*) FROM team_members_0041) = (SELECT COUNT(*) FROM team_members);
DROP TABLE migration_0041_check;

-- The old table goes with its indexes; the new one takes its name and gets them again (0038's).
DROP TABLE team_members;
ALTER TABLE team_members_0041 RENAME TO team_members;

CREATE UNIQUE INDEX team_members_seat ON team_members (session_id, seat) WHERE state IN ('invited', 'joined');
CREATE UNIQUE INDEX team_members_link ON team_members (link_hash) WHERE link_hash IS NOT NULL;
CREATE INDEX team_members_user ON team_members (user_id) WHERE state = 'joined';
-- One seat per address invited: two invitations at once never take two seats.
CREATE UNIQUE INDEX team_members_email ON team_members (session_id, email) WHERE state IN ('invited', 'joined');
