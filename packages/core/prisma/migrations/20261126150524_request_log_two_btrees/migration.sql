-- DropIndex
DROP INDEX "request_log_api_key_id_at_idx";

-- DropIndex
DROP INDEX "request_log_at_idx";

-- CreateIndex
CREATE INDEX "request_log_at_idx" ON "request_log" USING BRIN ("at");

