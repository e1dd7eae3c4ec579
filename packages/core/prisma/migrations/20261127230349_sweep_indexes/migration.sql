-- Statements whose cost grew with a table that grows with traffic, not with what they return,
-- found by reading every statement against the indexes (docs/architecture.md, "Database access").

-- The periodic sweep (every 5 minutes, on every instance) expires the verification links not
-- used in time: it read all of lifecycle_operations. Partial: only the links still pending.
CREATE INDEX "lifecycle_operations_verification_expiry_idx" ON "lifecycle_operations"("verification_expires_at")
  WHERE "status" = 'verification_pending';

-- The same sweep asks which keys were already announced as expiring: it read 30 days of every
-- organization's events.
CREATE INDEX "events_key_expiring_idx" ON "events"(((data->'key'->>'id')))
  WHERE "type" = 'key.expiring_soon';

-- An organization's deletion cascades from each of its users to its active-user days: without
-- an index, one scan of the whole table per user.
CREATE INDEX "integration_active_users_partner_user_id_idx" ON "integration_active_users"("partner_user_id");
