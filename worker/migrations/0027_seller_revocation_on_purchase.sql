-- Moves data: the seller's revocations are copied from access_grants.revoked_by_seller to purchases.revoked_by_seller_at.
-- The seller's "Revoke access" ends the purchase's right to the code however it is delivered:
-- invitations, downloads, and download links already made (access/sellerRevocation.ts). 0024 kept it
-- on the GitHub grant, so a purchase that only ever downloaded (no grant row) could not be revoked.
-- It is the purchase's now: when the seller revoked it (Unix ms), NULL while it is not revoked.
--
-- Expand and migrate: the revocations 0024 recorded are copied here, with the time of the grant's
-- last change (its revocation). access_grants.revoked_by_seller stays and is still written in step
-- with a grant's own revocation, so that the worker before this migration can be deployed again
-- (docs: Deployment, "Migrations and going back"); a later migration drops it.
ALTER TABLE purchases ADD COLUMN revoked_by_seller_at INTEGER;
UPDATE purchases
SET revoked_by_seller_at = (SELECT g.updated_at FROM access_grants g WHERE g.session_id = purchases.session_id)
WHERE session_id IN (SELECT session_id FROM access_grants WHERE revoked_by_seller = 1);
