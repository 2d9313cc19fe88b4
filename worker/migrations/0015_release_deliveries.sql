-- How each release e-mail went, per buyer: one row per (release, address), written by the worker
-- when Mailgun accepts a batch (`sent`) or refuses it for good (`failed`, with Mailgun's reason),
-- then moved on by Mailgun's event webhooks (`delivered`, or `failed` on a permanent bounce).
-- `delivered` and `failed` are final over `sent`, so events out of order or twice end right; only
-- a new send of the same release (the console's "Send again") turns a `failed` back to `sent`.
CREATE TABLE release_deliveries (
  release_id INTEGER NOT NULL REFERENCES releases (id),
  email TEXT NOT NULL,                 -- lower-cased, as purchases.email
  audience TEXT NOT NULL CHECK (audience IN ('updates', 'upgrade')),  -- which e-mail it was (releases/audience.ts)
  status TEXT NOT NULL CHECK (status IN ('sent', 'delivered', 'failed')),
  reason TEXT,                         -- for `failed`: Mailgun's words (its 400, or the bounce)
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (release_id, email)
);
CREATE INDEX release_deliveries_status ON release_deliveries (release_id, status);
