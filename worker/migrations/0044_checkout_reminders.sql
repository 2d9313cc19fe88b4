-- Abandoned checkouts won back (issue 43): the one reminder an address gets, and the purchase a
-- recovered checkout made.
-- - `checkout_reminders`: a purchase's Checkout Session that expired unpaid, whose buyer ticked
--   Checkout's box for offers, with the recovery link Stripe made for it. One row an address, ever
--   (`email` is unique): a second abandoned checkout of the same address gets no reminder.
--   `status`: queued until `send_after`, then sent, skipped with its reason (unsubscribed, bought
--   since, the link expired, its price no longer sold), or failed (the outbox gave up). Once it is
--   no longer queued, the link and the amount are cleared: only the address stays.
-- - `purchases.recovered_from`: the expired session a paid one was recovered from (Stripe's
--   `recovered_from`): what the console counts as checkouts won back.
--
-- Only adds. Going back: the worker before it reads neither, and sends no reminder.
CREATE TABLE checkout_reminders (
  session_id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  -- The plan as the buyer read it, and what the checkout asked (cents), for the e-mail's words.
  plan TEXT,
  price_id TEXT NOT NULL,
  amount INTEGER,
  currency TEXT,
  -- When the checkout began (the session's created): a purchase paid since then means no reminder.
  started_at INTEGER NOT NULL,
  recovery_url TEXT,
  recovery_expires_at INTEGER NOT NULL,
  unsubscribe_url TEXT NOT NULL,
  expired_at INTEGER NOT NULL,
  send_after INTEGER NOT NULL,
  status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'skipped', 'failed')),
  skip_reason TEXT CHECK (skip_reason IN ('unsubscribed', 'bought', 'link_expired', 'price_gone')),
  sent_at INTEGER,
  created_at INTEGER NOT NULL
);
-- The console counts the reminders sent in a period.
CREATE INDEX checkout_reminders_sent_at ON checkout_reminders (sent_at) WHERE sent_at IS NOT NULL;

ALTER TABLE purchases ADD COLUMN recovered_from TEXT;
CREATE INDEX purchases_recovered_from ON purchases (recovered_from) WHERE recovered_from IS NOT NULL;
