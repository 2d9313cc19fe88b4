-- Who is sending a queued grant's invitation right now: the cron's drain, the outbox and a buyer's
-- dashboard read may all reach the same queued grant at once. The one whose UPDATE sets this sends;
-- the others wait for the outcome. Cleared when the attempt ends; a claim older than two minutes
-- (a worker that died mid-send) no longer holds.
ALTER TABLE access_grants ADD COLUMN sending_at INTEGER;
