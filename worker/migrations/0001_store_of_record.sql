-- The store of record for payments and repository access. Times are Unix milliseconds.

-- Buyers as Stripe knows them: one row per Stripe customer.
CREATE TABLE customers (
  id TEXT PRIMARY KEY,                 -- Stripe customer id (cus_...)
  email TEXT,                          -- lower-cased
  user_id TEXT,                        -- the auth provider's uid, once known
  created_at INTEGER NOT NULL
);
CREATE INDEX customers_user_id ON customers (user_id);

-- One row per Checkout Session. `user_id` is the signed-in buyer (client reference) or the
-- account the session created for a guest; guest purchases otherwise match by verified e-mail.
CREATE TABLE purchases (
  session_id TEXT PRIMARY KEY,         -- Stripe Checkout Session id (cs_...)
  customer_id TEXT,
  user_id TEXT,
  email TEXT,                          -- lower-cased e-mail typed at checkout (never verified by Stripe)
  price_id TEXT,
  plan TEXT,
  payment_intent_id TEXT,
  status TEXT NOT NULL CHECK (status IN ('open', 'paid', 'failed', 'revoked')),
  revoke_reason TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX purchases_user_id ON purchases (user_id);
CREATE INDEX purchases_email ON purchases (email);
CREATE INDEX purchases_payment_intent_id ON purchases (payment_intent_id);

-- Refunds and disputes by payment intent. Kept apart from purchases because Stripe may deliver
-- them before the purchase's own completion event: fulfilment consults this table.
CREATE TABLE payment_revocations (
  payment_intent_id TEXT PRIMARY KEY,
  reason TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

-- Every Stripe event id seen; `processed_at` is set once its handling has finished.
CREATE TABLE stripe_events (
  id TEXT PRIMARY KEY,
  type TEXT NOT NULL,
  received_at INTEGER NOT NULL,
  processed_at INTEGER
);

-- Accounts that a guest checkout created: only these may receive a sign-in token for that session.
CREATE TABLE checkout_accounts (
  session_id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL,
  email TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

-- Repository access, one GitHub account per purchase.
CREATE TABLE access_grants (
  session_id TEXT PRIMARY KEY REFERENCES purchases (session_id),
  user_id TEXT NOT NULL,
  github_username TEXT NOT NULL,
  github_user_id INTEGER,              -- GitHub's numeric id (null until GitHub answered the lookup)
  invitation_id INTEGER,
  status TEXT NOT NULL CHECK (status IN ('queued', 'pending', 'active', 'revoked', 'failed')),
  detail TEXT,                         -- why it failed or was revoked
  version INTEGER NOT NULL DEFAULT 1,  -- bumped on every change of account or status decision
  updated_at INTEGER NOT NULL
);
CREATE INDEX access_grants_user_id ON access_grants (user_id);

-- Outgoing work (GitHub calls, e-mails) kept until it succeeds or fails for good.
CREATE TABLE jobs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  key TEXT NOT NULL UNIQUE,            -- makes enqueueing idempotent: one welcome e-mail per purchase
  kind TEXT NOT NULL,
  payload TEXT NOT NULL,               -- JSON
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  run_after INTEGER NOT NULL,          -- also a lease: a claimed job is pushed into the future
  last_error TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX jobs_due ON jobs (status, run_after);

-- Leads from the waitlist form (docs: features/database).
CREATE TABLE leads (
  id TEXT PRIMARY KEY,                 -- uuid
  email TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL
);

-- Mailgun webhook tokens already accepted: each may be used once.
CREATE TABLE mailgun_tokens (
  token TEXT PRIMARY KEY,
  used_at INTEGER NOT NULL
);

-- Fixed-window request counters for the rate limits.
CREATE TABLE rate_limits (
  key TEXT NOT NULL,
  window_start INTEGER NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (key, window_start)
);
