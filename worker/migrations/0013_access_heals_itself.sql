-- Moves data: access_grants.invited_at is filled in for the pending grants, from their last change.
-- Access that heals itself (issue 25).
-- When the grant's current invitation was sent: GitHub expires an invitation 7 days after it was
-- sent, so the cron sends one again shortly before (access/expiryResends.ts). Pending grants of
-- before this migration take the time they were last changed, which is when they were invited.
ALTER TABLE access_grants ADD COLUMN invited_at INTEGER;
UPDATE access_grants SET invited_at = updated_at WHERE status = 'pending';
-- How many times the cron sent this account's invitation again because it was about to expire or
-- had expired: at most appConfig.repository.resendsAfterExpiry. A new account starts again at 0.
ALTER TABLE access_grants ADD COLUMN expiry_resends INTEGER NOT NULL DEFAULT 0;
-- 1 when this grant version's invitation is such a re-send: its e-mail to the buyer says so.
ALTER TABLE access_grants ADD COLUMN resent_after_expiry INTEGER NOT NULL DEFAULT 0;
CREATE INDEX access_grants_invited_at ON access_grants (status, invited_at);

-- When each step of the cron that runs less often than the cron itself is due next (the
-- repository audit runs daily on the */5 cron), and whether the last run left work for the next
-- (`continuing`: the next run carries on without a new digest).
CREATE TABLE scheduled_runs (
  name TEXT PRIMARY KEY,
  next_run_at INTEGER NOT NULL,
  continuing INTEGER NOT NULL DEFAULT 0
);
