-- The `q` search's trigram index takes new entries into a pending list again, now capped at
-- 256 kB instead of GIN's 4 MB (docs/architecture.md, "Directory at scale"). Without a pending
-- list (20261127180000_user_search_without_pending_list) every insert and every update that is
-- not HOT went into the tree one entry at a time: an import of 1,000 users took 2.8-2.9 s
-- instead of 2.1-2.2 s. A search reads at most 32 pages of pending entries (0.5-0.7 ms more, at
-- 100,000 users), against 588 pages (17-22 ms) under the 4 MB default.
ALTER INDEX "partner_users_external_user_id_trgm_idx" SET (fastupdate = on, gin_pending_list_limit = 256);
