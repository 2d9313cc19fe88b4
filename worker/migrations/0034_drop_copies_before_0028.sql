-- Moves data: drops the copies 0028 and 0029 kept of the old access tables (access_grants_before_0028, extra_grants_before_0028, invitation_queue_before_0029); their rows have been in grants since.
-- One access model (issue 40), its last step: 0028 moved every row of access_grants and
-- extra_grants into grants, and 0029 every place in line of invitation_queue into grants.waiting_at,
-- each checking that nothing was left behind, and kept the old tables under new names. No worker
-- since reads them, and they stopped changing at those migrations. The worker before 0028 still
-- fails closed ("no such table: access_grants"): it never read the copies.
-- Going back past this migration: a D1 Time Travel restore to before it (docs: Deployment,
-- "Migrations, and going back") brings the copies back; the worker after 0028 runs without them,
-- so a rollback of the worker alone needs no restore.
DROP TABLE IF EXISTS access_grants_before_0028;
DROP TABLE IF EXISTS extra_grants_before_0028;
DROP TABLE IF EXISTS invitation_queue_before_0029;
