-- AlterTable
ALTER TABLE "conversations" ADD COLUMN     "account_generation" INTEGER,
ADD COLUMN     "launch_id" TEXT,
ADD COLUMN     "partner_user_id" TEXT;

-- CreateIndex
CREATE INDEX "conversations_partner_user_id_account_generation_idx" ON "conversations"("partner_user_id", "account_generation");

