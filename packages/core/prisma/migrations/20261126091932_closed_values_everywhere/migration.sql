-- Written by hand: Prisma does not know CHECK constraints, so `migration:diff` finds the schema
-- unchanged (the columns are annotated in schema.prisma). Each list equals its `as const` list
-- in core (test/db/closed-values.test.ts keeps the two equal).

-- SCOPES (src/keys/scopes.ts): every element of a key's scopes is one.
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_scopes_check" CHECK ("scopes" <@ ARRAY['chat:read', 'chat:write', 'sources:read', 'embed:users:read', 'embed:users:write', 'embed:users:delete', 'embed:teams:read', 'embed:teams:write', 'embed:launch']::text[]);

-- IDEMPOTENCY_STATES (src/idempotency/idempotency-values.ts).
ALTER TABLE "idempotency_records" ADD CONSTRAINT "idempotency_records_state_check" CHECK ("state" IN ('in_progress', 'completed'));

-- SITE_ACCOUNT_ORIGINS and NOTIFICATION_KINDS (src/partners/ports/site-account-values.ts).
ALTER TABLE "site_accounts" ADD CONSTRAINT "site_accounts_origin_check" CHECK ("origin" IN ('self', 'partner'));
ALTER TABLE "notification_outbox" ADD CONSTRAINT "notification_outbox_kind_check" CHECK ("kind" IN ('password_setup', 'email_verification'));
