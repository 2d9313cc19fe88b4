-- GitHub releases announced to the buyers, one row per release. The release id and the delivery
-- that announced it are each unique: a redelivery, or another delivery of the same release,
-- stores nothing and sends nothing.
CREATE TABLE releases (
  id INTEGER PRIMARY KEY,              -- GitHub's release id
  delivery_id TEXT NOT NULL UNIQUE,    -- X-GitHub-Delivery of the delivery that announced it
  tag TEXT NOT NULL,
  name TEXT NOT NULL,                  -- the release's name, or its tag when it has none
  body TEXT NOT NULL,                  -- the notes, as Markdown (rendered when sent or shown)
  html_url TEXT,
  published_at INTEGER NOT NULL,
  recipients INTEGER NOT NULL,         -- buyers e-mailed the release (or the upgrade note), in batches
  created_at INTEGER NOT NULL
);
CREATE INDEX releases_published_at ON releases (published_at);

-- Buyers who asked for no more release e-mails (the one-click link). Receipts and access e-mails
-- still go to them.
CREATE TABLE release_unsubscribes (
  email TEXT PRIMARY KEY,              -- lower-cased, as purchases.email
  created_at INTEGER NOT NULL
);
