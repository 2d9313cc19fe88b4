-- Moves data: jobs.session_id is filled in from each outbox job's key.
-- What the seller's console reads: amounts, the events of each purchase, the outbox work of each
-- purchase and what the admins did, with indexes so that a page of 10,000 purchases stays fast.

-- What Stripe charged, in the currency's smallest unit; null for purchases recorded before.
ALTER TABLE purchases ADD COLUMN amount_total INTEGER;
ALTER TABLE purchases ADD COLUMN currency TEXT;
CREATE INDEX purchases_created_at ON purchases (created_at);
CREATE INDEX purchases_status_created_at ON purchases (status, created_at);

-- Which object an event was about, so a purchase's page can list its events.
ALTER TABLE stripe_events ADD COLUMN object_id TEXT;           -- the session, charge or dispute
ALTER TABLE stripe_events ADD COLUMN payment_intent_id TEXT;
CREATE INDEX stripe_events_object_id ON stripe_events (object_id);
CREATE INDEX stripe_events_payment_intent_id ON stripe_events (payment_intent_id);

-- The purchase an outbox job works for (its e-mails, invitations and removals).
ALTER TABLE jobs ADD COLUMN session_id TEXT;
UPDATE jobs SET session_id =
  CASE WHEN instr(substr(key, instr(key, ':') + 1), ':') > 0
       THEN substr(key, instr(key, ':') + 1, instr(substr(key, instr(key, ':') + 1), ':') - 1)
       ELSE substr(key, instr(key, ':') + 1) END
  WHERE key LIKE 'welcome:%' OR key LIKE 'invite:%' OR key LIKE 'remove:%';
CREATE INDEX jobs_session_id ON jobs (session_id);
CREATE INDEX jobs_status_updated_at ON jobs (status, updated_at);

-- Search by GitHub account.
CREATE INDEX access_grants_github_username ON access_grants (github_username COLLATE NOCASE);
CREATE INDEX access_grants_github_user_id ON access_grants (github_user_id);

-- Every admin action: who, what, when, on which purchase.
CREATE TABLE admin_audit (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  admin_email TEXT NOT NULL,
  action TEXT NOT NULL,
  session_id TEXT,
  detail TEXT,
  created_at INTEGER NOT NULL
);
CREATE INDEX admin_audit_session_id ON admin_audit (session_id);

-- The waitlist, newest first.
CREATE INDEX leads_created_at ON leads (created_at);
