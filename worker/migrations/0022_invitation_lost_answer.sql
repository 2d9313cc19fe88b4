-- An invitation GitHub created whose answer was lost (a 502, a timeout) is this worker's own.
-- When the worker last asked GitHub to invite the grant's account (ms), set just before the PUT and
-- cleared once its invitation is recorded. A later send that finds an open invitation for the same
-- numeric account, created within minutes of this attempt, adopts it (access/lostAnswer.ts) rather
-- than refuse it as one this worker did not send; with no attempt recorded it is refused, as before.
ALTER TABLE access_grants ADD COLUMN invite_attempted_at INTEGER;
ALTER TABLE extra_grants ADD COLUMN invite_attempted_at INTEGER;
