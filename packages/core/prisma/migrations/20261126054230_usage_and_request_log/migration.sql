-- CreateTable
CREATE TABLE "usage_daily" (
    "day" DATE NOT NULL,
    "organization_id" TEXT NOT NULL,
    "api_key_id" TEXT NOT NULL,
    "route_group" TEXT NOT NULL,
    "status_class" TEXT NOT NULL,
    "requests" BIGINT NOT NULL DEFAULT 0,
    "streamed_answers" BIGINT NOT NULL DEFAULT 0,
    "json_answers" BIGINT NOT NULL DEFAULT 0,
    "tokens_used" BIGINT NOT NULL DEFAULT 0,
    "upstream_errors" BIGINT NOT NULL DEFAULT 0,
    "rate_limited" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "usage_daily_pkey" PRIMARY KEY ("api_key_id","day","route_group","status_class")
);

-- CreateTable
CREATE TABLE "integration_usage_daily" (
    "day" DATE NOT NULL,
    "integration_id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "launches" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "integration_usage_daily_pkey" PRIMARY KEY ("integration_id","day")
);

-- CreateTable
CREATE TABLE "integration_active_users" (
    "day" DATE NOT NULL,
    "integration_id" TEXT NOT NULL,
    "partner_user_id" TEXT NOT NULL,

    CONSTRAINT "integration_active_users_pkey" PRIMARY KEY ("integration_id","day","partner_user_id")
);

-- CreateTable
CREATE TABLE "request_log" (
    "request_id" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "organization_id" TEXT,
    "api_key_id" TEXT,
    "method" TEXT NOT NULL,
    "route" TEXT NOT NULL,
    "route_group" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "latency_ms" INTEGER NOT NULL,
    "error_code" TEXT,
    "streamed" BOOLEAN NOT NULL DEFAULT false,
    "resource_id" TEXT,

    CONSTRAINT "request_log_pkey" PRIMARY KEY ("request_id")
);

-- CreateIndex
CREATE INDEX "usage_daily_organization_id_day_idx" ON "usage_daily"("organization_id", "day");

-- CreateIndex
CREATE INDEX "usage_daily_day_idx" ON "usage_daily"("day");

-- CreateIndex
CREATE INDEX "integration_usage_daily_organization_id_day_idx" ON "integration_usage_daily"("organization_id", "day");

-- CreateIndex
CREATE INDEX "integration_usage_daily_day_idx" ON "integration_usage_daily"("day");

-- CreateIndex
CREATE INDEX "integration_active_users_day_idx" ON "integration_active_users"("day");

-- CreateIndex
CREATE INDEX "request_log_organization_id_at_idx" ON "request_log"("organization_id", "at");

-- CreateIndex
CREATE INDEX "request_log_api_key_id_at_idx" ON "request_log"("api_key_id", "at");

-- CreateIndex
CREATE INDEX "request_log_at_idx" ON "request_log"("at");


-- Foreign keys (kept out of schema.prisma so the existing models need no back-relations):
-- usage and log rows go with their organization, key, integration or partner user.
ALTER TABLE "usage_daily" ADD CONSTRAINT "usage_daily_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "usage_daily" ADD CONSTRAINT "usage_daily_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "integration_usage_daily" ADD CONSTRAINT "integration_usage_daily_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "integration_usage_daily" ADD CONSTRAINT "integration_usage_daily_integration_id_fkey" FOREIGN KEY ("integration_id") REFERENCES "integrations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "integration_active_users" ADD CONSTRAINT "integration_active_users_integration_id_fkey" FOREIGN KEY ("integration_id") REFERENCES "integrations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "integration_active_users" ADD CONSTRAINT "integration_active_users_partner_user_id_fkey" FOREIGN KEY ("partner_user_id") REFERENCES "partner_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "request_log" ADD CONSTRAINT "request_log_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "request_log" ADD CONSTRAINT "request_log_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Closed values: USAGE_STATUS_CLASSES (src/usage/usage-values.ts).
ALTER TABLE "usage_daily" ADD CONSTRAINT "usage_daily_status_class_check" CHECK ("status_class" IN ('2xx', '3xx', '4xx', '5xx'));
