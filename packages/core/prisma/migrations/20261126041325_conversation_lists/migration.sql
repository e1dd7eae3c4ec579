-- CreateIndex
CREATE INDEX "conversations_api_key_id_external_user_id_updated_at_id_idx" ON "conversations"("api_key_id", "external_user_id", "updated_at", "id");

