-- The affiliate programme (issue 43): affiliates, the visits their links brought, the commission
-- their referred purchases earned, and the payouts the seller marked.
-- - `affiliates`: one per account that joined, with the code of its link (lower-case, unique) and
--   the visits counted since it joined (`clicks`: kept here, as old visits are purged).
-- - `affiliate_visits`: a visit through a link, once per visitor and day. Its id is the referral
--   the visitor's browser keeps and sends with its checkout. `visitor` is a hash of the day's salt,
--   the address and the browser: with the salt purged after its day, it names nobody.
-- - `affiliate_salts`: the day's random salt of those hashes, purged once the day is over.
-- - `commissions`: one per purchase a referral brought, credited when it is paid: what the buyer
--   paid after discounts and before tax (`base`), the rate then, and the commission. Where it
--   stands (pending, payable, paid, cancelled) is read from its purchase and its payout, never kept.
-- - `affiliate_payouts`: a payment the seller made to an affiliate, by their own means.
-- - `purchases.card_fingerprint`: Stripe's fingerprint of the card that paid, read only to refuse
--   an affiliate's commission on a purchase paid with their own card.
--
-- Only adds. Going back: the worker before it reads none of it; its checkout credits no referral,
-- and commissions already credited wait in D1 for the worker that reads them.
CREATE TABLE affiliates (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL UNIQUE,
  email TEXT NOT NULL,
  code TEXT NOT NULL UNIQUE CHECK (code = lower(code)),
  clicks INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
-- The console's newest first.
CREATE INDEX affiliates_created_at ON affiliates (created_at);

CREATE TABLE affiliate_visits (
  id TEXT PRIMARY KEY,
  affiliate_id TEXT NOT NULL,
  visitor TEXT NOT NULL,
  -- The UTC day, YYYY-MM-DD: a visitor counts once a day per affiliate.
  day TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (affiliate_id, visitor, day)
);
-- Retention purges visits past the referral period.
CREATE INDEX affiliate_visits_created_at ON affiliate_visits (created_at);

CREATE TABLE affiliate_salts (
  day TEXT PRIMARY KEY,
  salt TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

CREATE TABLE commissions (
  session_id TEXT PRIMARY KEY,
  affiliate_id TEXT NOT NULL,
  visit_id TEXT,
  base INTEGER NOT NULL CHECK (base >= 0),
  currency TEXT NOT NULL,
  rate_percent INTEGER NOT NULL,
  commission INTEGER NOT NULL CHECK (commission >= 0),
  paid_at INTEGER NOT NULL,
  payable_at INTEGER NOT NULL,
  -- The payout that paid it, and what it paid (the commission less any refund at the time).
  payout_id TEXT,
  paid_amount INTEGER,
  created_at INTEGER NOT NULL
);
-- An affiliate's commissions, newest first (their page, the console, a payout).
CREATE INDEX commissions_affiliate ON commissions (affiliate_id, paid_at);
CREATE INDEX commissions_paid_at ON commissions (paid_at);

CREATE TABLE affiliate_payouts (
  id TEXT PRIMARY KEY,
  affiliate_id TEXT NOT NULL,
  amount INTEGER NOT NULL CHECK (amount >= 1),
  currency TEXT NOT NULL,
  reference TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  created_by TEXT NOT NULL
);
-- An affiliate's last payout.
CREATE INDEX affiliate_payouts_affiliate ON affiliate_payouts (affiliate_id, created_at);

ALTER TABLE purchases ADD COLUMN card_fingerprint TEXT;
CREATE INDEX purchases_card_fingerprint ON purchases (card_fingerprint) WHERE card_fingerprint IS NOT NULL;
