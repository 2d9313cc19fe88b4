-- Whether a grant's GitHub account was chosen by the verified owner of the purchase's e-mail (or by
-- the seller), rather than by whoever else held the purchase: the checkout's creator, or a payer's
-- session. The owner may always take such a seat back, whatever the count of moves.
ALTER TABLE access_grants ADD COLUMN chosen_by_owner INTEGER NOT NULL DEFAULT 0;
