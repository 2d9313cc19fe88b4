-- A release the seller deleted or unpublished on GitHub after it was announced: kept (its e-mails'
-- record stays for the console), but no longer listed in What's new, marked latest or downloaded,
-- and its batches not yet sent are not sent.
ALTER TABLE releases ADD COLUMN withdrawn_at INTEGER;
