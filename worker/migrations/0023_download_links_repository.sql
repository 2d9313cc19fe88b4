-- Downloads of a plan's extra repositories (access/download.ts), besides the kit's.
-- The key in src/config's `extraRepositories` a link is for; NULL for the kit. The link's use checks
-- again that the purchase is paid and that its plan now (an upgrade refunded since) still grants it.
ALTER TABLE download_links ADD COLUMN repository_key TEXT;
