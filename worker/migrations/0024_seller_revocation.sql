-- The seller's "Revoke access" in the console lasts (access/seat.ts): 1 on a grant the seller
-- revoked. Until the seller grants access again, the buyer cannot ask for the seat back (403
-- ACCESS_REVOKED), a dispute won does not restore it, and the code cannot be downloaded. A
-- revocation for a refund or a dispute leaves it 0: the purchase's status already says so.
ALTER TABLE access_grants ADD COLUMN revoked_by_seller INTEGER NOT NULL DEFAULT 0;
