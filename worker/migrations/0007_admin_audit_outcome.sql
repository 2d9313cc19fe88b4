-- Every admin action is written down whatever its outcome: `failed` rows say what went wrong and
-- what had changed by then, so nothing done in the seller's name goes unrecorded.
ALTER TABLE admin_audit ADD COLUMN outcome TEXT NOT NULL DEFAULT 'done' CHECK (outcome IN ('done', 'failed'));
