-- Moves data: each kit invitation waiting in invitation_queue, and each extra repository's grant waiting for the cap, into grants.waiting_at.
-- One queue for GitHub's daily cap (issue 40): a grant that waits for its repository's window of
-- invitations holds its place in line on its own row, `waiting_at`, whichever repository it is for.
-- The line is first come, first served per repository, by (waiting_at, id). A grant waits while it
-- is queued with a place; it keeps the place until it is invited or ends, and a grant queued again
-- after it ended (refunded, failed) starts at the back.
--
-- Nothing is lost: the kit's entries carry their time (invitation_queue.queued_at) to the purchase's
-- kit row while it is still queued, whichever of its versions the entry named (the old queue kept a
-- purchase's place across its later requests). An entry whose grant is no longer queued held no
-- place (the drain cleared such entries). An extra grant that waited for the cap said so in its
-- detail only; its place was its queued_at. Two entries queued in the same millisecond keep that
-- order only as far as their rows' ids agree with it.
-- The old table is kept under a new name, `invitation_queue_before_0029`, so that the worker
-- before this migration fails closed ("no such table") rather than queue where nobody reads. Going
-- back is a D1 Time Travel restore to before this migration together with that worker (docs:
-- Deployment, "Migrations, and going back"); a later migration drops the copy.
ALTER TABLE grants ADD COLUMN waiting_at INTEGER; -- its place in line for the repository's window of invitations

UPDATE grants SET waiting_at = (SELECT q.queued_at FROM invitation_queue q WHERE q.session_id = grants.session_id)
WHERE repository_key = 'kit' AND status = 'queued'
  AND EXISTS (SELECT 1 FROM invitation_queue q WHERE q.session_id = grants.session_id);

UPDATE grants SET waiting_at = COALESCE(queued_at, updated_at)
WHERE repository_key <> 'kit' AND status = 'queued'
  AND detail = 'Waiting for GitHub''s daily limit of invitations to this repository.';

CREATE INDEX grants_waiting ON grants (waiting_at, id) WHERE status = 'queued' AND waiting_at IS NOT NULL;

ALTER TABLE invitation_queue RENAME TO invitation_queue_before_0029;
