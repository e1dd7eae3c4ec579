-- Closed value sets enforced by the database (issue 13): every column holding one gets a CHECK
-- constraint listing exactly the values of its `as const` list in packages/core/src (named in
-- schema.prisma beside the column; test/db/closed-values.test.ts keeps them equal). Written by
-- hand: Prisma does not know CHECK constraints. CHECK rather than enum types, see
-- docs/architecture.md "Closed value sets". NULL passes a CHECK, so nullable columns stay nullable.

-- api_keys.status was the one enum type: it becomes text with the same values, keeping its rows
-- (Prisma's own diff would drop and re-add the column, resetting every revoked key to active).
ALTER TABLE "api_keys" ALTER COLUMN "status" DROP DEFAULT;
ALTER TABLE "api_keys" ALTER COLUMN "status" TYPE TEXT USING "status"::text;
ALTER TABLE "api_keys" ALTER COLUMN "status" SET DEFAULT 'active';
DROP TYPE "ApiKeyStatus";

-- KEY_STATUSES
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_status_check" CHECK ("status" IN ('active', 'revoked'));
-- MESSAGE_ROLES, MESSAGE_STATUSES
ALTER TABLE "messages" ADD CONSTRAINT "messages_role_check" CHECK ("role" IN ('user', 'assistant'));
ALTER TABLE "messages" ADD CONSTRAINT "messages_status_check" CHECK ("status" IN ('complete', 'incomplete'));
-- INTEGRATION_STATUSES
ALTER TABLE "integrations" ADD CONSTRAINT "integrations_status_check" CHECK ("status" IN ('active', 'disabled'));
-- TEAM_STATUSES
ALTER TABLE "partner_teams" ADD CONSTRAINT "partner_teams_status_check" CHECK ("status" IN ('active', 'archived'));
-- USER_STATUSES, PROVISIONING_STATUSES, SYNC_STATUSES, MAPPING_STATUSES, IDENTITY_ORIGINS, EXPERIENCE_TYPES
ALTER TABLE "partner_users" ADD CONSTRAINT "partner_users_status_check" CHECK ("status" IN ('active', 'disabled', 'deleted'));
ALTER TABLE "partner_users" ADD CONSTRAINT "partner_users_provisioning_status_check" CHECK ("provisioning_status" IN ('pending', 'active', 'failed'));
ALTER TABLE "partner_users" ADD CONSTRAINT "partner_users_profile_sync_status_check" CHECK ("profile_sync_status" IN ('applied', 'pending', 'failed'));
ALTER TABLE "partner_users" ADD CONSTRAINT "partner_users_wordpress_sync_status_check" CHECK ("wordpress_sync_status" IN ('applied', 'pending', 'failed'));
ALTER TABLE "partner_users" ADD CONSTRAINT "partner_users_mapping_status_check" CHECK ("mapping_status" IN ('pending', 'mapped', 'failed', 'unmapped'));
ALTER TABLE "partner_users" ADD CONSTRAINT "partner_users_identity_origin_check" CHECK ("identity_origin" IN ('existing_mg', 'partner_created'));
ALTER TABLE "partner_users" ADD CONSTRAINT "partner_users_experience_type_check" CHECK ("experience_type" IN ('mg', 'white_label'));
-- OPERATION_TYPES, OPERATION_STATUSES, OPERATION_AUTHORITIES
ALTER TABLE "lifecycle_operations" ADD CONSTRAINT "lifecycle_operations_type_check" CHECK ("type" IN ('profile_change', 'deletion', 'reprovision'));
ALTER TABLE "lifecycle_operations" ADD CONSTRAINT "lifecycle_operations_status_check" CHECK ("status" IN ('queued', 'verification_pending', 'processing', 'completed', 'failed', 'expired', 'cancelled'));
ALTER TABLE "lifecycle_operations" ADD CONSTRAINT "lifecycle_operations_authorized_by_check" CHECK ("authorized_by" IN ('verification', 'staff_override'));
-- IMPORT_STATUSES, IMPORT_ROW_OUTCOMES
ALTER TABLE "import_jobs" ADD CONSTRAINT "import_jobs_status_check" CHECK ("status" IN ('queued', 'processing', 'completed', 'failed'));
ALTER TABLE "import_job_rows" ADD CONSTRAINT "import_job_rows_outcome_check" CHECK ("outcome" IN ('created', 'existing', 'pending', 'failed'));
-- STAFF_ROLES
ALTER TABLE "staff_accounts" ADD CONSTRAINT "staff_accounts_role_check" CHECK ("role" IN ('viewer', 'admin'));
ALTER TABLE "staff_invites" ADD CONSTRAINT "staff_invites_role_check" CHECK ("role" IN ('viewer', 'admin'));
