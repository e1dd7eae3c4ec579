-- The `q` search's trigram index takes new entries straight into its tree. With GIN's default
-- fast update they wait in a pending list that every search reads whole until a vacuum merges
-- it: after a bulk import of 100,000 users a search read 588 pages and took 17-22 ms, 1.7 ms
-- once vacuumed (docs/architecture.md, "Directory at scale").
ALTER INDEX "partner_users_external_user_id_trgm_idx" SET (fastupdate = off);
-- Turning it off keeps what is already pending: merged now, not at the next vacuum.
SELECT gin_clean_pending_list('partner_users_external_user_id_trgm_idx'::regclass);
