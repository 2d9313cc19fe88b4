-- Fair prices for upgrades: an upgrade sold at its purchase's fair-price percent is its own payment,
-- checked as a purchase is (payments/cardCountry.ts): the country and percent it was given for, the
-- country of the card that paid it ('' when it was no card), and the seller's review ('flagged'
-- until accepted, audited, or refunded). While the purchase or one of its upgrades is flagged, a
-- further upgrade is priced without the discount.
ALTER TABLE upgrades ADD COLUMN fair_price_country TEXT;
ALTER TABLE upgrades ADD COLUMN fair_price_percent INTEGER;
ALTER TABLE upgrades ADD COLUMN card_country TEXT;
ALTER TABLE upgrades ADD COLUMN country_review TEXT;
CREATE INDEX upgrades_country_flagged ON upgrades (purchase_session_id) WHERE country_review = 'flagged';
