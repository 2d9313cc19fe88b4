-- Fair prices worldwide: a purchase made with a country discount keeps the country and the percent
-- it was given for, and the country of the card that paid (Stripe's latest charge; '' when the
-- payment was no card). A card from another country flags the purchase for the seller
-- (`country_review` 'flagged'), who accepts it ('accepted', audited) or refunds it.
ALTER TABLE purchases ADD COLUMN fair_price_country TEXT;
ALTER TABLE purchases ADD COLUMN fair_price_percent INTEGER;
ALTER TABLE purchases ADD COLUMN card_country TEXT;
ALTER TABLE purchases ADD COLUMN country_review TEXT;
CREATE INDEX purchases_country_flagged ON purchases (created_at) WHERE country_review = 'flagged';
