-- AlterTable
ALTER TABLE "partner_users" ADD COLUMN     "launch_announced" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "events" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "integration_id" TEXT,
    "type" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "ordering_key" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dispatched_at" TIMESTAMPTZ(3),

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_endpoints" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "integration_id" TEXT,
    "url" TEXT NOT NULL,
    "event_types" TEXT[],
    "description" TEXT,
    "secret_sealed" TEXT NOT NULL,
    "previous_secret_sealed" TEXT,
    "previous_secret_expires_at" TIMESTAMPTZ(3),
    "status" TEXT NOT NULL DEFAULT 'enabled',
    "disabled_reason" TEXT,
    "failing_since" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "event_created_at" TIMESTAMPTZ(3) NOT NULL,
    "ordering_key" TEXT,
    "payload" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "window_started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "next_attempt_at" TIMESTAMPTZ(3),
    "locked_until" TIMESTAMPTZ(3),
    "last_attempt_at" TIMESTAMPTZ(3),
    "last_status_code" INTEGER,
    "last_latency_ms" INTEGER,
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "events_organization_id_created_at_id_idx" ON "events"("organization_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "events_created_at_idx" ON "events"("created_at");

-- CreateIndex
CREATE INDEX "webhook_endpoints_organization_id_idx" ON "webhook_endpoints"("organization_id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_endpoint_id_created_at_id_idx" ON "webhook_deliveries"("endpoint_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_endpoint_id_ordering_key_event_created_a_idx" ON "webhook_deliveries"("endpoint_id", "ordering_key", "event_created_at", "event_id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_created_at_idx" ON "webhook_deliveries"("created_at");


-- Written by hand (Prisma knows neither CHECK constraints nor partial indexes); the lists are
-- EVENT_TYPES, WEBHOOK_ENDPOINT_STATUSES and WEBHOOK_DELIVERY_STATUSES in src/webhooks.
ALTER TABLE "events" ADD CONSTRAINT "events_type_check" CHECK ("type" IN ('operation.completed', 'operation.failed', 'import.completed', 'user.disabled', 'user.reactivated', 'user.deleted', 'user.provisioning_failed', 'user.launch_eligibility_changed', 'key.expiring_soon'));
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_event_types_check" CHECK ("event_types" <@ ARRAY['operation.completed', 'operation.failed', 'import.completed', 'user.disabled', 'user.reactivated', 'user.deleted', 'user.provisioning_failed', 'user.launch_eligibility_changed', 'key.expiring_soon']::text[]);
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_status_check" CHECK ("status" IN ('enabled', 'disabled'));
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_status_check" CHECK ("status" IN ('pending', 'succeeded', 'failed'));

-- An organization's (or integration's) deletion takes its events, endpoints and deliveries with it.
ALTER TABLE "events" ADD CONSTRAINT "events_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_integration_id_fkey" FOREIGN KEY ("integration_id") REFERENCES "integrations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The worker's fan-out reads only events not yet dispatched.
CREATE INDEX "events_undispatched_idx" ON "events" ("created_at", "id") WHERE "dispatched_at" IS NULL;

-- Users who can launch today start as announced, so their first change is the one reported.
UPDATE "partner_users" SET "launch_announced" = ("status" = 'active' AND "provisioning_status" = 'active' AND "profile_sync_status" = 'applied'
  AND "wordpress_sync_status" = 'applied' AND "site_account_id" IS NOT NULL AND "mapping_status" = 'mapped' AND "chat_identity_id" IS NOT NULL);
