-- Who holds an address in an integration (one-user-per-email.ts) is asked by every PUT user and
-- for each row of an import. Neither of its two lookups had an index: in an integration of
-- 100,000 users one ask read all of them (about 90 ms), and an import of 1,000 users into it
-- took 90 s instead of 2.
CREATE INDEX "partner_users_integration_id_email_idx" ON "partner_users"("integration_id", "email");

-- The profile changes in progress that give an address. Partial, so the index holds only the
-- few operations in flight, not every operation ever run (Prisma cannot express it).
CREATE INDEX "lifecycle_operations_email_change_idx" ON "lifecycle_operations"("integration_id", "requested_email")
  WHERE "type" = 'profile_change' AND "status" = 'processing';
