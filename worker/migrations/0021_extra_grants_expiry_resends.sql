-- Extra-repository invitations heal themselves on expiry, as the kit's do (0013).
-- How many times the cron sent this grant's invitation again because it was about to expire or had
-- expired (access/extraExpiryResends.ts): at most appConfig.repository.resendsAfterExpiry. A grant
-- made again (for another account, after a refund and a new payment) starts again at 0.
ALTER TABLE extra_grants ADD COLUMN expiry_resends INTEGER NOT NULL DEFAULT 0;
-- The cron's question: pending grants by when their invitation was sent.
CREATE INDEX extra_grants_invited_at ON extra_grants (status, invited_at);
